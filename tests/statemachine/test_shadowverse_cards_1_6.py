"""Shadowverse 1.6 pieces beyond what the scenarios SV-CARD-S13..S15 play: what a card file may not say with them
(refused at load, naming card, ability and path), and the replacement's kernel value."""

from __future__ import annotations

from typing import Any

import pytest

from projections.state import GameState, Modifier
from statemachine import replacements
from statemachine.loader import CardFileError
from tests.statemachine.test_shadowverse_cards_1_5 import pool_of, refused

CAST = {"where": "casting", "on": "cast", "subject": "self"}
FANFARE = {"where": "field", "on": "fanfare", "subject": "self"}


def refused_at_parse(*abilities: dict[str, Any]) -> CardFileError:
    with pytest.raises(CardFileError) as err:
        pool_of(*abilities)
    return err.value


def test_a_restriction_on_a_target_no_ability_asks_for_is_refused() -> None:
    err = refused({"id": "c", "label": "x", "trigger": {**CAST, "filter": {"target_where": {"max_defense": 3}}},
                   "effects": [{"name": "draw"}]})
    assert (err.card, err.ability, err.field) == ("probe", "c", "$.abilities[0].trigger.filter.target_where")


def test_a_restriction_that_restricts_nothing_or_admits_nothing_is_refused() -> None:
    for where, said in (({}, "restricts nothing"), ({"min_cost": 4, "max_cost": 2}, "above max_cost")):
        err = refused({"id": "c", "label": "x", "trigger": {**CAST, "filter": {
            "target": "enemy_follower", "target_where": where}}, "effects": [{"name": "banish",
                                                                            "params": {"to": "target"}}]})
        assert err.field.startswith("$.abilities[0].trigger.filter.target_where") and said in str(err), str(err)


def test_a_negative_bound_is_refused() -> None:
    err = refused_at_parse({"id": "c", "label": "x", "trigger": {**CAST, "filter": {
        "target": "enemy_follower", "target_where": {"max_attack": -1}}}, "effects": [{"name": "draw"}]})
    assert "max_attack" in err.field


def test_a_replacement_outside_a_static_ability_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": FANFARE, "effects": [{"name": "replaces"}]})
    assert (err.ability, err.field) == ("f", "$.abilities[0].effects[0].name") and "static" in str(err)


def test_a_replacement_the_rules_cannot_carry_out_is_refused() -> None:
    err = refused_at_parse({"id": "s", "label": "x", "kind": "static",
                            "effects": [{"name": "replaces", "params": {"instead": "returned"}}]})
    assert err.field == "$.abilities[0].effects[0].params.instead"


def test_a_new_deck_naming_a_card_not_in_the_pool_or_no_card_is_refused() -> None:
    err = refused({"id": "f", "label": "x", "trigger": CAST, "effects": [
        {"name": "replace_deck", "params": {"cards": [{"card": "no_such_card", "count": 3}]}}]})
    assert err.field == "$.abilities[0].effects[0].params.cards[0].card" and "no_such_card" in str(err)
    err = refused_at_parse({"id": "f", "label": "x", "trigger": CAST,
                            "effects": [{"name": "replace_deck", "params": {"cards": []}}]})
    assert err.field.startswith("$.abilities[0].effects[0].params")
    err = refused_at_parse({"id": "f", "label": "x", "trigger": CAST, "effects": [
        {"name": "replace_deck", "params": {"cards": [{"card": "goblin", "count": 0}]}}]})
    assert "count" in err.field


def test_a_replacement_for_one_type_watches_only_that_type() -> None:
    st = GameState()
    st.modifiers[1] = Modifier(1, 5, replacements.INSTEAD, replacements.ANY, 0,
                               replacements.replacement_value("destroyed", "banished", "follower"), "", 0)
    assert replacements.instead(st, 7, "destroyed", ("follower",)) == "banished"
    assert replacements.instead(st, 7, "destroyed", ("amulet",)) is None
    assert replacements.instead(st, 7, "graveyard", ("follower",)) is None
