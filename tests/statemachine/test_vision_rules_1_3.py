"""Vision of Phantasm rules changed in 1.3 (releases.toml), and 1.2 kept for logs recorded under it.

- VOP-GAME-LIFE (``life_at_most_start``): changing life points to X makes them at most 20, the life points a player
  starts with (VOP-LIFE-S01 plays the 1.3 rule); under 1.2 an X above 20 set the damage taken below 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from projections.invariants import ImpossibleBoard
from statemachine.decisions import Decision
from statemachine.scenario import Run
from statemachine.scenario.run import load

SCENARIO = Path(__file__).parents[1] / "scenarios" / "vision" / "VOP-LIFE-S01.toml"


def played(version: str) -> Run:
    run = Run(load(SCENARIO), str(SCENARIO), version=version)
    run.engine.decide(Decision(0, "play", (run.obj("restore"),)))
    run.engine.decide(Decision(1, "pass", ()))
    return run


def test_under_1_3_life_points_changed_to_25_are_20() -> None:
    run = played("1.3")
    run.engine.decide(Decision(0, "pass", ()))
    assert [run.engine.state.stat(p, "damage") for p in (0, 1)] == [0, 0]


def test_under_1_2_life_points_changed_to_25_took_the_damage_below_0_a_board_now_refused() -> None:
    run = played("1.2")
    with pytest.raises(ImpossibleBoard) as refused:
        run.engine.decide(Decision(0, "pass", ()))
    assert refused.value.breach.rule == "VOP-GAME-LIFE" and "damage is -5" in str(refused.value)
