"""kifu's games as PettingZoo AEC environments (``tools.ai.pettingzoo``): masks that are the legal decisions,
observations from the player's own view only, and games that end as the rules say. PettingZoo's own API test
runs in the conformance battery (``tests/test_conformance.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from eventsource.branching import BranchLog
from projections.state import CardFacts, GameState, fork
from projections.views import can_see
from statemachine.engine import Engine
from tests.registry import NAMES as GAMES
from tools.ai.actions import numbering
from tools.ai.observation import layout, observation
from tools.ai.pettingzoo import IllegalAction, KifuEnv


def play(game: str, seed: int, steps: int = 100_000) -> KifuEnv:
    """A game to its end by agents choosing among the legal actions with a seeded generator; at every step the
    mask of the agent selected is the numbering of the engine's legal decisions, and the others' masks are 0."""
    e = KifuEnv(game)
    e.reset(seed=seed)
    rng = random.Random(seed)
    for agent in e.agent_iter(steps):
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = numbering(game).legal_actions(e._engine(), e.picked, e._engine().legal())
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert obs.shape == e.observation_space(agent).shape
        assert e.agent_selection == f"player_{e.legal.player}"
        other = next(a for a in e.possible_agents if a != agent)
        assert not e.infos[other]["action_mask"].any()
        e.step(rng.choice(legal))
    return e


@pytest.mark.parametrize("game", GAMES)
def test_a_game_plays_to_the_end_the_rules_give(game: str) -> None:
    e = play(game, 7)
    engine = e._engine()
    st = engine.state
    assert st.ended and not e.agents, "the game ended and every agent stepped out"
    # The environment's log is a kifu log: re-adjudicating it from its inputs gives the same game.
    assert Engine.replay(engine.profile, list(engine.store.read("game"))).state == st
    assert e.decisions == st.decision


def test_rewards_go_to_the_winner() -> None:
    seen = set()
    for seed in range(1, 6):
        e = KifuEnv("duel_masters")
        e.reset(seed=seed)
        rng = random.Random(seed)
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            _, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            e.step(None if terminated or truncated else rng.choice(e.legal_actions()))
        winner = e._engine().state.winner
        assert winner is not None
        assert totals == {f"player_{p}": (1.0 if p == winner else -1.0) for p in (0, 1)}
        seen.add(winner)
    assert seen == {0, 1}, "each seat won some game"


def test_a_game_still_going_at_the_limit_is_truncated() -> None:
    e = KifuEnv("magic", max_decisions=20)
    e.reset(seed=3)
    rng = random.Random(3)
    while not any(e.truncations.values()):
        e.step(rng.choice(e.legal_actions()))
    assert e.decisions == 20 and not e._engine().state.ended
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_an_illegal_action_is_refused_naming_it() -> None:
    e = KifuEnv("vision")
    e.reset(seed=1)
    illegal = next(a for a in range(e.numbering.num_distinct_actions) if a not in e.legal_actions())
    seq = e._engine().state.seq
    with pytest.raises(IllegalAction, match=f"action {illegal} .* is not legal for player_"):
        e.step(illegal)
    assert e._engine().state.seq == seq


@pytest.mark.parametrize("game", GAMES)
def test_an_observation_never_shows_what_the_player_cannot_see(game: str) -> None:
    """Re-drawing every card a player cannot see (the opponent's hand, the decks, face-down cards) leaves their
    observation as it was; re-drawing one they see changes it."""
    e = KifuEnv(game)
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        e.step(rng.choice(e.legal_actions()))
    engine = e._engine()
    pool = sorted(engine.profile.pool.cards)
    lay = layout(game)
    for player in (0, 1):
        before = observation(engine, player, e.picked, lay)
        st = engine.state
        hidden = [o for o in st.objects if not can_see(st, player, o, hidden=engine.profile.hidden_zones)]
        shown = [o for o in st.objects if o not in hidden and st.objects[o].zone.endswith(".hand")]
        assert hidden and shown
        redrawn = Engine(engine.profile, BranchLog("game"), "game", _redrawn(st, hidden, pool, rng))
        assert np.array_equal(observation(redrawn, player, e.picked, lay), before)
        changed = Engine(engine.profile, BranchLog("game"), "game", _redrawn(st, shown[:1], pool, rng, other=True))
        assert not np.array_equal(observation(changed, player, e.picked, lay), before)


def _redrawn(st: GameState, objects: list[int], pool: list[str], rng: random.Random, *,
             other: bool = False) -> GameState:
    """A copy of ``st`` in which ``objects`` are other cards of the pool (``other``: surely another card)."""
    out = fork(st)
    for oid in objects:
        card = out.objects[oid].card
        was = out.cards[card]
        choices = [d for d in pool if d != was.definition] if other else pool
        out.cards[card] = CardFacts(rng.choice(choices), was.owner, was.printed)
    return out
