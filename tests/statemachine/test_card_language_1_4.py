"""Pieces of the card language added in Magic 1.4 (#25), where a scenario cannot say it: an untap step two turns
on, a trigger that must not fire, the same board under the release before, and load refusals."""

from __future__ import annotations

import msgspec
import pytest

from eventsource import events as ev
from projections.characteristics import view
from statemachine.games import profile
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def played(path: str, *, upto: int | None = None, rules: str | None = None) -> Run:
    sc = load(path)
    if upto is not None:
        sc.steps[upto:] = []
    if rules is not None:
        sc = msgspec.structs.replace(sc, rules=rules)
    r = Run(sc, path)
    r.run()
    return r


def pass_until(r: Run, done: object) -> None:
    """Play on doing nothing (pass, attack with nothing, block with nothing) until ``done()`` holds."""
    eng = r.engine
    for _ in range(400):
        if done():  # type: ignore[operator]
            return
        legal = eng.legal()
        assert legal.player is not None
        eng.decide(next((d for d in legal.decisions if d.action == "pass" or not d.args), legal.decisions[0]))
    raise AssertionError("the state sought was never reached")


def test_the_blocked_creature_stays_tapped_through_its_next_untap_step_only() -> None:
    """CR 502.3 (霜の壁): the Giant stays tapped in player 1's next untap step (turn 6), and the effect ends with
    that step (so the untap step after it untaps the Giant as usual)."""
    r = played("tests/scenarios/magic/MTG-CORE-S48.toml")
    eng, giant = r.engine, r.obj("giant")
    st = eng.state
    pass_until(r, lambda: st.turn == 5 and st.step == "upkeep")
    assert any(m.value == "doesnt_untap_next" and m.target == giant for m in st.modifiers.values())  # not its untap
    pass_until(r, lambda: st.turn == 6 and st.step == "upkeep")
    assert st.objects[giant].status.get("tapped") == 1
    assert not any(m.value == "doesnt_untap_next" for m in st.modifiers.values())


def test_the_specter_dealing_damage_to_a_creature_triggers_nothing() -> None:
    """"Whenever ~ deals damage to an opponent": its combat damage to a blocking creature is recorded, but the
    trigger's filter (to = "opponent") leaves it alone."""
    r = played("tests/scenarios/magic/MTG-CORE-S43.toml", upto=0)
    eng = r.engine
    trigger = profile("magic").pool["hypnotic_specter"].abilities[0].trigger
    assert trigger is not None
    accept = eng.profile.trigger_kinds["deals_damage"].accept
    assert accept is not None
    hawk = r.obj("hawk")  # stands in for the Specter, controlled by player 0
    seen = view(eng.state, hawk)
    to_creature = ev.DamageDealt(hawk, r.obj("pridemate"), 2, True)
    to_opponent = ev.DamageDealt(hawk, -2, 2, True)
    to_self = ev.DamageDealt(hawk, -1, 2, False)
    assert [accept(e, seen, seen, trigger.filter) for e in (to_creature, to_opponent, to_self)] == [False, True, False]


def test_damage_is_not_recorded_under_rules_1_3() -> None:
    """Rules 1.3 games record no DamageDealt (the switch damage_recorded is off): the Bolt of MTG-AMT-S02's
    board deals its damage as a life change only, as recorded then."""
    new = played("tests/scenarios/magic/MTG-AMT-S02.toml")
    old = played("tests/scenarios/magic/MTG-AMT-S02.toml", rules="1.3")
    assert [(new.card_of[e.source], e.to, e.amount) for e in _damage(new)] == [(new.card("blaze"), -2, 2)]
    assert _damage(old) == []
    assert old.engine.state.stat(1, "life") == new.engine.state.stat(1, "life") == 18


def _damage(r: Run) -> list[ev.DamageDealt]:
    return [rec.event for rec in r.all_events if isinstance(rec.event, ev.DamageDealt)]


def magic_card(**fields: object) -> dict[str, object]:
    return {"id": "probe", "name": "Probe", "types": ["instant"], "mana": "W", "cost": 1, **fields}


@pytest.mark.parametrize(("params", "why"), [
    ({"on": "you"}, "prevents nothing"),
    ({"on": "you", "amount": 2, "source_colors": ["red"]}, "chosen source"),
])
def test_a_prevention_step_that_can_prevent_nothing_is_refused(params: dict[str, object], why: str) -> None:
    p = profile("magic")
    raw = magic_card(abilities=[{"id": "a1", "label": "t", "kind": "spell",
                                 "effects": [{"name": "prevent_damage", "params": params}]}])
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    assert why in str(err.value)
