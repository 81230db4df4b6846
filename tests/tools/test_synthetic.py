"""The synthetic game log the benchmarks run on: legal for the fold, bounded, reproducible from its seed."""

from __future__ import annotations

from collections import Counter

from eventsource import events as ev
from projections.state import GameState, evolve, snapshot
from tools.logs import synthetic

N = 20_000


def fold(seed: int, n: int) -> tuple[GameState, list[int]]:
    """Fold the first ``n`` events; also the snapshot size after every 2,000 events."""
    state = GameState()
    sizes = []
    for seq, item in enumerate(synthetic.events(seed, n), start=1):
        evolve(state, seq, item.event, item.decision)
        if seq % 2_000 == 0:
            sizes.append(len(snapshot(state)))
    return state, sizes


def test_folds_cleanly_and_stays_bounded() -> None:
    state, sizes = fold(3, N)  # raises ProjectionError on the first event the fold cannot apply
    assert state.seq == N
    cards = 2 * len(synthetic.DECK) * synthetic.COPIES
    assert len(state.objects) == len(state.cards) == cards  # every card is always exactly one object
    assert sum(len(ids) for ids in state.zones.values()) + sum(
        1 for o in state.objects.values() if o.zone == "under"
    ) == cards
    assert len(state.modifiers) < 20 and len(state.pending) < 10 and len(state.last_known) < 60
    assert state.turn > 200
    assert max(sizes) < 2 * min(sizes[len(sizes) // 2 :])  # the state does not grow with the log


def test_is_a_realistic_mix() -> None:
    items = synthetic.events(5, N)
    kinds = Counter(type(item.event).__name__ for item in items)
    for kind in ("ZoneChanged", "StatusSet", "Triggered", "EffectPending", "EffectResolved", "EffectFizzled",
                 "ChoiceRequested", "ChoiceMade", "CostPaid", "ContinuousEffectStarted",
                 "ContinuousEffectEnded", "Shuffled", "PlayerStat", "TurnBegan", "StepBegan", "Stacked"):
        assert kinds[kind] > 0, kind
    assert kinds["ZoneChanged"] > N // 20
    moved = [i.event for i in items if isinstance(i.event, ev.ZoneChanged)]
    assert all(z.new != z.old for z in moved)
    assert len({z.new for z in moved}) == len(moved)  # each zone change makes a new object
    decisions = Counter(item.decision for item in items)
    assert 10 <= N / len(decisions) <= 30  # about a score of events per decision


def test_decisions_are_numbered_in_order_and_causes_point_back() -> None:
    last = 0
    for seq, item in enumerate(synthetic.events(7, 5_000), start=1):
        assert item.decision >= last
        last = item.decision
        assert 0 <= item.cause < seq
        if isinstance(item.event, ev.ChoiceMade):
            assert item.decision > 0


def test_same_seed_same_bytes_other_seed_other_game() -> None:
    def log(seed: int) -> list[tuple[bytes, int, int]]:
        return [(ev.encode(i.event), i.decision, i.cause) for i in synthetic.events(seed, 3_000)]

    assert log(11) == log(11)
    assert [body for body, _, _ in log(11)] != [body for body, _, _ in log(12)]


def test_batches_give_exactly_n_events() -> None:
    batches = list(synthetic.batches(2, 1_234))
    assert sum(len(b) for b in batches) == 1_234
    assert all(b for b in batches)
