"""Shadowverse pool 1.2's errata against pool 1.1, on the same boards: エンシェントエルフ costs 3 and has Ward;
リノセウス's +X/+0 lasts until the end of the turn. Under rules 1.1 both play as pool 1.1 wrote them."""

from __future__ import annotations

import tomllib

import msgspec
import pytest

from projections.characteristics import ObjectView, view
from statemachine.decisions import Decision
from statemachine.scenario import Run, Scenario

BOARD = """
id = "probe"
game = "shadowverse"
[setup]
turn = 5
active = 0
step = "main"
stats = { "0.life" = 20, "1.life" = 20, "0.max_pp" = 6, "0.pp" = 6 }
cards = [
  { handle = "elf", card = "ancient_elf", zone = "hand" },
  { handle = "rhino", card = "rhinoceroach", zone = "hand" },
  { handle = "f1", card = "fighter", zone = "field" },
  { handle = "d1", card = "goblin", owner = 1, zone = "deck" },
]
"""


def _run(version: str) -> Run:
    run = Run(msgspec.convert(tomllib.loads(BOARD), Scenario, strict=True), "<inline>", version=version)
    run.run()
    return run


def _view(run: Run, handle: str) -> ObjectView:
    return view(run.engine.state, run.obj(handle))


def _do(run: Run, action: str, *args: str) -> None:
    run.engine.decide(Decision(0, action, tuple(run.arg(a) for a in args)))


@pytest.mark.parametrize(("version", "pp_left", "ward"), [("1.1", 2, False), ("1.2", 3, True)])
def test_ancient_elf_costs_three_and_has_ward_from_pool_1_2(version: str, pp_left: int, ward: bool) -> None:
    run = _run(version)
    _do(run, "play", "@elf")
    st = run.engine.state
    assert st.stat(0, "pp") == pp_left
    assert ("ward" in _view(run, "elf").chars.keywords) is ward
    assert _view(run, "elf").power == 3  # one other follower returned: +1/+1 under both


@pytest.mark.parametrize(("version", "next_turn_power"), [("1.1", 2), ("1.2", 1)])
def test_rhinoceroachs_bonus_ends_with_the_turn_from_pool_1_2(version: str, next_turn_power: int) -> None:
    run = _run(version)
    _do(run, "play", "@elf")  # one card played before it: X = 1 (the elf returns the fighter to the hand)
    _do(run, "play", "@rhino")
    assert _view(run, "rhino").power == 2
    _do(run, "end_turn")
    assert run.engine.state.active == 1
    assert _view(run, "rhino").power == next_turn_power
