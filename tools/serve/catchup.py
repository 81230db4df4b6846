"""What each viewer of a match is sent of its records, folded once for every viewer.

After a decision every watcher of the match — both seats, any spectators — reads the same new records. A
:class:`Catchup` keeps one fold of the match (the state after record ``seq``, moved forward in place) and, for
the records it folded lately, the line each viewer may see of each: the second seat's read, and a spectator's,
cost a lookup, not a fold (copying the state to share it cost more than folding). A read from further back than
the lines kept (a client reconnecting after a long while, a spectator's delay) folds from the store's snapshots
on its own, leaving the match's fold where it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from eventsource import events as ev
from eventsource.records import Record
from eventsource.store import EventStore
from projections.state import GameState, evolve
from projections.timeline import Timeline
from projections.views import redact_event
from statemachine.games import hidden_zones
from tools.travel.trace import render

SPECTATOR: Final = 2  # the view of neither seat: a player index that is no seat, so it sees only what is public
VIEWERS: Final = (0, 1, SPECTATOR)  # whose lines are kept (the judge's, viewer None, is folded on demand)
KEPT: Final = 1_024  # records whose lines are kept per match, the newest


@dataclass
class Catchup:
    seq: int
    state: GameState
    lines: dict[int, tuple[dict[str, Any] | None, ...]] = field(default_factory=dict)  # seq: a line per VIEWERS

    @classmethod
    def at(cls, store: EventStore, match_id: str, seq: int) -> Catchup:
        return cls(seq, Timeline(store, match_id).state_at(seq))

    def covers(self, start: int) -> bool:
        """Whether the lines kept run from record ``start`` to this fold's end (or it ends just before)."""
        return start - 1 <= self.seq and (start == self.seq + 1 or start in self.lines)

    def fold(self, store: EventStore, match_id: str, stop: int) -> None:
        """Fold the records up to ``stop``, keeping each viewer's line of each."""
        if stop > self.seq:
            self._take(store.read(match_id, self.seq + 1, stop))

    def extend(self, records: Sequence[Record]) -> None:
        """Fold records the match's engine has just appended, when they follow this fold's end: the lines of a
        decision are made from what the engine committed, without reading it back from the store."""
        if records and records[0].seq == self.seq + 1:
            self._take(records)

    def _take(self, records: Iterable[Record]) -> None:
        hidden = hidden_zones(self.state.profile)
        for rec in records:
            self.lines[rec.seq] = _lines(rec, self.state, hidden)
            evolve(self.state, rec.seq, rec.event, rec.decision)
            self.seq = rec.seq
        for old in [s for s in self.lines if s <= self.seq - KEPT]:
            del self.lines[old]

    def seen(self, viewer: int, start: int, stop: int) -> list[dict[str, Any]]:
        which = VIEWERS.index(viewer)
        return [line for seq in range(start, stop + 1) if (line := self.lines[seq][which]) is not None]


def judged(store: EventStore, match_id: str, start: int, stop: int) -> list[dict[str, Any]]:
    """Every record from ``start`` to ``stop`` as the judge sees it (viewer None: nothing hidden)."""
    state = Timeline(store, match_id).state_at(start - 1)
    out = []
    for rec in store.read(match_id, start, stop):
        line = _line(rec, None, state, frozenset())
        if line is not None:
            out.append(line)
        evolve(state, rec.seq, rec.event, rec.decision)
    return out


def _lines(rec: Record, state: GameState, hidden: frozenset[str]) -> tuple[dict[str, Any] | None, ...]:
    """Record ``rec`` as each of ``VIEWERS`` may see it; viewers who see the same event share its line (most
    records hide nothing: one line in the game's words, not one per viewer)."""
    lines: list[dict[str, Any] | None] = []
    made: list[tuple[ev.Event, dict[str, Any]]] = []
    for viewer in VIEWERS:
        seen = _seen(rec, viewer, state, hidden)
        if seen is None:
            lines.append(None)
            continue
        line = next((made_line for event, made_line in made if event is seen or event == seen), None)
        if line is None:
            line = {"seq": rec.seq, "kind": ev.kind_of(seen), "line": render(state, seen, None)}
            made.append((seen, line))
        lines.append(line)
    return tuple(lines)


def _line(rec: Record, viewer: int | None, state: GameState, hidden: frozenset[str]) -> dict[str, Any] | None:
    """Record ``rec`` as ``viewer`` may see it, in the game's words (None: they did not see it)."""
    seen = _seen(rec, viewer, state, hidden)
    return None if seen is None else {"seq": rec.seq, "kind": ev.kind_of(seen), "line": render(state, seen, None)}


def _seen(rec: Record, viewer: int | None, state: GameState, hidden: frozenset[str]) -> ev.Event | None:
    if viewer is None:
        return rec.event
    if isinstance(rec.event, ev.GameStarted):  # the seed would let a seat recompute every hidden card
        return msgspec.structs.replace(rec.event, seed=0)
    return redact_event(rec.event, viewer, state, hidden=hidden)
