"""Random legal Magic games: no crash, every log passes the integrity check, re-adjudication from the setup and
the decisions reproduces the log, and the same seed and decisions give byte-identical records."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.sqlite import SQLiteStore
from statemachine.decisions import Decision, Legal
from statemachine.games.magic import Magic, card_pool
from statemachine.games.magic.demo import sample_game
from tests.properties import games
from tests.statemachine.playouts import legal_deck, play, prove

PROFILE = Magic()
POOL = card_pool()
LANDS = ["plains", "island", "swamp", "mountain", "forest"]
# A player who cannot lose would keep a random game going forever.
SPELLS = sorted(c for c, d in POOL.cards.items() if "land" not in d.types and c != "platinum_angel")
MAX_DECISIONS = 4000


def random_deck(rng: random.Random) -> list[str]:
    colors = rng.sample(LANDS, 2)
    lands = [rng.choice(colors) for _ in range(23)] + ["mana_confluence"]
    return legal_deck(PROFILE, rng, SPELLS, lands)  # 24 lands, 36 spells (MTG-GAME-DECK)


def choose(rng: random.Random, legal: Legal) -> Decision:
    """A seeded choice among the legal decisions, passing half the time so that games move on."""
    passes = [d for d in legal.decisions if d.action == "pass"]
    if passes and rng.random() < 0.5:
        return passes[0]
    return rng.choice(legal.decisions)


def check(tmp: Path, seed: int, bot_seed: int, deck_seed: int, decks: list[list[str]]) -> None:
    store = SQLiteStore(tmp / f"{seed}-{bot_seed}-{deck_seed}.db")
    engine, decisions = play(PROFILE, store, seed, bot_seed, decks, choose=choose, limit=MAX_DECISIONS)
    assert engine.state.ended, "a game between two random players ends (a loss by life or by drawing)"
    prove(PROFILE, store, engine, decisions, decks, seed)
    store.close()


@settings(max_examples=games(6, 0.05), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16), deck_seed=st.integers(0, 2**16))
def test_random_games_end_cleanly_and_replay_byte_for_byte(tmp_path: Path, seed: int, bot_seed: int,
                                                           deck_seed: int) -> None:
    rng = random.Random(deck_seed)
    check(tmp_path, seed, bot_seed, deck_seed, [random_deck(rng), random_deck(rng)])


@settings(max_examples=games(2, 0.01), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16))
def test_the_sample_game_plays_and_replays(tmp_path: Path, seed: int, bot_seed: int) -> None:
    _, _, decks = sample_game(seed)
    check(tmp_path, seed, bot_seed, -1, decks)
