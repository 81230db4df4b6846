"""Every new initial state of an OpenSpiel game, and every reset of a PettingZoo environment, is a new episode: a
new deal and a new future, the same sequence for the same seed (tools.ai.match.episode_seed)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import tools.ai.spiel  # noqa: F401 - registers the games
from tools.ai.pettingzoo import KifuEnv
from tools.ai.spiel import GAMES, short_name


def _openings(game: pyspiel.Game, n: int) -> list[str]:
    return [game.new_initial_state().information_state_string(p) for _ in range(n) for p in (0, 1)]


@pytest.mark.parametrize("game", GAMES)
def test_a_hundred_new_initial_states_are_not_all_one_deal(game: str) -> None:
    g = pyspiel.load_game(short_name(game), {"seed": 5})
    states = [g.new_initial_state() for _ in range(100)]
    for p in (0, 1):
        infos = [s.information_state_string(p) for s in states]
        assert len(set(infos)) > 90, f"player {p} sees {len(set(infos))} deals in 100"
    assert [s.episode for s in states] == list(range(100))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_sequence_of_deals(game: str) -> None:
    first = _openings(pyspiel.load_game(short_name(game), {"seed": 9}), 8)
    again = pyspiel.load_game(short_name(game), {"seed": 9})
    again.observation_tensor_size()  # OpenSpiel's throw-away state for a tensor's shape takes no episode
    assert _openings(again, 8) == first
    assert _openings(pyspiel.load_game(short_name(game), {"seed": 10}), 8) != first


def test_the_first_episode_is_the_seed_itself_and_the_future_differs_too() -> None:
    g = pyspiel.load_game(short_name("duel_masters"), {"seed": 3})
    s = g.new_initial_state()
    assert s.match.engine.state.seed == 3
    t = g.new_initial_state()
    assert t.match.engine.state.seed != 3  # a new seed: every later shuffle differs as well


def test_a_clone_is_the_same_episode_and_a_clone_of_an_unused_state_too() -> None:
    g = pyspiel.load_game(short_name("shadowverse"), {"seed": 2})
    fresh = g.new_initial_state()
    clone = fresh.clone()  # neither used yet: they share which episode they will be
    assert clone.information_state_string(0) == fresh.information_state_string(0)
    assert clone.episode == fresh.episode == 0
    played = g.new_initial_state()
    rng = random.Random(2)
    for _ in range(20):
        played.apply_action(rng.choice(played.legal_actions()))
    copy = played.clone()
    assert copy.episode == played.episode == 1
    assert copy.information_state_string(1) == played.information_state_string(1)
    assert g.new_initial_state().episode == 2


def test_an_observed_tensor_is_of_the_state_that_will_be_played() -> None:
    g = pyspiel.load_game(short_name("duel_masters"), {"seed": 4})
    s = g.new_initial_state()
    seen = np.array(s.observation_tensor(0))
    s.apply_action(s.legal_actions()[0])
    other = g.new_initial_state()
    assert s.episode == 0 and other.episode == 1
    first = pyspiel.load_game(short_name("duel_masters"), {"seed": 4}).new_initial_state()
    assert np.array_equal(np.array(first.observation_tensor(0)), seen)


def _resets(env: KifuEnv, seed: int | None, n: int) -> list[bytes]:
    out = []
    for i in range(n):
        env.reset(seed=seed if i == 0 else None)
        out.append(env.observe("player_0").tobytes())
    return out


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_resets_deal_a_new_episode_each_the_same_for_the_same_seed(game: str) -> None:
    env = KifuEnv(game)
    deals = _resets(env, 6, 12)
    assert len(set(deals)) > 10
    assert env.episode == 11 and env.seed == 6
    assert _resets(KifuEnv(game), 6, 12) == deals
    assert _resets(KifuEnv(game), 7, 12) != deals
    engines = []
    for seed in (6, 6):
        env.reset(seed=seed)
        engines.append(env._engine().state.seed)
        env.reset()
        engines.append(env._engine().state.seed)
    assert engines[:2] == engines[2:] and engines[0] == 6 and engines[1] != 6
