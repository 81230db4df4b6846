"""Duel Masters pool 1.6 pieces that cards cannot misuse: a static ability is made of static effects and a static
effect belongs to one, 「そうしなければ」 follows a verb over creatures, a static effect gives something, a watch names
a watching ability of its card (refused at load, naming card, ability and path)."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.cards import CardPool
from statemachine.games.duel_masters.effects import DM
from statemachine.games.duel_masters.profile import DuelMasters
from statemachine.games.duel_masters.triggers import KINDS
from statemachine.loader import CardFileError, parse_cards


def _check(ability: dict[str, Any]) -> None:
    card = {"id": "probe", "name": "試験", "types": ["creature"], "colors": ["water"], "cost": 1, "power": 1000,
            "abilities": [{"id": "a", "label": "x", **ability}]}
    cards = parse_cards({"card": [card]}, "probe.toml", DM, KINDS)
    DuelMasters.check_pool(CardPool("duel_masters", "probe", {c.id: c for c in cards}))


@pytest.mark.parametrize(("ability", "says"), [
    ({"kind": "static", "effects": [{"name": "draw"}]}, "static ability takes static effects"),
    ({"trigger": {"on": "enters", "subject": "self"}, "effects": [
        {"name": "static_gets", "params": {"keywords": ["blocker"]}}]}, "triggered ability takes no static effect"),
    ({"trigger": {"on": "enters", "subject": "self"}, "effects": [
        {"name": "otherwise"}, {"name": "destroy", "params": {"what": "self"}}]}, "must follow a verb"),
    ({"trigger": {"on": "enters", "subject": "self"}, "effects": [
        {"name": "draw"}, {"name": "otherwise"}, {"name": "destroy", "params": {"what": "self"}}]}, "must follow"),
    ({"kind": "spell", "effects": [{"name": "watch_this_turn", "params": {"ability": "a", "what": "all"}}]},
     "not an ability of this card triggered on blocks or battles"),
])
def test_a_misplaced_static_effect_or_otherwise_is_refused_naming_card_ability_and_step(ability: dict[str, Any],
                                                                                        says: str) -> None:
    with pytest.raises(CardFileError, match=says) as caught:
        _check(ability)
    err = caught.value
    assert (err.card, err.ability) == ("probe", "a") and err.field is not None and ".effects[" in err.field


def test_a_static_effect_that_gives_nothing_is_refused_at_load() -> None:
    with pytest.raises(CardFileError, match="gives nothing") as caught:
        _check({"kind": "static", "effects": [{"name": "static_gets", "params": {}}]})
    assert caught.value.card == "probe"


def test_a_static_effect_is_accepted_where_it_belongs() -> None:
    _check({"kind": "static", "effects": [{"name": "static_gets", "params": {
        "power": -1000, "while_creatures": {"subtypes": ["Angel Command"], "at_least": 1}}}]})
