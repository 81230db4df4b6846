"""kifu serve killed outright (SIGKILL) mid-match and started again on the same store: the bots' clients
reconnect, catch up from the last board they saw, send again what was not acknowledged, and finish; every
decision the server acknowledged is in the log, where it was acknowledged; the log audits clean."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import decode
from tests.tools.serving import Serve
from tools.cli import main
from tools.serve.bots import Played, run

MATCHES = 2
KILL_AT = (20, 60)  # kill -9 once this many decisions were applied in all


def applied(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        return int(con.execute("SELECT count(*) FROM kifu_submissions").fetchone()[0])


def test_a_killed_server_restarts_and_its_clients_finish_losing_nothing_acknowledged(tmp_path: Path) -> None:
    key = tmp_path / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    db = tmp_path / "serve.db"
    server = Serve(db, key)
    results: list[Played] = []
    bots = threading.Thread(target=lambda: results.extend(asyncio.run(run(server.url, "shadowverse", MATCHES,
                                                                          MATCHES, 7))))
    bots.start()
    try:
        for threshold in KILL_AT:
            deadline = time.monotonic() + 60
            while applied(db) < threshold:
                assert bots.is_alive(), "the matches ended before the server could be killed mid-match"
                assert time.monotonic() < deadline, f"fewer than {threshold} decisions in 60 s"
                time.sleep(0.02)
            server.kill()
            time.sleep(0.3)  # (the clients find the connection gone and retry against nothing for a while)
            server.start()
        bots.join(timeout=120)
        assert not bots.is_alive(), "the bots did not finish within 120 s of the last restart"
        logs = {r.match: httpx.get(f"{server.url}/api/matches/{r.match}/log").content for r in results}
    finally:
        server.stop()

    assert len(results) == MATCHES
    assert all(r.finished for r in results), [(r.match, r.error) for r in results]
    assert sum(r.reconnects for r in results) >= 2 * len(KILL_AT)  # each seat of each match reconnected
    for r in results:
        log = tmp_path / f"{r.match}.jsonl"
        log.write_bytes(logs[r.match])
        records = {rec.seq: rec for rec in map(decode, exchange.read(log))}
        assert len(r.acknowledged) == r.decisions > 0
        for seat, head, action, args in r.acknowledged:  # the decision acknowledged at head H is record H + 1
            made = records[head + 1].event
            assert isinstance(made, ev.ChoiceMade), (head, made)
            assert (made.player, made.action, list(made.args)) == (seat, action, args)
        audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{key}.pub"])
        assert audit.exit_code == 0, audit.output
