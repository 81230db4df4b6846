"""A game restored from its log before every decision (as ``kifu decide`` does) records byte for byte what one
engine playing throughout records: the envelope too, so re-adjudication, which compares it, finds nothing."""

from __future__ import annotations

import importlib

import pytest

from eventsource.memory import MemoryStore
from statemachine.bots import RandomBot
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.games import PROFILES

GAMES = ("duel_masters", "magic", "vision", "shadowverse")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_reloaded_before_every_decision_records_what_one_engine_does(game: str, seed: int) -> None:
    rules, players, decks = importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(seed)
    whole, pieces = MemoryStore(), MemoryStore()
    engine = Engine.new(rules, players, decks, seed, store=whole, game="g")
    Engine.new(rules, players, decks, seed, store=pieces, game="g")
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    made: list[Decision] = []
    for _ in range(30):
        legal = engine.legal()
        if legal.player is None:
            break
        d = bots[legal.player].choose(legal)
        engine.decide(d)
        made.append(d)
        Engine.load(rules, pieces, "g").decide(d)
    assert made
    assert list(pieces.read_raw("g")) == list(whole.read_raw("g"))
    replayed = Engine.replay(rules, list(pieces.read("g")))
    assert replayed.state.seq == engine.state.seq
