"""Folding a log that may be unsound: the state fold trusts its input, the tools must not.

``evolve`` raises ``ProjectionError`` for an event that cannot apply, but on some unsound logs it fails on a
plain lookup first (a card that was never created, a player index out of range). ``apply`` turns both into
:class:`Inconsistent`, located at the record, so a replay or an audit can report it as a finding.
"""

from __future__ import annotations

from eventsource import events as ev
from eventsource.errors import KifuError
from projections.state import GameState, ProjectionError, evolve


class Inconsistent(KifuError):
    """The record at ``seq`` cannot apply to the state before it."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"record {seq} cannot apply to the state before it: {reason}")
        self.seq = seq
        self.reason = reason


def apply(state: GameState, seq: int, event: ev.Event, decision: int = 0) -> None:
    try:
        evolve(state, seq, event, decision)
    except ProjectionError as exc:
        prefix = f"record {exc.seq}: "
        text = str(exc)
        raise Inconsistent(exc.seq, text[len(prefix) :] if text.startswith(prefix) else text) from exc
    except (KeyError, IndexError, ValueError) as exc:
        raise Inconsistent(seq, f"{ev.kind_of(event)} refers to something not in the game ({exc!r})") from exc
