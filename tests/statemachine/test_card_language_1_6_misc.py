"""Pieces of the Magic card language added in 1.6 — cost increases, poison counters, exactly N different targets,
Equipment, "can't be blocked by", a chosen source of a card type (#25) — where a scenario cannot say it: what a
card that cannot work is refused for at load (MTG-CORE-S131..S140 play the cards)."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.cards import CardPool
from statemachine.games import profile
from statemachine.games.magic.profile import Magic
from statemachine.loader import parse_cards
from tests.statemachine.test_card_language_1_5_b import magic_card, refused

TARGETS = {"name": "target", "params": {"what": "creature", "count": 2}}


def spell(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"id": "s", "label": "s", "kind": "spell", "effects": list(effects)}


@pytest.mark.parametrize(("ability", "why"), [
    (spell({"name": "target", "params": {"count": 0}}), "one target or more"),
    (spell({"name": "target", "params": {"count": 2, "any_number": True}}), "say one of count and any_number"),
    (spell(TARGETS, {"name": "exile", "params": {"target": 2}}), "acts on target 2, but the ability chooses 2"),
    ({"id": "g", "label": "g", "kind": "static",
      "effects": [{"name": "static_cost_increase", "params": {"colors": ["white"], "mana": "W"}}]},
     "an increase is generic mana"),
    ({"id": "k", "label": "k", "kind": "static", "effects": [{"name": "static_cant_be_blocked_by"}]},
     "names no blocker"),
    ({"id": "k", "label": "k", "kind": "static",
      "effects": [{"name": "static_cant_be_blocked_by", "params": {"min_power": 3, "max_power": 2}}]},
     "selects nothing"),
    ({"id": "e", "label": "e", "kind": "activated", "costs": [{"name": "mana", "params": {"mana": "2"}}],
      "effects": [{"name": "attach"}]}, "acts on target 0, but the ability chooses 0"),
    ({"id": "c", "label": "c", "kind": "activated", "costs": [{"name": "mana", "params": {"mana": "1"}}],
      "effects": [{"name": "prevent_damage", "params": {"on": "you", "next_time": True,
                                                        "source_types": ["artifact"]}}]}, "restrict a chosen source"),
    ({"id": "m", "label": "m", "kind": "activated",
      "costs": [{"name": "mana", "params": {"mana": "U"}}, {"name": "tap"}],
      "effects": [{"name": "add_mana", "params": {"color": "C", "amount": 3}}]},
     "a mana ability that costs mana is not supported"),
])
def test_a_card_the_1_6_pieces_cannot_play_is_refused_at_load(ability: dict[str, Any], why: str) -> None:
    assert why in refused(magic_card(abilities=[ability]))


def test_a_step_of_count_n_stands_for_n_targets() -> None:
    """Exile target 1 is the second of the step's two targets: it loads (the refusal above is for target 2)."""
    p = profile("magic")
    raw = magic_card(abilities=[spell(TARGETS, {"name": "exile", "params": {"target": 1}})])
    cards = parse_cards({"card": [raw]}, "cards/ok.toml", p.vocabulary, p.trigger_kinds)
    Magic.check_pool(CardPool("magic", "probe", {c.id: c for c in cards}))
    assert [e.params for e in cards[0].abilities[0].effects][1] == {"target": 1}
