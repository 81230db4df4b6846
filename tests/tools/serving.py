"""The real ``kifu serve`` as a subprocess on a free loopback port, for the tests that drive it from outside
(a browser, a kill -9)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import decode
from tools.cli import main
from tools.serve.bots import Played

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """``kifu serve --db DB --key KEY`` on 127.0.0.1; ready once its API answers."""

    def __init__(self, db: Path | str, key: Path, port: int | None = None, workers: int = 1) -> None:
        self.db, self.key, self.port, self.workers = db, key, port or free_port(), workers
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools.cli", "serve", "--db", str(self.db), "--key", str(self.key),
             "--port", str(self.port), "--workers", str(self.workers)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60  # (a loaded machine: python's start and uvicorn's workers take their time)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("kifu serve did not start:\n" + (self.proc.stdout.read() if self.proc.stdout
                                                                      else ""))
            try:
                if httpx.get(f"{self.url}/openapi.json", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise AssertionError("kifu serve did not answer within 60 s")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush of anything the server did not already commit."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


def fresh_server(where: Path) -> Serve:
    """``kifu serve`` on a new SQLite store in ``where``, with a new key."""
    key = where / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    return Serve(where / "serve.db", key)


def finish(bots: threading.Thread, limit: float, server: str, results: list[Played]) -> dict[str, bytes]:
    """Wait for the bots to finish their matches (``limit`` seconds at most), then each match's signed log."""
    bots.join(timeout=limit)
    assert not bots.is_alive(), f"the matches did not finish within {limit:.0f} s"
    return {r.match: download(f"{server}/api/matches/{r.match}/log") for r in results}


def download(url: str, tries: int = 40) -> bytes:
    """A match's log as a client fetches it: told the store is unavailable (503, a worker whose connection a
    database restart broke), it asks again a little later, a bounded number of times."""
    for _ in range(tries):
        got = httpx.get(url, timeout=20)
        if got.status_code != 503:
            break
        time.sleep(0.25)
    assert got.status_code == 200, f"{url}: {got.status_code} {got.text[:300]}"
    return got.content


def check_logs(results: list[Played], logs: dict[str, bytes], key: Path, tmp_path: Path) -> None:
    """Every match finished; each decision acknowledged is the record after the head it was acknowledged at;
    each log audits clean with the server's key."""
    assert results and all(r.finished for r in results), [(r.match, r.error) for r in results]
    for r in results:
        log = tmp_path / f"{r.match}.jsonl"
        log.write_bytes(logs[r.match])
        records = {rec.seq: rec for rec in map(decode, exchange.read(log))}
        assert len(r.acknowledged) == r.decisions > 0
        # Each decision sent is followed by a board past it (the game's last may come before its ack: then the
        # seat stops and that ack goes uncounted).
        assert r.decisions <= len(r.boards) <= r.decisions + 1, (len(r.boards), r.decisions)
        for seat, head, action, args in r.acknowledged:
            made = records[head + 1].event
            assert isinstance(made, ev.ChoiceMade), (head, made)
            assert (made.player, made.action, list(made.args)) == (seat, action, args)
        audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{key}.pub"])
        assert audit.exit_code == 0, audit.output
