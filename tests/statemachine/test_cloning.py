"""Search clones (``statemachine.cloning``): a clone goes on apart from the engine it came from, and gives the
records that engine would have given.

Every game is played by seeded random bots; at points along the way (some waiting on a choice in the middle of
a procedure, whose generator the clone must run again) a clone is taken and played on. The original must not
notice (its state, log, legal decisions and random draws unchanged, and it plays on to the very records of a
game nobody cloned), and the clone's log must be the reference game's, byte for byte. The conformance battery
(``tests/test_conformance.py``) runs ``check_clones`` over every game; the checks here are not per game.
"""

from __future__ import annotations

import importlib
import random

import pytest

from eventsource.branching import BranchLog
from eventsource.memory import MemoryStore
from eventsource.records import RawRecord
from eventsource.store import EventStore
from projections.state import snapshot
from statemachine.bots import RandomBot
from statemachine.cloning import clone
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.profile import RulesProfile
from tests.statemachine.playouts import legal_deck

GAME = "g"
Setup = tuple[RulesProfile, list[str], list[list[str]]]


def setup(name: str, seed: int, random_decks: bool) -> Setup:
    profile, players, decks = importlib.import_module(f"statemachine.games.{name}.demo").sample_game(seed)
    if random_decks:  # every card of the pool, not only the sample decks' (stacks, reveals, tokens ...)
        rng, cards = random.Random(seed), sorted(profile.pool.cards)
        decks = [legal_deck(profile, rng, cards) for _ in decks]
    return profile, list(players), [list(d) for d in decks]


def start(s: Setup, seed: int, store: EventStore) -> Engine:
    return Engine.new(s[0], s[1], s[2], seed, store=store, game=GAME)


def reference(s: Setup, seed: int, limit: int) -> tuple[list[Decision], list[RawRecord]]:
    """A game nobody cloned: its decisions and its records."""
    engine = start(s, seed, MemoryStore())
    bots = [RandomBot(seed * 7 + p) for p in range(len(s[1]))]
    made: list[Decision] = []
    for _ in range(limit):
        legal = engine.legal()
        if legal.player is None:
            break
        made.append(bots[legal.player].choose(legal))
        engine.decide(made[-1])
    return made, raw(engine)


def raw(engine: Engine) -> list[RawRecord]:
    return list(engine.store.read_raw(GAME))


def check_clones(s: Setup, seed: int, store: EventStore, *, every: int, ahead: int, limit: int) -> int:
    """Play the reference game again, cloning every ``every`` decisions and playing each clone ``ahead`` decisions
    on; returns how many clones were taken while a choice was awaited mid-procedure."""
    decisions, records = reference(s, seed, limit)
    engine = start(s, seed, store)
    mid_procedure = 0
    for i, d in enumerate(decisions):
        if i % every == 0:
            state, log, legal = snapshot(engine.state), raw(engine), engine.legal()
            draws = (engine.state.seed, engine.state.random_draws)
            mid_procedure += engine.request is not None
            twin = clone(engine)
            assert snapshot(twin.state) == state and twin.legal() == legal
            for later in decisions[i:i + ahead]:
                twin.decide(later)
            assert raw(twin) == records[:twin.state.seq], f"the clone taken before decision {i} went its own way"
            again = clone(twin)  # a clone of a clone, the same
            assert snapshot(again.state) == snapshot(twin.state) and again.legal() == twin.legal()
            assert snapshot(engine.state) == state, f"the clone taken before decision {i} changed the original"
            assert raw(engine) == log and engine.legal() == legal
            assert (engine.state.seed, engine.state.random_draws) == draws
        engine.decide(d)
    assert raw(engine) == records, "the original, cloned on the way, gave other records than the reference game"
    return mid_procedure


def test_clones_of_a_waiting_engine_share_where_its_procedure_began() -> None:
    """The first clone taken while a choice is awaited finds from the log where the procedure began; the next
    ones, and clones of those, start from the same place without reading the log."""
    s = setup("duel_masters", 1, False)
    decisions, records = reference(s, 1, 400)
    engine = start(s, 1, BranchLog())
    made = 0
    while not (engine.request is not None and engine.state.flight):
        engine.decide(decisions[made])
        made += 1
    first = clone(engine)
    anchor = engine.anchor
    assert anchor is not None and anchor.state.seq == engine.state.flight - 1
    assert clone(engine).anchor is anchor and clone(first).anchor is anchor
    assert first.request == engine.request and first.legal() == engine.legal()
    for d in decisions[made:made + 3]:
        first.decide(d)
    assert raw(first) == records[:first.state.seq]


def test_a_branch_log_reads_as_a_memory_store_holding_the_same_appends() -> None:
    s = setup("vision", 4, False)
    decisions, records = reference(s, 4, 60)
    kept = start(s, 4, BranchLog())
    for d in decisions[:30]:
        kept.decide(d)
    log = kept.store
    assert isinstance(log, BranchLog)
    branch = log.branch()
    for d in decisions[30:]:
        kept.decide(d)
    assert raw(kept) == records
    assert list(branch.read_raw(GAME)) == records[:branch.head(GAME)]
    assert branch.games()[0].head == records[branch.head(GAME) - 1].hash
    assert log.games()[0].head == records[-1].hash and log.head(GAME) == len(records)
    assert list(log.read_raw(GAME, 5, 9)) == records[4:9] and not list(log.read_raw("other"))


@pytest.mark.parametrize("name", ["magic", "shadowverse"])
def test_a_clone_keeps_its_log_in_the_store_it_is_given(name: str) -> None:
    """A caller that keeps its own kind of store gives the clone one holding the records so far; the clone appends
    there, and gives the reference game's records (between decisions and mid-procedure alike)."""
    s = setup(name, 6, False)
    decisions, records = reference(s, 6, 100)
    engine = start(s, 6, MemoryStore())
    kinds = set()
    for i, d in enumerate(decisions[:80]):
        if i % 5 == 0 or engine.request is not None:
            kinds.add(engine.request is not None)
            own = MemoryStore()
            own.append_raw(GAME, raw(engine), expected=0)
            twin = clone(engine, own)
            assert twin.store is own
            for later in decisions[i:i + 5]:
                twin.decide(later)
            assert list(own.read_raw(GAME)) == records[:twin.state.seq]
        engine.decide(d)
    assert kinds == {False, True}, "clones were taken between decisions and mid-procedure"
