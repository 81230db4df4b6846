"""The server: ``kifu serve`` (matches, seats and play over HTTP and WebSocket) and ``kifu bots`` (matches played
on it through its public API)."""

from __future__ import annotations

import asyncio
import statistics
import time

import click

from tools import errors
from tools.commands.options import db_option
from tools.errors import BadInput


@click.command("serve")
@db_option(help_text="The store the matches are kept in: a SQLite path (the default).")
@click.option("--key", "key", metavar="PRIVATE", default=None, help="Sign every committed head with this key.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (several need a store they share: PostgreSQL).")
def serve(db: str, key: str | None, host: str, port: int, workers: int) -> None:
    """Serve matches: create one (POST /api/matches), join its seats (each gets a credential), play over
    WebSocket (/ws/matches/ID), spectate, download the signed log when it ends. The page at / plays in a
    browser. The API is described at /openapi.json.
    """
    import uvicorn

    from eventsource import signing
    from tools.serve.app import create_app
    from tools.serve.lobby import Lobby
    from tools.serve.service import Service
    from tools.stores import open_store, scheme_of

    if scheme_of(db) != "sqlite":
        raise BadInput("kifu serve keeps its matches in a SQLite store for now; a PostgreSQL store is not served yet")
    if workers > 1:
        raise BadInput("several workers share matches through PostgreSQL's notifications, which this server does "
                       "not use yet: run one worker on a SQLite store")
    signer = signing.load_private(key) if key is not None else None
    open_store(db, write=True).close()  # (creates the store, or refuses a file that is not one, before listening)
    lobby = Lobby(db)
    service = Service(lambda: open_store(db, write=True), lobby, signer)
    app = create_app(service)
    click.echo(f"kifu serve: matches in {db} at http://{host}:{port}/ (the API: /openapi.json)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, ws_max_size=64 * 1024,
                    limit_concurrency=1024, timeout_graceful_shutdown=5)
    finally:
        lobby.close()


@click.command("bots")
@click.option("--server", required=True, metavar="URL", help="The server: http://127.0.0.1:8000")
@click.option("--game", default="duel_masters", show_default=True)
@click.option("--matches", type=click.IntRange(1, 10_000), default=1, show_default=True)
@click.option("--concurrency", type=click.IntRange(1, 1_000), default=1, show_default=True)
@click.option("--seed", type=int, default=2026, show_default=True, help="The bots' decisions derive from it.")
def bots(server: str, game: str, matches: int, concurrency: int, seed: int) -> None:
    """Play MATCHES matches on a kifu serve with random bots in both seats, as any client would: each match's
    id and result, then decisions per second and the time from a decision to its acknowledgement. Exit 0 when
    every match finished."""
    from statemachine.games import PROFILES
    from tools.serve.bots import run

    if game not in PROFILES:
        raise BadInput(f"no game {game!r}: the games are {', '.join(sorted(PROFILES))}")
    began = time.perf_counter()
    results = asyncio.run(run(server.rstrip("/"), game, matches, concurrency, seed))
    elapsed = time.perf_counter() - began
    for r in results:
        outcome = (f"finished, winner seat {r.winner}" if r.finished and r.winner is not None else
                   "finished, a draw" if r.finished else f"NOT FINISHED {r.error}")
        click.echo(f"{r.match}: {outcome} ({r.decisions} decisions)")
    latencies = sorted(x for r in results for x in r.latencies)
    decisions = sum(r.decisions for r in results)
    if latencies:
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        click.echo(f"{decisions} decisions in {elapsed:.1f} s: {decisions / elapsed:.0f}/s; submission to "
                   f"acknowledgement p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    if not all(r.finished for r in results):
        raise click.exceptions.Exit(errors.FINDING)
