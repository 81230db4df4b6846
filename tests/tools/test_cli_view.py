"""``kifu view`` on the command line: the page it writes holds the whole game, and it writes it as ``kifu export``
writes a file, whole or not at all, never over a device, a directory or a symbolic link's target."""

from __future__ import annotations

import os
import sqlite3
import stat
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.tools.games import export
from tools.cli import main
from tools.page.html import read_page
from tools.travel.loaded import load_log


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return export("duel_masters", tmp_path / "dm.jsonl")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_page_holds_every_record_and_a_board_for_each(log: Path, tmp_path: Path) -> None:
    out = tmp_path / "dm.html"
    code, said = run("view", str(log), "-o", str(out))
    assert code == 0, said
    page = read_page(out.read_text(encoding="utf-8"))
    loaded = load_log(str(log))
    assert [r[0] for r in page.records] == [r.seq for r in loaded.records]
    assert page.events() == {seq: text for seq, text in loaded.lines.items()}
    full = [i for i, r in enumerate(page.records) if "F" in r[6]]
    assert full[0] == 0 and all(b - a == page.head["every"] for a, b in pairwise(full))
    assert len(full) < len(page.records)  # the other records carry only what changed
    last = page.board(len(page.records) - 1)
    assert last["seq"] == loaded.last
    assert last["zones"] == {z: ids for z, ids in loaded.state_at(loaded.last).zones.items()}


def test_view_replaces_a_regular_file_whole_and_leaves_no_temporary_file(log: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    out = folder / "game.html"
    out.write_text("an older page\n")
    out.chmod(0o640)
    code, said = run("view", str(log), "-o", str(out))
    assert code == 0, said
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in folder.iterdir()] == ["game.html"]


def test_a_view_that_fails_leaves_the_old_page_and_no_temporary_file(tmp_path: Path) -> None:
    from tests.tools.conftest import build_store

    db = build_store(tmp_path / "store.db")
    with sqlite3.connect(db) as conn:  # a record whose body no reader can decode: unusable input
        conn.execute("UPDATE events SET body = ? WHERE seq = 3", (b"\xff not json",))
    conn.close()
    folder = tmp_path / "pages"
    folder.mkdir()
    out = folder / "game.html"
    out.write_text("an older page\n")
    code, said = run("view", str(db), "-o", str(out))
    assert code in (1, 2), said
    assert out.read_text() == "an older page\n"
    assert [p.name for p in folder.iterdir()] == ["game.html"]


@pytest.mark.parametrize("kind", ["fifo", "directory", "symlink", "device"])
def test_view_never_replaces_what_is_not_a_regular_file(log: Path, tmp_path: Path, kind: str) -> None:
    target = tmp_path / "target.html"
    target.write_text("keep me\n")
    where = tmp_path / "out.html"
    says = {"fifo": "not a regular file", "directory": "directory", "symlink": "symbolic link",
            "device": "not a regular file"}[kind]
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "directory":
        where.mkdir()
    elif kind == "symlink":
        where.symlink_to(target)
    else:
        where = Path(os.devnull)  # a root user's view must not turn it into a file
    before = sorted(p.name for p in tmp_path.iterdir())
    code, said = run("view", str(log), "-o", str(where))
    assert code == 2, said
    assert says in said and "Traceback" not in said, said
    assert target.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(where).st_mode)
    elif kind == "directory":
        assert where.is_dir() and not any(where.iterdir())
    elif kind == "symlink":
        assert where.is_symlink()
    else:
        assert stat.S_ISCHR(os.stat(where).st_mode)
