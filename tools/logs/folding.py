"""Folding a log that may be unsound: the state fold trusts its input, the tools must not.

``evolve`` raises ``ProjectionError`` for an event that cannot apply, but on some unsound logs it fails on a
plain lookup first (a card that was never created, a player index out of range). ``apply`` turns both into
:class:`Inconsistent`, located at the record, so a replay or an audit can report it as a finding.

A log whose every record applies may still describe a board no game can be in: :class:`CheckedFold` checks
the board invariants of the log's game (``projections.invariants``) where each decision begins and at the
end, and :func:`located` finds the record after which the broken one first failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.records import RawRecord
from eventsource.upcast import decode_body
from projections.invariants import KERNEL, Breach, Guard, ImpossibleBoard, Invariant
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


def board_invariants(game: str) -> Sequence[Invariant]:
    """The invariants of a possible board of ``game`` (the profile a log names); the kernel's for a game kifu
    does not know."""
    from statemachine.games import UnknownProfile, profile_class

    try:
        return profile_class(game).invariants()
    except UnknownProfile:
        return KERNEL


class CheckedFold:
    """A log folded record by record, its board checked where the rules waited (``projections.invariants``)."""

    def __init__(self) -> None:
        self.state = GameState()
        self.guard = Guard(board_invariants)

    def apply(self, raw: RawRecord) -> None:
        """Fold one record; raises ``Inconsistent``, or ``ImpossibleBoard`` for the board the decision before
        it ended on."""
        self.guard.before(self.state, raw.decision)
        apply(self.state, raw.seq, decode_body(raw.v, raw.body), raw.decision)

    def finish(self) -> None:
        self.guard.finish(self.state)


def located(records: Iterable[RawRecord], impossible: ImpossibleBoard, decision: int) -> int:
    """The record of ``decision`` (which ended at ``impossible.seq``) after which its breach held on to the
    decision's end: where an edit made the board impossible, rather than where the rules next waited."""
    breach: Breach = impossible.breach
    state = GameState()
    check: Invariant | None = None
    onset: int | None = None
    for raw in records:
        if raw.seq >= impossible.seq:
            break
        apply(state, raw.seq, decode_body(raw.v, raw.body), raw.decision)
        if raw.decision != decision:
            continue
        if check is None:
            check = next((i for i in board_invariants(state.profile) if i.name == breach.invariant), None)
            if check is None:
                break
        held = any(b.key == breach.key for b in check.breaches(state))
        onset = (onset or raw.seq) if held else None
    return onset or impossible.seq
