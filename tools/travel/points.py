"""One game of a store read at the points a question needs: ``kifu at``, ``why``, ``why-not`` and ``diff`` on a
long store in bounded time and memory.

:class:`StoreLog` answers what :class:`tools.travel.loaded.LoadedLog` answers for a whole log held in memory — a record,
the state after record N, a record's line as the trace prints it, the records of one effect or one decision —
by reading only what the answer needs: the nearest snapshot at or before N whose key is the log's hash there
(``projections.timeline.usable``), then the records after it. A question near the end of a million records
costs what it costs near the start.

The chain check of these commands is bounded too. Every record read is checked against the hash of the one
before it (so each answer rests on records that chain onto the record its snapshot is keyed to), and the head:
the store's last record must chain onto the one before. A break there is reported as on any damaged log
(``warning: ...``, exit 1). A record these commands do not read is not checked: the whole chain is what
``kifu audit`` checks. Snapshots are derived data: they are used here, never by ``audit`` or ``verify``.

A store that has no snapshots (written by an older kifu, or by another program) is folded from its first record
as far as the question needs — time grows with N, memory does not — and snapshots are kept in memory for the
rest of the command; ``kifu snapshot`` stores them (a reading command never writes to the store it reads).
An exported file cannot be read at a point: these commands read it whole (``tools.travel.loaded.load_log``).
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import Final

from eventsource import events as ev
from eventsource.errors import CorruptLog, KifuError
from eventsource.integrity import ChainCheck
from eventsource.records import RawRecord, Record, decode
from eventsource.store import EventStore, GameInfo
from projections.state import GameState, evolve, fork
from projections.timeline import SNAPSHOT_EVERY, pack, unpack, usable
from tools.errors import BadInput, note_damage
from tools.logs.stores import is_store_location, open_store, pick_game
from tools.travel.streamed import PointLog
from tools.travel.trace import Memory, render

SPAN: Final = SNAPSHOT_EVERY  # records read at a time when walking away from a point
KEPT: Final = 4 * SPAN  # records a command keeps read at most; a longer run is folded as it streams
STATES: Final = 64  # states kept for the command's next questions (forks: they share the objects they hold alike)
CHECKPOINT: Final = 32  # a fold keeps the state every this many records on its way (a step back lands near one)
LONG: Final = 20 * SNAPSHOT_EVERY  # a fold this long without a snapshot is worth a note


class _Memory(Memory):
    """A trace's memory of the records read so far; the kind of any other record is read when asked for."""

    def __init__(self, log: StoreLog) -> None:
        super().__init__()
        self._log = log

    def kind_at(self, seq: int) -> str | None:
        if (seq >= len(self.kinds) or not self.kinds[seq]) and 0 < seq <= self._log.last:
            self._log.record(seq)  # (notes it)
        return super().kind_at(seq)


