"""An event that cannot follow the state before it is refused by the fold, naming the record and the problem;
the fold never quietly builds a wrong board."""

from __future__ import annotations

import pytest

from eventsource import events as ev
from projections.state import ProjectionError, fold


def board() -> list[ev.Event]:
    return [
        ev.GameStarted("test", "1", ("Aoi", "Ren"), 1, "pool", "1", "00"),
        ev.ObjectCreated(1, 1, "x", 0, "0.hand", 0, ev.Characteristics("X")),
        ev.ObjectCreated(2, 2, "y", 0, "0.battle", 0, ev.Characteristics("Y")),
        ev.Triggered(1, "on_enter", 2, 2, 0, 3, ev.AFTER),
    ]


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (ev.ZoneChanged(9, 10, 1, "0.hand", 0, "0.grave", 0), "object 9 is not in the game"),
        (ev.ZoneChanged(1, 10, 1, "0.battle", 0, "0.grave", 0), "object 1 is in 0.hand, not 0.battle"),
        (ev.ZoneChanged(1, 10, 2, "0.hand", 0, "0.grave", 0), "object 1 is card 1, not card 2"),
        (ev.ZoneChanged(1, 10, 99, "0.hand", 0, "0.grave", 0), "object 1 is card 1, not card 99"),
        (ev.ZoneChanged(1, 2, 1, "0.hand", 0, "0.battle", 0), "object id 2 is not new"),
        (ev.ZoneChanged(1, 1, 1, "0.hand", 0, "0.grave", 0), "object id 1 is not new"),
        (ev.StatusSet(7, "tapped", 1), "status tapped set on object 7, which is not in the game"),
        (ev.Stacked(2, 2), "cannot put object 2 under object 2"),
        (ev.Stacked(2, 8), "cannot put object 8 under object 2"),
        (ev.Shuffled("0.hand", (1, 2)), "shuffle of 0.hand does not name exactly the objects in it"),
        (ev.EffectResolved(5), "effect 5 is not pending"),
        (ev.EffectResolving(5), "effect 5 is not pending"),
        (ev.EffectFizzled(5, "gone"), "effect 5 is not pending"),
        (ev.ObjectCreated(2, 3, "z", 1, "1.hand", 0, ev.Characteristics("Z")), "object 2 already exists"),
        (ev.GameStarted("test", "1", ("A", "B"), 1, "pool", "1", "00"), "a game can start only once"),
        (ev.PlayerStat(2, "life", 20), "there is no player 2"),
        (ev.PlayerLost(-1, "conceded"), "there is no player -1"),
    ],
    ids=lambda x: x if isinstance(x, str) else type(x).__name__,
)
def test_an_event_that_cannot_follow_is_refused_naming_the_record(event: ev.Event, message: str) -> None:
    with pytest.raises(ProjectionError, match=message) as caught:
        fold([*board(), event])
    assert caught.value.seq == len(board()) + 1
    assert str(caught.value).startswith(f"record {len(board()) + 1}: ")


def test_a_refused_move_leaves_the_board_as_it_was() -> None:
    state = fold(board())
    before = (dict(state.zones), sorted(state.objects), dict(state.last_known))
    reused: list[ev.Event] = [ev.ZoneChanged(1, 2, 1, "0.hand", 0, "0.battle", 0)]
    with pytest.raises(ProjectionError):
        fold(reused, state)
    assert (dict(state.zones), sorted(state.objects), dict(state.last_known)) == before
