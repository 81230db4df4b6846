"""kifu's side, on its SQLite store: the raw limit, rebuild, time travel, bytes per event."""

from __future__ import annotations

import os
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.log import Log, Took, Travel, compact, query_times, table_bytes, timed
from eventsource import events as ev
from eventsource import randomness
from eventsource.sqlite import SQLiteStore
from projections.state import GameState, snapshot
from projections.timeline import Timeline, replay

GAME = "bench"


@dataclass
class Ours:
    events: int = 0
    raw_seconds: float = 0.0  # CPU seconds, best of the repeats
    rebuild_seconds: float = 0.0
    raw_wall: float = 0.0  # wall-clock seconds, best of the repeats
    rebuild_wall: float = 0.0
    warm_seconds: float = 0.0
    bytes_events: int = 0  # the whole database file with events only, after VACUUM
    bytes_events_table: int = 0  # the events table alone (dbstat)
    bytes_with_snapshots: int = 0
    snapshots: int = 0
    travel: dict[int, Travel] = field(default_factory=dict)

    @property
    def raw_events_per_s(self) -> float:
        return self.events / self.raw_seconds

    @property
    def rebuild_events_per_s(self) -> float:
        return self.events / self.rebuild_seconds


def append(path: str, log: Log, n: int) -> None:
    """Store the first ``n`` events, untimed, in large transactions (a shorter log for time travel)."""
    store = SQLiteStore(path)
    try:
        for batch in log.chunks(n):
            store.append(GAME, batch)
    finally:
        store.close()


def raw_limit(path: str) -> tuple[Took, int]:
    """Straight from sqlite3: select the bodies, msgspec-decode them into the event union, count zones."""
    db = sqlite3.connect(path)
    try:
        with timed() as took:
            (gid,) = db.execute("SELECT id FROM games WHERE name = ?", (GAME,)).fetchone()
            sizes: Counter[str] = Counter()
            decode = ev.decode
            zone_changed, created = ev.ZoneChanged, ev.ObjectCreated
            for (body,) in db.execute("SELECT body FROM events WHERE game = ? ORDER BY seq", (gid,)):
                event = decode(body)
                cls = type(event)
                if cls is zone_changed:
                    sizes[event.src] -= 1  # type: ignore[union-attr]
                    sizes[event.dst] += 1  # type: ignore[union-attr]
                elif cls is created:
                    sizes[event.zone] += 1  # type: ignore[union-attr]
    finally:
        db.close()
    return took, sum(sizes.values())


def rebuild(path: str, stop: int | None = None) -> tuple[Took, GameState]:
    """The state after record ``stop`` (the current state when None) folded from the first record, the way
    kifu rebuilds it (no snapshot used)."""
    store = SQLiteStore(path)
    try:
        with timed() as took:
            state = replay(store, GAME, stop)
        return took, state
    finally:
        store.close()


def warm(path: str) -> tuple[float, GameState]:
    store = SQLiteStore(path)
    try:
        start = time.perf_counter()
        state = Timeline(store, GAME).state_at(None)
        return time.perf_counter() - start, state
    finally:
        store.close()


def points(seed: int, length: int, count: int) -> list[int]:
    """Seeded random points ``n`` in ``2..length``: the queries ask for the state just before record ``n``."""
    rng = randomness.generator(seed, length)
    return [rng.randint(2, length) for _ in range(count)]


def travel(path: str, length: int, queries: list[int]) -> Travel:
    """State just before each point, through ``Timeline`` with its snapshots already built."""
    store = SQLiteStore(path)
    try:
        return query_times(length, Timeline(store, GAME).state_before, queries)
    finally:
        store.close()


def count_snapshots(path: str) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0])
    finally:
        db.close()


def measure(log: Log, tmp: str, path: str, lengths: list[int], queries: dict[int, list[int]], repeat: int,
            report: Callable[[str], None]) -> tuple[Ours, GameState]:
    """Every kifu figure but append, on the database ``path`` that holds the whole log; time travel at each
    of ``lengths`` (the shorter logs are appended to their own databases first, untimed)."""
    out = Ours(events=max(lengths))
    out.bytes_events = compact(path)
    out.bytes_events_table = table_bytes(path, "events")

    report("kifu: the raw limit and the rebuild")
    raw, rebuilt = [], []
    for _ in range(repeat):  # taking turns, so that both see the same machine
        took, placed = raw_limit(path)
        raw.append(took)
        took, state = rebuild(path)
        rebuilt.append(took)
    out.raw_seconds, out.rebuild_seconds = min(t.cpu for t in raw), min(t.cpu for t in rebuilt)
    out.raw_wall, out.rebuild_wall = min(t.wall for t in raw), min(t.wall for t in rebuilt)
    if placed != len(state.objects):
        raise AssertionError(f"the raw fold placed {placed} objects, the rebuild has {len(state.objects)}")

    report("kifu: building snapshots (Timeline.warm)")
    out.warm_seconds, warmed = warm(path)
    if snapshot(warmed) != snapshot(state):
        raise AssertionError("the state through the timeline differs from the rebuild")
    out.snapshots = count_snapshots(path)
    out.bytes_with_snapshots = compact(path)

    for n in lengths:
        where = path if n == out.events else os.path.join(tmp, f"kifu-{n}.db")
        if n != out.events:
            append(where, log, n)
            warm(where)
        report(f"kifu: time travel in a log of {n:,} events")
        out.travel[n] = travel(where, n, queries[n])
    return out, state
