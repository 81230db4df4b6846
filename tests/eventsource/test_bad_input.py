"""Bad input gets a clear kifu error naming the problem, and nothing is appended."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from eventsource import events as ev
from eventsource import exchange, records
from eventsource.errors import ConcurrencyConflict, CorruptLog, InvalidEvent, KifuError
from eventsource.integrity import Finding, verify
from eventsource.records import GENESIS, NewEvent, RawRecord, record_hash
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore
from eventsource.upcast import UnknownEventKind
from tests.eventsource.logs import stored_log


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "kifu.db") as s:
        s.append("g", [NewEvent(ev.PriorityGiven(0))] * 3)
        yield s


def snapshot_of(store: EventStore) -> tuple[object, ...]:
    return tuple(store.games()), tuple(store.read_raw("g"))


def import_file(store: EventStore, path: Path, game: str = "g") -> None:
    """What an import does: read and verify the whole file first, then append it in one transaction."""
    raws = list(exchange.read(path))
    result = verify(raws, game)
    if isinstance(result, Finding):
        raise CorruptLog(str(result), seq=result.seq)
    store.append_raw(game, raws, expected=store.head(game))


def export(tmp_path: Path, n: int = 12) -> tuple[Path, list[bytes]]:
    path = tmp_path / "game.jsonl"
    exchange.write(stored_log(9, n, game="new"), path)
    return path, path.read_bytes().splitlines(keepends=True)


def chained(body: bytes, game: str = "new", v: int = 1) -> RawRecord:
    return RawRecord(game, 1, 0, 0, v, body, record_hash(GENESIS, game, 1, 0, 0, v, body))


# -- exported files ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "line", "message"),
    [
        (lambda lines: [*lines[:4], b"this is not json\n", *lines[5:]], 5, "not a kifu record"),
        (lambda lines: [*lines[:4], b'{"game": "new"}\n', *lines[5:]], 5, "missing required field `seq`"),
        (lambda lines: [*lines[:4], b"[1, 2, 3]\n", *lines[5:]], 5, "not a kifu record"),
        (lambda lines: [*lines[:4], b"\n", *lines[5:]], 5, "empty line"),
        (lambda lines: [*lines[:-1], lines[-1][: len(lines[-1]) // 2]], -1, "ends in the middle of a line"),
        (lambda lines: [*lines[:-1], lines[-1][:-1]], -1, "ends in the middle of a line"),
        (lambda lines: [*lines[:2], b"\xff\xfe\x00garbage\n", *lines[2:]], 3, "not a kifu record"),
        (
            lambda lines: [lines[0].replace(b'"hash":"', b'"hash":"zz'), *lines[1:]],
            1,
            "hash is not hexadecimal",
        ),
        (
            lambda lines: [
                lines[0].replace(b'"seq":1,', b'"seq":100000000000000000000000000000,'),
                *lines[1:],
            ],
            1,
            "not a kifu record",
        ),
        (
            lambda lines: [
                lines[0].replace(b'"decision":1,', b'"decision":-9223372036854775809,'),
                *lines[1:],
            ],
            1,
            "not a kifu record",
        ),
        (
            lambda lines: [lines[0].replace(b'"seq":1,', b'"seq":1, '), *lines[1:]],
            1,
            "not in kifu's canonical form",
        ),
    ],
    ids=[
        "not-json",
        "not-a-record",
        "json-array",
        "empty-line",
        "truncated",
        "no-final-newline",
        "binary",
        "bad-hash",
        "huge-seq",
        "huge-decision",
        "reformatted",
    ],
)
def test_a_damaged_file_is_refused_naming_the_line_and_nothing_is_imported(
    store: SQLiteStore, tmp_path: Path, damage: object, line: int, message: str
) -> None:
    path, lines = export(tmp_path)
    path.write_bytes(b"".join(damage(lines)))  # type: ignore[operator]
    line = len(lines) if line == -1 else line  # -1: the last line
    before = snapshot_of(store)
    with pytest.raises(CorruptLog, match=message) as caught:
        import_file(store, path, "new")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")
    assert snapshot_of(store) == before
    assert store.head("new") == 0


def test_a_file_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CorruptLog, match=r"cannot open .*nowhere\.jsonl: No such file"):
        list(exchange.read(tmp_path / "nowhere.jsonl"))


def test_a_file_whose_chain_is_broken_is_refused_and_nothing_is_imported(store: SQLiteStore, tmp_path: Path) -> None:
    path, lines = export(tmp_path)
    path.write_bytes(b"".join(lines[:3] + lines[4:]))
    before = snapshot_of(store)
    with pytest.raises(CorruptLog, match="record 4: missing at record 4"):
        import_file(store, path, "new")
    assert snapshot_of(store) == before


@pytest.mark.parametrize(
    ("body", "v", "message"),
    [
        (msgspec.msgpack.encode([99, 1, 2]), 1, "unknown event tag 99"),
        (msgspec.msgpack.encode(["StatusSet", 1, "tapped", 1]), 1, "unknown event tag 'StatusSet'"),
        (b"\xc1\x00\x13garbage", 1, "malformed"),
        (b"", 1, "truncated"),
        (msgspec.msgpack.encode([14, 1, "tapped"]), 1, "at least length 4"),
        (
            msgspec.msgpack.encode([14, 1, b"\xff\xfe".decode("latin-1"), 1])[:-5] + b"\xa2\xff\xfe\x01",
            1,
            "UTF-8",
        ),
        (msgspec.msgpack.encode([14, 1, "tapped", 1]), 7, "schema v7 is not one this kifu reads"),
    ],
    ids=["unknown-tag", "named-tag", "garbage", "empty", "short", "bad-utf8", "future-version"],
)
def test_an_unreadable_body_is_refused_everywhere_it_is_read(
    store: SQLiteStore, tmp_path: Path, body: bytes, v: int, message: str
) -> None:
    raw = chained(body, v=v)
    # In an exported file: the line is named.
    path = tmp_path / "bad.jsonl"
    path.write_bytes(
        msgspec.json.encode(
            {
                "game": "new",
                "seq": 1,
                "decision": 0,
                "cause": 0,
                "v": v,
                "hash": raw.hash.hex(),
                "body": body,
                "event": {"kind": "StatusSet"},
            }
        )
        + b"\n"
    )
    with pytest.raises(CorruptLog, match=message) as caught:
        list(exchange.read(path))
    assert caught.value.line == 1
    # By the integrity check: an undecodable record, even though it chains.
    result = verify([raw])
    assert isinstance(result, Finding)
    assert (result.problem, result.seq) == ("undecodable", 1)
    # On import into a store: refused, nothing appended.
    before = snapshot_of(store)
    with pytest.raises(CorruptLog, match=message):
        store.append_raw("new", [raw], expected=0)
    assert snapshot_of(store) == before
    assert store.head("new") == 0
    # Read from a store that somehow holds it: the record is named.
    with pytest.raises(CorruptLog, match=f"record 1: its event cannot be read: .*{message}"):
        records.decode(raw)


def test_a_bad_body_already_in_a_database_is_named_when_read(store: SQLiteStore) -> None:
    store._db.execute("UPDATE events SET body = ? WHERE seq = 2", (b"\x93\x63\x01\x02",))
    with pytest.raises(CorruptLog, match="record 2: its event cannot be read: unknown event tag 99"):
        list(store.read("g"))
    result = verify(store.read_raw("g"))
    assert isinstance(result, Finding)
    assert (result.problem, result.seq) == ("altered", 2)


def test_unknown_event_kind_is_a_kifu_error() -> None:
    assert issubclass(UnknownEventKind, KifuError)


# -- appends -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item",
    [
        NewEvent(ev.StatusSet(1, "counters", 2**64)),
        NewEvent(ev.PlayerStat(0, "life", -(2**63) - 1)),
        NewEvent(ev.ChoiceMade(0, "choose", (2**70, "x"))),
        NewEvent(ev.PriorityGiven(0), decision=2**63),
        NewEvent(ev.PriorityGiven(0), cause=-(2**63) - 1),
    ],
    ids=["body-uint64-overflow", "body-int64-underflow", "nested", "decision", "cause"],
)
def test_an_event_with_a_huge_integer_is_refused_and_nothing_is_appended(store: SQLiteStore, item: NewEvent) -> None:
    before = snapshot_of(store)
    batch = [NewEvent(ev.PriorityGiven(1)), item, NewEvent(ev.PriorityGiven(0))]
    with pytest.raises(InvalidEvent, match="event 2 of the batch"):
        store.append("g", batch, expected=3)
    assert snapshot_of(store) == before


def test_a_conflicting_append_names_the_game_and_both_ends(store: SQLiteStore) -> None:
    before = snapshot_of(store)
    with pytest.raises(ConcurrencyConflict, match="game 'g': expected the log to end at sequence 1, but it ends at 3"):
        store.append("g", [NewEvent(ev.PriorityGiven(1))], expected=1)
    assert snapshot_of(store) == before


def test_a_non_kifu_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, jpeg BLOB)")
    db.close()
    with pytest.raises(CorruptLog, match=r"photos\.db is a SQLite database but not a kifu store"):
        SQLiteStore(path)
