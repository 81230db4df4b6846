"""A whole game's log held in memory for the time-travel tools: records by sequence number, the state at any
point (``projections.timeline.Timeline`` over an in-memory copy), a readable line per record, and the rules
profile the log names.

The copy is taken as the records were read, without re-checking the hash chain (that is ``kifu audit``'s job):
``verify``, ``at``, ``why`` and ``view`` must also work on a log whose chain was re-sealed by a forger, which is
exactly when the rules have to speak.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from eventsource import events as ev
from eventsource import integrity
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from eventsource.records import RawRecord, Record, decode
from eventsource.store import GameInfo
from projections.state import GameState
from projections.timeline import Timeline
from tools.errors import BadInput, note_damage
from tools.logs.sources import open_log
from tools.travel.streamed import PointLog
from tools.travel.trace import Memory, render

# Snapshots every 64 records: the tools jump around a log a lot, and logs a judge holds are short.
SNAPSHOT_EVERY = 64


class LogStore(MemoryStore):
    """An in-memory store holding a log exactly as read (no chain check on the way in)."""

    def load(self, game: str, raws: Sequence[RawRecord]) -> None:
        self._write(game, 0, list(raws))


class PrefixStore(MemoryStore):
    """The first ``limit`` records of a :class:`LogStore`'s game, as if nothing came after (no copy)."""

    def __init__(self, base: LogStore, game: str, limit: int) -> None:
        super().__init__()
        self.base, self.game, self.limit = base, game, limit

    def _head(self, game: str) -> tuple[int, bytes]:
        if game != self.game or self.limit <= 0:
            return super()._head(game)
        raws = self.base._logs[game]
        return raws[self.limit - 1].seq, raws[self.limit - 1].hash

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        stop = self.limit if stop is None else min(stop, self.limit)
        yield from self.base.read_raw(game, start, stop)

    def games(self) -> list[GameInfo]:
        return [GameInfo(self.game, self.limit, self._head(self.game)[1])]

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        self.base.save_snapshot(game, seq, state)  # a snapshot of a prefix is a snapshot of the log

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        return self.base.load_snapshot(game, min(at_most, self.limit))


@dataclass
class LoadedLog(PointLog):
    """One game's log held whole (see the module's docstring)."""

    location: str
    format: str
    game: str
    raws: list[RawRecord]
    records: list[Record]
    store: LogStore = field(repr=False)

    # -- where things are --------------------------------------------------------------------------------

    @property
    def last(self) -> int:
        return self.records[-1].seq if self.records else 0

    @cached_property
    def by_seq(self) -> dict[int, Record]:
        return {r.seq: r for r in self.records}

    @cached_property
    def contiguous(self) -> bool:
        return all(r.seq == i for i, r in enumerate(self.records, start=1))

    @property
    def started(self) -> ev.GameStarted | None:
        first = self.records[0].event if self.records else None
        return first if isinstance(first, ev.GameStarted) else None

    @property
    def ends_game(self) -> bool:
        return bool(self.records) and isinstance(self.records[-1].event, ev.GameEnded)

    def deck_sizes(self, seats: int) -> list[int]:
        """Cards per seat among the ``ObjectCreated`` records right after ``GameStarted`` (the deck lists)."""
        from statemachine.rederive import leading_cards

        cards = [r.event for r in leading_cards(self.records) if isinstance(r.event, ev.ObjectCreated)]
        return [sum(1 for c in cards if c.owner == p) for p in range(seats)]

    def get(self, seq: int) -> Record | None:
        return self.by_seq.get(seq)

    def decision_record(self, decision: int, near: int | None = None) -> Record | None:
        """The ``ChoiceMade`` that began decision number ``decision`` (None for the set-up, decision 0).
        (``near``, a record of that decision, is where ``tools.travel.points.StoreLog`` starts looking.)"""
        for r in self.records:
            if r.decision == decision and isinstance(r.event, ev.ChoiceMade):
                return r
        return None

    def triggered_by(self, n: int) -> list[Record]:
        """The ``Triggered`` records caused by record ``n``."""
        return [r for r in self.records if isinstance(r.event, ev.Triggered) and r.event.by == n]

    def effect_records(self, eid: int, n: int) -> list[Record]:
        """Records that may name effect ``eid`` (here: all of them)."""
        return self.records

    def raws_from(self, start: int) -> Iterator[RawRecord]:
        return iter(self.raws[max(0, start - 1) :])

    # -- time travel ---------------------------------------------------------------------------------------

    @cached_property
    def timeline(self) -> Timeline:
        return Timeline(self.store, self.game, every=SNAPSHOT_EVERY)

    def state_at(self, n: int) -> GameState:
        """The state after record ``n`` (0: before anything)."""
        return self.timeline.state_at(n)

    # -- readable lines ------------------------------------------------------------------------------------

    @cached_property
    def memory(self) -> Memory:
        mem = Memory()
        for r in self.records:
            mem.note(r.seq, r.event)
        return mem

    @cached_property
    def lines(self) -> dict[int, str]:
        """Every record as the trace prints it, read against the state just before it."""
        out: dict[int, str] = {}
        mem = Memory()
        state = GameState()
        from tools.logs.folding import apply

        for r in self.records:
            out[r.seq] = render(state, r.event, mem)
            mem.note(r.seq, r.event)
            apply(state, r.seq, r.event, r.decision)
        return out

    def line(self, seq: int) -> str:
        return f"record {seq}: {self.lines.get(seq, '(no such record)')}"


def load_log(location: str, game: str | None = None) -> LoadedLog:
    """Read one game's whole log. An unreadable record is bad input here (``kifu audit`` locates it)."""
    with open_log(location, game) as source:
        raws = list(source.records())
        found, fmt = source.game, source.format
    if not raws:
        raise BadInput(f"{location}: game {found!r} has no records")
    try:
        records = [decode(r) for r in raws]
    except KifuError as exc:
        raise BadInput(f"{location}: {exc}") from exc
    checked = integrity.verify(raws, found)
    if isinstance(checked, integrity.Finding):  # answer from the log as it is, but never as if it were whole
        note_damage(f"{location}: the hash chain breaks at record {checked.seq} ({checked.problem}): "
                    f"{checked.message}; run kifu audit {location}")
    store = LogStore()
    store.load(found, raws)
    return LoadedLog(location, fmt, found, raws, records, store)
