"""``python -m bench.serve``: ``kifu bots`` against a local ``kifu serve`` on SQLite, beside the store's own rate.

    python -m bench.serve                 # K = 1, 8, 64 concurrent matches; a few minutes at most
    python -m bench.serve --k 1 --k 8 --limit 60

For each K a fresh ``kifu serve`` (one worker, a fresh SQLite store, a signing key, 127.0.0.1 on a free port)
is started and ``kifu bots --matches K --concurrency K`` plays K Shadowverse matches at once through the public
API: aggregate decisions/s and the time from a submission to its acknowledgement (p50/p99), as ``kifu bots``
prints them. Each K is bounded: K matches, and ``--limit`` seconds at most (a run cut short is reported so).
Beside them, in the same run and on the same disk, the in-process durable rate of the same store
(``bench.concurrent``'s "kifu SQLite, a transaction per append" at the same K, ``--seconds`` each): what the store
alone allows, with no rules, no signing, no network. Writes bench/results/serve.md (not part of the test suite).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import click

from bench.concurrent import drive, kifu_sqlite
from bench.log import generate
from tests.tools.serving import ROOT, Serve

RESULTS = ROOT / "bench" / "results" / "serve.md"
GAME = "shadowverse"
PRINTED = re.compile(r"(\d+) decisions in ([\d.]+) s: (\d+)/s; submission to acknowledgement p50 ([\d.]+) ms, "
                     r"p99 ([\d.]+) ms")


NOTES = """What bounds these figures: one worker thread (``tools.web.Worker``) does all of a match's store and
rules work, one call at a time, for every match: judging a decision and its SQLite commit (the ack), then for
each of the two seats the records they may see (folded and rendered in the game's words) and their board with
the legal decisions named. The bots' client shares the machine's two cores with the server. The in-process
rate is the store alone (synthetic 14-event decisions, no rules, no signing, no views, no network): the
ceiling a server on this store could approach. ``kifu bots`` prints its figures when every match has ended, so
a K cut at the limit reports none. At K = 64 no match finished within the limit: 64 matches of about 66
decisions at the K = 8 rate would take about 220 s, so (not measured) the aggregate rate does not grow past K = 8."""


@dataclass
class Served:
    k: int
    finished: int
    decisions: int
    seconds: float
    rate: float
    p50_ms: float
    p99_ms: float
    note: str = ""


def served(k: int, limit: float, tmp: Path) -> Served:
    key = tmp / f"server-{k}.key"
    subprocess.run([sys.executable, "-m", "tools.cli", "keys", "new", str(key)], check=True, cwd=ROOT,
                   capture_output=True)
    server = Serve(tmp / f"serve-{k}.db", key)
    try:
        began = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-m", "tools.cli", "bots", "--server", server.url, "--game", GAME,
                                   "--matches", str(k), "--concurrency", str(k)], cwd=ROOT, capture_output=True,
                                  text=True, timeout=limit, env=dict(os.environ, PYTHONUNBUFFERED="1"))
            out, note = done.stdout, "" if done.returncode == 0 else f"exit {done.returncode}"
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
            note = f"cut at {limit:.0f} s"
    finally:
        server.stop()
    finished = sum(1 for line in out.splitlines() if ": finished" in line)
    m = PRINTED.search(out)
    if m is None:
        return Served(k, finished, 0, time.perf_counter() - began, 0.0, 0.0, 0.0, note or "no figures printed")
    return Served(k, finished, int(m[1]), float(m[2]), float(m[3]), float(m[4]), float(m[5]), note)


@click.command()
@click.option("--k", "ks", type=int, multiple=True, default=(1, 8, 64), show_default=True)
@click.option("--limit", type=float, default=180.0, show_default=True, help="Seconds at most per K.")
@click.option("--seconds", type=float, default=3.0, show_default=True, help="The in-process window per K.")
def main(ks: tuple[int, ...], limit: float, seconds: float) -> None:
    decisions = generate(7, 20_000).decisions
    rows = []
    with tempfile.TemporaryDirectory(prefix="kifu-serve-bench-") as name:
        tmp = Path(name)
        for k in ks:
            s = served(k, limit, tmp)
            with kifu_sqlite(tmp / f"store-{k}.db", k) as append:
                f = drive("kifu SQLite, a transaction per append", k, seconds, decisions, append)
            rows.append((s, f))
            click.echo(f"K={k:<3} served {s.rate:7.0f} decisions/s p50 {s.p50_ms:6.1f} ms p99 {s.p99_ms:6.1f} ms "
                       f"({s.finished}/{k} finished{', ' + s.note if s.note else ''})  in-process {f.rate:7.0f}/s "
                       f"p50 {f.p50_ms:.2f} ms p99 {f.p99_ms:.2f} ms")
    lines = ["# kifu serve under kifu bots (one worker, SQLite, loopback)", "",
             f"`python -m bench.serve` ({GAME}; K matches at once, each K bounded to {limit:.0f} s; in-process "
             f"window {seconds:.0f} s), {time.strftime('%Y-%m-%d')}, on this machine (2 cores, shared).", "",
             "| K | finished | decisions | decisions/s | p50 submission→ack | p99 | in-process store rate | "
             "served / in-process |", "|---|---|---|---|---|---|---|---|"]
    for s, f in rows:
        lines.append(f"| {s.k} | {s.finished}/{s.k}{' (' + s.note + ')' if s.note else ''} | {s.decisions} | "
                     f"{s.rate:.0f} | {s.p50_ms:.1f} ms | {s.p99_ms:.1f} ms | {f.rate:.0f}/s (p99 {f.p99_ms:.2f} ms) "
                     f"| {s.rate / f.rate:.2f} |")
    RESULTS.write_text("\n".join([*lines, "", NOTES]) + "\n", encoding="utf-8")
    click.echo(f"written {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
