"""kifu games, export and import."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from click.testing import CliRunner

from eventsource.sqlite import SQLiteStore
from tests.tools.conftest import GAME, build_store
from tests.tools.tamper import flip_body_byte, forge
from tools.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_games_lists_id_length_and_head(db: Path) -> None:
    code, out, _ = run("games", "--db", str(db))
    assert code == 0
    with SQLiteStore(db) as store:
        (info,) = store.games()
    assert out.split() == [GAME, "23", info.head.hex()]


def test_games_lists_one_game_per_line(tmp_path: Path) -> None:
    db = build_store(tmp_path / "two.db", "b-game")
    build_store(db, "a-game")
    code, out, _ = run("games", "--db", str(db))
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["a-game", "b-game"]


def test_games_on_a_missing_database_is_bad_input_and_creates_nothing(tmp_path: Path) -> None:
    code, _, err = run("games", "--db", str(tmp_path / "nope.db"))
    assert code == 2
    assert err.startswith("error: no database at")
    assert not (tmp_path / "nope.db").exists()


def test_reading_commands_leave_the_database_untouched(db: Path, tmp_path: Path) -> None:
    before = db.read_bytes()
    for args in (["games", "--db", str(db)], ["audit", "--no-rules", str(db)], ["replay", str(db)],
                 ["export", "--db", str(db), "-o", str(tmp_path / "x.jsonl")]):
        assert run(*args)[0] == 0
    assert db.read_bytes() == before


def test_export_import_round_trip(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    code, _, err = run("export", "--db", str(db), "-o", str(out))
    assert code == 0, err
    assert "23 records" in err
    assert not (tmp_path / "game.jsonl.part").exists()

    target = tmp_path / "other.db"
    code, stdout, err = run("import", str(out), "--db", str(target))
    assert code == 0, err
    assert stdout.startswith(f"imported game {GAME}: 23 records")

    with SQLiteStore(db) as a, SQLiteStore(target) as b:
        assert list(a.read_raw(GAME)) == list(b.read_raw(GAME))
        assert a.games() == b.games()


def test_export_to_stdout(db: Path, exported: Path) -> None:
    code, out, _ = run("export", "--db", str(db), "-o", "-")
    assert code == 0
    assert out.encode() == exported.read_bytes()


def test_export_needs_a_game_name_when_there_are_several(tmp_path: Path) -> None:
    db = build_store(tmp_path / "two.db", "b-game")
    build_store(db, "a-game")
    code, _, err = run("export", "--db", str(db), "-o", str(tmp_path / "x.jsonl"))
    assert code == 2
    assert "holds 2 games; name one: a-game, b-game" in err
    assert not (tmp_path / "x.jsonl").exists()
    code, _, _ = run("export", "--db", str(db), "a-game", "-o", str(tmp_path / "x.jsonl"))
    assert code == 0


def test_export_of_an_unknown_game(db: Path, tmp_path: Path) -> None:
    code, _, err = run("export", "--db", str(db), "nope", "-o", str(tmp_path / "x.jsonl"))
    assert code == 2
    assert "no game 'nope'" in err


def test_export_of_an_empty_store(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "empty.db").close()
    code, _, err = run("export", "--db", str(tmp_path / "empty.db"), "-o", str(tmp_path / "x.jsonl"))
    assert code == 2
    assert "no games in" in err


def test_import_refuses_an_existing_game_and_appends_nothing(db: Path, exported: Path) -> None:
    code, _, err = run("import", str(exported), "--db", str(db))
    assert code == 2
    assert f"game {GAME!r} already exists" in err
    with SQLiteStore(db) as store:
        assert store.head(GAME) == 23


def _assert_nothing_imported(target: Path) -> None:
    if target.exists():
        with SQLiteStore(target) as store:
            assert store.games() == []


def test_import_of_a_forged_record_appends_nothing(lines: list[bytes], tmp_path: Path) -> None:
    lines[8] = forge(lines[8], dst="0.mana")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    target = tmp_path / "target.db"
    code, _, err = run("import", str(bad), "--db", str(target))
    assert code == 1
    assert "refusing to import" in err and "altered at record 9 (position 8)" in err
    _assert_nothing_imported(target)


def test_import_of_an_edited_body_appends_nothing(lines: list[bytes], tmp_path: Path) -> None:
    lines[-1] = flip_body_byte(lines[-1])
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    target = tmp_path / "target.db"
    code, _, err = run("import", str(bad), "--db", str(target))
    assert code == 1
    assert "at record 23" in err
    _assert_nothing_imported(target)


def test_import_of_a_file_missing_a_record_appends_nothing(lines: list[bytes], tmp_path: Path) -> None:
    del lines[3]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    target = tmp_path / "target.db"
    code, _, err = run("import", str(bad), "--db", str(target))
    assert code == 1
    assert "missing at record 4" in err
    _assert_nothing_imported(target)


def test_import_of_garbage(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\x00\xffnot json at all\n")
    code, _, err = run("import", str(bad), "--db", str(tmp_path / "t.db"))
    assert code == 2
    assert err.startswith("error: ")
    assert not (tmp_path / "t.db").exists()


def test_import_of_a_store_is_refused(db: Path, tmp_path: Path) -> None:
    code, _, err = run("import", str(db), "--db", str(tmp_path / "t.db"))
    assert code == 2
    assert "is a store" in err


def test_import_into_something_that_is_not_a_store(exported: Path, tmp_path: Path) -> None:
    not_db = tmp_path / "notes.txt"
    not_db.write_text("my notes\n" * 100)
    code, _, err = run("import", str(exported), "--db", str(not_db))
    assert code == 2
    assert err.startswith("error: ")
    assert not_db.read_text() == "my notes\n" * 100


def test_import_with_a_head_refuses_a_file_cut_short(db: Path, lines: list[bytes], tmp_path: Path) -> None:
    with SQLiteStore(db) as store:
        (info,) = store.games()
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(lines[:-1]))
    target = tmp_path / "target.db"
    code, _, err = run("import", str(short), "--db", str(target), "--head", info.head.hex())
    assert code == 1
    assert "unmatched at record 22" in err
    _assert_nothing_imported(target)


# -- where kifu export writes ------------------------------------------------------------------------------


def test_export_prints_the_head_of_the_last_record_it_wrote(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    code, _, err = run("export", "--db", str(db), "-o", str(out))
    assert code == 0
    last = json.loads(out.read_bytes().splitlines()[-1])
    assert f"23 records, head {last['hash']}," in err


def test_export_replaces_a_regular_file_whole_and_leaves_no_temporary_file(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "game.jsonl"
    out.write_text("an older export\n")
    out.chmod(0o640)
    code, _, _ = run("export", "--db", str(db), "-o", str(out))
    assert code == 0
    assert len(out.read_bytes().splitlines()) == 23
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in folder.iterdir()] == ["game.jsonl"]


def test_export_never_replaces_what_is_not_a_regular_file(db: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    target = tmp_path / "target.jsonl"
    target.write_text("keep me\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    before = sorted(p.name for p in tmp_path.iterdir())
    for where, says in [(fifo, "not a regular file"), (folder, "directory"), (link, "symbolic link")]:
        code, _, err = run("export", "--db", str(db), "-o", str(where))
        assert code == 2, (where, err)
        assert says in err, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and folder.is_dir() and link.is_symlink()
    assert target.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_export_to_a_character_device_is_refused_and_leaves_it_a_device(db: Path) -> None:
    # /dev/null: a root user's export must not turn it into a file; the refusal comes before anything is written
    code, _, err = run("export", "--db", str(db), "-o", os.devnull)
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
