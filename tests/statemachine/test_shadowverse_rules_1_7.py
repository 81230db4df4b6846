"""Shadowverse 1.7 beyond what the scenarios SV-CARD-S28..S36 play: the legal plays under both rules for a spell with
no target to choose (SV-GAME-PLAY), the counter ``chosen`` kept only from 1.7 (SV-O-87), and what a card file may not
say with the new pieces (refused at load, naming card, ability and path)."""

from __future__ import annotations

import pytest

from statemachine.decisions import Decision, IllegalDecision
from tests.statemachine.test_shadowverse_cards_1_5 import refused
from tests.statemachine.test_shadowverse_cards_1_6 import refused_at_parse
from tests.statemachine.test_shadowverse_rules_1_1 import board, decide, run_at

CAST = {"where": "casting", "on": "cast", "subject": "self"}
FANFARE = {"where": "field", "on": "fanfare", "subject": "self"}



@pytest.mark.parametrize(("version", "listed"), [("1.6", True), ("1.7", False)])
def test_a_spell_with_no_target_to_choose_is_a_legal_play_only_before_1_7(version: str, listed: bool) -> None:
    run = run_at(board({"0.pp": 5}, [{"handle": "kill", "card": "destroy_spell", "zone": "hand"},
                                     {"handle": "f", "card": "fighter", "zone": "hand"}]), version)
    legal = {int(d.args[0]) for d in run.engine.legal().decisions if d.action == "play"}
    assert run.obj("f") in legal  # a follower is always played
    assert (run.obj("kill") in legal) == listed


def test_under_1_7_the_refusal_names_the_rule_and_appends_nothing() -> None:
    run = run_at(board({"0.pp": 5}, [{"handle": "kill", "card": "destroy_spell", "zone": "hand"}]))
    seq = run.engine.state.seq
    with pytest.raises(IllegalDecision) as refusal:
        decide(run, "play", "kill")
    assert refusal.value.rule == "SV-GAME-PLAY" and "no target can be chosen" in str(refusal.value)
    assert run.engine.state.seq == seq and run.engine.state.stat(0, "pp") == 5


@pytest.mark.parametrize(("version", "counted"), [("1.6", 0), ("1.7", 1)])
def test_a_follower_chosen_at_play_counts_from_1_7(version: str, counted: int) -> None:
    run = run_at(board({"0.pp": 5}, [{"handle": "kill", "card": "destroy_spell", "zone": "hand"},
                                     {"handle": "foe", "card": "fighter", "owner": 1, "zone": "field"}]), version)
    decide(run, "play", "kill")
    run.engine.decide(Decision(0, "choose", (run.obj("foe"),)))
    assert run.engine.state.stat(0, "chosen") == counted


def test_a_countdown_advanced_by_less_than_1_is_refused() -> None:
    err = refused_at_parse({"id": "c", "label": "x", "trigger": {**CAST, "filter": {"target": "own_amulet"}},
                            "effects": [{"name": "countdown", "params": {"by": 0, "to": "target"}}]})
    assert (err.card, err.ability) == ("probe", "c") and err.field == "$.abilities[0].effects[0].params.by"


def test_a_cost_reduction_outside_a_static_ability_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": FANFARE,
                   "effects": [{"name": "costs_less", "params": {"amount": 1}}]})
    assert (err.ability, err.field) == ("f", "$.abilities[0].effects[0].name") and "static" in str(err)


def test_a_cost_reduction_never_makes_a_cost_negative() -> None:
    cheap = {"id": "cheap", "name": "cheap (test card)", "types": ["follower"], "colors": ["neutral"], "cost": 2,
             "power": 1, "toughness": 1, "abilities": [{"id": "s", "label": "x", "kind": "static", "effects": [
                 {"name": "costs_less", "params": {"amount": {"stat": "life"}}}]}]}
    run = run_at(board({"0.pp": 0}, [{"handle": "c", "card": "cheap", "zone": "hand"}]), cards=[cheap])
    decide(run, "play", "c")
    assert run.engine.state.stat(0, "pp") == 0 and run.obj("c") in run.engine.state.zone("0.field")
