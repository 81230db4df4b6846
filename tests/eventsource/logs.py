"""Hypothesis strategies for whole logs, shared by the integrity and exchange tests."""

from __future__ import annotations

import msgspec
from hypothesis import strategies as st

from eventsource.memory import MemoryStore
from eventsource.records import GENESIS, RawRecord, record_hash
from tests.fixtures.scripted import record_game, scripted_game


def stored_log(seed: int, length: int, game: str = "g") -> list[RawRecord]:
    """A few dozen varied events of many kinds, appended decision by decision to a fresh store."""
    import random

    store = MemoryStore()
    record_game(store, game, scripted_game(random.Random(seed), length))
    return list(store.read_raw(game))


@st.composite
def logs(draw: st.DrawFn, min_length: int = 20, max_length: int = 60) -> list[RawRecord]:
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    length = draw(st.integers(min_length, max_length), label="length")
    return stored_log(seed, length)


def first_difference(original: list[RawRecord], changed: list[RawRecord]) -> int:
    """The first position where ``changed`` stops being ``original``: where a checker must point."""
    for i, (a, b) in enumerate(zip(original, changed, strict=False)):
        if a != b:
            return i
    return min(len(original), len(changed))


def rechained(raws: list[RawRecord]) -> list[RawRecord]:
    """Every hash recomputed over the records as they are: a forger's re-sealing, bodies and envelopes kept."""
    prev, out = GENESIS, []
    for r in raws:
        h = record_hash(prev, r.game, r.seq, r.decision, r.cause, r.v, r.body)
        out.append(msgspec.structs.replace(r, hash=h))
        prev = h
    return out
