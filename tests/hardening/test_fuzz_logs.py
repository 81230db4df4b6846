"""Damaged exported logs, through ``kifu audit`` and ``kifu import``: every one gives a clear error and a
non-zero exit, never a traceback, and an import that fails appends nothing.

The material is a real game of each kind (``gamelog``); the damage is drawn by hypothesis: truncation,
bit flips, oversized lines, fields of the wrong type, unknown event kinds (chained, so only the body is
wrong), huge numbers and deep nesting. Each kind of damage is tried on every game's log, and the test says how
many logs of each game it damaged.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.records import record_hash
from statemachine.games import PROFILES
from tests.hardening.cli import failed_cleanly, kifu
from tests.hardening.conftest import exercised, tried
from tests.hardening.gamelog import exported_lines, head_hex
from tests.properties import examples

GAMES = sorted(PROFILES)
EACH = 40  # damaged logs per game of each kind (but the slow ones: oversized lines, deep nesting)
OVERSIZED, DEEP = 2, 3
SETTINGS = settings(max_examples=examples(EACH), deadline=None, suppress_health_check=[HealthCheck.too_slow])

WRONG = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=False), st.text(max_size=20), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.sampled_from([2**63, -(2**63) - 1, 2**70, 10**400, -(10**30), 1e308]),
)
FIELDS = ["game", "seq", "decision", "cause", "v", "hash", "body", "event"]


def check(game: str, content: bytes) -> None:
    """Audit and import ``content``; both must fail cleanly, and the import must leave no game behind."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "damaged.jsonl"
        path.write_bytes(content)
        audit = kifu("audit", str(path), "--head", head_hex(game))
        assert (why := failed_cleanly(audit)) is None, f"kifu audit: {why}"
        db = Path(tmp) / "kifu.db"
        imported = kifu("import", str(path), "--db", str(db), "--head", head_hex(game))
        assert (why := failed_cleanly(imported)) is None, f"kifu import: {why}"
        if db.exists():
            with sqlite3.connect(db) as conn:
                rows = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            assert rows == 0, f"a failed import appended {rows} records"


def lines(game: str) -> list[bytes]:
    return list(exported_lines(game))


def each_game(kind: str, fuzz: Callable[[str], None], examples_per_game: int) -> None:
    """Run ``fuzz`` on every game's log and check how many damaged logs of each it tried."""
    for game in GAMES:
        tried_here = exercised(f"log: {kind} ({game})", lambda: fuzz(game))  # noqa: B023 - called at once
        assert tried_here >= examples(examples_per_game), f"{game}: {tried_here} damaged logs tried"


@SETTINGS
@given(cut=st.integers(min_value=0, max_value=10**9))
def a_truncated_log(game: str, cut: int) -> None:
    data = b"".join(lines(game))
    tried(f"log: truncated ({game})")
    check(game, data[: cut % len(data)])


@pytest.mark.property
def test_a_truncated_log() -> None:
    each_game("truncated", a_truncated_log, EACH)


@SETTINGS
@given(where=st.integers(min_value=0, max_value=10**9), bit=st.integers(0, 7), flips=st.integers(1, 3))
def a_bit_flipped_log(game: str, where: int, bit: int, flips: int) -> None:
    data = bytearray(b"".join(lines(game)))
    for i in range(flips):
        data[(where + i * 7919) % len(data)] ^= 1 << bit
    tried(f"log: bit-flipped ({game})")
    check(game, bytes(data))


@pytest.mark.property
def test_a_bit_flipped_log() -> None:
    each_game("bit-flipped", a_bit_flipped_log, EACH)


