"""Moving through a log and searching it: steps by event, decision or turn; the next or previous record where a
condition holds; a value at every record where it changed.

Every search folds the log record by record from the nearest state the log can give (a snapshot, then the records
after it), so what it finds is exactly what the fold says at each record — the same answer ``kifu at`` gives
there. A backward search folds forward over windows of ``SPAN`` records, from the window before the point back to
the first record, and takes the last match of the first window that has one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, Literal

from eventsource import events as ev
from eventsource.records import Record
from projections.state import GameState, evolve, fork
from projections.views import redact_event
from statemachine.games import hidden_zones
from tools.debug.expressions import Condition, Value, ValueExpr
from tools.travel.points import SPAN
from tools.travel.streamed import PointLog

Unit = Literal["event", "decision", "turn"]
Direction = Literal["next", "prev"]
UNITS: Final = ("event", "decision", "turn")
STEP_SPAN: Final = 16  # records a step reads first (a decision is a few records away; a turn, more: it reads on)


def _starts(rec: Record, unit: Unit) -> bool:
    """Whether record ``rec`` begins a unit: a decision (the player's ``ChoiceMade``) or a turn."""
    if unit == "decision":
        return isinstance(rec.event, ev.ChoiceMade)
    return isinstance(rec.event, ev.TurnBegan)


def step(log: PointLog, at: int, unit: Unit, direction: Direction) -> int:
    """The point one ``unit`` away from point ``at``: the next/previous record (event), the point just before the
    next/previous decision (where the player is asked: the state the player decided in) or the record that
    begins the next/previous turn. Stays at the log's ends."""
    if unit == "event":
        return min(log.last, at + 1) if direction == "next" else max(0, at - 1)
    if direction == "next":
        for rec in log.forward(at + 1, first=STEP_SPAN):
            if _starts(rec, unit):
                point = rec.seq - 1 if unit == "decision" else rec.seq
                if point > at:
                    return point
        return log.last
    for rec in log.backward(at if unit == "decision" else at - 1, first=STEP_SPAN):
        if _starts(rec, unit):
            point = rec.seq - 1 if unit == "decision" else rec.seq
            if point < at:
                return point
    return 0


@dataclass(frozen=True)
class Match:
    seq: int
    before: tuple[Value, ...]
    after: tuple[Value, ...]


@dataclass(frozen=True)
class Progress:
    """How far a search has folded: record ``seq`` (searches yield one every ``SPAN`` records)."""

    seq: int


def _fold_window(log: PointLog, start: int, stop: int, cond: Condition, viewer: int | None
                 ) -> Iterator[Match | Progress]:
    """Matches of ``cond`` at records ``start..stop``, folding from the state after ``start - 1``."""
    state = fork(log.state_at(start - 1))
    values = cond.values
    hidden = hidden_zones(state.profile)
    for rec in log.forward(start, stop):
        seq = rec.seq
        before = tuple(v.read(state, viewer) for v in values)
        seen = rec.event if viewer is None else redact_event(rec.event, viewer, state, hidden=hidden)
        evolve(state, rec.seq, rec.event, rec.decision)
        after = tuple(v.read(state, viewer) for v in values)
        if cond.holds(seen, before, after, seq=seq):
            yield Match(seq, before, after)
        if seq % SPAN == 0:
            yield Progress(seq)


def searching(log: PointLog, cond: Condition, at: int, direction: Direction, viewer: int | None = None
              ) -> Iterator[Match | Progress]:
    """The first record after point ``at`` (``next``), or the last record at or before it (``prev``), where
    ``cond`` holds, as the last item yielded (none: there is none); ``Progress`` on the way."""
    if direction == "next":
        for item in _fold_window(log, at + 1, log.last, cond, viewer):
            yield item
            if isinstance(item, Match):
                return
        return
    stop = at
    while stop >= 1:
        start = max(1, stop - SPAN + 1)
        found = [m for m in _fold_window(log, start, stop, cond, viewer) if isinstance(m, Match)]
        yield Progress(start)
        if found:
            yield found[-1]
            return
        stop = start - 1


def find(log: PointLog, cond: Condition, at: int, direction: Direction, viewer: int | None = None) -> Match | None:
    """``searching`` without its progress: the match, or None."""
    last = None
    for item in searching(log, cond, at, direction, viewer):
        if isinstance(item, Match):
            last = item
    return last


def changes(log: PointLog, value: ValueExpr, viewer: int | None = None, start: int = 0, stop: int | None = None
            ) -> Iterator[tuple[int, Value] | Progress]:
    """``value`` at point ``start`` and at every record after it where it changed (omniscient print), with
    ``Progress`` on the way."""
    end = log.last if stop is None else min(stop, log.last)
    state: GameState = fork(log.state_at(start))
    last = value.read(state, viewer)
    yield start, last
    for rec in log.forward(start + 1, end):
        seq = rec.seq
        evolve(state, rec.seq, rec.event, rec.decision)
        now = value.read(state, viewer)
        if now != last:
            yield seq, now
            last = now
        if seq % SPAN == 0:
            yield Progress(seq)
