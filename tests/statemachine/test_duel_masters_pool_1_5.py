"""Pieces of the Duel Masters card language added in pool 1.5 (#25), where a scenario cannot say it: load refusals
of a misused piece, the attack moves offered, and what older pools still play."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.games import profile
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.profile import card_pool
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def spell(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"id": "probe", "name": "Probe", "types": ["spell"], "colors": ["fire"], "cost": 1,
            "abilities": [{"id": "a1", "label": "t", "kind": "spell", "effects": list(effects)}]}


def refused(raw: dict[str, Any]) -> CardFileError:
    p = profile("duel_masters")
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    return err.value


def test_the_opponent_choosing_what_is_not_chosen_is_refused_at_load() -> None:
    err = refused(spell({"name": "destroy", "params": {"what": "all", "chooser": "opponent"}}))
    assert err.field is not None and err.field.endswith(".chooser")
    assert "opponent chooses" in str(err)


def test_a_grant_that_gives_nothing_or_an_unknown_keyword_is_refused_at_load() -> None:
    err = refused(spell({"name": "grant", "params": {"which": {"whose": "you"}}}))
    assert "must give a keyword or power" in str(err)
    err = refused(spell({"name": "grant", "params": {"keywords": ["flying"]}}))
    assert "flying" in str(err)


def test_a_negative_power_grant_loads_and_a_destroyed_to_zone_must_be_known() -> None:
    p = profile("duel_masters")
    parse_cards({"card": [spell({"name": "grant", "params": {"power": -2000}})]}, "cards/ok.toml", p.vocabulary,
                p.trigger_kinds)
    creature = {"id": "probe", "name": "Probe", "types": ["creature"], "colors": ["water"], "cost": 1,
                "power": 1000, "destroyed_to": "library"}
    err = refused(creature)
    assert err.field is not None and "destroyed_to" in err.field


def test_a_creature_that_attacks_untapped_creatures_is_offered_those_attacks() -> None:
    sc = load("tests/scenarios/duel_masters/DM-CARD-S21.toml")
    sc.steps[:] = []
    r = Run(sc, "DM-CARD-S21")
    r.run()
    offered = {(d.args[0], d.args[1]) for d in r.engine.legal().decisions if d.action == "attack"}
    assert (r.obj("wyvern"), r.obj("foe")) in offered
    assert (r.obj("soldier"), r.obj("foe")) not in offered


def test_a_race_word_matches_whole_words_of_a_race_name() -> None:
    assert board.race_fits((), ("Dragon",), ("Armored Dragon",))
    assert board.race_fits((), ("Dragon",), ("Angel Command Dragon",))
    assert not board.race_fits((), ("Dragon",), ("Dragonoid",))
    assert board.race_fits(("Dragonoid",), (), ("Dragonoid",))


def test_pool_1_4_keeps_bajula_as_it_was_recorded() -> None:
    old, new = card_pool("1.4")["super_dragon_bajula"], card_pool("1.5")["super_dragon_bajula"]
    assert old.fields.get("evolves_from") and not old.fields.get("evolves_from_word")
    assert new.fields.get("evolves_from_word") == ("Dragon",)
    assert "aqua_soldier" not in card_pool("1.4").cards and "aqua_soldier" in card_pool("1.5").cards


def test_an_effects_battle_fires_battles_from_rules_1_5_only() -> None:
    """DM-CARD-S33 under rules 1.4 (pool 1.4 holds both cards): the イヤリング's 「バトルする時」 does not trigger on
    マッカラン's 効果バトル, so the イヤリング wins and stays; under 1.5 it is destroyed after the battle."""
    sc = load("tests/scenarios/duel_masters/DM-CARD-S33.toml")
    sc.rules = "1.4"
    for step in sc.steps:
        step.expect = {}
    r = Run(sc, "DM-CARD-S33")
    r.run()
    st = r.engine.state
    assert [st.objects[o].card for o in st.zone("1.battle")] == [r.card("earring")]
    assert not [m for m in st.modifiers.values() if m.value == "destroy_after_battle"]
