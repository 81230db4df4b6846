"""kifu serve on PostgreSQL: several workers, one database, any worker serving any match.

- Two ``kifu serve`` processes on one database; the two seats of a Shadowverse match start on different ones, so
  every record one seat's decision appends reaches the other seat only through PostgreSQL's notifications. One
  worker is killed (SIGKILL) mid-match: its seat reconnects to the other worker, catches up and finishes there.
  Every acknowledged decision is in the log where it was acknowledged; the log audits clean with the key.
- PostgreSQL itself stops under load (as a crash would) and starts again: meanwhile the API answers 503 and the
  seats' connections are closed with "try again later"; then the clients reconnect and the matches finish,
  losing nothing acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import threading
import time
from pathlib import Path

import httpx
import psycopg
import pytest
from click.testing import CliRunner

from tests import pgserver, properties
from tests.conftest import fresh_schema
from tests.tools.serving import Serve, check_logs, finish
from tools.cli import main
from tools.serve.app import TRY_AGAIN_LATER
from tools.serve.bots import Played, run


def wait_for_decisions(url: str, count: int, alive: threading.Thread, limit: float = 30) -> None:
    """Until ``count`` decisions were applied, by any worker (the receipts every append keeps, in its transaction)."""
    deadline = time.monotonic() + limit
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute("SELECT count(*) FROM kifu_receipts").fetchone()
            if row and row[0] >= count:
                return
            assert alive.is_alive(), f"the bots stopped before {count} decisions"
            assert time.monotonic() < deadline, f"fewer than {count} decisions in {limit:.0f} s"
            time.sleep(0.02)


def new_key(tmp_path: Path) -> Path:
    key = tmp_path / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    return key


def test_two_workers_serve_one_match_and_a_killed_ones_seat_finishes_on_the_other(postgres_url: str,
                                                                                   tmp_path: Path) -> None:
    key = new_key(tmp_path)
    first, second = Serve(postgres_url, key), Serve(postgres_url, key)
    results: list[Played] = []
    bots = threading.Thread(target=lambda: results.extend(asyncio.run(
        run([first.url, second.url], "shadowverse", 1, 1, 7))))
    try:
        bots.start()
        wait_for_decisions(postgres_url, 12, bots)
        first.kill()
        logs = finish(bots, 60, second.url, results)
    finally:
        first.stop()
        second.stop()

    (played,) = results
    seats = {seat for seat, *_ in played.acknowledged[:12]}
    assert seats == {0, 1}, "before the kill both seats decided, each on its own worker"
    assert played.reconnects >= 1, "seat 0 reconnected to the other worker"
    check_logs(results, logs, key, tmp_path)


@pytest.fixture
def own_postgres() -> object:
    """A PostgreSQL server of this test's own: it is stopped and started again under load."""
    server = pgserver.start()
    try:
        yield server
    finally:
        server.stop()


def test_postgresql_stopped_under_load_then_back_the_clients_resume(own_postgres: pgserver.Server,
                                                                    tmp_path: Path) -> None:
    url = fresh_schema(own_postgres)
    key = new_key(tmp_path)
    served = Serve(url, key, workers=2)
    results: list[Played] = []
    bots = threading.Thread(target=lambda: results.extend(asyncio.run(run(served.url, "shadowverse", 1, 1, 11))))
    try:
        bots.start()
        wait_for_decisions(url, 12, bots)
        own_postgres.halt()
        try:
            while_down = httpx.get(f"{served.url}/api/matches/m-0", timeout=20)
        finally:
            time.sleep(0.5)  # (the seats meet the closed store and are told to try again)
            own_postgres.resume()
        assert bots.is_alive(), "the match ended before PostgreSQL was stopped"
        before = receipts(url)  # (what was applied before the stop: the rest is applied after the restart)
        assert while_down.status_code == 503, while_down.text
        assert "unavailable" in while_down.text or "failed" in while_down.text, while_down.text
        logs = finish(bots, 60, served.url, results)
    finally:
        served.stop()

    assert sum(r.reconnects for r in results) >= 2, "the seats were told to connect again, and did"
    closes = [code for r in results for code in r.closes]
    assert TRY_AGAIN_LATER in closes, f"no connection was closed with 1013 (try again later): {closes}"
    assert receipts(url) > before, "the match was played on after PostgreSQL was back"
    check_logs(results, logs, key, tmp_path)


def test_several_workers_on_sqlite_are_refused_with_the_reason(tmp_path: Path) -> None:
    served = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "m.db"), "--workers", "2"])
    assert served.exit_code != 0 and "Traceback" not in served.output
    assert "several workers share their matches through PostgreSQL" in served.output
    assert not (tmp_path / "m.db").exists()  # (refused before anything was made)


