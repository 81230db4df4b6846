"""A hidden card moving where a player cannot see it shows that player neither which card nor which object."""

from __future__ import annotations

from eventsource import events as ev
from projections.state import fold
from projections.timeline import Timeline
from projections.views import can_see, redact_event
from statemachine.demo import play


def test_the_opponent_sees_a_draw_but_not_the_card() -> None:
    engine = play(seed=6)
    timeline = Timeline(engine.store, engine.game)
    draws = [r for r in engine.store.read(engine.game)
             if isinstance(r.event, ev.ZoneChanged) and r.event.src == "0.deck" and r.event.dst == "0.hand"]
    assert len(draws) > 5
    for r in draws[:10]:
        before = timeline.state_at(r.seq - 1)
        assert isinstance(r.event, ev.ZoneChanged)
        to_opponent = redact_event(r.event, 1, before)
        assert isinstance(to_opponent, ev.ZoneChanged)
        assert (to_opponent.card, to_opponent.old) == (-1, -1)
        assert to_opponent.new == r.event.new and to_opponent.dst == "0.hand"
        assert redact_event(r.event, 0, before) == r.event  # the player who draws sees the card
        assert redact_event(r.event, None, before) == r.event  # and so does a judge


def test_a_shuffle_ends_what_a_reveal_told_about_a_cards_place() -> None:
    card = ev.Characteristics("X")
    state = fold([
        ev.GameStarted("t", "1", ("a", "b"), 1, "p", "1", "d"),
        ev.ObjectCreated(1, 1, "x", 0, "0.deck", 0, card, True),
        ev.ObjectCreated(2, 2, "y", 0, "0.deck", 1, card, True),
        ev.Revealed(1, (1,), 1, "x"),
    ])
    assert can_see(state, 1, 1) and not can_see(state, 1, 2)
    fold([ev.Shuffled("0.deck", (2, 1))], state)
    assert not can_see(state, 1, 1), "after the shuffle player 1 no longer knows which deck card it is"
