"""Shadowverse rules changed in 1.3 (releases.toml), and the earlier behaviour kept for logs recorded before.

- SV-O-40, KIFU-UNDER (``pilot_never_left``): a transformed vehicle's pilot disembarks, and a pilot with no room
  on the field is banished; before 1.3 it was left under nothing (SV-PILOT-S01, SV-PILOT-S02 play the 1.3 rule).
- SV-O-38, SV-O-27 (``boarding_clears_marks``): a pilot boards without the statuses only a card on the field
  carries, damage among them; before 1.3 it kept its damage under the vehicle (SV-PILOT-S03 plays the 1.3 rule).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from eventsource.memory import MemoryStore
from projections.invariants import ImpossibleBoard
from statemachine.decisions import Decision
from statemachine.games import profile
from statemachine.scenario import Run
from statemachine.scenario.run import load
from tests.statemachine import test_board_invariants as invariants
from tests.statemachine import test_shadowverse_playouts as sv
from tests.statemachine.playouts import play, prove

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "shadowverse"


def found_playout(version: str) -> tuple[MemoryStore, list[list[str]]]:
    """The random playout that found the pilot left under nothing: seed 1, bot seed 407, deck seed 65535."""
    rng = random.Random(65535)
    decks = [[rng.choice(sv.CARDS) for _ in range(30)] for _ in range(2)]
    store = MemoryStore()
    engine, made = play(profile("shadowverse", version), store, 1, 407, decks, choose=sv.choose, limit=1500)
    prove(profile("shadowverse", version), store, engine, made, decks, 1)
    return store, decks


def test_the_playout_that_found_a_pilot_under_nothing_ends_with_every_invariant_kept_under_1_3() -> None:
    store, _ = found_playout("1.3")
    causes = [r.event.cause for r in store.read("g") if type(r.event).__name__ == "ZoneChanged"]
    assert "transform" in causes and "disembark" in causes


def test_under_1_2_that_playout_still_leaves_the_pilot_under_nothing_at_record_392() -> None:
    with pytest.raises(ImpossibleBoard) as refused:
        found_playout("1.2")
    assert refused.value.breach.rule == "KIFU-UNDER" and refused.value.seq == 392


@pytest.mark.parametrize("scenario", ["SV-PILOT-S01", "SV-PILOT-S02"])
def test_under_1_2_a_transformed_vehicles_pilot_is_left_under_nothing(scenario: str) -> None:
    run = Run(load(SCENARIOS / f"{scenario}.toml"), scenario, version="1.2")
    run.engine.decide(Decision(0, "play", (run.obj("spell"),)))
    with pytest.raises(ImpossibleBoard) as refused:
        run.engine.decide(Decision(0, "choose", (run.obj("mech"),)))
    assert refused.value.breach.rule == "KIFU-UNDER"


def damaged_pilot_playout(version: str) -> MemoryStore:
    """The random playout (of the board-invariant property) that found a pilot keeping its damage under its
    vehicle: seed 362880, bot seed 269, deck seed 30381, checked after every decision."""
    rng = random.Random(30381)
    decks = [invariants.DECKS["shadowverse"](rng) for _ in range(2)]
    store = MemoryStore()
    play(profile("shadowverse", version), store, 362880, 269, decks, choose=invariants.bots(269), limit=400,
         invariant=invariants.no_breach)
    return store


def test_the_playout_that_found_a_damaged_pilot_under_its_vehicle_boards_it_undamaged_under_1_3() -> None:
    records = list(damaged_pilot_playout("1.3").read("g"))
    stacked = next(r for r in records if type(r.event).__name__ == "Stacked")
    pilot = stacked.event.below
    damaged = [r.seq for r in records if r.seq < stacked.seq and type(r.event).__name__ == "StatusSet"
               and r.event.obj == pilot and r.event.key == "damage" and r.event.value > 0]
    cleared = [r.event for r in records if r.seq < stacked.seq and r.decision == stacked.decision
               and type(r.event).__name__ == "StatusSet" and r.event.obj == pilot and r.event.key == "damage"]
    assert damaged and cleared[-1].value == 0


def test_under_1_2_that_playout_still_leaves_a_damaged_pilot_under_its_vehicle_at_record_553() -> None:
    with pytest.raises(ImpossibleBoard) as refused:
        damaged_pilot_playout("1.2")
    breach = refused.value.breach
    assert (breach.invariant, breach.rule, refused.value.seq) == ("status-place", "SV-O-27", 553)
