"""``python -m bench.serve``: ``kifu bots`` against a local ``kifu serve``, beside the store's own rate.

    python -m bench.serve                 # K = 1, 8, 64, 256 on SQLite (1 worker), PostgreSQL (1 and 2 workers)
    python -m bench.serve --k 1 --k 8 --limit 60

For each store and K a fresh ``kifu serve`` (a fresh SQLite file or PostgreSQL database, a signing key,
127.0.0.1 on a free port; on PostgreSQL ``--workers 1`` or ``2``) is started and ``kifu bots --matches K
--concurrency K --seconds LIMIT`` plays K Shadowverse matches at once through the public API: aggregate
decisions/s and the time from a submission to its acknowledgement (p50/p99), as ``kifu bots`` prints them. Each
run is bounded: K matches, and ``--limit`` seconds at most (the bots stop the matches still going then, and the
figures count what was played). Beside them, in the same run, the in-process durable rate of the same store
(``bench.concurrent``'s "a transaction per append" at the same K, ``--seconds`` each; PostgreSQL's at most 64
connections, the throwaway server's limit being 200): what the store alone allows, with no rules, no signing,
no network. Writes bench/results/serve.md (not part of the test suite).
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import click
import httpx

from bench.concurrent import drive, kifu_postgres, kifu_sqlite
from bench.log import generate
from statemachine.games import PROFILES
from tests.tools.serving import ROOT, Serve

RESULTS = ROOT / "bench" / "results" / "serve.md"
GAME = "shadowverse"
PRINTED = re.compile(r"(\d+) decisions in ([\d.]+) s: (\d+)/s; submission to acknowledgement p50 ([\d.]+) ms, "
                     r"p99 ([\d.]+) ms; to the board after it p50 ([\d.]+) ms, p99 ([\d.]+) ms")
SET_UP = re.compile(r"(\d+)/\d+ matches set up \(created, both seats joined\); "
                    r"(?:the first acknowledged after ([\d.]+) s)?")


NOTES = """What bounds these figures. A worker is one interpreter: every match's rules, boards, lines and JSON and
its WebSocket traffic take turns on it (four match threads, a lobby thread, the event loop), so it serves at most
one core's worth — the ceiling above, measured in the same run, is what that core allows for this game with no
network and no store. On SQLite the match threads share one group-commit store (the appends of every match ready at
once in one transaction, one flush, each acknowledged after it); the worker claims the file, so its cached engines
are the heads and nothing is read back from the store in play, and an append is sealed after the head the store
committed last without reading it. On PostgreSQL each thread has a connection of its own and an append is one
statement (kifu_append), one round trip. With two workers a match's seats are usually on different workers (the
kernel hands each connection to either); the other worker moves its cached engine on by running the new decision
through the rules again, so the rules run twice per decision, and the two workers share the same two cores. The
bots' client (one Python process, on uvloop as the server is) shares the machine's two cores with the server, its
workers and PostgreSQL, and so does everyone else's work on this machine (the load average, 1 minute, at the end of
each run is in the table): the figures vary run to run by up to a half. Latency follows from the rate: a match has
one decision in flight at a time and the bots answer at once, so the time from one submission of a match to its
next averages K divided by the rate (Little's law; 64 / 169 ≈ 0.38 s at K = 64); the table gives two parts of it,
from a submission to its acknowledgement and to the board after it (what a player waits for to see the result).
p99 ≤ 50 ms at K = 64 would need that cycle near 0.15 s, some 430 decisions/s or more: about the ceiling of one
interpreter above, with nothing left for the network. Answering decisions before boards on the match threads
was tried: it halved the acknowledgement's p50 and moved the time to the board, not shortened it. A run cut at
the limit counts the decisions acknowledged within it; the clock starts after the client has loaded the game's
sample decks, and each worker has created one match (and so loaded the card pool) before it. The in-process rate
is the store alone (bench.concurrent: synthetic 14-event decisions, no rules, no signing, no views, no network; on
SQLite a transaction per append, no group commit), measured on the same machine just before. "set up" counts the
matches created and both seats joined within the run, "first ack" the seconds from the start to the first
acknowledged decision: kifu bots sets up at most four matches per server at once, so a match plays as soon as its
own set-up is done. Where fewer than K matches are set up the run is cut before it reached K matches at once: the
figure is of that many, ramping up over the run."""


@dataclass
class Served:
    store: str
    workers: int
    k: int
    finished: int
    decisions: int
    seconds: float
    rate: float
    p50_ms: float
    p99_ms: float
    board_p50_ms: float = 0.0  # from a submission to the board after it
    board_p99_ms: float = 0.0
    note: str = ""
    load: float = 0.0  # the machine's load average (1 minute) when the run ended
    set_up: int = 0  # matches created and joined within the run
    first_ack_s: float | None = None  # seconds from the start to the first acknowledgement (None: none was)


def served(store: str, db: str, workers: int, k: int, limit: float, key: Path) -> Served:
    server = Serve(db, key, workers=workers)
    began = time.perf_counter()
    try:
        warm_up(server.url, workers)
        done = subprocess.run([sys.executable, "-m", "tools.cli", "bots", "--server", server.url, "--game", GAME,
                               "--matches", str(k), "--concurrency", str(k), "--seconds", str(limit)], cwd=ROOT,
                              capture_output=True, text=True, timeout=limit + 60,
                              env=dict(os.environ, PYTHONUNBUFFERED="1"))
        out = done.stdout
    finally:
        server.stop()
    load = os.getloadavg()[0]
    finished = sum(1 for line in out.splitlines() if ": finished" in line)
    note = "" if finished == k else f"cut at {limit:.0f} s"
    began_play = SET_UP.search(out)
    set_up, first = (int(began_play[1]), float(began_play[2]) if began_play[2] else None) if began_play else (0, None)
    m = PRINTED.search(out)
    if m is None:
        return Served(store, workers, k, finished, 0, time.perf_counter() - began, 0.0, 0.0, 0.0,
                      note or "no figures printed", load, set_up, first)
    return Served(store, workers, k, finished, int(m[1]), float(m[2]), float(m[3]), float(m[4]), float(m[5]),
                  float(m[6]), float(m[7]), note, load, set_up, first)


@dataclass
class Ceiling:
    rules: float  # decisions/s: the rules alone (legal decisions, then a decision judged and appended in memory)
    served: float  # decisions/s: that, plus what a served decision costs beside the network and the store


def ceiling(seconds: float) -> Ceiling:
    """What one interpreter can do for the served game with no network and no store: random decisions through
    the rules (a MemoryStore, no signing), and the same with what the server does for each of them beside the
    network and the disk — the head signed, the new records' lines folded for both seats and a spectator, each
    seat's board drawn and encoded. Neither depends on K: it is the most decisions/s one worker could serve."""
    import random

    import msgspec

    from eventsource import signing
    from eventsource.memory import MemoryStore
    from statemachine.engine import Engine
    from statemachine.games import profile as load_profile
    from tools.serve.catchup import SPECTATOR, Catchup
    from tools.travel.board import board_data

    _, players, decks = importlib.import_module(f"{PROFILES[GAME][0]}.demo").sample_game(0)
    profile = load_profile(GAME, None)
    signer = signing.Signer.generate()
    encode = msgspec.json.Encoder().encode

    def rate(serving: bool) -> float:
        rng, done, game = random.Random(7), 0, 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            store = MemoryStore()
            engine = Engine.new(profile, players, decks, game, store=store, game=f"g{game}",
                                signer=signer if serving else None)
            fold = Catchup.at(store, f"g{game}", 0) if serving else None
            game += 1
            while not engine.state.ended and time.perf_counter() - began < seconds:
                legal = engine.legal()
                if not legal.decisions:
                    break
                engine.decide(rng.choice(legal.decisions))
                done += 1
                if fold is not None:
                    fold.fold(store, f"g{game - 1}", engine.state.seq)
                    shown: dict[int, dict[str, object]] = {}
                    for viewer in (0, 1, SPECTATOR):
                        fold.seen(viewer, engine.state.seq, engine.state.seq)
                    for viewer in (0, 1):
                        encode(board_data(engine.state, viewer, publics=shown))
        return done / (time.perf_counter() - began)

    return Ceiling(rate(False), rate(True))


def warm_up(url: str, workers: int) -> None:
    """Each worker loads the game's card pool the first time it creates a match of it (about a second): a match
    created per worker before the run keeps that out of the figures (the kernel picks the worker a connection
    lands on, so a few more are created to reach both)."""
    _, players, decks = importlib.import_module(f"{PROFILES[GAME][0]}.demo").sample_game(0)
    spec = {"game": GAME, "players": list(players), "decks": [list(d) for d in decks]}
    for _ in range(1 if workers == 1 else 4 * workers):
        with httpx.Client(timeout=60) as client:  # (a connection of its own each: spread over the workers)
            client.post(f"{url}/api/matches", json=spec).raise_for_status()


@click.command()
@click.option("--k", "ks", type=int, multiple=True, default=(1, 8, 64, 256), show_default=True)
@click.option("--limit", type=float, default=60.0, show_default=True, help="Seconds at most per run.")
@click.option("--seconds", type=float, default=3.0, show_default=True, help="The in-process window per K.")
def main(ks: tuple[int, ...], limit: float, seconds: float) -> None:
    from tests import pgserver

    decisions = generate(7, 20_000).decisions
    top = ceiling(seconds * 3)
    click.echo(f"one interpreter, no network, no store: the rules {top.rules:.0f} decisions/s; with what a served "
               f"decision costs beside them {top.served:.0f}/s")
    rows = []
    with tempfile.TemporaryDirectory(prefix="kifu-serve-bench-") as name, pgserver.running() as pg:
        tmp = Path(name)
        key = tmp / "server.key"
        subprocess.run([sys.executable, "-m", "tools.cli", "keys", "new", str(key)], check=True, cwd=ROOT,
                       capture_output=True)
        for k in ks:
            with kifu_sqlite(tmp / f"store-{k}.db", k) as append:
                alone = {"SQLite": drive("kifu SQLite, a transaction per append", k, seconds, decisions, append)}
            with kifu_postgres(pg.create_database(f"alone_{k}"), min(k, 64)) as append:
                alone["PostgreSQL"] = drive("kifu PostgreSQL", min(k, 64), seconds, decisions, append)
            for store, workers in (("SQLite", 1), ("PostgreSQL", 1), ("PostgreSQL", 2)):
                db = str(tmp / f"serve-{k}.db") if store == "SQLite" else pg.create_database(f"serve_{k}_{workers}")
                s = served(store, db, workers, k, limit, key)
                f = alone[store]
                rows.append((s, f))
                click.echo(f"K={k:<3} {store:<10} {workers} worker(s) {s.rate:6.0f} decisions/s ack p50 "
                           f"{s.p50_ms:6.1f} ms p99 {s.p99_ms:7.1f} ms, board p50 {s.board_p50_ms:6.1f} ms p99 "
                           f"{s.board_p99_ms:7.1f} ms ({s.finished}/{k} finished{', ' + s.note if s.note else ''})  "
                           f"in-process {f.rate:6.0f}/s")
    lines = ["# kifu serve under kifu bots (loopback)", "",
             f"`python -m bench.serve` ({GAME}; K matches at once, each run bounded to {limit:.0f} s; in-process "
             f"window {seconds:.0f} s), {time.strftime('%Y-%m-%d')}, on this machine (2 cores, shared).", "",
             f"**The ceiling of one worker**, measured in the same run ({GAME}, random decisions, one interpreter, no "
             f"network, no store): the rules alone **{top.rules:.0f} decisions/s** (legal decisions found, one judged "
             f"and appended in memory); with what the server does for each beside the network and the disk (the head "
             f"signed, the new records' lines for both seats and a spectator, both seats' boards drawn and encoded) "
             f"**{top.served:.0f}/s**. No K and no store lets one worker serve more than that.", "",
             "| K | store | workers | set up | first ack | finished | decisions | decisions/s | p50 submission→ack | "
             "p99 | p50 submission→board | p99 | in-process store rate | served / in-process | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s, f in rows:
        first = "none" if s.first_ack_s is None else f"{s.first_ack_s:.1f} s"
        lines.append(f"| {s.k} | {s.store} | {s.workers} | {s.set_up}/{s.k} | {first} | "
                     f"{s.finished}/{s.k}{' (' + s.note + ')' if s.note else ''} | "
                     f"{s.decisions} | {s.rate:.0f} | {s.p50_ms:.1f} ms | {s.p99_ms:.1f} ms | "
                     f"{s.board_p50_ms:.1f} ms | {s.board_p99_ms:.1f} ms | "
                     f"{f.rate:.0f}/s at K = {f.k} (p99 {f.p99_ms:.2f} ms) | {s.rate / f.rate:.2f} | {s.load:.1f} |")
    RESULTS.write_text("\n".join([*lines, "", NOTES]) + "\n", encoding="utf-8")
    click.echo(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
