"""Pieces of Vision's card language added in pool 1.6 (#25), where a scenario cannot say it: cards working from the
discard pile — what card data may not say (refused at load, naming card, ability and path), and older pools
holding the cards as they were recorded."""

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