def workers_of(server: Serve) -> list[int]:
    """The pids of the uvicorn workers ``kifu serve --workers N`` runs (its children but multiprocessing's
    resource tracker)."""
    pid = server.proc.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    out = []
    for child in map(int, children):
        with contextlib.suppress(OSError):
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(child)
    return sorted(out)


def wait_for_joined(url: str, matches: int, alive: threading.Thread, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute("SELECT count(*) FROM kifu_matches WHERE cred0 IS NOT NULL AND cred1 IS NOT NULL"
                               ).fetchone()
            if row and row[0] >= matches:
                return
            assert alive.is_alive(), "the bots stopped before every match was joined"
            assert time.monotonic() < deadline, f"fewer than {matches} matches joined in {limit:.0f} s"
            time.sleep(0.05)


def receipts(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM kifu_receipts").fetchone()
    return int(row[0]) if row else 0


# Three kills in the suite (each costs seconds: the supervisor starts a fresh interpreter); make soak's share is the
# 300 the server's fault budget asks for, twenty times the suite's count and five times more.
WORKER_KILLS = properties.examples(3) * (5 if properties.SOAK else 1)
BETWEEN_KILLS = 3  # decisions applied between two kills
BATCH = 2  # matches played at once; batch after batch until every kill was made


@pytest.mark.property
def test_a_worker_killed_mid_match_under_two_workers_loses_nothing_acknowledged(postgres_url: str,
                                                                                tmp_path: Path) -> None:
    """SIGKILL one of ``kifu serve --workers 2``'s workers again and again mid-match (the supervisor starts a new
    one): the seats it served reconnect (to the other worker, or the new one), catch up, send again what was not
    acknowledged, and the matches finish; every acknowledged decision is in the log where it was acknowledged;
    every log audits clean. The matches are played a batch at a time, as many batches as the kills take (how
    many decisions a kill's restart lets the other worker play depends on the machine's load)."""
    key = new_key(tmp_path)
    served = Serve(postgres_url, key, workers=2)
    rng = random.Random(5)
    killed = batches = reconnects = 0
    began = time.monotonic()
    try:
        while killed < WORKER_KILLS:
            where = tmp_path / f"batch-{batches}"
            where.mkdir()
            made, reconnected = kill_during_a_batch(served, postgres_url, key, where, batches, rng,
                                                    WORKER_KILLS - killed)
            killed, batches, reconnects = killed + made, batches + 1, reconnects + reconnected
            if properties.SOAK:  # (a soak's progress, batch by batch)
                print(f"batch {batches}: {killed} kills in {time.monotonic() - began:.0f} s", flush=True)
    finally:
        served.stop()

    assert killed == WORKER_KILLS
    print(f"{killed} uvicorn workers killed with SIGKILL mid-match, {batches * BATCH} matches finished, "
          f"{reconnects} reconnections, {time.monotonic() - began:.0f} s")
    assert reconnects >= WORKER_KILLS // 2


def kill_during_a_batch(served: Serve, url: str, key: Path, tmp_path: Path, batch: int, rng: random.Random,
                        most: int) -> tuple[int, int]:
    """A batch of matches played to their end while up to ``most`` workers are killed, ``BETWEEN_KILLS`` decisions
    apart; each match checked. The kills made (at least one) and the seats' reconnections."""
    results: list[Played] = []
    bots = threading.Thread(target=lambda: results.extend(asyncio.run(
        run(served.url, "shadowverse", BATCH, BATCH, 5 + batch * BATCH))))
    killed = 0
    bots.start()
    # Every match created and both its seats joined before the first kill: a kill is to land mid-match.
    wait_for_joined(url, (batch + 1) * BATCH, bots)
    while killed < most and bots.is_alive():
        before = receipts(url)
        # (a kill may leave only a worker the supervisor is still starting — up to a minute on a loaded machine —
        # and the seats then reconnect, a pause apart: two minutes before play must have gone on)
        deadline = time.monotonic() + 120
        while bots.is_alive() and (not workers_of(served) or receipts(url) < before + BETWEEN_KILLS):
            assert time.monotonic() < deadline, f"no worker served for 120 s after {killed} kills"
            time.sleep(0.02)
        if not bots.is_alive():
            break
        # (the other worker may be one the supervisor is still starting: then, for a moment, none serves)
        os.kill(rng.choice(workers_of(served)), signal.SIGKILL)
        killed += 1
    logs = finish(bots, 120, served.url, results)
    assert killed, "the matches ended before a worker could be killed"
    check_logs(results, logs, key, tmp_path)
    return killed, sum(r.reconnects for r in results)
