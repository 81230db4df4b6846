"""What is not a regular file is refused at once (#21): an output never goes through a symbolic link or into a
device, and a pipe or a device given as an input (a log, ``--db``, ``--key``, a scenario) is refused with exit 2
instead of waiting for a writer forever."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.tools.conftest import build_store
from tools.cli import main


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    yield path


def run_briefly(*args: str) -> tuple[int, str]:
    """``kifu ARGS`` in-process, failed (not hung) if it has not answered in 30 seconds."""

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError(f"kifu {' '.join(args)} waited on its input")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return result.exit_code, result.stderr


INPUTS = [
    ["audit", "{x}"],
    ["replay", "{x}"],
    ["verify", "{x}"],
    ["at", "{x}", "3"],
    ["view", "{x}", "-o", "{tmp}/page.html"],
    ["games", "--db", "{x}"],
    ["export", "--db", "{x}", "-o", "{tmp}/out.jsonl"],
    ["import", "{x}", "--db", "{tmp}/new.db"],
    ["demo", "--db", "{x}"],
    ["snapshot", "--db", "{x}"],
    ["audit", "{db}", "--key", "{x}"],
    ["demo", "--db", "{tmp}/signed.db", "--key", "{x}"],
    ["scenario", "run", "{x}"],
]


@pytest.mark.parametrize("command", INPUTS, ids=lambda c: "-".join(a.strip("-") for a in c if "{" not in a))
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_pipe_or_a_device_as_an_input_is_refused_at_once(tmp_path: Path, fifo: Path, command: list[str],
                                                           kind: str) -> None:
    db = build_store(tmp_path / "g.db")
    given = str(fifo) if kind == "fifo" else "/dev/zero"
    args = [a.replace("{x}", given).replace("{tmp}", str(tmp_path)).replace("{db}", str(db)) for a in command]
    code, err = run_briefly(*args)
    assert code == 2, err
    assert f"error: {given} is not a regular file" in err


def test_a_directory_as_an_input_is_named_as_one(tmp_path: Path) -> None:
    code, err = run_briefly("audit", str(build_store(tmp_path / "g.db")), "--key", str(tmp_path))
    assert code == 2 and f"{tmp_path} is a directory" in err


@pytest.mark.parametrize("command", [["vocabulary", "-o"], ["export", "--db", "{db}", "-o"],
                                     ["view", "{db}", "-o"]], ids=["vocabulary", "export", "view"])
def test_no_writer_writes_through_a_symbolic_link(tmp_path: Path, command: list[str]) -> None:
    db = build_store(tmp_path / "g.db")
    target = tmp_path / "elsewhere"
    target.write_text("untouched")
    link = tmp_path / "link"
    link.symlink_to(target)
    code, err = run_briefly(*[a.replace("{db}", str(db)) for a in command], str(link))
    assert code == 2 and "is a symbolic link" in err
    assert target.read_text() == "untouched" and link.is_symlink()


def test_vocabulary_writes_into_no_pipe(fifo: Path) -> None:
    code, err = run_briefly("vocabulary", "-o", str(fifo))
    assert code == 2 and "not a regular file" in err
