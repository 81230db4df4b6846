"""The log every measure runs on, and the few helpers the measures share."""

from __future__ import annotations

import os
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from eventsource.records import NewEvent
from tools.logs import synthetic


@dataclass(frozen=True)
class Log:
    """One generated game, as the decisions an engine would append, one transaction each."""

    seed: int
    decisions: list[list[NewEvent]]
    seconds: float  # how long generating it took (the generator folds as it goes)

    @property
    def events(self) -> int:
        return sum(len(d) for d in self.decisions)

    def prefix(self, n: int) -> Iterator[list[NewEvent]]:
        """The decisions that make up the first ``n`` events (the last one cut short if need be)."""
        left = n
        for batch in self.decisions:
            if left <= 0:
                return
            yield batch[:left]
            left -= len(batch)


    def chunks(self, n: int, size: int = 2_000) -> Iterator[list[NewEvent]]:
        """The first ``n`` events in batches of about ``size``: for building a database untimed, quickly."""
        batch: list[NewEvent] = []
        for decision in self.prefix(n):
            batch.extend(decision)
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch


def generate(seed: int, events: int) -> Log:
    start = time.perf_counter()
    decisions = list(synthetic.batches(seed, events))
    return Log(seed, decisions, time.perf_counter() - start)


@dataclass
class Took:
    """How long something took: on the wall clock, and in this process's CPU time."""

    wall: float = 0.0
    cpu: float = 0.0


@contextmanager
def timed() -> Iterator[Took]:
    """Throughputs are computed from CPU time: on a machine that others share, the wall clock also counts
    their work, and swung by a third from one run to the next while the CPU time stayed put."""
    took = Took()
    wall, cpu = time.perf_counter(), time.process_time()
    yield took
    took.wall, took.cpu = time.perf_counter() - wall, time.process_time() - cpu


@dataclass
class Travel:
    """Time-travel query times at one log length, in milliseconds: CPU time (the judged figure, for the reason
    :func:`timed` gives) and the wall clock, one entry per query."""

    length: int
    cpu: list[float]
    wall: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def p95(self) -> float:
        return percentile(self.cpu, 95)

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    @property
    def wall_p95(self) -> float:
        return percentile(self.wall, 95)


def query_times(length: int, query: Callable[[int], object], points: list[int]) -> Travel:
    """Run ``query`` at each point (after ten untimed ones that touch the file's pages and the statement
    cache) and time each run."""
    for n in points[:10]:
        query(n)
    out = Travel(length, [], [])
    for n in points:
        with timed() as took:
            query(n)
        out.cpu.append(took.cpu * 1000)
        out.wall.append(took.wall * 1000)
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100), by linear interpolation between closest ranks."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def file_bytes(path: str) -> int:
    """The size of a SQLite database on disk, write-ahead log included."""
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def compact(path: str) -> int:
    """Checkpoint the write-ahead log into the database, VACUUM it, and return its size on disk."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return file_bytes(path)


def table_bytes(path: str, *tables: str) -> int:
    """Pages that the named tables and their indexes occupy (SQLite's ``dbstat``), after :func:`compact`."""
    db = sqlite3.connect(path)
    try:
        marks = ",".join("?" * len(tables))
        indexes = [
            name for (name,) in db.execute(
                f"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ({marks})", tables
            )
        ]
        names = [*tables, *indexes]
        marks = ",".join("?" * len(names))
        query = f"SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN ({marks})"
        row = db.execute(query, names).fetchone()
        return int(row[0])
    finally:
        db.close()
