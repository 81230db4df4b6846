"""kifu audit: clean logs, tampered exports, unreadable input, --json."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.records import NewEvent
from eventsource.sqlite import SQLiteStore
from statemachine.games import versions
from tests.tools.conftest import GAME, build_store, sample_events
from tests.tools.tamper import flip_body_byte, forge
from tools.cli import main

NOT_INSTALLED = f"no duel_masters rules 0.1 installed (installed: {', '.join(versions('duel_masters'))})"


def audit(*args: str) -> tuple[int, str, str]:
    # The sample log here is written by hand, not played by the rules: these tests are about integrity and
    # fold, so they leave re-adjudication out (tests/tools/test_cli_verify.py runs it on real games).
    result = CliRunner().invoke(main, ["audit", "--no-rules", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def audit_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = audit(*args, "--json")
    return code, json.loads(out)


def write(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def test_clean_export(exported: Path) -> None:
    code, out, _ = audit(str(exported))
    assert code == 0
    with SQLiteStore(exported.parent / "kifu.db") as store:
        (info,) = store.games()
    assert out.splitlines()[-2] == f"clean: 23 records, head {info.head.hex()}"


def test_clean_store_by_header_and_by_extension(db: Path, tmp_path: Path) -> None:
    assert audit(str(db))[0] == 0
    renamed = tmp_path / "evidence.bin"  # no .db: recognised by its header
    renamed.write_bytes(db.read_bytes())
    assert audit(str(renamed), GAME)[0] == 0


def test_clean_json(exported: Path) -> None:
    code, report = audit_json(str(exported))
    assert code == 0
    assert report["clean"] is True
    assert report["records"] == 23
    assert report["findings"] == []
    assert [c["check"] for c in report["checks"]] == ["integrity", "fold"]  # --no-rules
    assert {c["status"] for c in report["checks"]} == {"ok"}


def edit_body_byte(ls: list[bytes]) -> None:
    ls[8] = flip_body_byte(ls[8])


def forge_event(ls: list[bytes]) -> None:
    ls[8] = forge(ls[8], dst="0.mana")


def delete_line(ls: list[bytes]) -> None:
    del ls[4]


def swap_lines(ls: list[bytes]) -> None:
    ls[4], ls[5] = ls[5], ls[4]


def duplicate_line(ls: list[bytes]) -> None:
    ls.insert(6, ls[5])


def truncate_file(ls: list[bytes]) -> None:
    ls[-1] = ls[-1][:-9]


def garbage_line(ls: list[bytes]) -> None:
    ls[10] = b"oops\n"


@pytest.mark.parametrize(
    ("tamper", "kind", "seq"),
    [
        (edit_body_byte, "altered", 9),
        (forge_event, "altered", 9),
        (delete_line, "missing", 5),
        (swap_lines, "reordered", 5),
        (duplicate_line, "duplicated", 7),
        (truncate_file, "truncated", 23),
        (garbage_line, "malformed", 11),
    ],
    ids=lambda v: v.__name__ if callable(v) else None,
)
def test_tampered_export_is_a_finding(
    tmp_path: Path, lines: list[bytes], tamper: Callable[[list[bytes]], None], kind: str, seq: int
) -> None:
    tamper(lines)
    path = write(tmp_path, lines)
    code, out, _ = audit(str(path))
    assert code == 1
    assert f"finding: {kind} at record {seq} (position {seq - 1}):" in out
    code, report = audit_json(str(path))
    assert code == 1
    assert report["clean"] is False
    (finding,) = report["findings"]
    where = (finding["check"], finding["kind"], finding["seq"], finding["position"])
    assert where == ("integrity", kind, seq, seq - 1)
    assert finding["message"]
    assert report["checks"][1]["status"] == "skipped"


def test_altered_readable_event_is_named(tmp_path: Path, lines: list[bytes]) -> None:
    lines[2] = lines[2].replace("アクア".encode(), "ボルシャック".encode())
    code, out, _ = audit(str(write(tmp_path, lines)))
    assert code == 1
    finding = "altered at record 3 (position 2): line 3: the readable event does not match the recorded body"
    assert f"finding: {finding}" in out


def test_a_log_that_chains_but_does_not_fold(tmp_path: Path) -> None:
    db = build_store(tmp_path / "k.db")
    with SQLiteStore(db) as store:  # well sealed, but object 99 never existed
        store.append(GAME, [NewEvent(ev.ZoneChanged(99, 100, 1, "0.hand", 0, "0.mana", 0, "charge"))])
    code, out, _ = audit(str(db))
    assert code == 1
    assert "integrity  ok" in out
    assert "finding: inconsistent at record 24 (position 23): object 99 is not in the game" in out


def retyped(line: bytes, field: str, value: object) -> bytes:
    """One field of an export line given a value of the wrong type (a number where an object is expected)."""
    data = json.loads(line)
    data[field] = value
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


@pytest.mark.parametrize(("index", "field", "value", "kind"), [
    (0, "event", 5, "altered"), (0, "seq", "1", "malformed"), (0, "game", 5, "malformed"), (0, "body", 5, "altered"),
    (6, "event", 5, "altered"), (6, "decision", None, "altered"), (22, "event", [1, 2], "altered"),
])
def test_a_record_field_of_the_wrong_type_is_a_located_finding(tmp_path: Path, lines: list[bytes], index: int,
                                                               field: str, value: object, kind: str) -> None:
    """A field of the wrong type in any record, the first included, is a finding naming the record and the
    field (exit 1), not input that cannot be read (exit 2)."""
    lines[index] = retyped(lines[index], field, value)
    code, report = audit_json(str(write(tmp_path, lines)))
    assert code == 1, report
    finding = report["findings"][0]
    assert (finding["check"], finding["kind"], finding["seq"], finding["field"]) == ("integrity", kind, index + 1,
                                                                                     field)
    assert f"at `$.{field}`" in finding["message"]


@pytest.mark.parametrize("whole", [b"5\n", b"[]\n", b'"record"\n'])
def test_a_first_record_that_is_no_object_is_a_located_finding(tmp_path: Path, lines: list[bytes],
                                                               whole: bytes) -> None:
    """The first line a number (or any JSON that is not a record) before record 2 of a game: that game's first
    record is damaged, a finding at record 1."""
    lines[0] = whole
    code, out, _ = audit(str(write(tmp_path, lines)))
    assert code == 1
    assert "finding: malformed at record 1 (position 0): line 1: not a kifu record: Expected `object`" in out


def test_altered_store_record(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET cause = 3 WHERE seq = 12")
    code, report = audit_json(str(db))
    assert code == 1
    assert report["findings"][0]["kind"] == "altered"
    assert report["findings"][0]["seq"] == 12


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\x01\x02garbage\xff" * 50,
        b"hello\nworld\n",
        b'{"game": 1}\n',
        b"SQLite format 3\x00" + bytes(200),
    ],
    ids=["empty", "binary", "text", "json-not-a-record", "sqlite-header-only"],
)
def test_unreadable_input_is_exit_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "input"
    path.write_bytes(content)
    code, out, err = audit(str(path))
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert len(err.splitlines()) == 1


def test_not_a_file(tmp_path: Path) -> None:
    assert audit(str(tmp_path))[0] == 2
    code, _, err = audit(str(tmp_path / "missing.jsonl"))
    assert code == 2
    assert "no such file" in err


def test_foreign_sqlite_database(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    code, _, err = audit(str(other))
    assert code == 2
    assert "not a kifu store" in err
    with sqlite3.connect(other) as conn:  # and it was not touched
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["t"]


def test_unreadable_input_with_json(tmp_path: Path) -> None:
    path = tmp_path / "input.jsonl"
    path.write_bytes(b"nonsense\n")
    code, report = audit_json(str(path))
    assert code == 2
    assert report["clean"] is False
    assert "error" in report


def test_wrong_game_name(exported: Path, db: Path) -> None:
    code, _, err = audit(str(exported), "other")
    assert code == 2
    assert "holds game 'g1', not 'other'" in err
    code, _, err = audit(str(db), "other")
    assert code == 2
    assert "no game 'other'" in err


def test_head_catches_records_cut_off_the_end(tmp_path: Path, lines: list[bytes], db: Path) -> None:
    with SQLiteStore(db) as store:
        (info,) = store.games()
    head = info.head.hex()
    short = write(tmp_path, lines[:-2])
    assert audit(str(short))[0] == 0  # a shorter log still chains
    code, out, _ = audit(str(short), "--head", head)
    assert code == 1
    assert "finding: unmatched at record 21 (position 20)" in out
    assert "the head hash" in out and "is no record's: record 21, the last, has hash" in out
    full = write(tmp_path, lines)
    assert audit(str(full), "--head", head)[0] == 0
    code, _, err = audit(str(full), "--head", "xyz")
    assert code == 2 and "32 hexadecimal digits" in err


def test_head_catches_records_played_on_past_it(tmp_path: Path, lines: list[bytes]) -> None:
    # The head held is record 20's, as if the game was adjourned there and published; the file goes on (#21).
    held = json.loads(lines[19])["hash"]
    code, out, _ = audit(str(write(tmp_path, lines)), "--head", held)
    assert code == 1
    assert "finding: extended at record 21 (position 20)" in out
    assert f"the head hash {held} you hold is record 20's, but the log goes on for 3 records past it" in out
    assert "head       FINDING" in out and "integrity  ok" in out
    result = CliRunner().invoke(main, ["import", str(tmp_path / "tampered.jsonl"), "--db",
                                       str(tmp_path / "into.db"), "--head", held])
    assert result.exit_code == 1 and "refusing to import" in result.stderr and "extended at record 21" in result.stderr
    assert not (tmp_path / "into.db").exists() or "g1" not in CliRunner().invoke(
        main, ["games", "--db", str(tmp_path / "into.db")]).stdout


def test_damaged_last_line_comes_before_the_head_check(tmp_path: Path, lines: list[bytes], db: Path) -> None:
    with SQLiteStore(db) as store:
        (info,) = store.games()
    lines[-1] = lines[-1][:-9]
    code, out, _ = audit(str(write(tmp_path, lines)), "--head", info.head.hex())
    assert code == 1
    assert "finding: truncated at record 23 (position 22)" in out


def test_a_log_naming_rules_not_installed_cannot_be_audited(exported: Path) -> None:
    # the hand-written log names duel_masters rules 0.1: no installed rules can judge it, so it is unusable
    # input (exit 2) naming the versions that are installed, for audit and verify alike
    from statemachine.games import versions

    installed = ", ".join(versions("duel_masters"))
    assert installed.startswith("1.0, 1.1")
    for command in ("audit", "verify"):
        result = CliRunner().invoke(main, [command, str(exported)])
        assert "Traceback" not in result.output
        assert result.exit_code == 2, result.output
        assert f"no duel_masters rules 0.1 installed (installed: {installed})" in result.stderr
    result = CliRunner().invoke(main, ["audit", str(exported), "--json"])
    assert result.exit_code == 2
    assert f"no duel_masters rules 0.1 installed (installed: {installed})" in json.loads(result.stdout)["error"]


def test_a_hand_written_log_is_not_what_the_rules_give(tmp_path: Path) -> None:
    # the same log claiming rules 1.0: its card pool is not the one rules 1.0 play with, a finding (exit 1)
    events = sample_events()
    started = events[0].event
    assert isinstance(started, ev.GameStarted)
    events[0] = NewEvent(msgspec.structs.replace(started, profile_version="1.0"), 0, 0)
    with SQLiteStore(tmp_path / "claims.db") as store:
        store.append(GAME, events)
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "claims.db"), "--json"])
    assert result.exit_code == 1, result.output
    rules = next(c for c in json.loads(result.stdout)["checks"] if c["check"] == "rules")
    assert rules["finding"]["kind"] == "version" and rules["finding"]["seq"] == 1
    assert rules["finding"]["field"] == "card_pool"
    assert "dm-sample" in rules["finding"]["message"] and "duel_masters" in rules["finding"]["message"]
