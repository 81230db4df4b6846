"""The server: ``kifu serve`` (matches, seats and play over HTTP and WebSocket) and ``kifu bots`` (matches played
on it through its public API)."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import click

from tools import errors
from tools.commands.options import db_option
from tools.errors import BadInput

T = TypeVar("T")


@click.command("serve")
@db_option(help_text="The store the matches are kept in: a SQLite path (the default, one worker), or a "
                     "postgresql:// URL (any number of workers, on any number of machines).")
@click.option("--key", "key", metavar="PRIVATE", default=None, help="Sign every committed head with this key.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (several need a store they share: PostgreSQL).")
def serve(db: str, key: str | None, host: str, port: int, workers: int) -> None:
    """Serve matches: create one (POST /api/matches), join its seats (each gets a credential), play over
    WebSocket (/ws/matches/ID), spectate, download the signed log when it ends. The page at / plays in a
    browser. The API is described at /openapi.json. On PostgreSQL any worker (of this command, or of another
    kifu serve on the same database) serves any match: each learns of the others' records through LISTEN/NOTIFY.
    """
    import os

    import uvicorn

    from eventsource import signing
    from tools.logs.stores import open_store, scheme_of
    from tools.serve.lobby import Lobby

    if workers > 1 and scheme_of(db) not in ("postgresql", "postgres"):
        raise BadInput("several workers share their matches through PostgreSQL (they learn of each other's "
                       "records from its notifications): give --db postgresql://…, or run one worker on SQLite")
    if key is not None:
        signing.load_private(key)  # (a key that cannot sign is refused before listening)
    open_store(db, write=True).close()  # (creates the store, or refuses one that is not, before listening)
    if scheme_of(db) == "sqlite":
        from tools.logs.stores import sqlite_path
        from tools.serve.claim import claim

        claim(sqlite_path(db))  # (a second kifu serve on the same file is refused here, before listening)
    Lobby(db).close()
    os.environ["KIFU_SERVE_DB"] = db
    os.environ["KIFU_SERVE_KEY"] = str(Path(key).resolve()) if key is not None else ""
    where = db if scheme_of(db) == "sqlite" else "PostgreSQL"
    click.echo(f"kifu serve: matches in {where} at http://{host}:{port}/ ({workers} worker"
               f"{'s' if workers > 1 else ''}; the API: /openapi.json)")
    uvicorn.run("tools.serve.app:from_environment", factory=True, workers=workers, host=host, port=port,
                log_level="warning", access_log=False, ws_max_size=64 * 1024, limit_concurrency=1024,
                # (compressing every board sent took a quarter of the event loop's time under load; a client far
                # away can still compress at its proxy)
                ws_per_message_deflate=False,
                timeout_graceful_shutdown=5)


@click.command("bots")
@click.option("--server", "servers", required=True, multiple=True, metavar="URL",
              help="The server: http://127.0.0.1:8000 (again for each other server or worker: the matches are "
                   "spread over them, a match's two seats start on different ones and move to the next when a "
                   "connection drops).")
@click.option("--game", default="duel_masters", show_default=True)
@click.option("--matches", type=click.IntRange(1, 10_000), default=1, show_default=True)
@click.option("--concurrency", type=click.IntRange(1, 1_000), default=1, show_default=True)
@click.option("--seed", type=int, default=2026, show_default=True, help="The bots' decisions derive from it.")
@click.option("--seconds", type=click.FloatRange(0.1, 86_400), default=None,
              help="Stop every match still going after this long (a bounded load run: the figures count what was "
                   "played; the matches cut short are reported unfinished).")
def bots(servers: tuple[str, ...], game: str, matches: int, concurrency: int, seed: int,
         seconds: float | None) -> None:
    """Play MATCHES matches on a kifu serve with random bots in both seats, as any client would: each match's
    id and result, then decisions per second and the time from a decision to its acknowledgement. Exit 0 when
    every match finished."""
    from statemachine.games import PROFILES
    from tools.serve.bots import run

    if game not in PROFILES:
        raise BadInput(f"no game {game!r}: the games are {', '.join(sorted(PROFILES))}")
    import importlib

    # The game's rules and sample decks are loaded before the clock starts: the figures are of play, not of the
    # client's own start-up.
    importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(seed)
    began = time.perf_counter()
    results = _run_loop(run([s.rstrip("/") for s in servers], game, matches, concurrency, seed, seconds))
    elapsed = time.perf_counter() - began
    for r in results:
        outcome = (f"finished, winner seat {r.winner}" if r.finished and r.winner is not None else
                   "finished, a draw" if r.finished else f"NOT FINISHED {r.error}")
        click.echo(f"{r.match}: {outcome} ({r.decisions} decisions)")
    latencies = sorted(x for r in results for x in r.latencies)
    decisions = sum(r.decisions for r in results)
    if latencies:
        boards = sorted(x for r in results for x in r.boards)
        click.echo(f"{decisions} decisions in {elapsed:.1f} s: {decisions / elapsed:.0f}/s; submission to "
                   f"acknowledgement {_percentiles(latencies)}; to the board after it {_percentiles(boards)}")
    # (what bounds a run cut short: the matches that could begin, and how long the first acknowledgement took)
    acks = [r.first_ack for r in results if r.first_ack]
    first = f"the first acknowledged after {min(acks) - began:.1f} s" if acks else "no decision acknowledged"
    click.echo(f"{sum(r.set_up for r in results)}/{len(results)} matches set up (created, both seats joined); {first}")
    if not all(r.finished for r in results):
        raise click.exceptions.Exit(errors.FINDING)


def _percentiles(seconds: list[float]) -> str:
    """``seconds`` (sorted) as their p50 and p99, in ms."""
    if not seconds:
        return "(none)"
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    return f"p50 {statistics.median(seconds) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


def _run_loop(main: Coroutine[Any, Any, T]) -> T:
    """``main`` on uvloop's event loop where it is installed, else on asyncio's: the load generator shares the
    machine with the server it measures, so the less of it the client takes, the better."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)
