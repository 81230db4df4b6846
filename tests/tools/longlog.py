"""Long logs for the commands' scale tests: a generated game written to a SQLite store (what ``kifu synth``
writes), and a command run in a child process with its peak memory (resident set size) measured.

The peak is the child's own (``os.wait4`` in a small process that starts it, not in the test process: see
``_MEASURE``). Each child also runs under a limit on its address space (RLIMIT_AS), so a runaway one fails at once
instead of eating the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from eventsource.sqlite import SQLiteStore
from tools.logs import synthetic

CHUNK = 5_000  # events per transaction, as kifu synth writes them
ADDRESS_SPACE = 2 << 30


def synth_store(path: Path, events: int, seed: int = 1, game: str | None = None) -> str:
    """Write a generated game of ``events`` events into the store at ``path``; its id."""
    name = game or f"synth-{events}-{seed}"
    with SQLiteStore(path) as store:
        chunk = []
        for batch in synthetic.batches(seed, events):
            chunk.extend(batch)
            if len(chunk) >= CHUNK:
                store.append(name, chunk)
                chunk = []
        if chunk:
            store.append(name, chunk)
    return name


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    peak_mb: float  # the child's peak resident set size


# The child is started by a small Python of its own, which reports the child's peak: a process forked from this
# one would count this process's memory as its own (Linux keeps the largest resident set a process had before
# exec as its peak: after a long test session, hundreds of MB that are not the command's).
_MEASURE = """
import os, resource, subprocess, sys
limit, report, *command = sys.argv[1:]
def lower():
    resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
child = subprocess.Popen(command, preexec_fn=lower)
_, status, usage = os.wait4(child.pid, 0)
with open(report, "w") as out:
    out.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_kifu(*args: str, env: dict[str, str] | None = None) -> Run:
    """``kifu ARGS`` in a child process (stdout and stderr to files, not a terminal), with its peak memory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        code = subprocess.call(
            [sys.executable, "-c", _MEASURE, str(ADDRESS_SPACE), peak.name, sys.executable, "-m", "tools.cli", *args],
            stdout=out, stderr=err, env={**os.environ, **(env or {})})
        out.seek(0)
        err.seek(0)
        return Run(code, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   int(peak.read()) / 1024)  # (kilobytes on Linux)


def run_on_terminal(*args: str) -> tuple[int, str]:
    """``kifu ARGS`` with stdout and stderr on a pseudo-terminal, as a person at a terminal runs it: the exit code
    and everything the terminal was sent."""
    import pty

    main, child_end = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "tools.cli", *args], stdout=child_end, stderr=child_end,
                             stdin=subprocess.DEVNULL, env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"})
    os.close(child_end)
    sent = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # (Linux: the other end closed)
            break
        if not chunk:
            break
        sent += chunk
    os.close(main)
    return child.wait(), sent.decode("utf-8", "replace")
