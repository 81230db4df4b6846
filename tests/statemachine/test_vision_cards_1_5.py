"""Pieces of Vision's card language added in pool 1.5 (#25), where a scenario cannot say it: what card data may
not say (refused at load, naming card, ability and path), and older pools unchanged by the new pieces."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.games import profile
from statemachine.games.vision import actions
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def command(*effects: dict[str, Any], extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": "probe", "name": "Probe", "types": ["command"], "cost": 0,
            "abilities": [{"id": "text", "label": "t", "kind": "spell", "effects": list(effects)}, *(extra or [])]}


def refused(raw: dict[str, Any]) -> CardFileError:
    p = profile("vision")
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    return err.value


def test_a_delayed_effect_naming_an_ability_the_card_lacks_is_refused() -> None:
    err = refused(command({"name": "at_end_of_turn", "params": {"ability": "later"}}))
    assert err.card == "probe" and err.ability == "text"
    assert err.field == "$.abilities[0].effects[0].params.ability" and "'later'" in str(err)


def test_a_delayed_effect_naming_its_own_cards_ability_loads() -> None:
    later = {"id": "later", "label": "l", "trigger": {"on": "delayed", "where": "discard"},
             "effects": [{"name": "damage_each_player", "params": {"amount": 1, "who": "opponent"}}]}
    p = profile("vision")
    (card,) = parse_cards({"card": [command({"name": "at_end_of_turn", "params": {"ability": "later"}},
                                            extra=[later])]}, "cards/ok.toml", p.vocabulary, p.trigger_kinds)
    assert [a.id for a in card.abilities] == ["text", "later"]


def test_a_prohibition_of_nothing_or_of_an_unknown_action_is_refused() -> None:
    assert "must name what it forbids" in str(refused(command({"name": "prohibit", "params": {"what": []}})))
    err = refused(command({"name": "prohibit", "params": {"what": ["shuffle"]}}))
    assert err.field is not None and err.field.startswith("$.abilities[0].effects[0].params.what")


def test_a_battle_modifier_may_lower_but_a_distributed_amount_may_not_be_negative() -> None:
    p = profile("vision")
    lowering = command({"name": "target", "params": {"what": "character"}},
                       {"name": "battle_modifier", "params": {"power": -1}})
    assert parse_cards({"card": [lowering]}, "cards/ok.toml", p.vocabulary, p.trigger_kinds)
    err = refused(command({"name": "distribute_damage", "params": {"amount": -3}}))
    assert err.field == "$.abilities[0].effects[0].params.amount"


def test_only_a_declared_keyword_can_be_granted() -> None:
    err = refused(command({"name": "grant_keyword", "params": {"keyword": "flying", "to": "all_characters"}}))
    assert err.field is not None and err.field.startswith("$.abilities[0].effects[0].params.keyword")


def test_older_pools_hold_none_of_the_new_cards() -> None:
    p = profile("vision")
    old = p.card_pool("1.4")
    new = p.card_pool("1.5")
    added = {"ryuushutsu", "hakugyokurou", "blazing_star", "firefly_phenomenon", "wandering_ghost"}
    assert not added & set(old.cards) and added <= set(new.cards)


def test_a_prohibition_names_its_card_and_forbids_only_what_it_says() -> None:
    """VOP-CARD-S07 up to 流出's resolution: a command card is refused naming 流出; attacking, defending and
    playing a character card are not among what it forbids."""
    sc = load("tests/scenarios/vision/VOP-CARD-S07.toml")
    sc.steps[4:] = []
    r = Run(sc, "VOP-CARD-S07")
    r.run()
    eng = r.engine
    why = actions.why_not_play(eng, 1, r.obj("tea1"))
    assert why is not None and why[0] == "VOP-GAME-PROHIBIT" and "流出" in why[1]
    for what in ("play_character", "attack", "defend"):
        assert actions.why_prohibited(eng, 0, what) is None and actions.why_prohibited(eng, 1, what) is None
    assert actions.why_prohibited(eng, 0, "activate") is not None
