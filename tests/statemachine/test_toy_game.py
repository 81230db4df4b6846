"""A new game stands on the kernel with no kernel change (docs/architecture.md, "How to add a game").

``toy_game.py`` is such a game in about a hundred lines: two zones, one trigger kind, a first-in first-out
policy. Nothing under ``statemachine/`` names it; the engine plays it, records it and re-adjudicates it.
"""

from __future__ import annotations

import pytest

from eventsource import events as ev
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import PROFILES
from tests.statemachine.toy_game import POINTS, TARGET, Toy


def game(decks: list[list[str]], seed: int = 7) -> Engine:
    return Engine.new(Toy(), ("Ann", "Ben"), decks, seed)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_play_to_the_end_and_replay_event_for_event(seed: int) -> None:
    assert "toy" not in PROFILES  # the kernel does not know the game
    engine = game([["spark", "flare", "blank"] * 3, ["flare", "spark", "spark"] * 3], seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    for _ in range(200):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    st = engine.state
    assert st.ended
    points = [st.stat(p, POINTS) for p in range(2)]
    assert st.winner is None or points[st.winner] >= TARGET
    records = list(engine.store.read(engine.game))
    replayed = Engine.replay(Toy(), records)  # raises Divergence at the first record the rules disagree with
    assert replayed.state.seq == st.seq and replayed.state.winner == st.winner


def test_effects_that_trigger_together_resolve_first_in_first_out() -> None:
    engine = game([["flare"] * 3, ["spark"] * 3])
    for d in [Decision(0, "play"), Decision(0, "pass"), Decision(1, "play"), Decision(1, "pass"), Decision(0, "play")]:
        engine.decide(d)
    events = [r.event for r in engine.store.read(engine.game)]
    triggered = [e.effect for e in events if isinstance(e, ev.Triggered)]
    resolved = [e.effect for e in events if isinstance(e, ev.EffectResolved)]
    assert len(triggered) == 4  # flare scores, spark scores, then flare scores and the first flare cheers
    assert resolved == triggered == sorted(triggered)
    abilities = [e.ability for e in events if isinstance(e, ev.Triggered)]
    assert sorted(abilities[2:]) == ["cheer", "score"]  # one event, two abilities: in the order they triggered
    assert engine.state.stat(0, POINTS) == 5 and engine.state.stat(1, POINTS) == 1
    assert engine.state.ended and engine.state.winner == 0


@pytest.mark.parametrize(
    ("decks", "before", "decision", "rule"),
    [
        ([["spark"], ["spark"]], [], Decision(1, "play"), "TOY-TURN"),
        ([["blank"], ["spark"] * 2], [Decision(0, "play")], Decision(0, "play"), "TOY-PLAY"),
        ([["spark"], ["spark"]], [], Decision(0, "draw"), "TOY-ACTION"),
    ],
)
def test_an_illegal_decision_names_its_rule_and_appends_nothing(
        decks: list[list[str]], before: list[Decision], decision: Decision, rule: str) -> None:
    engine = game(decks)
    for d in before:
        engine.decide(d)
    head = engine.store.head(engine.game)
    with pytest.raises(IllegalDecision) as err:
        engine.decide(decision)
    assert err.value.rule == rule
    assert engine.store.head(engine.game) == head
