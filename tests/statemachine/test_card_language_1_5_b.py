"""Pieces of the Magic card language added in 1.5 for abilities granted or defined by other objects, modes chosen
as a spell is cast, coloured X and divided damage, and control change (#25), where a scenario cannot say it:
load refusals, and what the projection computes beside what the scenarios show."""

from __future__ import annotations

from typing import Any

import pytest

from eventsource import events as ev
from projections.characteristics import view
from statemachine.cards import CardPool
from statemachine.decisions import Decision
from statemachine.games import profile
from statemachine.games.magic import actions, board
from statemachine.games.magic.profile import Magic
from statemachine.loader import CardFileError, parse_cards
from tests.statemachine.test_card_language_1_4 import played


def magic_card(**fields: object) -> dict[str, object]:
    return {"id": "probe", "name": "Probe", "types": ["creature"], "mana": "W", "cost": 1, "power": 1,
            "toughness": 1, **fields}


def refused(raw: dict[str, Any]) -> str:
    """Why the card is refused, at parse or by the pool's checks."""
    p = profile("magic")
    with pytest.raises(CardFileError) as err:
        cards = parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
        Magic.check_pool(CardPool("magic", "probe", {c.id: c for c in cards}))
    return str(err.value)


GRANT = {"id": "lord", "label": "l", "kind": "static",
         "effects": [{"name": "static_each_gets", "params": {"ability": "regen", "subtypes": ["Zombie"]}}]}
REGEN = {"id": "regen", "label": "r", "kind": "granted", "costs": [{"name": "mana", "params": {"mana": "B"}}],
         "effects": [{"name": "regenerate", "params": {"on": "this"}}]}


@pytest.mark.parametrize(("abilities", "why"), [
    ([GRANT], "names ability 'regen', which this card does not have"),
    ([GRANT, {**REGEN, "kind": "activated"}], "not a \"granted\" ability"),
    ([REGEN], "no static_each_gets of this card gives"),
    ([GRANT, {**REGEN, "effects": [{"name": "add_mana", "params": {"color": "B"}}]}], "may not be a mana ability"),
])
def test_a_grant_that_cannot_work_is_refused(abilities: list[dict[str, object]], why: str) -> None:
    assert why in refused(magic_card(abilities=abilities))


def test_the_granted_ability_leaves_with_its_giver() -> None:
    """CR 611.3a: once Zombie Master is gone, the Zombies no longer have its ability (nothing to activate)."""
    r = played("tests/scenarios/magic/MTG-CORE-S80.toml", upto=0)
    eng, zombies, master = r.engine, r.obj("zombies"), r.obj("master")
    assert [a.id for _, a in actions.activated(eng, zombies)] == ["zombie_regenerate"]
    assert "swampwalk" in view(eng.state, zombies).chars.keywords
    assert actions.activated(eng, master) == []  # "other Zombies"
    eng.emit(*board.to_graveyards(eng, [master], board.DESTROY))
    assert actions.activated(eng, zombies) == []
    assert "swampwalk" not in view(eng.state, zombies).chars.keywords


def test_nightmare_counts_swamps_as_they_come_and_go() -> None:
    """CR 604.3: the count is read whenever the creature is looked at: a Swamp leaving makes it smaller."""
    r = played("tests/scenarios/magic/MTG-CORE-S82.toml", upto=1)
    eng, nightmare = r.engine, r.obj("nightmare")
    assert view(eng.state, nightmare).power == 2
    eng.emit(*board.to_graveyards(eng, [r.obj("s1")], board.DESTROY))
    assert (view(eng.state, nightmare).power, view(eng.state, nightmare).chars.toughness) == (1, 1)


SALVE_MODES = [{"label": "a", "effects": [{"name": "target", "params": {"what": "player"}},
                                          {"name": "gain_life", "params": {"who": "target", "amount": 3}}]},
               {"label": "b", "effects": [{"name": "target", "params": {"what": "any"}},
                                          {"name": "prevent_damage", "params": {"amount": 3, "target": 1}}]}]


