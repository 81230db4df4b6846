"""Every reading command on a long generated log, each as its own process, within a memory limit: the peak RSS
of the child (``os.wait4``) must stay under the command's bound, whatever point it is asked about.

100,000 events keep ``make test`` short; ``python -m bench.commands`` measures the same commands at 1,000,000
(README, Benchmarks). The time-travel commands read a snapshot and the records after it (tools.travel), so their
memory does not grow with the log: the issue's bound is 150 MB at any length, and here 60 MB, which a command
that held the whole log could not meet (100,000 records in memory take about 120 MB; they need about 25). audit
and replay stream: at most the issue's 200 MB, its bound at 1,000,000 events. ``kifu view`` is measured by
``bench.commands`` and tested in Chromium (tests/tools/test_view_browser.py).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from eventsource import events as ev
from eventsource.sqlite import SQLiteStore

EVENTS = 100_000
TRAVEL_MB = 60
STREAM_MB = 200
ADDRESS_SPACE = 2 << 30  # a runaway child fails at once instead of eating the machine


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run(*args: str) -> tuple[int, float, str]:
    """(exit status, peak RSS in MB, stderr) of ``kifu ARGS`` run as a child process."""
    child = subprocess.Popen([sys.executable, "-m", "tools.cli", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, preexec_fn=_limit)
    assert child.stderr is not None
    err = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_maxrss / 1024, err


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("long") / "long.db"
    code, _, err = run("synth", "--db", str(db), "--events", str(EVENTS), "--as", "long")
    assert code == 0, err
    return db


def points(db: Path) -> list[list[str]]:
    """at / why / why-not / diff near the start, the middle and the end of the log."""
    out = []
    with SQLiteStore(db) as store:
        for n in (300, EVENTS // 2, EVENTS - 100):
            trig = next(r for r in store.read("long", n) if isinstance(r.event, ev.Triggered))
            assert isinstance(trig.event, ev.Triggered)
            out += [["at", str(db), str(n)], ["diff", str(db), str(max(0, n - 5_000)), str(n)],
                    ["why", str(db), str(trig.seq)], ["why-not", str(db), str(trig.event.by), f"#{trig.event.source}"]]
    return out


def test_time_travel_commands_stay_within_their_memory_bound_anywhere_in_a_long_log(long_db: Path) -> None:
    for args in points(long_db):
        code, peak, err = run(*args)
        assert code == 0, (args, err)
        assert peak <= TRAVEL_MB, f"kifu {' '.join(args[:1])} at {args[2:]} peaked at {peak:.0f} MB"


@pytest.mark.parametrize(("command", "expected"), [
    ("replay", 0),
    ("audit", 1),  # the generated game names no installed rules: the audit says it cannot re-adjudicate it
    ("verify", 2),  # and verify refuses it
])
def test_whole_log_commands_stay_within_their_memory_bound(long_db: Path, command: str, expected: int) -> None:
    code, peak, err = run(command, str(long_db))
    assert code == expected, err
    assert peak <= STREAM_MB, f"kifu {command} on {EVENTS:,} events peaked at {peak:.0f} MB"