@settings(max_examples=examples(OVERSIZED), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(at=st.integers(0, 207), size=st.sampled_from([1 << 20, 5 << 20, 20 << 20]), kind=st.integers(0, 2))
def an_oversized_line(game: str, at: int, size: int, kind: int) -> None:
    ls = lines(game)
    filler = [
        b"x" * size + b"\n",
        b'{"game": "' + b"a" * size + b'", "seq": 1}\n',
        ls[at % len(ls)][:-2] + b', "pad": "' + b"b" * size + b'"}\n',
    ][kind]
    tried(f"log: oversized line ({game})")
    check(game, b"".join([*ls[: at % len(ls)], filler, *ls[at % len(ls) + 1 :]]))


@pytest.mark.property
def test_an_oversized_line() -> None:
    each_game("oversized line", an_oversized_line, OVERSIZED)


@SETTINGS
@given(at=st.integers(0, 207), field=st.sampled_from(FIELDS), value=WRONG)
def a_field_of_the_wrong_type_or_a_huge_number(game: str, at: int, field: str, value: object) -> None:
    ls = lines(game)
    i = at % len(ls)
    record = msgspec.json.decode(ls[i])
    record[field] = value
    try:
        line = msgspec.json.encode(record) + b"\n"
    except (msgspec.EncodeError, OverflowError):
        line = ls[i].replace(b'"seq":', b'"seq":' + str(value).encode() + b",\"x\":", 1)
    tried(f"log: wrong type / huge number ({game})")
    check(game, b"".join([*ls[:i], line, *ls[i + 1 :]]))


@pytest.mark.property
def test_a_field_of_the_wrong_type_or_a_huge_number() -> None:
    each_game("wrong type / huge number", a_field_of_the_wrong_type_or_a_huge_number, EACH)


@SETTINGS
@given(at=st.integers(0, 207), tag=st.integers(min_value=51, max_value=2**31),
       fields=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=3))
def an_unknown_event_kind_even_when_it_chains(game: str, at: int, tag: int, fields: list[int]) -> None:
    """The record's hash is recomputed, so the chain holds up to it: only the body is wrong."""
    ls = lines(game)
    i = at % len(ls)
    record = msgspec.json.decode(ls[i])
    prev = bytes.fromhex(msgspec.json.decode(ls[i - 1])["hash"]) if i else bytes(16)
    body = msgspec.msgpack.encode([tag, *fields])
    record["body"] = msgspec.json.decode(msgspec.json.encode(body))  # base64, as exports write bytes
    record["event"] = {"kind": f"Kind{tag}"}
    record["hash"] = record_hash(prev, record["game"], record["seq"], record["decision"], record["cause"],
                                 record["v"], body).hex()
    tried(f"log: unknown event kind ({game})")
    check(game, b"".join([*ls[:i], msgspec.json.encode(record) + b"\n", *ls[i + 1 :]]))


@pytest.mark.property
def test_an_unknown_event_kind_even_when_it_chains() -> None:
    each_game("unknown event kind", an_unknown_event_kind_even_when_it_chains, EACH)


@settings(max_examples=examples(DEEP), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(at=st.integers(0, 207), depth=st.sampled_from([100, 1_000, 10_000, 200_000]), where=st.sampled_from(
    ["event", "line", "body"]))
def deep_nesting(game: str, at: int, depth: int, where: str) -> None:
    ls = lines(game)
    i = at % len(ls)
    nested = b"[" * depth + b"]" * depth
    if where == "line":
        line = nested + b"\n"
    elif where == "event":
        line = ls[i].replace(b'"event":', b'"event":' + nested + b',"e2":', 1)
    else:
        record = msgspec.json.decode(ls[i])
        deep: list[object] = []
        for _ in range(min(depth, 50_000)):
            deep = [deep]
        try:
            body = msgspec.msgpack.encode([11, deep])
        except (RecursionError, msgspec.EncodeError):
            body = b"\x91" * depth + b"\x90"
        record["body"] = msgspec.json.decode(msgspec.json.encode(body))
        line = msgspec.json.encode(record) + b"\n"
    tried(f"log: deep nesting ({game})")
    check(game, b"".join([*ls[:i], line, *ls[i + 1 :]]))


@pytest.mark.property
def test_deep_nesting() -> None:
    each_game("deep nesting", deep_nesting, DEEP)
