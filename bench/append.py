"""Durable append, kifu and eventsourcing side by side, decision by decision, on the same disk at once.

A commit with ``synchronous=FULL`` waits for the disk to flush, and on a shared machine that wait swings from
one second to the next. So the stores take turns: over the first part of the log each decision goes to kifu,
then to eventsourcing, then to the commit floor, and every side sees the same disk weather; kifu then goes
on alone to the end of the log. The floor is plain ``sqlite3`` committing the
very rows kifu stored (same table, same bytes, one transaction per decision, WAL, synchronous=FULL) with no
encoding, hashing or checking: what any store pays for a durable commit here.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench import peer
from bench.log import Log
from bench.ours import GAME
from eventsource.sqlite import SCHEMA, SQLiteStore


@dataclass
class Appended:
    events: int = 0  # kifu's whole log
    decisions: int = 0
    kifu_seconds: float = 0.0
    # The window where all three took turns: the first ``peer_events`` events of the log.
    peer_events: int = 0
    peer_decisions: int = 0
    peer_seconds: float = 0.0
    kifu_window_seconds: float = 0.0
    floor_seconds: float = 0.0
    peer_game: object = None  # the eventsourcing aggregate id

    @property
    def kifu_events_per_s(self) -> float:
        """Over the whole log."""
        return self.events / self.kifu_seconds

    @property
    def kifu_window_events_per_s(self) -> float:
        return self.peer_events / self.kifu_window_seconds

    @property
    def kifu_window_decisions_per_s(self) -> float:
        return self.peer_decisions / self.kifu_window_seconds

    @property
    def floor_decisions_per_s(self) -> float:
        return self.peer_decisions / self.floor_seconds

    @property
    def peer_events_per_s(self) -> float:
        return self.peer_events / self.peer_seconds

    @property
    def peer_decisions_per_s(self) -> float:
        return self.peer_decisions / self.peer_seconds


class Floor:
    """Plain sqlite3 committing rows as given: the cost of durability alone."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def commit(self, rows: list[tuple[int, int, int, int, int, bytes, bytes]]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


def run(log: Log, n: int, peer_n: int, kifu_path: str, peer_path: str, floor_path: str,
        report: Callable[[str], None]) -> Appended:
    """Append the first ``n`` events to kifu; while fewer than ``peer_n`` have gone to eventsourcing, each
    decision also goes to eventsourcing and to the floor, in turn."""
    out = Appended()
    store = SQLiteStore(kifu_path)
    floor = Floor(floor_path)
    app = peer.open_app(peer_path)
    clock = time.perf_counter
    try:
        game = peer.Game()
        app.save(game)  # the aggregate's creation, before the first decision
        out.peer_game = game.id
        step = max(1, len(log.decisions) // 10)
        for i, batch in enumerate(log.prefix(n)):
            start = clock()
            records = store.append(GAME, batch)
            spent = clock() - start
            out.kifu_seconds += spent
            out.decisions += 1
            out.events += len(batch)
            if out.peer_events < peer_n:
                out.kifu_window_seconds += spent
                built = [peer.to_peer(game.id, r.seq, item) for r, item in zip(records, batch, strict=True)]
                start = clock()
                app.save(*built)
                out.peer_seconds += clock() - start
                rows = [(1, r.seq, r.decision, r.cause, r.v, r.body, r.hash) for r in records]
                start = clock()
                floor.commit(rows)
                out.floor_seconds += clock() - start
                out.peer_decisions += 1
                out.peer_events += len(built)
            if i % step == step - 1:
                report(f"  appended {out.events:,} events")
    finally:
        store.close()
        floor.close()
        app.close()
    return out
