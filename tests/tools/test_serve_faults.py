"""kifu serve killed outright (SIGKILL) mid-match and started again on the same store: the bots' clients
reconnect, catch up from the last board they saw, send again what was not acknowledged, and finish; every
decision the server acknowledged is in the log, where it was acknowledged; the log audits clean."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from click.testing import CliRunner

from tests.tools.serving import Serve, check_logs, finish
from tools.cli import main
from tools.serve.bots import Played, run

MATCHES = 2
KILL_AT = (20, 60)  # kill -9 once this many decisions were applied in all


def applied(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        return int(con.execute("SELECT count(*) FROM receipts").fetchone()[0])


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
        logs = finish(bots, 120, server.url, results)
    finally:
        server.stop()

    assert len(results) == MATCHES
    assert sum(r.reconnects for r in results) >= 2 * len(KILL_AT)  # each seat of each match reconnected
    check_logs(results, logs, key, tmp_path)
