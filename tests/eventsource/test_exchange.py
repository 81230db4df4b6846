"""The exported JSON-lines file: it round-trips, and no change to it goes unnoticed."""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from eventsource import exchange
from eventsource.errors import CorruptLog
from eventsource.integrity import Finding, Verified, verify
from eventsource.memory import MemoryStore
from eventsource.records import NewEvent, RawRecord
from eventsource.signing import Signature, Signer
from eventsource.sqlite import SQLiteStore
from tests.eventsource.logs import logs, stored_log
from tests.properties import examples

PROPERTY = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exported(log: list[RawRecord]) -> bytes:
    return b"".join(exchange.to_line(r) + b"\n" for r in log)


def read_bytes(data: bytes) -> list[RawRecord]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(data)
        return list(exchange.read(path))


@PROPERTY
@given(logs())
def test_a_written_file_reads_back_as_the_same_records(log: list[RawRecord]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        assert exchange.write(log, path) == len(log)
        data = path.read_bytes()
        assert list(exchange.read(path)) == log
    assert data.count(b"\n") == len(log)
    assert data == exported(log)


def test_each_line_is_readable_json_with_the_event_by_name() -> None:
    log = stored_log(5, 30)
    for raw, text in zip(log, exported(log).splitlines(), strict=True):
        line = msgspec.json.decode(text)
        assert list(line) == ["game", "seq", "decision", "cause", "v", "hash", "body", "event"]
        assert (line["game"], line["seq"], bytes.fromhex(line["hash"])) == ("g", raw.seq, raw.hash)
        assert isinstance(line["event"]["kind"], str)


def test_a_store_exported_and_imported_is_the_same_store(tmp_path: Path) -> None:
    log = stored_log(6, 80)
    path = tmp_path / "g.jsonl"
    exchange.write(log, path)
    imported = list(exchange.read(path))
    assert isinstance(verify(imported), Verified)
    with SQLiteStore(tmp_path / "copy.db") as store:
        store.append_raw("g", imported, expected=0)
        assert list(store.read_raw("g")) == log
        original = MemoryStore()
        original.append_raw("g", log, expected=0)
        assert store.games() == original.games()


@PROPERTY
@given(logs(max_length=40), st.data())
def test_every_single_byte_change_in_the_file_is_caught_at_its_line(log: list[RawRecord], data: st.DataObject) -> None:
    original = exported(log)
    at = data.draw(st.integers(0, len(original) - 1), label="byte")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != original[at]), label="new value")
    changed = original[:at] + bytes([new]) + original[at + 1 :]
    line = original.count(b"\n", 0, at) + 1  # the line the changed byte belongs to (its newline included)
    try:
        records = read_bytes(changed)
    except CorruptLog as exc:
        assert exc.line == line, f"{exc} (changed line {line})"
        assert str(exc).startswith(f"line {line}: ")
        return
    result = verify(records)
    assert isinstance(result, Finding), "a changed byte went unnoticed"
    assert result.position == line - 1, f"{result} (changed line {line})"


@PROPERTY
@given(logs(), st.data())
def test_lines_deleted_duplicated_swapped_or_inserted_are_caught(log: list[RawRecord], data: st.DataObject) -> None:
    lines = exported(log).splitlines(keepends=True)
    i = data.draw(st.integers(0, len(lines) - 2), label="line")
    j = data.draw(st.integers(i + 1, len(lines) - 1), label="other line")
    stranger = exchange.to_line(stored_log(i, 20, game="other")[0]) + b"\n"
    how = data.draw(st.sampled_from(["delete", "duplicate", "swap", "foreign"]), label="how")
    if how == "delete":
        lines[i:j] = []
    elif how == "duplicate":
        lines.insert(j, lines[i])
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, stranger)
    result = verify(read_bytes(b"".join(lines)))
    assert isinstance(result, Finding)
    assert (
        result.problem
        == {"delete": "missing", "duplicate": "duplicated", "swap": "reordered", "foreign": "foreign"}[how]
    )


# -- signatures in the exchange format -------------------------------------------------------------------------


def _signed_log() -> tuple[list[RawRecord], list[Signature], Signer]:
    signer, store = Signer.generate(), MemoryStore()
    store.append("g", [NewEvent(ev.PriorityPassed(i % 2), 1, 0) for i in range(3)], signer=signer)
    store.append("g", [NewEvent(ev.PriorityGiven(1), 2, 0)])
    store.append("g", [NewEvent(ev.PriorityPassed(1), 3, 0)], signer=signer, end=True)
    return list(store.read_raw("g")), store.signatures("g"), signer


def test_signatures_travel_on_the_lines_of_the_heads_they_sign(tmp_path: Path) -> None:
    raws, signatures, signer = _signed_log()
    path = tmp_path / "signed.jsonl"
    assert exchange.write(raws, path, signatures) == len(raws)
    read = list(exchange.read_signed(path))
    assert [r for r, _ in read] == raws
    assert [s for _, s in read if s is not None] == signatures
    assert [s is not None for _, s in read] == [False, False, True, False, True]
    lines = path.read_bytes().splitlines()
    assert b'"signature":{"key":"' + signer.key.hex().encode() in lines[2]
    assert b'"end":true' in lines[4]


def test_an_unsigned_line_is_written_exactly_as_before_signatures_existed(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "docs" / "examples" / "disputed-game.jsonl"
    raws = list(exchange.read(shipped))
    out = tmp_path / "again.jsonl"
    exchange.write(raws, out)
    assert out.read_bytes() == shipped.read_bytes()
    assert b"signature" not in out.read_bytes()


def test_an_edited_signature_field_is_caught_at_its_line(tmp_path: Path) -> None:
    raws, signatures, _ = _signed_log()
    path = tmp_path / "signed.jsonl"
    exchange.write(raws, path, signatures)
    original = path.read_bytes().splitlines(keepends=True)
    for old, new in [(b'"end":false', b'"end":0'), (b'"signature":{"key":"', b'"signature":{"kex":"'),
                     (b'"signature":{', b'"signature":{"extra":1,')]:
        edited = list(original)
        edited[2] = edited[2].replace(old, new)
        assert edited[2] != original[2]
        path.write_bytes(b"".join(edited))
        with pytest.raises(CorruptLog, match="line 3"):
            list(exchange.read_signed(path))
