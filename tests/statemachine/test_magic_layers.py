"""Magic's layers 4, 5 and 7b (rules 1.6): what the scenarios MTG-CORE-S101..S105 do not show on their own —
refusals at load, timestamp order within a layer (CR 613.7), removal from combat of a permanent that stops being
a creature (CR 506.4), and the summoning-sickness mark of rules 1.5 (creatures only) against 1.6 (every
permanent, CR 302.6)."""

from __future__ import annotations

from typing import Any

import pytest

from eventsource import events as ev
from statemachine.games import profile
from statemachine.loader import CardFileError, parse_cards
from tests.statemachine.test_card_language import p, run

MAGIC = profile("magic")


def refused(*effects: dict[str, Any]) -> CardFileError:
    raw = {"id": "probe", "name": "Probe", "types": ["instant"], "mana": "R", "cost": 1,
           "abilities": [{"id": "a1", "label": "test", "kind": "spell", "effects": list(effects)}]}
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", MAGIC.vocabulary, MAGIC.trigger_kinds)
    assert str(err.value).startswith("cards/bad.toml: card 'probe'")
    return err.value


TARGET = {"name": "target", "params": {"what": "creature"}}


def test_a_change_that_changes_nothing_is_refused() -> None:
    err = refused(TARGET, {"name": "becomes", "params": {}})
    assert "becomes nothing" in str(err) and err.ability == "a1"


def test_a_base_power_without_a_toughness_is_refused() -> None:
    err = refused(TARGET, {"name": "becomes", "params": {"power": 0}})
    assert "say both" in str(err)


def test_a_negative_base_power_is_refused() -> None:
    err = refused(TARGET, {"name": "becomes", "params": {"power": -1, "toughness": 2}})
    assert "negative" in str(err)


def test_a_land_type_that_is_no_basic_land_type_is_refused() -> None:
    refused(TARGET, {"name": "becomes", "params": {"land_type": "Desert"}})


def becomes(cid: str, **change: Any) -> dict[str, Any]:
    """A test instant: target creature becomes what ``change`` says until end of turn."""
    return {"id": cid, "name": cid, "types": ["instant"], "colors": ["blue"], "mana": "U", "cost": 1,
            "abilities": [{"id": "a", "label": cid, "kind": "spell", "effects": [
                TARGET, {"name": "becomes", "params": change}]}]}


ANIMATE = {"id": "animate", "name": "animate", "types": ["enchantment"], "subtypes": ["Aura"], "colors": ["blue"],
           "mana": "U", "cost": 1, "abilities": [
               {"id": "enchant", "label": "enchant artifact", "kind": "spell", "effects": [
                   {"name": "target", "params": {"what": "permanent", "types": ["artifact"]}}, {"name": "attach"}]},
               {"id": "is", "label": "is a creature", "kind": "static", "effects": [
                   {"name": "static_attached_becomes", "params": {"add_types": ["creature"],
                                                                  "pt_mana_value": True}}]}]}


ISLANDS = [{"handle": f"i{k}", "card": "island", "zone": "battlefield"} for k in range(2)]


def test_base_power_and_toughness_set_later_wins_within_layer_7b() -> None:
    """CR 613.7: two effects of layer 7b apply in timestamp order, the later last: 0/2, then 4/4, is 4/4; the
    other order is 0/2. Both still come before +N/+N (layer 7c, Giant Growth)."""
    cards = [becomes("small", power=0, toughness=2), becomes("big", power=4, toughness=4)]
    hand = [{"handle": h, "card": h, "zone": "hand"} for h in ("small", "big")]
    bears = [{"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"}]
    cast = [p(0, "cast", "@small"), p(0, "choose", "@bears"), p(0, "mana", "@i0"), p(0, "pass"),
            p(1, "pass", power={"@bears": 0}, toughness={"@bears": 2})]
    run(cards, [*hand, *ISLANDS, *bears],
        [*cast, p(0, "cast", "@big"), p(0, "choose", "@bears"), p(0, "mana", "@i1"), p(0, "pass"),
         p(1, "pass", power={"@bears": 4}, toughness={"@bears": 4})])
    run(cards, [*hand, *ISLANDS, *bears],
        [p(0, "cast", "@big"), p(0, "choose", "@bears"), p(0, "mana", "@i1"), p(0, "pass"),
         p(1, "pass", power={"@bears": 4}), *cast])


def test_colours_set_later_win_within_layer_5() -> None:
    """CR 613.7: Chaoslace, then an effect that makes it blue: the creature is blue."""
    run([becomes("blue", new_colors=["blue"], until="indefinite")],
        [{"handle": "lace", "card": "chaoslace", "zone": "hand"}, {"handle": "blue", "card": "blue", "zone": "hand"},
         {"handle": "m", "card": "mountain", "zone": "battlefield"}, *ISLANDS[:1],
         {"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"}],
        [p(0, "cast", "@lace"), p(0, "choose", "@bears"), p(0, "mana", "@m"), p(0, "pass"),
         p(1, "pass", colors={"@bears": ["red"]}),
         p(0, "cast", "@blue"), p(0, "choose", "@bears"), p(0, "mana", "@i0"), p(0, "pass"),
         p(1, "pass", colors={"@bears": ["blue"]})])


def test_a_permanent_that_stops_being_a_creature_leaves_combat() -> None:
    """CR 506.4: the enchanted Tome (a 4/4 while the aura lasts) attacks; the aura is destroyed before blockers:
    the Tome is an artifact only, is removed from combat, and deals no combat damage."""
    run([ANIMATE],
            [{"handle": "aura", "card": "animate", "zone": "hand"}, *ISLANDS[:1],
             {"handle": "tome", "card": "jayemdae_tome", "zone": "battlefield"},
             {"handle": "dis", "card": "disenchant", "owner": 1, "zone": "hand"},
             {"handle": "pl", "card": "plains", "owner": 1, "zone": "battlefield"},
             {"handle": "pl2", "card": "plains", "owner": 1, "zone": "battlefield"}],
            [p(0, "cast", "@aura"), p(0, "choose", "@tome"), p(0, "mana", "@i0"), p(0, "pass"),
             p(1, "pass", types={"@tome": ["artifact", "creature"]}, power={"@tome": 4}),
             p(0, "pass"), p(1, "pass"), p(0, "pass"), p(1, "pass", request={"kind": "attackers"}),
             p(0, "choose", "@tome"), p(0, "pass"),
             p(1, "cast", "@dis"), p(1, "choose", "@aura"), p(1, "mana", "auto"), p(1, "pass"),
             p(0, "pass", types={"@tome": ["artifact"]},
               events=[{"kind": "StatusSet", "obj": "@tome", "key": "attacking", "value": 0}]),
             p(0, "pass"), p(1, "pass"), p(0, "pass"), p(1, "pass", stats={"1.life": 20})])


@pytest.mark.parametrize(("rules", "marked"), [("1.5", False), ("1.6", True)])
def test_a_land_played_is_marked_as_not_controlled_since_the_turn_began_from_rules_1_6(
        rules: str, marked: bool) -> None:
    """CR 302.6 (switch sick_any_permanent): 1.5 marked creatures only; 1.6 marks every permanent, so a land
    that becomes a creature later in the turn can't attack."""
    r = run([], [{"handle": "f", "card": "forest", "zone": "hand"}], [p(0, "play", "@f")], rules=rules)
    sick = [e for e in r.all_events if isinstance(e.event, ev.StatusSet) and e.event.key == "sick"]
    assert bool(sick) == marked
