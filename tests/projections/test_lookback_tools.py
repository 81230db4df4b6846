"""Look-back through time travel: any object that left, in any earlier turn, as it was just before."""

from __future__ import annotations

from eventsource import events as ev
from projections.lookback import departure, look_back
from projections.timeline import Timeline
from statemachine.demo import play


def test_every_object_that_left_is_seen_as_it_was_just_before() -> None:
    engine = play(seed=4)
    timeline = Timeline(engine.store, engine.game)
    records = list(engine.store.read(engine.game))
    moves = [r for r in records if isinstance(r.event, ev.ZoneChanged)][::3]
    assert len(moves) > 10
    for r in moves:
        assert isinstance(r.event, ev.ZoneChanged)
        seen = look_back(timeline, r.event.old)
        assert seen is not None
        before = timeline.state_at(r.seq - 1)
        assert seen.zone == r.event.src == before.objects[r.event.old].zone
        assert seen.card == r.event.card
        assert seen.left_at == r.seq
    assert departure(records, 10**9) is None
