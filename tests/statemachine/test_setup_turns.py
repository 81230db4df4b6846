"""A set-up states the turn once (``turn``, ``active``); what follows from it is derived (``setup_counters``):
Shadowverse's turns begun per player and who went second. A set-up that states one of them otherwise is refused
with an error naming both."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from statemachine.decisions import Decision
from statemachine.scenario import Run, Scenario, ScenarioError


def run_at(turn: int, active: int, stats: dict[str, int] | None = None) -> Run:
    """A Shadowverse board: a follower of the active player on the field, 2 EP each."""
    setup: dict[str, Any] = {"turn": turn, "active": active, "step": "main",
                             "stats": {"0.ep": 2, "1.ep": 2, **(stats or {})},
                             "cards": [{"handle": "f", "card": "fighter", "owner": active, "zone": "field"}]}
    return Run(msgspec.convert({"id": "turns", "game": "shadowverse", "setup": setup}, Scenario), "<test>")


def counters(run: Run) -> list[tuple[int, int]]:
    return [(run.engine.state.stat(p, "turns"), run.engine.state.stat(p, "second")) for p in (0, 1)]


def test_turn_9_with_player_0_active_is_its_fifth_turn_and_it_may_evolve() -> None:
    """The defect as seen: evolving was refused unless ``"0.turns" = 5`` was given too."""
    run = run_at(9, 0)
    assert counters(run) == [(5, 0), (4, 1)]
    run.engine.decide(Decision(0, "evolve", (run.obj("f"),)))
    assert run.engine.state.objects[run.obj("f")].status.get("evolved") == 1


def test_a_seat_1_set_up_on_an_even_turn_goes_first_and_on_an_odd_one_second() -> None:
    """The defect as seen: player 1 went second only with an undocumented ``"1.second"``."""
    assert counters(run_at(8, 1)) == [(4, 0), (4, 1)]  # player 1 went second: its 4th turn
    assert counters(run_at(7, 1)) == [(3, 1), (4, 0)]  # player 1 went first
    assert counters(run_at(0, 1)) == [(0, 1), (0, 0)]  # before turn 1: player 1 takes it


def test_going_second_a_player_evolves_from_its_fourth_turn() -> None:
    run = run_at(8, 1)
    run.engine.decide(Decision(1, "evolve", (run.obj("f"),)))
    assert run.engine.state.objects[run.obj("f")].status.get("evolved") == 1


@pytest.mark.parametrize(("stats", "says"), [
    ({"0.turns": 4}, "'0.turns' = 4 contradicts turn = 9, active = 0, which make it 5"),
    ({"1.second": 0}, "'1.second' = 0 contradicts turn = 9, active = 0, which make it 1"),
    ({"0.second": 1}, "'0.second' = 1 contradicts turn = 9, active = 0, which make it 0"),
])
def test_a_set_up_that_contradicts_its_turn_is_refused_naming_both(stats: dict[str, int], says: str) -> None:
    with pytest.raises(ScenarioError, match="setup.stats: " + says):
        run_at(9, 0, stats)


def test_a_set_up_may_state_what_its_turn_implies() -> None:
    assert counters(run_at(9, 0, {"0.turns": 5, "1.second": 1})) == [(5, 0), (4, 1)]
