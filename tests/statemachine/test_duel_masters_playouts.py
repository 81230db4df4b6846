"""Random legal Duel Masters games played to the end: no crash, every log passes the integrity check, and the
recorded decisions re-run from the recorded seed reproduce the log byte for byte."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.sqlite import SQLiteStore
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, Legal
from statemachine.games.duel_masters import DuelMasters, card_pool
from tests.properties import games
from tests.statemachine.playouts import legal_deck, play, prove

PROFILE = DuelMasters()
CARDS = sorted(card_pool().cards)


def random_deck(rng: random.Random) -> list[str]:
    return legal_deck(PROFILE, rng, CARDS)


def bot(rng: random.Random, legal: Legal) -> Decision:
    """The shipped bot's choice, seeded from the playout's generator."""
    return RandomBot(rng.randrange(2**32)).choose(legal)


@settings(max_examples=games(12, 0.2), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16), deck_seed=st.integers(0, 2**16))
def test_random_games_end_cleanly_and_replay_byte_for_byte(tmp_path: Path, seed: int, bot_seed: int,
                                                           deck_seed: int) -> None:
    rng = random.Random(deck_seed)
    decks = [random_deck(rng), random_deck(rng)]
    store = SQLiteStore(tmp_path / f"{seed}-{bot_seed}-{deck_seed}.db")
    engine, decisions = play(PROFILE, store, seed, bot_seed, decks, choose=bot)
    assert engine.state.ended, "a game between two bots ends (a win or a deck out)"
    prove(PROFILE, store, engine, decisions, decks, seed)
    store.close()
