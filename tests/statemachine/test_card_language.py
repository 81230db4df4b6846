"""The card language's honesty checks (#25): a card that cannot work is refused at load naming the card, the
ability and the path; game words live in the games (#27); and Magic's keywords and static effects play as the
rules say where no real card of pool 1.2 shows them (menace, indestructible, double strike, regeneration)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from statemachine.games import profile
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run, Scenario

MAGIC = profile("magic")


def refused(raw: dict[str, Any], game: str = "magic") -> CardFileError:
    p = MAGIC if game == "magic" else profile(game)
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    assert str(err.value).startswith("cards/bad.toml: card 'probe'")
    return err.value


def spell(*effects: dict[str, Any], kind: str = "spell") -> dict[str, Any]:
    return {"id": "probe", "name": "Probe", "types": ["instant"], "mana": "R", "cost": 1,
            "abilities": [{"id": "a1", "label": "test", "kind": kind, "effects": list(effects)}]}


def test_a_pump_that_names_a_target_the_ability_does_not_choose_is_refused() -> None:
    """Shivan Dragon's firebreathing written as `pump` with no target step: a dangling target index."""
    err = refused(spell({"name": "pump", "params": {"power": 1}}))
    assert (err.ability, err.field) == ("a1", "$.abilities[0].effects[0].params.target")
    assert "acts on target 0, but the ability chooses 0 targets" in str(err)


def test_the_same_pump_on_itself_loads() -> None:
    p = MAGIC
    cards = parse_cards({"card": [spell({"name": "pump", "params": {"on": "this", "power": 1}})]}, "ok.toml",
                        p.vocabulary, p.trigger_kinds)
    assert cards[0].abilities[0].effects[0].name == "pump"


def test_a_negative_amount_where_none_is_allowed_is_refused() -> None:
    err = refused(spell({"name": "target", "params": {"what": "player"}},
                        {"name": "damage", "params": {"amount": -3}}))
    assert err.field == "$.abilities[0].effects[1].params.amount"
    assert "amount = -3 is negative" in str(err)


def test_a_signed_amount_may_be_negative() -> None:
    p = MAGIC
    parse_cards({"card": [spell({"name": "pump", "params": {"on": "each", "power": -1, "toughness": -1}})]},
                "ok.toml", p.vocabulary, p.trigger_kinds)


def test_a_selector_that_can_select_nothing_is_refused() -> None:
    err = refused(spell({"name": "destroy", "params": {"on": "each", "filter": {
        "types": ["creature"], "not_types": ["creature"]}}}))
    assert err.field == "$.abilities[0].effects[0].params.filter.not_types"
    assert "selects nothing" in str(err)


def test_a_filter_on_a_step_that_does_not_read_it_is_refused() -> None:
    err = refused(spell({"name": "target", "params": {"what": "creature"}},
                        {"name": "destroy", "params": {"filter": {"types": ["land"]}}}))
    assert "a filter is read only with on = \"each\"" in str(err)


def test_a_may_on_a_step_of_a_static_ability_is_refused() -> None:
    err = refused(spell({"name": "static_cant_lose", "params": {"may": True}}, kind="static"))
    assert err.field == "$.abilities[0].effects[0].params.may"
    assert "a static ability's steps ask no one" in str(err)


def test_magic_mana_is_the_game_s_own_field_checked_by_its_type() -> None:
    raw = spell()
    raw["mana"] = 3
    err = refused(raw)
    assert err.field == "$.mana" and "Expected `str | null`, got `int`" in str(err)


def test_duel_masters_timing_is_not_a_magic_trigger_field() -> None:
    raw = {"id": "probe", "name": "Probe", "abilities": [{"id": "a1", "label": "t", "trigger": {
        "on": "enters", "timing": "suru"}, "effects": [{"name": "draw"}]}]}
    err = refused(raw)
    assert "unknown field `timing`" in str(err)


def test_the_evolved_filter_belongs_to_the_games_with_evolution() -> None:
    raw = {"id": "probe", "name": "Probe", "abilities": [{"id": "a1", "label": "t", "trigger": {
        "on": "enters", "where": "field", "filter": {"evolved": True}}, "effects": [{"name": "draw"}]}]}
    err = refused(raw, "vision")
    assert "unknown trigger filter 'evolved'" in str(err)
    assert "evolved" in profile("duel_masters").vocabulary.filter_tests
    assert "evolved" in profile("shadowverse").vocabulary.filter_tests


