"""Pieces of the Magic card language added in 1.5 for abilities granted or defined by other objects, modes chosen
as a spell is cast, coloured X and divided damage, and control change (#25), where a scenario cannot say it:
load refusals, and what the projection computes beside what the scenarios show."""

from __future__ import annotations

from typing import Any

import pytest

from projections.characteristics import view
from statemachine.cards import CardPool
from statemachine.games import profile
from statemachine.games.magic import actions, board
from statemachine.games.magic.profile import Magic
from statemachine.loader import CardFileError, parse_cards
from statemachine.scenario import Run
from statemachine.scenario.run import load


def played(path: str, *, upto: int | None = None) -> Run:
    sc = load(path)
    if upto is not None:
        sc.steps[upto:] = []
    r = Run(sc, path)
    r.run()
    return r


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
    r = played("tests/scenarios/magic/MTG-CORE-S70.toml", upto=0)
    eng, zombies, master = r.engine, r.obj("zombies"), r.obj("master")
    assert [a.id for _, a in actions.activated(eng, zombies)] == ["zombie_regenerate"]
    assert "swampwalk" in view(eng.state, zombies).chars.keywords
    assert actions.activated(eng, master) == []  # "other Zombies"
    eng.emit(*board.to_graveyards(eng, [master], board.DESTROY))
    assert actions.activated(eng, zombies) == []
    assert "swampwalk" not in view(eng.state, zombies).chars.keywords


def test_nightmare_counts_swamps_as_they_come_and_go() -> None:
    """CR 604.3: the count is read whenever the creature is looked at: a Swamp leaving makes it smaller."""
    r = played("tests/scenarios/magic/MTG-CORE-S72.toml", upto=1)
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