@pytest.mark.parametrize(("kind", "params", "why"), [
    ("spell", {"as_cast": False, "modes": SALVE_MODES[:1] * 2}, "names no target"),
    ("spell", {"as_cast": True, "modes": SALVE_MODES}, "acts on target 1, but the ability chooses 1 target"),
    ("activated", {"as_cast": True, "modes": SALVE_MODES[:1] * 2}, "belong to a spell's text"),
    ("spell", {"as_cast": True, "chooser": "opponent", "modes": SALVE_MODES[:1] * 2}, "chosen by its caster"),
])
def test_modes_chosen_as_cast_that_cannot_work_are_refused(kind: str, params: dict[str, object], why: str) -> None:
    """CR 700.2a: a mode's steps count its own targets after the ability's; only a spell records its mode."""
    raw = magic_card(types=["instant"], abilities=[
        {"id": "a1", "label": "m", "kind": kind, "effects": [{"name": "choose_one", "params": params}]}])
    assert why in refused(raw)


def test_fireball_rounds_a_divided_share_down() -> None:
    """CR 107.1a: "divided evenly, rounded down": X = 3 between the opponent and a Bears is 1 each."""
    r = played("tests/scenarios/magic/MTG-CORE-S86.toml", upto=1)
    eng = r.engine
    for args in ((3,), (r.obj("b1"), -2), ("auto",)):
        eng.decide(Decision(0, "mana" if args == ("auto",) else "choose", args))
    eng.decide(Decision(0, "pass", ()))
    eng.decide(Decision(1, "pass", ()))
    assert eng.state.objects[r.obj("b1")].status.get("damage") == 1
    assert eng.state.stat(1, "life") == 19
    assert all(eng.state.objects[m].status.get("tapped") for m in map(r.obj, ("m1", "m2", "m3", "m4", "m5")))
    assert not eng.state.objects[r.obj("m6")].status.get("tapped")  # {3}{R} and {1} for the second target


@pytest.mark.parametrize(("fields", "why"), [
    ({"mana": "1B", "cost": 2, "x_mana": "B"}, "the mana cost has no X"),
    ({"mana": "XR", "cost": 1, "cost_per_extra_target": "1"}, "a spell with any number of targets"),
    ({"mana": "XR", "cost": 1, "cost_per_extra_target": "R"}, "generic mana"),
])
def test_coloured_x_and_extra_target_costs_that_cannot_work_are_refused(fields: dict[str, object], why: str) -> None:
    raw = magic_card(types=["sorcery"], **fields, abilities=[
        {"id": "a1", "label": "d", "kind": "spell", "effects": [
            {"name": "target", "params": {"what": "any"}},
            {"name": "damage", "params": {"amount": {"x": True}}}]}])
    assert why in refused(raw)


def test_only_the_last_target_step_takes_any_number() -> None:
    raw = magic_card(types=["sorcery"], abilities=[{"id": "a1", "label": "d", "kind": "spell", "effects": [
        {"name": "target", "params": {"what": "any", "any_number": True}},
        {"name": "target", "params": {"what": "creature"}},
        {"name": "damage", "params": {"amount": 1, "target": 1}}]}])
    assert "last target step" in refused(raw)


def test_control_returns_to_the_controller_before_when_the_oldest_of_two_effects_ends() -> None:
    """CR 613.1b: the newest control effect wins; when an older one ends first the newer keeps control, and when
    the last ends the object returns to the controller it had before either (its owner here)."""
    r = played("tests/scenarios/magic/MTG-CORE-S87.toml", upto=5)
    eng, bears = r.engine, r.obj("bears")
    st = eng.state
    first = next(m for m in st.modifiers.values() if m.kind == "control")
    eng.emit(ev.ContinuousEffectStarted(st.next_effect, r.obj("i1"), "control", bears, amount=1, value="0",
                                        until="end_of_turn"))
    second = st.next_effect - 1
    assert st.objects[bears].controller == 1
    eng.emit(ev.ContinuousEffectEnded(first.effect))
    assert st.objects[bears].controller == 1
    eng.emit(ev.ContinuousEffectEnded(second))
    assert st.objects[bears].controller == 1  # the owner, who controlled it before the first effect


def test_attaching_to_a_returned_creature_needs_a_step_that_returns_one() -> None:
    raw = magic_card(types=["enchantment"], subtypes=["Aura"], abilities=[
        {"id": "a1", "label": "r", "kind": "spell", "effects": [
            {"name": "target", "params": {"what": "card", "types": ["creature"]}},
            {"name": "attach", "params": {"to": "returned"}}]}])
    assert "needs an earlier put_onto_battlefield step" in refused(raw)