def test_a_trigger_that_does_not_say_where_works_from_the_game_s_home_zone() -> None:
    p = profile("duel_masters")
    raw = {"id": "probe", "name": "Probe", "abilities": [{"id": "a1", "label": "t", "trigger": {"on": "enters"},
                                                          "effects": [{"name": "draw"}]}]}
    card = parse_cards({"card": [raw]}, "ok.toml", p.vocabulary, p.trigger_kinds)[0]
    trigger = card.abilities[0].trigger
    assert trigger is not None and trigger.where == "battle"


# -- keywords no real card of the pool shows ------------------------------------------------------------------


def creature(cid: str, power: int, toughness: int, *keywords: str, color: str = "red") -> dict[str, Any]:
    return {"id": cid, "name": cid, "types": ["creature"], "colors": [color], "mana": "R", "cost": 1,
            "power": power, "toughness": toughness, "keywords": list(keywords)}


def run(cards: list[dict[str, Any]], setup_cards: list[dict[str, Any]], steps: list[dict[str, Any]],
        rules: str = "") -> Run:
    """A Magic scenario of test cards from a main phase of turn 3, under ``rules`` (the newest by default)."""
    sc = msgspec.convert({"id": "test", "game": "magic", "rules": rules, "card": cards, "setup": {
        "turn": 3, "active": 0, "step": "main1", "stats": {"0.life": 20, "1.life": 20}, "cards": setup_cards},
        "steps": steps}, Scenario)
    r = Run(sc, "<test>")
    r.run()
    return r


def p(player: int, action: str, *args: Any, **expect: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"do": {"player": player, "action": action, "args": list(args)}}
    if expect:
        step["expect"] = expect
    return step


TO_BLOCKS = [p(0, "pass"), p(1, "pass"), p(0, "pass"), p(1, "pass")]


def test_menace_a_lone_blocker_does_not_block() -> None:
    """CR 702.111b: the menace creature blocked by one creature only is unblocked; its damage reaches the player."""
    r = run([creature("brute", 3, 3, "menace")],
            [{"handle": "brute", "card": "brute", "zone": "battlefield"},
             {"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"}],
            [*TO_BLOCKS, p(0, "choose", "@brute"), p(0, "pass"), p(1, "pass"), p(1, "choose", "@brute"),
             p(0, "pass"), p(1, "pass", stats={"1.life": 17}, damage={"@bears": 0})])
    assert r.engine.state.stat(1, "life") == 17


def test_indestructible_survives_lethal_damage_and_destroy() -> None:
    """CR 702.12b: neither lethal damage nor Wrath of God destroys it."""
    run([creature("wall", 0, 2, "indestructible")],
        [{"handle": "wall", "card": "wall", "owner": 1, "zone": "battlefield"},
         {"handle": "pyro", "card": "pyroclasm", "zone": "hand"},
         {"handle": "wrath", "card": "wrath_of_god", "zone": "hand"},
         *[{"handle": f"l{i}", "card": "plains" if i < 4 else "mountain", "zone": "battlefield"} for i in range(6)]],
        [p(0, "cast", "@pyro"), p(0, "mana", "@l4"), p(0, "mana", "@l5"), p(0, "pass"),
         p(1, "pass", damage={"@wall": 2}, zones={"1.battlefield": ["@wall"]}),
         p(0, "cast", "@wrath"), p(0, "mana", "auto"), p(0, "pass"),
         p(1, "pass", zones={"1.battlefield": ["@wall"]})])


def test_double_strike_deals_damage_in_both_combat_damage_steps() -> None:
    """CR 702.4b: unblocked, a 2/2 double striker deals 2 in the first-strike step and 2 more in the second."""
    run([creature("fencer", 2, 2, "double_strike")],
        [{"handle": "fencer", "card": "fencer", "zone": "battlefield"}],
        [*TO_BLOCKS, p(0, "choose", "@fencer"), p(0, "pass"), p(1, "pass"),
         p(0, "pass"), p(1, "pass", step="first_strike_damage", stats={"1.life": 18}),
         p(0, "pass"), p(1, "pass", step="combat_damage", stats={"1.life": 16})])


