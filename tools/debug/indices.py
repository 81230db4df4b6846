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

import threading
import weakref
from collections.abc import Iterator
from typing import Final

import msgspec

from eventsource import events as ev
from eventsource.errors import CorruptLog
from eventsource.store import EventStore
from eventsource.upcast import UnknownEventKind, decode_body
from tools.travel.streamed import PointLog

# A PlayerStat body begins so: msgpack's header of a 4-item array (tag, player, key, value), then the tag.
STAT_PREFIX: Final = ev.encode(ev.PlayerStat(0, "", 0))[:2]
BLOCK: Final = 4096  # records whose counter records are read at a time

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
            block: Block = {}
            for seq, event in _stat_events(log, b * BLOCK + 1, min(log.last, (b + 1) * BLOCK)):
                block.setdefault((event.player, event.key), []).append((seq, event.value))
            self.blocks[b] = block
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


def _stat_events(log: PointLog, start: int, stop: int) -> Iterator[tuple[int, ev.PlayerStat]]:
    store, game = getattr(log, "store", None), getattr(log, "game", None)
    if not isinstance(store, EventStore) or game is None:  # an export read whole: its records are in memory
        for rec in log.span(start, stop):
            if isinstance(rec.event, ev.PlayerStat):
                yield rec.seq, rec.event
        return
    for seq, _decision, v, body in store.read_bodies_starting(game, STAT_PREFIX, start, stop):
        try:
            event = decode_body(v, body)
        except (msgspec.DecodeError, UnknownEventKind) as exc:
            raise CorruptLog(f"its event cannot be read: {exc}", seq=seq) from exc
        if isinstance(event, ev.PlayerStat):
            yield seq, event


_INDICES: dict[int, StatIndex] = {}  # id of a log object -> its index, dropped with the object
_LOCK: Final = threading.Lock()


def stat_index(log: PointLog) -> StatIndex:
    """The log's counter index, made on first use and kept as long as the log object is (a log that grows is
    reopened as a new object, so its index is built again)."""
    with _LOCK:
        index = _INDICES.get(id(log))
        if index is None:
            index = _INDICES[id(log)] = StatIndex(log)
            weakref.finalize(log, _INDICES.pop, id(log), None)
        return index
