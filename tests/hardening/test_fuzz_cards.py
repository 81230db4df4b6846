"""Damaged card files against the Duel Masters vocabulary: each loads, or is refused with a CardFileError
naming the file, the card and the field; never another exception."""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from statemachine.games.duel_masters.profile import CARDS, DM, KINDS
from statemachine.loader import CardFileError, load_pool, parse_cards
from tests.hardening.conftest import tried
from tests.hardening.mutate import mutated

FILES = sorted(CARDS.glob("*.toml"))
DATA: list[dict[str, Any]] = [tomllib.loads(p.read_text(encoding="utf-8")) for p in FILES]
TEXT: list[bytes] = [p.read_bytes() for p in FILES]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_card_table_loads_or_is_refused_clearly(data: st.DataObject) -> None:
    which = data.draw(st.integers(0, len(DATA) - 1))
    damaged = data.draw(mutated(DATA[which]))
    tried("card file: structure")
    try:
        cards = parse_cards(damaged, "fuzz.toml", DM, KINDS)
    except CardFileError as exc:
        assert str(exc).startswith("fuzz.toml")
        return
    assert all(c.id for c in cards)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 10**6), where=st.integers(0, 10**9), bit=st.integers(0, 7),
       cut=st.booleans())
def test_a_damaged_card_file_on_disk_loads_or_is_refused_clearly(which: int, where: int, bit: int,
                                                                  cut: bool) -> None:
    text = bytearray(TEXT[which % len(TEXT)])
    if cut:
        text = text[: where % len(text)]
    else:
        text[where % len(text)] ^= 1 << bit
    tried("card file: bytes")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.toml"
        path.write_bytes(bytes(text))
        try:
            load_pool("fuzz", "1", [path], DM, KINDS)
        except CardFileError as exc:
            assert str(path) in str(exc)


def test_a_card_nested_deeper_than_the_interpreter_can_follow_is_refused_clearly() -> None:
    deep: Any = {}
    for _ in range(100_000):
        deep = {"x": [deep]}
    for card in ({"id": "x", "name": "x", "abilities": [deep]}, {"id": "x", "name": deep}):
        tried("card file: deep nesting")
        try:
            parse_cards({"card": [card]}, "fuzz.toml", DM, KINDS)
        except CardFileError as exc:
            assert str(exc).startswith("fuzz.toml")
