"""Indices a debugging session builds as it is asked, so that a provenance question is a look-up instead of a refold.

A player's counter changes only by a ``PlayerStat`` record, which carries the counter's new value (the projection
sets it: ``projections.state._player_stat``). So the last record after which a counter read as it reads at point N
is found from the counters' records alone: the latest record at or before N setting that counter, walked back
while the records before it set the same value. The index reads those records a block of ``BLOCK`` records at a
time, back from the point asked about, and keeps each block it read (per (player, counter): the records that set
it and the values they set): a question costs the distance back to the counter's last change, once. Only the
bodies that begin as a ``PlayerStat``'s are decoded (msgpack header and tag), and a store filters those where the
rows are (``EventStore.read_bodies_starting``). The records an answer names are then read through the log as any
other (their hash chain checked); the index only says where to look.
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterable, Iterator
from typing import Final, TypeVar

import msgspec

from eventsource import events as ev
from eventsource.errors import CorruptLog, KifuError
from eventsource.store import EventStore
from eventsource.upcast import UnknownEventKind, decode_body
from projections.state import EACH
from tools.logs.stores import open_store
from tools.travel.streamed import PointLog

# A PlayerStat body begins so: msgpack's header of a 4-item array (tag, player, key, value), then the tag.
STAT_PREFIX: Final = ev.encode(ev.PlayerStat(0, "", 0))[:2]
STARTED_PREFIX: Final = ev.encode(ev.ContinuousEffectStarted(0, 0, "", 0))[:2]
BLOCK: Final = 4096  # records whose counter records are read at a time

E = TypeVar("E", bound=ev.Event)
Block = dict[tuple[int, str], list[tuple[int, int]]]  # (player, counter) -> (record, value set), in order


class StatIndex:
    """Per block of the log: per (player, counter), the records that set it, in order, and the values they set."""

    def __init__(self, log: PointLog) -> None:
        self._log = weakref.ref(log)  # (the index lives as long as its log, and must not keep it alive)
        self.blocks: dict[int, Block] = {}

    def _block(self, b: int) -> Block:
        if b not in self.blocks:
            log = self._log()
            if log is None:
                raise RuntimeError("the log of this counter index was closed")
            self.blocks[b] = grouped(_events(log, STAT_PREFIX, ev.PlayerStat, *_bounds(b, log.last)))
        return self.blocks[b]

    def last_change(self, player: int, key: str, n: int) -> int | None:
        """The last record at or before ``n`` after which counter ``key`` of ``player`` read as it reads at
        ``n`` (None: it was never set by then, so it has read so — absent — since before the first record)."""
        found: tuple[int, int] | None = None  # (the earliest record of the run of equal values, that value)
        for b in range((n - 1) // BLOCK, -1, -1):
            for seq, value in reversed(self._block(b).get((player, key), [])):
                if seq > n:
                    continue
                if found is not None and value != found[1]:
                    return found[0]
                found = (seq, value)  # (setting the value it already had changes nothing: walk on back)
        return None if found is None else found[0]


Started = tuple[int, ev.ContinuousEffectStarted]  # (record, event)


class EffectIndex:
    """Per block of the log: the ``ContinuousEffectStarted`` records in it (the only records that begin a
    modification of a characteristic) by the object they target, and those that apply to every object a
    selector names ("each_"), read a block at a time back from the point asked about, and kept."""

    def __init__(self, log: PointLog) -> None:
        self._log = weakref.ref(log)
        self.blocks: dict[int, tuple[dict[int, list[Started]], list[Started]]] = {}

    def started(self, obj: int, low: int, n: int) -> Iterator[Started]:
        """The effects started at records ``low..n`` that target ``obj`` or select objects ("each_"), latest
        first."""
        for b in range((n - 1) // BLOCK, (max(1, low) - 1) // BLOCK - 1, -1):
            if b not in self.blocks:
                log = self._log()
                if log is None:
                    raise RuntimeError("the log of this effect index was closed")
                self.blocks[b] = by_target(_events(log, STARTED_PREFIX, ev.ContinuousEffectStarted,
                                                   *_bounds(b, log.last)))
            targeted, selecting = self.blocks[b]
            for seq, event in sorted(targeted.get(obj, []) + selecting, key=lambda s: s[0], reverse=True):
                if low <= seq <= n:
                    yield seq, event


def by_target(events: Iterable[Started]) -> tuple[dict[int, list[Started]], list[Started]]:
    targeted: dict[int, list[Started]] = {}
    selecting: list[Started] = []
    for seq, event in events:
        if event.kind.startswith(EACH):
            selecting.append((seq, event))
        else:
            targeted.setdefault(event.target, []).append((seq, event))
    return targeted, selecting


def grouped(events: Iterable[tuple[int, ev.PlayerStat]]) -> Block:
    block: Block = {}
    for seq, event in events:
        block.setdefault((event.player, event.key), []).append((seq, event.value))
    return block


def _bounds(b: int, last: int) -> tuple[int, int]:
    return b * BLOCK + 1, min(last, (b + 1) * BLOCK)


def _events(log: PointLog, prefix: bytes, kind: type[E], start: int, stop: int) -> Iterator[tuple[int, E]]:
    """The records of one kind among ``start..stop``: a store filters them where its rows are, by the first bytes
    of their bodies (``prefix``); an export read whole has its records in memory."""
    store, game = getattr(log, "store", None), getattr(log, "game", None)
    if not isinstance(store, EventStore) or game is None:
        for rec in log.span(start, stop):
            if isinstance(rec.event, kind):
                yield rec.seq, rec.event
        return
    yield from _stored(store, game, prefix, kind, start, stop)


def _stored(store: EventStore, game: str, prefix: bytes, kind: type[E], start: int, stop: int
            ) -> Iterator[tuple[int, E]]:
    for seq, _decision, v, body in store.read_bodies_starting(game, prefix, start, stop):
        try:
            event = decode_body(v, body)
        except (msgspec.DecodeError, UnknownEventKind) as exc:
            raise CorruptLog(f"its event cannot be read: {exc}", seq=seq) from exc
        if isinstance(event, kind):
            yield seq, event


def warm(log: PointLog) -> threading.Thread | None:
    """Fill the log's indices in the background, the newest blocks first, on a connection of its own (a store
    only: an export is in memory), so that a question about a value set long ago finds its blocks read. A
    question asked meanwhile reads the blocks it needs itself; a block read twice is read alike. A store that
    cannot be read is left to the questions, which say why."""
    store, location, game = getattr(log, "store", None), log.location, log.game
    if not isinstance(store, EventStore):
        return None
    stats, effects, last = stat_index(log), effect_index(log), log.last

    def fill() -> None:
        try:
            with open_store(location, write=False) as own:
                for b in range((last - 1) // BLOCK, -1, -1):
                    if b not in effects.blocks:
                        effects.blocks[b] = by_target(_stored(own, game, STARTED_PREFIX,
                                                              ev.ContinuousEffectStarted, *_bounds(b, last)))
                    if b not in stats.blocks:
                        stats.blocks[b] = grouped(_stored(own, game, STAT_PREFIX, ev.PlayerStat, *_bounds(b, last)))
        except (KifuError, sqlite3.Error, OSError):
            return

    thread = threading.Thread(target=fill, name="kifu-debug-indices", daemon=True)
    thread.start()
    return thread


_INDICES: dict[tuple[int, str], StatIndex | EffectIndex] = {}  # (id of a log object, kind) -> its index
_LOCK: Final = threading.Lock()


def _index(log: PointLog, kind: type[StatIndex] | type[EffectIndex]) -> StatIndex | EffectIndex:
    """The log's index of a kind, made on first use and kept as long as the log object is (a log that grows is
    reopened as a new object, so its indices are made again)."""
    key = (id(log), kind.__name__)
    with _LOCK:
        index = _INDICES.get(key)
        if index is None:
            index = _INDICES[key] = kind(log)
            weakref.finalize(log, _INDICES.pop, key, None)
        return index


def stat_index(log: PointLog) -> StatIndex:
    index = _index(log, StatIndex)
    assert isinstance(index, StatIndex)
    return index


def effect_index(log: PointLog) -> EffectIndex:
    index = _index(log, EffectIndex)
    assert isinstance(index, EffectIndex)
    return index
