"""``kifu audit``, ``verify`` and ``replay`` read a log as a stream: on a long generated log (100,000 events) each
gives its verdict in a child process whose peak memory stays under the issue's bound and does not grow with the
log (against the same commands on a log a tenth as long), from a store and from an exported file alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tools.longlog import Run, run_kifu, run_on_terminal, synth_store

LONG, SHORT = 100_000, 10_000
LIMIT_MB = 200  # the bound at 1,000,000 events
GROWTH_MB = 12  # what ten times the records may add at most (the chain check keeps 16 bytes a record)


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("long")
    out = {}
    for n in (SHORT, LONG):
        out[n] = folder / f"{n}.db"
        synth_store(out[n], n)
    return out


def both(stores: dict[int, Path], *args: str) -> tuple[Run, Run]:
    short = run_kifu(args[0], str(stores[SHORT]), *args[1:])
    long = run_kifu(args[0], str(stores[LONG]), *args[1:])
    assert long.peak_mb < LIMIT_MB, (args, long.peak_mb)
    assert long.peak_mb - short.peak_mb < GROWTH_MB, (args, short.peak_mb, long.peak_mb)
    return short, long


def test_audit_streams_a_long_log(stores: dict[int, Path]) -> None:
    _, run = both(stores, "audit")
    assert run.code == 1, run.err
    assert f"integrity  ok       {LONG} records" in run.out
    assert "fold       ok       folds to turn" in run.out
    # (a generated game names no installed rules: the finding says so, after the chain and the fold held)
    assert "rules      FINDING  no-rules at record 1" in run.out
    assert "legality   skipped" in run.out
    assert run.err == ""  # no progress bar on a pipe


def test_audit_json_streams_and_prints_only_json(stores: dict[int, Path]) -> None:
    _, run = both(stores, "audit", "--json")
    report = json.loads(run.out)
    assert run.code == 1 and report["records"] == LONG
    assert [c["status"] for c in report["checks"]] == ["ok", "ok", "ok", "finding", "skipped"]


def test_verify_streams_a_long_log(stores: dict[int, Path]) -> None:
    _, run = both(stores, "verify")
    assert run.code == 2  # the chain is read through first; then there are no rules to re-run it with
    assert "no rules profile 'synthetic'" in run.err
    assert run.out == ""


def test_replay_streams_a_long_log(stores: dict[int, Path]) -> None:
    _, run = both(stores, "replay")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[-1].split()[0] == str(LONG)
    assert sum(1 for line in lines if line.startswith("── turn ")) > 1000


def test_an_exported_long_log_is_read_line_by_line(stores: dict[int, Path], tmp_path: Path) -> None:
    files = {}
    for n, db in stores.items():
        files[n] = tmp_path / f"{n}.jsonl"
        assert run_kifu("export", "--db", str(db), "-o", str(files[n])).code == 0
    short, long = run_kifu("audit", str(files[SHORT])), run_kifu("audit", str(files[LONG]))
    assert long.code == 1 and f"integrity  ok       {LONG} records" in long.out
    assert "(exported file)" in long.out and "fold       ok" in long.out
    assert long.peak_mb < LIMIT_MB and long.peak_mb - short.peak_mb < GROWTH_MB, (short.peak_mb, long.peak_mb)
    replayed = run_kifu("replay", str(files[LONG]))
    assert replayed.code == 0 and replayed.out.splitlines()[-1].split()[0] == str(LONG)
    assert replayed.peak_mb < LIMIT_MB


def test_progress_shows_on_a_terminal_for_a_long_run_and_never_in_json(stores: dict[int, Path]) -> None:
    code, screen = run_on_terminal("audit", str(stores[LONG]))
    assert code == 1 and f"integrity  ok       {LONG} records" in screen
    assert "auditing" in screen  # the bar (rich, on stderr), gone once the report is printed
    code, screen = run_on_terminal("audit", "--json", str(stores[LONG]))
    assert code == 1 and "auditing" not in screen
    assert json.loads(screen)["records"] == LONG
