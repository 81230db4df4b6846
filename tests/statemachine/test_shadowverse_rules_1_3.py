"""Shadowverse rules changed in 1.3 (releases.toml), and the earlier behaviour kept for logs recorded before.

- SV-O-40, KIFU-UNDER (``pilot_never_left``): a transformed vehicle's pilot disembarks, and a pilot with no room
  on the field is banished; before 1.3 it was left under nothing (SV-PILOT-S01, SV-PILOT-S02 play the 1.3 rule).
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
from tests.registry import GAMES, cards
from tests.statemachine.playouts import play, prove

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "shadowverse"


def found_playout(version: str) -> tuple[MemoryStore, list[list[str]]]:
    """The random playout that found the pilot left under nothing: seed 1, bot seed 407, deck seed 65535."""
    rng = random.Random(65535)
    decks = [[rng.choice(cards("shadowverse")) for _ in range(30)] for _ in range(2)]
    store = MemoryStore()
    engine, made = play(profile("shadowverse", version), store, 1, 407, decks, choose=GAMES["shadowverse"].choose,
                        limit=1500)
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
