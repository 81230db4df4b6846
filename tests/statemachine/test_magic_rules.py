"""Magic rules beyond the SPEC scenarios: last known information, state-based actions and the triggers they
cause, paying exactly your life total (SPEC Part 4 #18), combat, and clean rejections that append nothing."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from statemachine.decisions import Decision, IllegalDecision
from statemachine.scenario import Run, Scenario


def run(setup: dict[str, Any], steps: list[dict[str, Any]]) -> Run:
    sc = msgspec.convert({"id": "test", "game": "magic", "setup": setup, "steps": steps}, Scenario)
    r = Run(sc, "<test>")
    r.run()
    return r


BASE = {"turn": 3, "active": 0, "step": "main1", "stats": {"0.life": 20, "1.life": 20}}


def test_fling_reads_the_sacrificed_creature_as_it_last_existed() -> None:
    """Last known information: Giant Growth's +3/+3 is part of the sacrificed Bears' power (2 + 3 = 5), read
    from the look-back projection after the Bears left the battlefield."""
    r = run({**BASE, "cards": [
        {"handle": "bears", "card": "grizzly_bears", "zone": "battlefield"},
        {"handle": "growth", "card": "giant_growth", "zone": "hand"},
        {"handle": "fling", "card": "fling", "zone": "hand"},
        {"handle": "f", "card": "forest", "zone": "battlefield"},
        {"handle": "m1", "card": "mountain", "zone": "battlefield"},
        {"handle": "m2", "card": "mountain", "zone": "battlefield"},
    ]}, [
        {"do": {"player": 0, "action": "cast", "args": ["@growth"]}},
        {"do": {"player": 0, "action": "choose", "args": ["@bears"]}},
        {"do": {"player": 0, "action": "mana", "args": ["auto"]}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {"power": {"@bears": 5}}},
        {"do": {"player": 0, "action": "cast", "args": ["@fling"]}},
        {"do": {"player": 0, "action": "choose", "args": [-2]}},
        {"do": {"player": 0, "action": "mana", "args": ["auto"]}},
        {"do": {"player": 0, "action": "choose", "args": ["@bears"]},
         "expect": {"zones": {"0.graveyard": ["@growth", "@bears"]}}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {"stats": {"1.life": 15}}},
    ])
    assert r.engine.state.priority == 0


def test_lethal_damage_is_a_state_based_action_and_its_dies_trigger_waits() -> None:
    """Bolt marks 3 damage on the opponent's Bears; after the Bolt resolves the state-based actions destroy it
    (one StateBasedAction event), Blood Artist's trigger goes on the stack, then the active player gets priority."""
    r = run({**BASE, "cards": [
        {"handle": "artist", "card": "blood_artist", "zone": "battlefield"},
        {"handle": "bolt", "card": "lightning_bolt", "zone": "hand"},
        {"handle": "m", "card": "mountain", "zone": "battlefield"},
        {"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
    ]}, [
        {"do": {"player": 0, "action": "cast", "args": ["@bolt"]}},
        {"do": {"player": 0, "action": "choose", "args": ["@bears"]}},
        {"do": {"player": 0, "action": "mana", "args": ["auto"]}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {
            "events_exact": [
                {"kind": "EffectResolved"},
                {"kind": "StateBasedAction", "actions": ["lethal damage"]},
                {"kind": "Triggered", "source": "@artist"},
            ],
            "request": {"player": 0, "kind": "target"},
            "priority": "none",
        }},
        {"do": {"player": 0, "action": "choose", "args": [-2]}, "expect": {"priority": 0}},
    ])
    assert not r.engine.state.ended


def test_paying_exactly_your_life_total_is_allowed() -> None:
    """SPEC Part 4 #18, decided: at 2 life, Greed's "pay 2 life" is paid."""
    r = run({**BASE, "stats": {"0.life": 2, "1.life": 20}, "cards": [
        {"handle": "greed", "card": "greed", "zone": "battlefield"},
        {"handle": "sw", "card": "swamp", "zone": "battlefield"},
        {"handle": "d", "card": "swamp", "zone": "deck"},
    ]}, [
        {"do": {"player": 0, "action": "activate", "args": ["@greed"]}},
        {"do": {"player": 0, "action": "mana", "args": ["auto"]},
         "expect": {"stats": {"0.life": 0}, "events": [{"kind": "CostPaid", "cost": "life", "amount": 2}]}},
    ])
    assert r.engine.state.ended and r.engine.state.winner == 1  # 0 life: the state-based actions


def test_an_illegal_decision_names_the_rule_and_appends_nothing() -> None:
    r = run({**BASE, "cards": [{"handle": "bolt", "card": "lightning_bolt", "owner": 1, "zone": "hand"}]}, [])
    before = r.engine.state.seq
    with pytest.raises(IllegalDecision) as err:
        r.engine.decide(Decision(1, "cast", (r.obj("bolt"),)))
    assert err.value.rule == "MTG-P-01"
    assert r.engine.state.seq == before
    assert len(list(r.engine.store.read("test"))) == before


def test_combat_damage_and_blocks() -> None:
    """An unblocked attacker deals damage to the defending player; blockers and attacker trade damage."""
    r = run({**BASE, "step": "beginning_of_combat", "cards": [
        {"handle": "giant", "card": "hill_giant", "zone": "battlefield"},
        {"handle": "bears", "card": "grizzly_bears", "zone": "battlefield"},
        {"handle": "wall", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
    ]}, [
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {"request": {"player": 0, "kind": "attackers"}}},
        {"do": {"player": 0, "action": "choose", "args": ["@giant"]}},
        {"do": {"player": 0, "action": "choose", "args": ["@bears"]}, "expect": {"step": "declare_attackers"}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {"request": {"player": 1, "kind": "block"}}},
        {"do": {"player": 1, "action": "choose", "args": ["@bears"]}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {
            "stats": {"1.life": 17},
            "zones": {"0.graveyard": ["@bears"], "1.graveyard": ["@wall"]},
            "step": "combat_damage",
        }},
    ])
    assert r.engine.state.priority == 0


def test_a_dies_ability_sees_every_creature_that_died_with_it() -> None:
    """Leave abilities look back in time at every simultaneous move (CR 603.10a): Toxic Deluge (X = 2) kills
    Blood Artist and two Bears at once; Blood Artist triggers three times. (Duel Masters limits a leaving
    holder to its own move, DM-LB-12; the kernel asks each profile.)"""
    r = run({**BASE, "cards": [
        {"handle": "artist", "card": "blood_artist", "zone": "battlefield"},
        {"handle": "b1", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
        {"handle": "b2", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
        {"handle": "deluge", "card": "toxic_deluge", "zone": "hand"},
        {"handle": "s1", "card": "swamp", "zone": "battlefield"},
        {"handle": "s2", "card": "swamp", "zone": "battlefield"},
        {"handle": "s3", "card": "swamp", "zone": "battlefield"},
    ]}, [
        {"do": {"player": 0, "action": "cast", "args": ["@deluge"]}},
        {"do": {"player": 0, "action": "choose", "args": [2]}},
        {"do": {"player": 0, "action": "mana", "args": ["auto"]}},
        {"do": {"player": 0, "action": "pass"}},
        {"do": {"player": 1, "action": "pass"}, "expect": {
            "events_unordered": [
                {"kind": "Triggered", "ability": "creature_dies_drain", "count": 3},
                {"kind": "Triggered", "ability": "creature_dies_drain", "subject": "@artist", "checked": "before"},
                {"kind": "Triggered", "ability": "creature_dies_drain", "subject": "@b1", "checked": "before"},
                {"kind": "Triggered", "ability": "creature_dies_drain", "subject": "@b2", "checked": "before"},
            ],
            "request": {"player": 0, "kind": "stack_order"},
        }},
    ])
    assert r.engine.state.priority is None
