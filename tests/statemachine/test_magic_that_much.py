""""That much" (amount that_much, Magic 1.6, #25): the damage that triggered an ability, where a scenario cannot say
it — refused at load where no triggering damage exists, and captured on the Triggered event of that ability only."""

from __future__ import annotations

import pytest

from eventsource import events as ev
from tests.statemachine.test_card_language_1_4 import played
from tests.statemachine.test_card_language_1_5_b import magic_card, refused

THAT_MUCH = [{"name": "damage", "params": {"on": "each_opponent", "amount": {"that_much": True}}}]
SUMMED = [{"name": "damage", "params": {"on": "each_opponent",
                                        "amount": {"plus": [1, {"that_much": True}]}}}]


@pytest.mark.parametrize("ability", [
    {"id": "a", "label": "a", "kind": "triggered", "trigger": {"on": "enters", "subject": "self"},
     "effects": THAT_MUCH},
    {"id": "a", "label": "a", "kind": "activated", "costs": [{"name": "tap"}], "effects": SUMMED},
    {"id": "a", "label": "a", "kind": "spell", "effects": THAT_MUCH},
])
def test_that_much_without_a_triggering_damage_is_refused(ability: dict[str, object]) -> None:
    why = refused(magic_card(abilities=[ability]))
    assert "that_much reads the amount of the event that triggered the ability" in why
    assert "deals_damage" in why and "'a'" in why


def test_that_much_is_taken_from_the_damage_as_the_ability_triggers() -> None:
    """Backfire's trigger keeps the Giant's 3 damage; the Bears' damage is not its trigger's and is not kept."""
    r = played("tests/scenarios/magic/MTG-CORE-S143.toml")
    fired = [rec.event for rec in r.engine.store.read(r.sc.id) if isinstance(rec.event, ev.Triggered)]
    assert [(t.ability, t.captured) for t in fired] == [("backfire", ("that_much=3",))]
