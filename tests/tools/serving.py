"""The real ``kifu serve`` as a subprocess on a free loopback port, for the tests that drive it from outside
(a browser, a kill -9)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

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
