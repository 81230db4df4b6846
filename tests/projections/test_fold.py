"""Fold properties: a fold splits anywhere, snapshots change nothing, and state-at(N) is the fold of N."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.memory import MemoryStore
from eventsource.records import Record
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore
from projections.state import GameState, evolve, fold, fork, restore, snapshot
from projections.timeline import Timeline, unpack
from tests.fixtures.scripted import record_game, scripted_game
from tests.properties import examples

PROPERTY = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game_records(seed: int, length: int) -> list[Record]:
    store = MemoryStore()
    record_game(store, "g", scripted_game(random.Random(seed), length))
    return list(store.read("g"))


def fold_records(records: list[Record], state: GameState | None = None) -> GameState:
    st_ = state if state is not None else GameState()
    for r in records:
        evolve(st_, r.seq, r.event, r.decision)
    return st_


def same(a: GameState, b: GameState) -> bool:
    return snapshot(a) == snapshot(b)


seeds = st.integers(0, 2**32 - 1)
GAMES = itertools.count()


@PROPERTY
@given(seeds, st.integers(30, 200), st.data())
def test_folding_a_prefix_then_the_rest_is_folding_the_whole(seed: int, length: int, data: st.DataObject) -> None:
    records = game_records(seed, length)
    cut = data.draw(st.integers(0, len(records)), label="cut")
    whole = fold_records(records)
    split = fold_records(records[cut:], fold_records(records[:cut]))
    assert same(split, whole)
    # ... also when the prefix went through a snapshot (encode, decode) in between.
    assert same(fold_records(records[cut:], restore(snapshot(fold_records(records[:cut])))), whole)


@PROPERTY
@given(seeds, st.integers(30, 200), st.data())
def test_a_fork_and_its_origin_fold_on_apart(seed: int, length: int, data: st.DataObject) -> None:
    """A fork shares objects with the state it came from until one of them changes one (statuses, stacking,
    reveals, shuffles, moves out from under a card): neither sees the other's events."""
    records = game_records(seed, length)
    cut = data.draw(st.integers(0, len(records)), label="cut")
    whole = fold_records(records)
    origin = fold_records(records[:cut])
    at_cut = snapshot(origin)
    forked = fork(origin)
    assert snapshot(forked) == at_cut
    fold_records(records[cut:], forked)
    assert same(forked, whole) and snapshot(origin) == at_cut
    again = fork(forked)  # forked again mid-way: the three go on apart
    fold_records(records[cut:], origin)
    assert same(origin, whole) and same(forked, whole) and same(again, whole)


@PROPERTY
@given(seeds, st.integers(30, 120))
def test_fold_numbers_plain_events_after_the_state_it_continues(seed: int, length: int) -> None:
    records = game_records(seed, length)
    numbered = fold([(r.seq, r.event) for r in records])
    plain = fold([r.event for r in records])
    assert same(numbered, plain)
    assert numbered.seq == len(records)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    with MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "kifu.db") as s:
        yield s


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seeds, st.integers(30, 250), st.integers(3, 50), st.lists(st.integers(0, 260), min_size=1, max_size=12))
def test_state_at_n_is_the_fold_of_the_first_n_records(
    store: EventStore, seed: int, length: int, every: int, queries: list[int]
) -> None:
    game = f"g{next(GAMES)}"  # the store fixture is shared by the examples: a new game for each
    record_game(store, game, scripted_game(random.Random(seed), length))
    records = list(store.read(game))
    timeline = Timeline(store, game, every=every)
    for n in queries:  # snapshots left by earlier queries are used by later ones
        want = fold_records(records[: min(n, len(records))])
        assert same(timeline.state_at(n), want), f"state_at({n}), every={every}"
        if 0 < n <= len(records):
            assert same(timeline.state_before(n), fold_records(records[: n - 1]))
    assert same(timeline.state_at(None), fold_records(records))
    assert same(timeline.state_at(0), GameState())


@PROPERTY
@given(
    seeds,
    st.integers(60, 250),
    st.integers(3, 50),
    st.integers(3, 50),
    st.lists(st.integers(0, 250), max_size=8),
)
def test_snapshots_already_present_change_nothing(
    seed: int, length: int, every: int, other_every: int, queries: list[int]
) -> None:
    store = MemoryStore()
    record_game(store, "g", scripted_game(random.Random(seed), length))
    records = list(store.read("g"))
    Timeline(store, "g", every=other_every).warm()  # snapshots at another spacing are already there
    timeline = Timeline(store, "g", every=every)
    for n in [*queries, len(records)]:
        assert same(timeline.state_at(n), fold_records(records[: min(n, len(records))]))
    for seq in range(other_every, len(records) + 1, other_every):
        snap = store.load_snapshot("g", seq)
        assert snap is not None
        assert same(unpack(snap[1]), fold_records(records[: snap[0]]))


@PROPERTY
@given(seeds, st.integers(100, 300), st.integers(3, 50), st.lists(st.integers(0, 300), min_size=1, max_size=10))
def test_after_warming_state_at_folds_fewer_records_than_the_snapshot_spacing(
    seed: int, length: int, every: int, queries: list[int]
) -> None:
    store = MemoryStore()
    record_game(store, "g", scripted_game(random.Random(seed), length))
    timeline = Timeline(store, "g", every=every)
    timeline.warm()
    reads: list[int] = []
    real = store.read_raw

    def counting(game: str, start: int = 1, stop: int | None = None) -> Iterator[object]:
        for raw in real(game, start, stop):
            reads.append(raw.seq)
            yield raw

    store.read_raw = counting  # type: ignore[method-assign, assignment]
    for n in queries:
        reads.clear()
        timeline.state_at(n)
        # at most every - 1 records folded, and the one record its snapshot is keyed to (read to check the key)
        assert len(reads) <= every, f"state_at({n}) read {len(reads)} records with snapshots every {every}"


def test_a_state_returned_by_the_timeline_can_be_changed_without_changing_the_next_answer() -> None:
    store = MemoryStore()
    record_game(store, "g", scripted_game(random.Random(7), 120))
    timeline = Timeline(store, "g", every=10)
    timeline.warm()
    mine = timeline.state_at(55)
    want = snapshot(mine)
    mine.zones.clear()
    mine.objects.clear()
    assert snapshot(timeline.state_at(55)) == want