def test_a_regeneration_shield_replaces_destruction_by_lethal_damage() -> None:
    """CR 701.15b: the shielded creature is tapped, its damage removed, and it stays; the shield is used up."""
    r = run([], [{"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield",
                  "status": {"regeneration": 1}},
                 {"handle": "pyro", "card": "pyroclasm", "zone": "hand"},
                 {"handle": "m1", "card": "mountain", "zone": "battlefield"},
                 {"handle": "m2", "card": "mountain", "zone": "battlefield"}],
            [p(0, "cast", "@pyro"), p(0, "mana", "auto"), p(0, "pass"),
             p(1, "pass", zones={"1.battlefield": ["@bears"]}, damage={"@bears": 0}, tapped={"@bears": True})])
    bears = next(o for o in r.engine.state.zone("1.battlefield"))
    assert not r.engine.state.objects[bears].status.get("regeneration")


def test_an_attacks_trigger_goes_on_the_stack_when_the_creature_is_declared_an_attacker() -> None:
    """CR 508.3a: "Whenever this creature attacks, you gain 1 life" triggers as attackers are declared."""
    raider = {**creature("raider", 2, 2), "abilities": [{"id": "cheer", "label": "gain 1", "trigger": {
        "on": "attacks", "subject": "self"}, "effects": [{"name": "gain_life", "params": {"amount": 1}}]}]}
    run([raider], [{"handle": "raider", "card": "raider", "zone": "battlefield"}],
        [*TO_BLOCKS, p(0, "choose", "@raider", stack=[{"source": "@raider", "label": "gain 1"}]),
         p(0, "pass"), p(1, "pass", stats={"0.life": 21})])


def test_general_steps_no_card_of_the_pool_uses_yet() -> None:
    """lose_life, discard_hand, plus_one_counters, put_onto_battlefield and choose_one (an opponent choosing)
    do what docs/vocabulary.md says, on test cards."""
    probe = {"id": "probe", "name": "probe", "types": ["sorcery"], "colors": ["black"], "mana": "B", "cost": 1,
             "abilities": [{"id": "a", "label": "probe", "kind": "spell", "effects": [
                 {"name": "lose_life", "params": {"on": "each_opponent", "amount": 2}},
                 {"name": "discard_hand", "params": {"on": "each_opponent"}},
                 {"name": "plus_one_counters", "params": {"on": "each", "count": 2,
                                                          "filter": {"controller": "you"}}},
                 {"name": "choose_one", "params": {"chooser": "opponent", "modes": [
                     {"label": "you gain 3", "effects": [{"name": "gain_life", "params": {"amount": 3}}]},
                     {"label": "you draw", "effects": [{"name": "draw", "params": {"count": 1}}]}]}},
             ]}]}
    run([probe], [{"handle": "probe", "card": "probe", "zone": "hand"},
                  {"handle": "s", "card": "swamp", "zone": "battlefield"},
                  {"handle": "bears", "card": "grizzly_bears", "zone": "battlefield"},
                  {"handle": "h1", "card": "island", "owner": 1, "zone": "hand"},
                  {"handle": "h2", "card": "island", "owner": 1, "zone": "hand"}],
        [p(0, "cast", "@probe"), p(0, "mana", "auto"), p(0, "pass"),
         p(1, "pass", request={"player": 1, "kind": "mode"}, stats={"1.life": 18},
           zones={"1.graveyard": ["@h1", "@h2"]}, power={"@bears": 4}, toughness={"@bears": 4}),
         p(1, "choose", 0, stats={"0.life": 23})])


def test_put_onto_battlefield_from_a_graveyard() -> None:
    probe = {"id": "probe", "name": "probe", "types": ["sorcery"], "colors": ["black"], "mana": "B", "cost": 1,
             "abilities": [{"id": "a", "label": "probe", "kind": "spell", "effects": [
                 {"name": "target", "params": {"what": "card", "types": ["creature"]}},
                 {"name": "put_onto_battlefield", "params": {"tapped": True}}]}]}
    run([probe], [{"handle": "probe", "card": "probe", "zone": "hand"},
                  {"handle": "s", "card": "swamp", "zone": "battlefield"},
                  {"handle": "dead", "card": "grizzly_bears", "owner": 1, "zone": "graveyard"}],
        [p(0, "cast", "@probe"), p(0, "choose", "@dead"), p(0, "mana", "auto"), p(0, "pass"),
         p(1, "pass", zones={"0.battlefield": ["@s", "@dead"]}, tapped={"@dead": True})])