class StoreLog(PointLog):
    """One game of a store, read at points (see the module's docstring)."""

    format = "store"

    def __init__(self, location: str, store: EventStore, info: GameInfo) -> None:
        self.location, self.store, self.game, self.info = location, store, info.game, info
        self._records: OrderedDict[int, Record] = OrderedDict()
        self._states: OrderedDict[int, GameState] = OrderedDict()
        self._kept: dict[int, bytes] = {}  # snapshots made by this command (packed), for a store without them
        self._memory = _Memory(self)
        self._damaged = False
        self.record(self.last)  # the head, checked against the record before it

    # -- where things are --------------------------------------------------------------------------------

    @property
    def last(self) -> int:
        return self.info.length

    @property
    def memory(self) -> Memory:
        return self._memory

    @cached_property
    def started(self) -> ev.GameStarted | None:
        first = self.get(1)
        return first.event if first is not None and isinstance(first.event, ev.GameStarted) else None

    def get(self, seq: int) -> Record | None:
        if not 1 <= seq <= self.last:
            return None
        rec = self._records.get(seq)
        if rec is None:
            self._read(seq, seq)
            rec = self._records[seq]
        return rec

    # -- reading, with the chain checked ------------------------------------------------------------------

    def _raws(self, start: int, stop: int, *, note: bool = True) -> Iterator[tuple[RawRecord, Record]]:
        """Records ``start..stop``, each checked against the hash of the one before (read with them), and noted
        in the trace's memory unless ``note`` is false (a long fold: that memory would grow with the log)."""
        first = max(1, start - 1)
        check = ChainCheck(self.game) if first == start else None
        expected = first
        for raw in self.store.read_span(self.game, first, stop):
            if raw.seq != expected:
                self._name_damage()
                raise CorruptLog(f"game {self.game!r}: record {expected} cannot be read (the next one read is "
                                 f"{raw.seq}): the store is damaged (kifu audit runs SQLite's integrity check)",
                                 seq=expected)
            expected += 1
            if check is None:  # the record before ``start``: only its hash is needed
                check = ChainCheck(self.game, prev=raw.hash, expected=raw.seq + 1)
                continue
            if check.feed(raw) is not None:
                self._damage(raw.seq)
            try:
                rec = decode(raw)
            except KifuError as exc:
                raise BadInput(f"{self.location}: {exc}") from exc
            if note:
                self._memory.note(rec.seq, rec.event)
            yield raw, rec
        if expected <= stop:
            self._name_damage()
            raise CorruptLog(f"game {self.game!r}: the store lists {self.last} records, but record {expected} "
                             "cannot be read: the store is damaged", seq=expected)

    def _name_damage(self) -> None:
        """A record is missing where the store lists one: a store that can name the damaged row does (SQLite: a
        value of the wrong type), in place of the general message."""
        check = getattr(self.store, "check_game", None)
        if check is not None:
            check(self.game)

    def _damage(self, seq: int) -> None:
        if not self._damaged:
            self._damaged = True
            note_damage(f"{self.location}: the hash chain breaks at record {seq} (altered): its content does not "
                        f"match its hash, or the record before it changed; run kifu audit {self.location}")

    def _read(self, start: int, stop: int) -> list[Record]:
        """Records ``start..stop`` (within the log), kept for the command's next questions."""
        start, stop = max(1, start), min(self.last, stop)
        if start > stop:
            return []
        if all(s in self._records for s in range(start, stop + 1)):
            return [self._records[s] for s in range(start, stop + 1)]
        out = [rec for _, rec in self._raws(start, stop)]
        for rec in out:
            self._records[rec.seq] = rec
            self._records.move_to_end(rec.seq)
        while len(self._records) > KEPT + (stop - start + 1):
            self._records.popitem(last=False)
        return out

    def raws_from(self, start: int) -> Iterator[RawRecord]:
        """The records from ``start`` on, streamed (chain-checked as read, none kept)."""
        for raw, _ in self._raws(start, self.last):
            yield raw

    def span(self, start: int, stop: int) -> list[Record]:
        return self._read(start, stop)

    # -- time travel ---------------------------------------------------------------------------------------

    def state_at(self, n: int) -> GameState:
        """The state after record ``n`` (0: before anything). Read only: it is kept for the next questions."""
        n = max(0, min(n, self.last))
        cached = self._states.get(n)
        if cached is not None:
            self._states.move_to_end(n)
            return cached
        state = self._base(n)
        if n - state.seq > KEPT:
            self._stream_fold(state, n)
        else:
            for rec in self._read(state.seq + 1, n):
                evolve(state, rec.seq, rec.event, rec.decision)
                if rec.seq % CHECKPOINT == 0 and rec.seq < n:
                    self._keep(rec.seq, fork(state))
        self._keep(n, state)
        return state

    def _keep(self, n: int, state: GameState) -> None:
        self._states[n] = state
        self._states.move_to_end(n)
        while len(self._states) > STATES:
            self._states.popitem(last=False)

    def _base(self, n: int) -> GameState:
        """The state to fold on from (a fork, never a state kept): the nearest state kept at or before ``n`` when
        it is a few checkpoints away at most (folding that far costs about what restoring a snapshot does), else the
        store's snapshot at or before ``n`` whose key holds (kept too: the next question near it starts there),
        or one kept by this command for a store without them, whichever is nearest."""
        near = max((s for s in self._states if s <= n), default=None)
        if near is not None and n - near <= 2 * CHECKPOINT:
            return fork(self._states[near])
        best = usable(self.store, self.game, n)
        if best is not None and best.seq not in self._states:
            self._keep(best.seq, best)
        start = best.seq if best is not None else 0
        kept = max((s for s in self._kept if start < s <= n), default=None)
        if near is not None and near >= start and (kept is None or near > kept):
            return fork(self._states[near])
        if kept is not None:
            return unpack(self._kept[kept])
        return fork(best) if best is not None else GameState()

    def _stream_fold(self, state: GameState, n: int) -> None:
        """Fold a long run without a stored snapshot, keeping one in memory every SNAPSHOT_EVERY records."""
        if n - state.seq > LONG:
            print(f"note: {self.location} has no usable snapshot of game {self.game!r} between record "
                  f"{state.seq} and {n}: folding {n - state.seq} records (kifu snapshot --db {self.location} "
                  "stores snapshots, so the next question is answered at once)", file=sys.stderr)
        for _, rec in self._raws(state.seq + 1, n, note=False):
            evolve(state, rec.seq, rec.event, rec.decision)
            if rec.seq % SNAPSHOT_EVERY == 0:
                self._kept[rec.seq] = pack(state)  # (compressed: a few KB each, whatever the log's length)

    # -- readable lines ------------------------------------------------------------------------------------

    def line(self, seq: int) -> str:
        rec = self.get(seq)
        if rec is None:
            return f"record {seq}: (no such record)"
        return f"record {seq}: {render(self.state_at(seq - 1), rec.event, self._memory)}"

    # -- one decision, one effect --------------------------------------------------------------------------

    def decision_record(self, decision: int, near: int | None = None) -> Record | None:
        """The ``ChoiceMade`` that began decision number ``decision``, looked for back from record ``near``
        (a record of that decision), as decisions are numbered in the order of the log."""
        if near is None:
            raise ValueError("a store's log finds a decision's first record back from one of its records")
        for r in self.backward(near):
            if r.decision < decision:
                return None
            if r.decision == decision and isinstance(r.event, ev.ChoiceMade):
                return r
        return None

    def triggered_by(self, n: int) -> list[Record]:
        """The ``Triggered`` records caused by record ``n``: they follow it within its decision."""
        decision = self.record(n).decision
        out = []
        for r in self.forward(n + 1):
            if r.decision != decision:
                break
            if isinstance(r.event, ev.Triggered) and r.event.by == n:
                out.append(r)
        return out

    def effect_records(self, eid: int, n: int) -> Iterator[Record]:
        """Records that may name effect ``eid``, which record ``n`` names: from when it began (the pending
        effect says) to when it ended, or to the end of the log if it is still pending there."""
        pend = self.state_at(n - 1).pending.get(eid) or self.state_at(n).pending.get(eid)
        if pend is None:  # not pending around ``n``: what record n's decision holds of it is what there is
            decision = self.record(n).decision
            for r in self.forward(self._decision_start(n)):
                if r.seq > n and r.decision != decision:
                    return
                yield r
            return
        still = eid in self.state_at(self.last).pending  # (then it is read to the end: its life is that long)
        for r in self.forward(pend.since):
            yield r
            if r.seq >= n and not still and isinstance(r.event, ev.EffectResolved | ev.EffectFizzled) \
                    and r.event.effect == eid:
                return

    def _decision_start(self, n: int) -> int:
        decision, start = self.record(n).decision, n
        for r in self.backward(n):
            if r.decision != decision:
                break
            start = r.seq
        return start


@contextmanager
def open_at_points(location: str, game: str | None = None) -> Iterator[PointLog]:
    """The log of ``game`` at ``location``: a store read at points, or an exported file read whole."""
    if not is_store_location(location):
        from tools.travel.loaded import load_log

        yield load_log(location, game)
        return
    store = open_store(location, write=False)
    try:
        info = pick_game(store, game, location)
        yield StoreLog(location, store, info)
    finally:
        store.close()
