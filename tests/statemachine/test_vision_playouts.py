"""Random legal Vision of Phantasm games: no crash, every log passes the integrity check, re-adjudication of
the recorded decisions reproduces the log, and the same seed and decisions give byte-identical records."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.memory import MemoryStore
from statemachine.engine import Engine
from statemachine.games.vision import Vision, card_pool
from statemachine.games.vision.chain import InterferenceChain
from statemachine.games.vision.demo import sample_game
from tests.properties import games
from tests.statemachine.playouts import legal_deck, play, prove

PROFILE = Vision()
CARDS = sorted(card_pool().cards)


def waits_only_in_the_chain(engine: Engine) -> None:
    """What must hold at every decision: someone decides, and nothing waits outside the chain."""
    st_ = engine.state
    assert all(p.holder in ("chain", "") for p in st_.pending.values())
    assert st_.priority is not None or engine.request is not None or st_.ended


@settings(max_examples=games(15, 0.15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**16), deck_seed=st.integers(0, 2**16))
def test_random_games_replay_byte_for_byte(seed: int, choice_seed: int, deck_seed: int) -> None:
    rng = random.Random(deck_seed)
    decks = [legal_deck(PROFILE, rng, CARDS) for _ in range(2)]
    store = MemoryStore()
    engine, decisions = play(PROFILE, store, seed, choice_seed, decks, limit=1500,
                             invariant=waits_only_in_the_chain)
    prove(PROFILE, store, engine, decisions, decks, seed)


def test_sample_game_plays_to_an_end() -> None:
    profile, players, decks = sample_game(3)
    assert isinstance(profile.make_policy(), InterferenceChain)
    engine = Engine.new(profile, players, decks, 3)
    rng = random.Random(3)
    for _ in range(5000):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(rng.choice(legal.decisions))
    assert engine.state.ended
    kinds = {type(r.event).__name__ for r in engine.store.read("game")}
    assert {"EffectPending", "PriorityPassed", "EffectResolved", "Attacked"} <= kinds
