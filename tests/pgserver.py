"""A throwaway PostgreSQL server for the tests and the reliability bench: initdb into a fresh directory under
/tmp, pg_ctl start on a free loopback port, pg_ctl stop and delete at the end. Never a mock.

``make test`` installs the server from the system's packages when it is missing (see the Makefile). The
server binaries are looked up in ``/usr/lib/postgresql/*/bin`` (Debian's layout), then on ``PATH``.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user (``runuser``).

If the server cannot be started, :func:`start` raises :class:`ServerError`: the tests that need it fail, they
never skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

USER = "kifu"


class ServerError(RuntimeError):
    pass


def bin_dir() -> Path:
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name)
        if p.parent.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    raise ServerError(
        "PostgreSQL is not installed (no pg_ctl in /usr/lib/postgresql/*/bin or on PATH); "
        "`make test` installs it with apt-get install postgresql"
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str  # postgresql://kifu@127.0.0.1:PORT/kifu
    port: int
    data: Path
    bin: Path
    run_as: list[str]
    options: str = ""

    def halt(self) -> None:
        """Stop the server at once (as a crash would), keeping its data: :meth:`resume` starts it again."""
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate",
                        "-w"], capture_output=True, check=True, timeout=60)

    def resume(self) -> None:
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "start", "-D", str(self.data), "-w", "-t", "60",
                        "-l", str(self.data.parent / "log"), "-o", self.options], capture_output=True, check=True,
                       timeout=90)

    def database_url(self, name: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def stop(self) -> None:
        subprocess.run(
            [*self.run_as, str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate", "-w"],
            capture_output=True, check=False, timeout=60,
        )
        shutil.rmtree(self.data.parent, ignore_errors=True)


def _run_as() -> list[str]:
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        raise ServerError("running as root and no runuser to start PostgreSQL as the postgres user")
    return [runuser, "-u", "postgres", "--"]


def start(*, fsync: bool = True) -> Server:
    """Start a fresh server. ``fsync`` stays on by default so the figures are those of a durable store."""
    pg = bin_dir()
    run_as = _run_as()
    root = Path(tempfile.mkdtemp(prefix="kifu-pg-"))
    data = root / "data"
    os.chmod(root, 0o755)
    if run_as:
        shutil.chown(root, "postgres", "postgres")

    def run(*args: str, timeout: float = 120) -> None:
        done = subprocess.run([*run_as, *args], capture_output=True, text=True, check=False, timeout=timeout)
        if done.returncode != 0:
            raise ServerError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr or done.stdout}")

    try:
        run(str(pg / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale",
            "--no-sync")
    except ServerError:
        shutil.rmtree(root, ignore_errors=True)
        raise
    last: ServerError | None = None
    for _ in range(5):  # a free port can be taken between finding it and binding it: try another
        port = free_port()
        opts = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='{root}' "
                f"-c max_connections=200 -c fsync={'on' if fsync else 'off'}")
        try:
            run(str(pg / "pg_ctl"), "start", "-D", str(data), "-w", "-t", "60", "-l", str(root / "log"),
                "-o", opts)
        except ServerError as exc:
            last = exc
            continue
        server = Server(f"postgresql://{USER}@127.0.0.1:{port}/postgres", port, data, pg, run_as, opts)
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(server.url, connect_timeout=5):
                    break
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    server.stop()
                    raise ServerError(f"PostgreSQL started but does not accept connections: {exc}") from exc
                time.sleep(0.1)
        return server
    shutil.rmtree(root, ignore_errors=True)
    raise ServerError(f"could not start PostgreSQL: {last}")


@contextmanager
def running(*, fsync: bool = True) -> Iterator[Server]:
    server = start(fsync=fsync)
    try:
        yield server
    finally:
        server.stop()
