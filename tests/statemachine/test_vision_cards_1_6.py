"""Pieces of Vision's card language added in pool 1.6 (#25), where a scenario cannot say it: cards working from the
discard pile — what card data may not say (refused at load, naming card, ability and path), and older pools
holding the cards as they were recorded; a battle modifier of a computed amount (毒符「ポイズンブレス」)."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.games import profile
from statemachine.loader import CardFileError, parse_cards


def from_discard(*effects: dict[str, Any]) -> dict[str, Any]:
    """A command card with a 自動β working from the discard pile in the maintenance phase."""
    return {"id": "probe", "name": "Probe", "types": ["command"], "cost": 0,
            "abilities": [{"id": "return", "label": "r", "trigger": {"on": "maintenance", "where": "discard"},
                           "effects": list(effects)}]}


def refused(raw: dict[str, Any]) -> CardFileError:
    p = profile("vision")
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    return err.value


def test_removal_carrying_an_unknown_effect_is_refused() -> None:
    err = refused(from_discard({"name": "remove_from_game", "params": {"may": True, "then": "recycle"}}))
    assert err.card == "probe" and err.ability == "return" and "'recycle'" in str(err)


def test_returning_a_card_of_no_name_or_no_count_is_refused() -> None:
    nameless = refused(from_discard({"name": "return_to_hand", "params": {"name": " "}}))
    assert nameless.field == "$.abilities[0].effects[0].params.name" and "must be named" in str(nameless)
    none = refused(from_discard({"name": "return_to_hand", "params": {"name": "白玉楼", "count": 0}}))
    assert none.field == "$.abilities[0].effects[0].params.count"


def test_returning_from_another_zone_than_the_discard_pile_is_refused() -> None:
    err = refused(from_discard({"name": "return_to_hand", "params": {"name": "白玉楼", "from": "deck"}}))
    assert err.field is not None and err.field.startswith("$.abilities[0].effects[0].params")


def test_the_written_text_loads() -> None:
    p = profile("vision")
    (card,) = parse_cards({"card": [from_discard(
        {"name": "remove_from_game", "params": {"may": True, "then": "return_to_hand", "params": {"name": "Probe"}}})]},
        "cards/ok.toml", p.vocabulary, p.trigger_kinds)
    assert card.abilities[0].trigger is not None and card.abilities[0].trigger.where == "discard"


def test_older_pools_hold_the_cards_as_recorded_without_their_discard_pile_ability() -> None:
    p = profile("vision")
    for version in ("1.5", "1.6"):
        pool = p.card_pool(version)
        ids = {card: [a.id for a in pool.cards[card].abilities] for card in ("hakugyokurou", "mumei_no_oka")}
        assert ids == ({"hakugyokurou": ["text"], "mumei_no_oka": ["text"]} if version == "1.5"
                       else {"hakugyokurou": ["text", "return"], "mumei_no_oka": ["text", "return"]})
    assert "mumei_no_oka" in p.card_pool("1.2").cards and "hakugyokurou" not in p.card_pool("1.4").cards


def spell(*effects: dict[str, Any]) -> dict[str, Any]:
    """A command card whose text is the given steps."""
    return {"id": "probe", "name": "Probe", "types": ["command"], "cost": 0,
            "abilities": [{"id": "text", "label": "t", "kind": "spell", "effects": list(effects)}]}


TARGET = {"name": "target", "params": {"what": "character", "whose": "opponent"}}


@pytest.mark.parametrize(("amount", "where", "says"), [
    ({"count": {"zone": "battle", "whose": "opponent"}}, ".toughness.count.zone", "'battle'"),
    ({"stat": "mana"}, ".toughness.stat", "'mana'"),
    ({"minus": [0]}, ".toughness.minus", "two amounts"),
    ({"half": {"count": {"zone": "hand"}}}, ".toughness.round", "round"),
])
def test_a_battle_modifier_whose_amount_cannot_be_computed_is_refused(amount: dict[str, Any], where: str,
                                                                       says: str) -> None:
    err = refused(spell(TARGET, {"name": "battle_modifier", "params": {"toughness": amount}}))
    assert err.card == "probe" and err.ability == "text"
    assert err.field == f"$.abilities[0].effects[1].params{where}" and says in str(err)


def test_a_battle_modifier_takes_a_literal_or_a_computed_amount() -> None:
    p = profile("vision")
    lowered = {"minus": [0, {"count": {"zone": "hand", "whose": "opponent"}}]}
    (card,) = parse_cards({"card": [spell(TARGET, {"name": "battle_modifier",
                                                   "params": {"power": -1, "toughness": lowered}})]},
                          "cards/ok.toml", p.vocabulary, p.trigger_kinds)
    assert card.abilities[0].effects[1].params == {"power": -1, "toughness": lowered}


def test_poison_breath_is_in_pool_1_6_only() -> None:
    p = profile("vision")
    assert "poison_breath" in p.card_pool("1.6").cards
    assert all("poison_breath" not in p.card_pool(v).cards for v in ("1.4", "1.5"))
