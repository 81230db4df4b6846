"""Indices a debugging session builds once per log, so that a provenance question is a look-up instead of a refold.

A player's counter changes only by a ``PlayerStat`` record, which carries the counter's new value (the projection
sets it: ``projections.state._player_stat``). So the last record after which a counter read as it reads at point N
is found from the counters' records alone: the latest record at or before N setting that counter, walked back
while the records before it set the same value. The index holds, per (player, counter), the records that set it
and the values they set, read once from the log: only the bodies that begin as a ``PlayerStat``'s do (msgpack
header and tag), and a store filters those where the rows are (``EventStore.read_bodies_starting``). The records
an answer names are then read through the log as any other (their hash chain checked); the index only says where
to look.
"""

from __future__ import annotations

import threading
import weakref
from array import array
from bisect import bisect_right
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


class StatIndex:
    """Per (player, counter): the records that set it, in order, and the values they set."""

    def __init__(self, log: PointLog) -> None:
        self.records: dict[tuple[int, str], array[int]] = {}
        self.values: dict[tuple[int, str], array[int]] = {}
        for seq, event in _stat_events(log):
            key = (event.player, event.key)
            if key not in self.records:
                self.records[key], self.values[key] = array("q"), array("q")
            self.records[key].append(seq)
            self.values[key].append(event.value)

    def last_change(self, player: int, key: str, n: int) -> int | None:
        """The last record at or before ``n`` after which counter ``key`` of ``player`` read as it reads at
        ``n`` (None: it was never set by then, so it has read so — absent — since before the first record)."""
        seqs = self.records.get((player, key))
        if seqs is None:
            return None
        i = bisect_right(seqs, n) - 1
        if i < 0:
            return None
        values = self.values[(player, key)]
        while i > 0 and values[i - 1] == values[i]:  # setting the value it already had changes nothing
            i -= 1
        return seqs[i]


def _stat_events(log: PointLog) -> Iterator[tuple[int, ev.PlayerStat]]:
    store, game = getattr(log, "store", None), getattr(log, "game", None)
    if not isinstance(store, EventStore) or game is None:  # an export read whole: its records are in memory
        for seq in range(1, log.last + 1):
            event = log.record(seq).event
            if isinstance(event, ev.PlayerStat):
                yield seq, event
        return
    for seq, _decision, v, body in store.read_bodies_starting(game, STAT_PREFIX, 1, log.last):
        try:
            event = decode_body(v, body)
        except (msgspec.DecodeError, UnknownEventKind) as exc:
            raise CorruptLog(f"its event cannot be read: {exc}", seq=seq) from exc
        if isinstance(event, ev.PlayerStat):
            yield seq, event


_INDICES: dict[int, StatIndex] = {}  # id of a log object -> its index, dropped with the object
_LOCK: Final = threading.Lock()


def stat_index(log: PointLog) -> StatIndex:
    """The log's counter index, built on first use and kept as long as the log object is (a log that grows is
    reopened as a new object, so its index is built again)."""
    with _LOCK:
        index = _INDICES.get(id(log))
        if index is None:
            index = _INDICES[id(log)] = StatIndex(log)
            weakref.finalize(log, _INDICES.pop, id(log), None)
        return index
