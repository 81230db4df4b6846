"""Your own decks in the OpenSpiel games and the PettingZoo environments: deck lists (card ids per seat) checked
against the pool and the game's deck-construction rule (statemachine.decks), and games with them played out."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import tools.ai.spiel  # noqa: F401 - registers the games
from eventsource.errors import KifuError
from projections.state import GameState
from statemachine.decks import IllegalDeck
from statemachine.games import profile
from tools.ai.match import sample_setup
from tools.ai.pettingzoo import KifuEnv
from tools.ai.spiel import GAMES, short_name

RULE = {"duel_masters": "DM-GAME-DECK", "magic": "MTG-GAME-DECK", "shadowverse": "SV-GAME-DECK",
        "vision": "VOP-GAME-DECK"}


def mirror(game: str) -> list[list[str]]:
    """Both seats play the sample game's second deck: decks no sample game deals."""
    _, _, decks = sample_setup(game, 0)
    return [list(decks[1]), list(decks[1])]


def param(decks: list[list[str]]) -> str:
    return "|".join(",".join(deck) for deck in decks)


def dealt(st: GameState, player: int) -> Counter[str]:
    return Counter(st.facts(o).definition for o in st.objects if st.facts(o).owner == player)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_your_own_decks_plays_to_the_end_in_openspiel(game: str) -> None:
    decks = mirror(game)
    g = pyspiel.load_game(short_name(game), {"seed": 3, "decks": param(decks)})
    state, rng = g.new_initial_state(), random.Random(3)
    for p in (0, 1):
        assert dealt(state.match.engine.state, p) == Counter(decks[p])
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-1.0, 1.0]
    again = g.new_initial_state()  # the next episode deals the same decks again
    assert all(dealt(again.match.engine.state, p) == Counter(decks[p]) for p in (0, 1))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_your_own_decks_plays_to_the_end_in_pettingzoo(game: str) -> None:
    decks = mirror(game)
    env = KifuEnv(game, decks=decks)
    env.reset(seed=4)
    for p in (0, 1):
        assert dealt(env._engine().state, p) == Counter(decks[p])
    rng = random.Random(4)
    for _agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else rng.choice(env.legal_actions()))
    assert env._engine().state.ended and not env.agents


@pytest.mark.parametrize("game", GAMES)
def test_a_deck_breaking_the_rule_is_refused_naming_the_rule(game: str) -> None:
    decks = mirror(game)
    short = [decks[0][:-1], decks[1]]
    with pytest.raises(IllegalDeck, match=rf"deck 1: {len(decks[0]) - 1} cards; .*\[{RULE[game]}\]"):
        pyspiel.load_game(short_name(game), {"decks": param(short)})
    with pytest.raises(IllegalDeck, match=rf"\[{RULE[game]}\]"):
        KifuEnv(game, decks=short)
    prof = profile(game)
    rule = prof.deck_rule
    assert rule is not None
    limited = next(c for c in decks[1] if not (rule.spared and rule.spared(prof.pool[c])))  # not a basic land
    extra = [decks[0], [limited] * 5 + decks[1][5:]]  # five of one card: over every game's copy limit
    with pytest.raises(IllegalDeck, match=rf"deck 2: .*at most \d of one .*\[{RULE[game]}\]"):
        KifuEnv(game, decks=extra)


def test_an_unknown_card_or_a_missing_deck_is_refused_by_name() -> None:
    decks = mirror("duel_masters")
    with pytest.raises(KifuError, match=r"deck 2: no card 'no_such_card' in the card pool"):
        pyspiel.load_game(short_name("duel_masters"), {"decks": param([decks[0], [*decks[1][:-1], "no_such_card"]])})
    with pytest.raises(KifuError, match=r"played by 2 players: give 2 deck lists, not 1"):
        pyspiel.load_game(short_name("duel_masters"), {"decks": param(decks[:1])})
    with pytest.raises(KifuError, match=r"give 2 deck lists, not 3"):
        KifuEnv("duel_masters", decks=[*decks, decks[0]])
