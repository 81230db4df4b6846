"""Pieces of the card language added in Magic 1.3 and Duel Masters 1.3 (#25), where a scenario cannot say it:
an activation limit counted per turn, the legal moves a forced attack leaves, and load refusals."""

from __future__ import annotations

from typing import Any

import pytest

from statemachine.games import profile
from statemachine.games.duel_masters.pending import END_STEP
from statemachine.games.magic import actions
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def played(path: str, upto: int | None = None) -> Run:
    sc = load(path)
    if upto is not None:
        sc.steps[upto:] = []
    r = Run(sc, path)
    r.run()
    return r


def test_an_activation_limit_counts_this_turn_only() -> None:
    """CR 602.5b: Vampire Bats activated twice is refused a third time, and may be activated again in the next
    turn (its controller holding priority in the opponent's upkeep)."""
    r = played("tests/scenarios/magic/MTG-CORE-S39.toml")
    eng = r.engine
    bats = r.obj("bats")
    why = actions.why_not_activate(eng, 0, bats, 0)
    assert why is not None and why[0] == "CR 602.5b"
    while eng.state.turn == 3 or eng.state.priority != 0:  # play on, doing nothing, to player 0's priority
        legal = eng.legal()
        assert legal.player is not None
        eng.decide(next((d for d in legal.decisions if d.action == "pass" or not d.args), legal.decisions[0]))
    assert eng.state.turn == 4
    assert actions.why_not_activate(eng, 0, bats, 0) is None


def test_a_forced_attacker_leaves_no_end_step_among_the_legal_moves() -> None:
    """可能であれば毎ターン攻撃する: in the attack step, ending it is not offered while the Blaze Claw can attack."""
    r = played("tests/scenarios/duel_masters/DM-CARD-S07.toml", upto=2)
    legal = r.engine.legal()
    assert [d for d in legal.decisions if d.action == END_STEP] == []
    assert any(d.action == "attack" and d.args[0] == r.obj("claw") for d in legal.decisions)


def dm_card(**fields: Any) -> dict[str, Any]:
    return {"id": "probe", "name": "Probe", "types": ["creature"], "colors": ["fire"], "cost": 1, "power": 1000,
            **fields}


def test_a_power_while_attacking_with_an_unknown_zone_is_refused() -> None:
    p = profile("duel_masters")
    raw = dm_card(power_while_attacking={"count": {"zone": "library"}})
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    assert err.value.field is not None and err.value.field.startswith("$.power_while_attacking")
    assert "library" in str(err.value)


def test_an_activation_limit_below_one_is_refused() -> None:
    p = profile("magic")
    raw = {"id": "probe", "name": "Probe", "types": ["creature"], "mana": "B", "cost": 1, "power": 0,
           "toughness": 1, "abilities": [{"id": "a1", "label": "t", "kind": "activated",
                                          "costs": [{"name": "mana", "params": {"mana": "B"}}],
                                          "conditions": [{"name": "times_each_turn", "params": {"times": 0}}],
                                          "effects": [{"name": "pump", "params": {"on": "this", "power": 1}}]}]}
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    assert "times" in str(err.value)
