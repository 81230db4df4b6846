"""``python -m bench.concurrent``: many games at once against one store, durable decisions/s and latency.

    python -m bench.concurrent            # K = 1, 8, 64 games, 4 s each, every store; about 2 minutes
    python -m bench.concurrent --seconds 2 --k 1 --k 64

A tournament server or a simulator recording self-play has one thread per game, each appending one decision
(14 events, as ``tools.logs.synthetic`` makes them) at a time and waiting until it is durable. Every store is
driven the same way, side by side in one run, on the same disk:

- kifu SQLite, one transaction per append (``SQLiteStore``, a connection per thread): every decision pays
  its own flush;
- kifu SQLite with group commit (``GroupCommitSQLiteStore``, shared): decisions ready together share a flush;
- kifu PostgreSQL (``PostgresStore``, a connection per thread): the server's WAL flush already serves
  commits that arrive together;
- the eventsourcing library, SQLite and PostgreSQL modules: one application shared by the threads, each
  saving its own aggregate's events per decision.

Reported per store and K: aggregate decisions/s over the window, and p50/p99 latency of one append.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from bench import peer
from bench.log import generate
from eventsource.records import NewEvent
from eventsource.store import EventStore

KS = (1, 8, 64)
# The targets, never lowered: at K = 64, group commit >= 10x its own K = 1 rate and >= 5x eventsourcing
# at K = 64, with p99 <= 5 ms.
GROUP_OVER_K1 = 10.0
GROUP_OVER_PEER = 5.0
P99_MS = 5.0

# (game index, decision) -> returns once durable; [] opens what the thread needs, None closes it, in that thread
Append = Callable[[int, list[NewEvent] | None], None]


@dataclass
class Figure:
    store: str
    k: int
    decisions: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.latencies) * 1000

    @property
    def p99_ms(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def drive(name: str, k: int, seconds: float, decisions: list[list[NewEvent]], append: Append) -> Figure:
    """K threads, one game each, appending decisions until the window closes."""
    stop = threading.Event()
    barrier = threading.Barrier(k + 1)
    lat: list[list[float]] = [[] for _ in range(k)]
    errors: list[BaseException] = []

    def play(g: int) -> None:
        clock, mine = time.perf_counter, lat[g]
        append(g, [])  # opens what this thread needs (a connection of its own), before the window
        barrier.wait()
        i = g * 7
        try:
            while not stop.is_set():
                batch = decisions[i % len(decisions)]
                start = clock()
                append(g, batch)
                mine.append(clock() - start)
                i += 1
        except BaseException as exc:
            errors.append(exc)
        finally:
            append(g, None)

    threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in range(k)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    spent = time.perf_counter() - started
    if errors:
        raise errors[0]
    every = [x for per in lat for x in per]
    return Figure(name, k, len(every), spent, every)


# -- the stores, each opened fresh for one K -------------------------------------------------------------


@contextmanager
def per_thread(opener: Callable[[], EventStore], k: int) -> Iterator[Append]:
    """A store of its own for each thread (a connection per thread), opened in that thread."""
    stores: list[EventStore | None] = [None] * k

    def append(g: int, batch: list[NewEvent] | None) -> None:
        store = stores[g]
        if batch is None:
            if store is not None:
                store.close()
            return
        if store is None:
            store = stores[g] = opener()
        store.append(f"g{g}", batch)

    yield append


def kifu_sqlite(path: Path, k: int) -> Any:
    from eventsource.sqlite import SQLiteStore

    return per_thread(lambda: SQLiteStore(path, timeout=120), k)


@contextmanager
def kifu_group(path: Path, k: int) -> Iterator[Append]:
    from eventsource.groupcommit import GroupCommitSQLiteStore

    store = GroupCommitSQLiteStore(path, timeout=120)
    def append(g: int, batch: list[NewEvent] | None) -> None:
        if batch is not None:
            store.append(f"g{g}", batch)

    try:
        yield append
    finally:
        store.close()


def kifu_postgres(url: str, k: int) -> Any:
    from eventsource.postgres import PostgresStore

    return per_thread(lambda: PostgresStore(url), k)


@contextmanager
def eventsourcing_app(env: dict[str, str], k: int) -> Iterator[Append]:
    app = peer.Games(env=env)
    games = [peer.Game() for _ in range(k)]
    for game in games:
        app.save(game)
    versions = [1] * k

    def append(g: int, batch: list[NewEvent] | None) -> None:
        if not batch:
            return
        game = games[g]
        built: list[Any] = []
        for item in batch:
            built.append(peer.to_peer(game.id, versions[g], item))
            versions[g] += 1
        app.save(*built)

    try:
        yield append
    finally:
        app.close()


def run(seconds: float, ks: tuple[int, ...], report: Callable[[str], None]) -> list[Figure]:
    from tests import pgserver

    decisions = generate(7, 60_000).decisions
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="kifu-conc-") as tmp, pgserver.running() as server:
        for k in ks:
            n = uuid.uuid4().hex[:8]
            stores: list[tuple[str, Any]] = [
                ("kifu SQLite, a transaction per append", kifu_sqlite(Path(tmp) / f"plain-{k}.db", k)),
                ("kifu SQLite, group commit", kifu_group(Path(tmp) / f"group-{k}.db", k)),
                ("kifu PostgreSQL", kifu_postgres(server.create_database(f"kifu_{k}_{n}"), k)),
                ("eventsourcing SQLite", eventsourcing_app(
                    {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / f"es-{k}.db"),
                     "SQLITE_LOCK_TIMEOUT": "120"}, k)),
                ("eventsourcing PostgreSQL", eventsourcing_app(_es_postgres(server.create_database(f"es_{k}_{n}"),
                                                                            k), k)),
            ]
            for name, opened in stores:
                with opened as append:
                    figures.append(drive(name, k, seconds, decisions, append))
                f = figures[-1]
                report(f"  K={k:<3} {name:<40} {f.rate:9,.0f} decisions/s  p50 {f.p50_ms:6.2f} ms  "
                       f"p99 {f.p99_ms:6.2f} ms")
    return figures


def _es_postgres(url: str, k: int) -> dict[str, str]:
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(url)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": str(info.get("dbname", "")),
        "POSTGRES_HOST": str(info.get("host", "")), "POSTGRES_PORT": str(info.get("port", "5432")),
        "POSTGRES_USER": str(info.get("user", "")), "POSTGRES_PASSWORD": str(info.get("password", "")),
        "POSTGRES_POOL_SIZE": str(max(5, k)), "POSTGRES_MAX_OVERFLOW": "0",
    }


def verdicts(figures: list[Figure]) -> list[str]:
    """Each target beside what was measured, in words."""
    by = {(f.store, f.k): f for f in figures}
    group64, group1 = by.get(("kifu SQLite, group commit", 64)), by.get(("kifu SQLite, group commit", 1))
    es64 = by.get(("eventsourcing SQLite", 64))
    out = []
    if group64 and group1:
        x = group64.rate / group1.rate
        out.append(f"group commit K=64 vs its K=1: {x:.1f}x (target >= {GROUP_OVER_K1:.0f}x): "
                   f"{'met' if x >= GROUP_OVER_K1 else 'MISSED'}")
    if group64 and es64:
        x = group64.rate / es64.rate
        out.append(f"group commit K=64 vs eventsourcing SQLite K=64: {x:.1f}x (target >= {GROUP_OVER_PEER:.0f}x): "
                   f"{'met' if x >= GROUP_OVER_PEER else 'MISSED'}")
    if group64:
        out.append(f"group commit K=64 p99 latency: {group64.p99_ms:.2f} ms (target <= {P99_MS:.0f} ms): "
                   f"{'met' if group64.p99_ms <= P99_MS else 'MISSED'}")
    return out


def table(figures: list[Figure]) -> list[str]:
    lines = ["| store | K | decisions/s | p50 ms | p99 ms |", "|---|---:|---:|---:|---:|"]
    for f in figures:
        lines.append(f"| {f.store} | {f.k} | {f.rate:,.0f} | {f.p50_ms:.2f} | {f.p99_ms:.2f} |")
    return lines


@click.command()
@click.option("--seconds", default=4.0, show_default=True, help="The window each store and K is measured over.")
@click.option("--k", "ks", multiple=True, type=int, help="Concurrent games (repeat); default 1, 8 and 64.")
def main(seconds: float, ks: tuple[int, ...]) -> None:
    """Durable decisions/s and append latency with K games at once, every store side by side."""
    figures = run(seconds, ks or KS, lambda m: click.echo(m, err=True))
    for line in [*table(figures), "", *verdicts(figures)]:
        click.echo(line)


if __name__ == "__main__":
    main()
