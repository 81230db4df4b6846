"""Shadowverse 1.5 pieces beyond what the scenarios SV-CARD-S08..S11 play: what a card file may not say (refused
at load, naming card, ability and path), the legal attacks a static ability changes, and ノア re-expressed."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.cards import CardPool
from statemachine.games import profile
from statemachine.games.shadowverse import Shadowverse
from statemachine.games.shadowverse.actions import attack_targets
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def pool_of(*abilities: dict[str, Any]) -> CardPool:
    p = profile("shadowverse")
    raw = {"id": "probe", "name": "Probe", "types": ["follower"], "colors": ["neutral"], "cost": 1, "power": 1,
           "toughness": 1, "abilities": list(abilities)}
    cards = parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    return CardPool("probe", "1.5", {c.id: c for c in cards})


def refused(*abilities: dict[str, Any]) -> CardFileError:
    with pytest.raises(CardFileError) as err:
        Shadowverse.check_pool(pool_of(*abilities))
    return err.value


FANFARE = {"where": "field", "on": "fanfare", "subject": "self"}


def test_a_static_keyword_in_a_triggered_ability_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": FANFARE,
                   "effects": [{"name": "has_keyword", "params": {"keyword": "storm"}}]})
    assert (err.card, err.ability, err.field) == ("probe", "f", "$.abilities[0].effects[0].name")
    assert "static" in str(err)


def test_a_static_ability_with_a_step_no_rule_reads_is_refused() -> None:
    err = refused({"id": "s", "label": "x", "kind": "static", "effects": [{"name": "draw"}]})
    assert (err.ability, err.field) == ("s", "$.abilities[0].effects[0].name")


def test_static_stats_that_give_nothing_are_refused_at_parse() -> None:
    with pytest.raises(CardFileError) as err:
        pool_of({"id": "s", "label": "x", "kind": "static", "conditions": [{"name": "overflow"}],
                 "effects": [{"name": "has_stats", "params": {}}]})
    assert err.value.field == "$.abilities[0].effects[0].params" and "gives nothing" in str(err.value)


def test_a_name_read_before_a_let_counts_it_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": FANFARE, "effects": [
        {"name": "buff", "params": {"attack": {"named": "x"}}},
        {"name": "let", "params": {"name": "x", "amount": 1}}]})
    assert (err.ability, err.field) == ("f", "$.abilities[0].effects[0]")
    assert "'x'" in str(err)


def test_a_name_read_in_a_condition_judged_at_trigger_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": FANFARE, "effects": [
        {"name": "let", "params": {"name": "x", "amount": 1}},
        {"name": "if", "params": {"condition": "at_least", "condition_params": {"of": {"named": "x"}, "count": 1},
                                  "then": "draw"}}]})
    assert err.field == "$.abilities[0].effects[1]" and "resolution" in str(err)


def test_a_negative_count_for_at_least_is_refused_at_parse() -> None:
    with pytest.raises(CardFileError) as err:
        pool_of({"id": "f", "label": "x", "trigger": FANFARE,
                 "conditions": [{"name": "at_least", "params": {"of": {"stat": "played_turn"}, "count": -1}}],
                 "effects": [{"name": "draw"}]})
    assert err.value.field == "$.abilities[0].conditions[0].params.count"


def played(upto: int) -> Run:
    sc = load("tests/scenarios/shadowverse/SV-CARD-S09.toml")
    sc.steps[upto:] = []
    r = Run(sc, "SV-CARD-S09")
    r.run()
    return r


def test_bahamut_is_offered_the_leader_only_while_fewer_than_two_enemy_followers_stand() -> None:
    """The legal attacks read the static ability too: with two enemy followers only they are offered; once one
    is destroyed, the other Bahamut is offered the leader (None) first."""
    r = played(1)
    assert attack_targets(r.engine, 0, r.obj("b2")) == [r.obj("e1"), r.obj("e2")]
    r = played(2)
    assert attack_targets(r.engine, 0, r.obj("b2")) == [None, r.obj("e2")]
