"""Shadowverse rules changed in 1.3 (releases.toml), and the earlier behaviour kept for logs recorded before.

- SV-O-40, KIFU-UNDER (``pilot_never_left``): a transformed vehicle's pilot disembarks, and a pilot with no room
  on the field is banished; before 1.3 it was left under nothing (SV-PILOT-S01, SV-PILOT-S02 play the 1.3 rule).
- SV-O-38, SV-O-27 (``boarding_clears_marks``): a pilot boards without the statuses only a card on the field
  carries, damage among them; before 1.3 it kept its damage under the vehicle (SV-PILOT-S03 plays the 1.3 rule).
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from eventsource.memory import MemoryStore
from projections.invariants import ImpossibleBoard, breaches
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.games import profile
from statemachine.games.shadowverse import card_pool
from statemachine.profile import RulesProfile
from statemachine.scenario import Run
from statemachine.scenario.run import load
from tests.registry import GAMES, seated_bots
from tests.statemachine.playouts import play, prove

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "shadowverse"


# The playouts below were found under release 1.2 with decks of 30 cards drawn from pool 1.2 (before decks had to
# follow SV-GAME-DECK): they are replayed as found, under 1.2 and under 1.2 with only the 1.3 switch that mends them.
POOL_1_2_CARDS = sorted(c for c, d in card_pool("1.2").cards.items()
                        if not {"victory_card", "death_card"} & set(d.keywords))


def no_breach(engine: Engine) -> None:
    found = breaches(engine.state, engine.profile.invariants())
    assert not found, f"after record {engine.state.seq}: " + "; ".join(map(str, found))


def found_decks(deck_seed: int) -> list[list[str]]:
    rng = random.Random(deck_seed)
    return [[rng.choice(POOL_1_2_CARDS) for _ in range(30)] for _ in range(2)]


def rules_1_2(switch: str | None = None) -> RulesProfile:
    """Release 1.2, with the one 1.3 switch ``switch`` on (the change alone, on the game it was found in)."""
    rules = profile("shadowverse", "1.2")
    if switch is not None:
        rules.rules = msgspec.structs.replace(rules.rules, **{switch: True})
    return rules


def found_playout(switch: str | None) -> tuple[MemoryStore, list[list[str]]]:
    """The random playout that found the pilot left under nothing: seed 1, bot seed 407, deck seed 65535."""
    decks = found_decks(65535)
    store = MemoryStore()
    engine, made = play(rules_1_2(switch), store, 1, 407, decks, choose=GAMES["shadowverse"].choose, limit=1500)
    prove(rules_1_2(switch), store, engine, made, decks, 1)
    return store, decks


def test_the_playout_that_found_a_pilot_under_nothing_ends_with_every_invariant_kept_under_1_3() -> None:
    store, _ = found_playout("pilot_never_left")
    causes = [r.event.cause for r in store.read("g") if type(r.event).__name__ == "ZoneChanged"]
    assert "transform" in causes and "disembark" in causes


def test_under_1_2_that_playout_still_leaves_the_pilot_under_nothing_at_record_392() -> None:
    with pytest.raises(ImpossibleBoard) as refused:
        found_playout(None)
    assert refused.value.breach.rule == "KIFU-UNDER" and refused.value.seq == 392


@pytest.mark.parametrize("scenario", ["SV-PILOT-S01", "SV-PILOT-S02"])
def test_under_1_2_a_transformed_vehicles_pilot_is_left_under_nothing(scenario: str) -> None:
    run = Run(load(SCENARIOS / f"{scenario}.toml"), scenario, version="1.2")
    run.engine.decide(Decision(0, "play", (run.obj("spell"),)))
    with pytest.raises(ImpossibleBoard) as refused:
        run.engine.decide(Decision(0, "choose", (run.obj("mech"),)))
    assert refused.value.breach.rule == "KIFU-UNDER"


def damaged_pilot_playout(switch: str | None) -> MemoryStore:
    """The random playout (of the board-invariant property) that found a pilot keeping its damage under its
    vehicle: seed 362880, bot seed 269, deck seed 30381, checked after every decision."""
    store = MemoryStore()
    play(rules_1_2(switch), store, 362880, 269, found_decks(30381), choose=seated_bots(269), limit=400,
         invariant=no_breach)
    return store


def test_the_playout_that_found_a_damaged_pilot_under_its_vehicle_boards_it_undamaged_under_1_3() -> None:
    records = list(damaged_pilot_playout("boarding_clears_marks").read("g"))
    stacked = next(r for r in records if type(r.event).__name__ == "Stacked")
    pilot = stacked.event.below
    damaged = [r.seq for r in records if r.seq < stacked.seq and type(r.event).__name__ == "StatusSet"
               and r.event.obj == pilot and r.event.key == "damage" and r.event.value > 0]
    cleared = [r.event for r in records if r.seq < stacked.seq and r.decision == stacked.decision
               and type(r.event).__name__ == "StatusSet" and r.event.obj == pilot and r.event.key == "damage"]
    assert damaged and cleared[-1].value == 0


def test_under_1_2_that_playout_still_leaves_a_damaged_pilot_under_its_vehicle_at_record_553() -> None:
    with pytest.raises(ImpossibleBoard) as refused:
        damaged_pilot_playout(None)
    breach = refused.value.breach
    assert (breach.invariant, breach.rule, refused.value.seq) == ("status-place", "SV-O-27", 553)
