"""What only the SQLite store promises: WAL, one transaction per append across connections, and refusing files
that are not kifu stores."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict, CorruptLog, KifuError
from eventsource.integrity import Verified, verify
from eventsource.records import NewEvent, RawRecord, seal
from eventsource.sqlite import SQLiteStore


def passes(n: int, decision: int = 1) -> list[NewEvent]:
    return [NewEvent(ev.PriorityPassed(i % 2), decision) for i in range(n)]


def test_the_store_is_in_wal_mode(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kifu.db") as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with sqlite3.connect(tmp_path / "kifu.db") as other:  # WAL is a property of the file, not the connection
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_store_reopened_reads_what_was_written(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kifu.db") as store:
        written = store.append("g", passes(5))
        store.save_snapshot("g", 3, b"snap")
    with SQLiteStore(tmp_path / "kifu.db") as store:
        assert list(store.read_raw("g")) == written
        assert store.load_snapshot("g", 5) == (3, b"snap")


def test_two_connections_racing_with_the_same_expected_exactly_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "kifu.db"
    with SQLiteStore(path) as setup:
        setup.append("g", passes(3))
    rounds = 20
    for n in range(rounds):
        expected = 3 + 4 * n
        barrier = threading.Barrier(2)
        outcome: dict[int, str] = {}

        def write(
            i: int,
            n: int = n,
            expected: int = expected,
            barrier: threading.Barrier = barrier,
            outcome: dict[int, str] = outcome,
        ) -> None:
            with SQLiteStore(path, timeout=10) as store:  # a connection of its own, in its own thread
                barrier.wait()
                try:
                    store.append("g", [NewEvent(ev.PriorityGiven(i), n + 2)] * 4, expected=expected)
                    outcome[i] = "won"
                except ConcurrencyConflict:
                    outcome[i] = "conflict"

        threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["conflict", "won"], outcome
    with SQLiteStore(path) as store:
        records = list(store.read_raw("g"))
        assert len(records) == 3 + 4 * rounds
        assert isinstance(verify(records), Verified)
        # Each round's four events come from a single writer: a decision is never interleaved with another.
        for start in range(3, len(records), 4):
            assert len({r.body for r in records[start : start + 4]}) == 1


def test_the_head_is_checked_again_inside_the_transaction(tmp_path: Path) -> None:
    """Writer A reads the head and seals its batch; writer B appends; A's transaction must then refuse."""
    path = tmp_path / "kifu.db"
    with SQLiteStore(path) as a, SQLiteStore(path) as b:
        a.append("g", passes(2))
        last, prev = a._head("g")
        sealed_by_a = seal("g", last + 1, prev, passes(2, decision=2))
        b.append("g", passes(1, decision=3), expected=2)
        with pytest.raises(ConcurrencyConflict, match="expected the log to end at sequence 2, but it ends at 3"):
            a._write("g", last, sealed_by_a)
        records = list(a.read_raw("g"))
        assert [r.decision for r in records] == [1, 1, 3]
        assert isinstance(verify(records), Verified)


def test_a_failure_in_the_middle_of_a_write_rolls_back_the_whole_batch(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kifu.db") as store:
        store.append("g", passes(2))
        before = list(store.read_raw("g"))
        good = seal("g", 3, before[-1].hash, passes(3))
        # The third row repeats sequence 4: two rows are inserted before the primary key refuses the third.
        broken = [*good[:2], RawRecord("g", 4, 1, 0, 1, good[2].body, good[2].hash)]
        with pytest.raises(sqlite3.IntegrityError):
            store._write("g", 2, broken)
        assert list(store.read_raw("g")) == before
        assert store.append("g", passes(1))[0].seq == 3


def test_a_failed_first_write_does_not_leave_the_game_behind(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kifu.db") as store:
        good = seal("new", 1, bytes(16), passes(2))
        broken = [good[0], RawRecord("new", 1, 1, 0, 1, good[1].body, good[1].hash)]
        with pytest.raises(sqlite3.IntegrityError):
            store._write("new", 0, broken)
        assert store.games() == []
        assert store.append("new", passes(2)) == good  # the game row is created afresh, not from a stale cache
    with SQLiteStore(tmp_path / "kifu.db") as store:
        assert [g.game for g in store.games()] == ["new"]


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(CorruptLog, match="is not a kifu SQLite store"):
        SQLiteStore(path)
    assert path.read_bytes() == b"these are my notes, not a database\n" * 200


def test_another_programs_sqlite_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT)")
        db.execute("INSERT INTO events(title) VALUES ('birthday')")
    db.close()
    with pytest.raises(CorruptLog, match="not a kifu store"):
        SQLiteStore(path)
    with sqlite3.connect(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert tables == {"events"}
    assert mode != "wal"


def test_a_database_whose_kifu_tables_have_other_columns_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("CREATE TABLE events (game INTEGER, seq INTEGER, payload BLOB)")
    db.close()
    with pytest.raises(CorruptLog, match="table events has columns game, seq, payload"):
        SQLiteStore(path)


def test_a_path_that_cannot_be_opened_is_a_kifu_error(tmp_path: Path) -> None:
    with pytest.raises(KifuError):
        SQLiteStore(tmp_path / "no-such-dir" / "kifu.db")
    with pytest.raises(KifuError):
        SQLiteStore(tmp_path)  # a directory
