"""The fast read path of a SQLite store (``read_bodies``, what every fold and ``Timeline`` reads) names a damaged
record as ``read_raw`` does: a value of the wrong type (SQLite lets any column hold any type) or a record that
cannot be read is a ``CorruptLog`` naming the record, never a ``TypeError`` from the fold nor a silent skip."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventsource.errors import CorruptLog
from eventsource.sqlite import SQLiteStore
from projections.timeline import Timeline, replay
from tools.logs import synthetic

GAME = "g"


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    db = tmp_path / "kifu.db"
    with SQLiteStore(db) as store:
        for batch in synthetic.batches(7, 300):  # a log that folds cleanly
            store.append(GAME, batch)
    yield db


def damage(path: Path, sql: str, *args: object) -> SQLiteStore:
    with sqlite3.connect(path) as db:
        db.execute(sql, args)
    db.close()
    return SQLiteStore(path)


def raw_error(store: SQLiteStore) -> CorruptLog:
    with pytest.raises(CorruptLog) as caught:
        list(store.read_raw(GAME))
    return caught.value


@pytest.mark.parametrize(("column", "value", "said"), [
    ("body", "not a body", "its body is text, not blob"),
    ("body", 7, "its body is integer, not blob"),
    ("hash", 12345, "its hash is integer, not blob"),
    ("hash", "abc", "its hash is text, not blob"),
    ("decision", "x", "its decision is text, not integer"),
    ("cause", 1.5, "its cause is real, not integer"),
    ("v", b"\x01", "its v is blob, not integer"),
])
def test_a_value_of_the_wrong_type_is_named_on_the_fast_path_as_on_read_raw(
    path: Path, column: str, value: object, said: str
) -> None:
    store = damage(path, f"UPDATE events SET {column} = ? WHERE seq = 123", value)
    with store:
        with pytest.raises(CorruptLog, match=said) as caught:
            list(store.read_bodies(GAME))
        assert caught.value.seq == 123
        assert str(caught.value) == str(raw_error(store))  # the same words as the full read
        with pytest.raises(CorruptLog, match=f"record 123: .*{said}"):
            replay(store, GAME)  # a fold from the store: never a TypeError from decoding a str
        with pytest.raises(CorruptLog, match="record 123"):
            Timeline(store, GAME).state_at(200)


def test_only_the_records_read_are_checked(path: Path) -> None:
    """A read from a snapshot on pays for the records it reads, not for a pass over the whole game."""
    with damage(path, "UPDATE events SET body = 'x' WHERE seq = 50") as store:
        assert [row[0] for row in store.read_bodies(GAME, 60, 70)] == list(range(60, 71))
        with pytest.raises(CorruptLog, match=r"record 50: .*its body is text, not blob"):
            list(store.read_bodies(GAME, 40, 70))


def test_a_mistyped_sequence_number_is_named_not_skipped(path: Path) -> None:
    # SQLite sorts text after every number: the query for a range never returns the row, so the gap is caught.
    with damage(path, "UPDATE events SET seq = 'seventeen' WHERE seq = 17") as store:
        with pytest.raises(CorruptLog, match="a record's seq is 'seventeen': its seq is text, not integer"):
            list(store.read_bodies(GAME))
        with pytest.raises(CorruptLog, match="seventeen"):
            replay(store, GAME)


def test_a_missing_record_is_named_not_folded_over(path: Path) -> None:
    with damage(path, "DELETE FROM events WHERE seq = 99") as store:
        with pytest.raises(CorruptLog, match=r"record 99 cannot be read .*the next one read is 100") as caught:
            list(store.read_bodies(GAME))
        assert caught.value.seq == 99
        assert [row[0] for row in store.read_bodies(GAME, 100, 105)] == list(range(100, 106))


def test_a_sound_store_reads_every_record_on_both_paths(path: Path) -> None:
    with SQLiteStore(path) as store:
        bodies = list(store.read_bodies(GAME))
        raws = list(store.read_raw(GAME))
        assert [(r.seq, r.decision, r.v, r.body) for r in raws] == bodies
        assert len(bodies) == 300
        assert replay(store, GAME).seq == 300
