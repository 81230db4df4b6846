"""Which seat a ``--player P`` (or a trace's player filter) means: P is a seat number or a player's name.

A seat number wins: ``--player 1`` is seat 1 even in a log where another seat is *named* "1" (such a log was
recorded before new games refused duplicate names; that seat is reached by its own number). A name is looked up
only when P is not a seat number of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from tools.errors import BadInput


def seat_of(names: Sequence[str], wanted: str) -> int:
    """The seat ``wanted`` names (a number below ``len(names)``, else a name); BadInput naming the players."""
    if wanted.isdecimal() and int(wanted) < len(names):
        return int(wanted)
    if wanted in names:
        return list(names).index(wanted)
    known = ", ".join(f"{n} ({i})" for i, n in enumerate(names)) or "none recorded"
    raise BadInput(f"no player {wanted!r} in this game; players: {known}")
