"""Pieces of the card language added in Magic 1.5 beyond what the scenarios MTG-CORE-S63..S70 and MTG-LANG-S01 play:
what a card file may not say (refused at load, naming card, ability and path), and a restriction that ends with the
turn."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.cards import CardPool
from statemachine.games import profile
from statemachine.games.magic.profile import Magic
from statemachine.games.magic.restrictions import CANT_BE_BLOCKED
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def pool_of(*abilities: dict[str, Any]) -> CardPool:
    p = profile("magic")
    raw = {"id": "probe", "name": "Probe", "types": ["artifact"], "mana": "1", "cost": 1,
           "abilities": list(abilities)}
    cards = parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    return CardPool("probe", "1.5", {c.id: c for c in cards})


def refused(*abilities: dict[str, Any]) -> CardFileError:
    with pytest.raises(CardFileError) as err:
        Magic.check_pool(pool_of(*abilities))
    return err.value


DRAW = [{"name": "draw", "params": {"count": 1}}]
UPKEEP = {"on": "step_begins", "subject": "self", "filter": {"step": "upkeep"}}


@pytest.mark.parametrize("restriction", ["during_your_turn", "as_sorcery"])
def test_an_activation_restriction_on_a_triggered_ability_is_refused(restriction: str) -> None:
    err = refused({"id": "t", "label": "x", "trigger": UPKEEP, "conditions": [{"name": restriction}],
                   "effects": DRAW})
    assert (err.card, err.ability, err.field) == ("probe", "t", "$.abilities[0].conditions[0].name")
    assert "restricts activating" in str(err)


@pytest.mark.parametrize(("params", "why"), [
    ({"on": "each_player", "otherwise": DRAW}, "if you can't"),
    ({"otherwise": [{"name": "target", "params": {"what": "player"}}]}, "names no target"),
    ({"otherwise": [{"name": "draw", "params": {"count": 1, "colour": "red"}}]}, "colour"),
])
def test_a_sacrifice_whose_otherwise_cannot_work_is_refused(params: dict[str, object], why: str) -> None:
    with pytest.raises(CardFileError) as err:
        pool_of({"id": "s", "label": "x", "kind": "spell", "effects": [{"name": "sacrifice", "params": params}]})
    assert why in str(err.value)


@pytest.mark.parametrize(("params", "why"), [
    ({}, "names no land subtype"),
    ({"defender_controls": ["Island;Swamp"]}, "one word"),
])
def test_an_attack_restriction_naming_no_land_is_refused(params: dict[str, object], why: str) -> None:
    with pytest.raises(CardFileError) as err:
        pool_of({"id": "r", "label": "x", "kind": "static",
                 "effects": [{"name": "static_attacks_only_if", "params": params}]})
    assert why in str(err.value)


def test_a_comparison_with_a_negative_number_is_refused() -> None:
    with pytest.raises(CardFileError):
        pool_of({"id": "c", "label": "x", "trigger": UPKEEP, "effects": DRAW,
                 "conditions": [{"name": "at_most", "params": {"of": 1, "count": -1}}]})


def played(path: str) -> Run:
    r = Run(load(path), path)
    r.run()
    return r


def test_cant_be_blocked_ends_in_the_cleanup() -> None:
    """CR 514.2: "this turn" ends as the cleanup step ends effects (the Dwarven Warriors' target, MTG-CORE-S64)."""
    r = played("tests/scenarios/magic/MTG-CORE-S64.toml")
    st, bears = r.engine.state, r.obj("bears")
    assert any(m.value == CANT_BE_BLOCKED and m.target == bears for m in st.modifiers.values())
    eng = r.engine
    for _ in range(100):
        if st.step == "cleanup" or st.turn != 3:
            break
        legal = eng.legal()
        eng.decide(next((d for d in legal.decisions if d.action == "pass" or not d.args), legal.decisions[0]))
    assert not any(m.value == CANT_BE_BLOCKED for m in st.modifiers.values())



def test_a_state_trigger_without_a_state_is_refused() -> None:
    err = refused({"id": "st", "label": "x", "trigger": {"on": "state", "subject": "self"}, "effects": DRAW})
    assert (err.card, err.ability, err.field) == ("probe", "st", "$.abilities[0].conditions")
    assert "needs conditions" in str(err)
