"""The memory of the turn and of the graveyard (Magic 1.6, #25), where a scenario cannot say it: what the fold keeps,
the choices a scenario plays one way only, and load refusals."""

from __future__ import annotations

from typing import Any

import pytest

from eventsource import events as ev
from projections.state import CONTROL, GameState, evolve, fork
from statemachine.context import EffectContext
from statemachine.decisions import Decision
from statemachine.games.magic import board
from tests.statemachine.test_card_language_1_4 import played
from tests.statemachine.test_card_language_1_5_b import magic_card, refused

NETHER = "tests/scenarios/magic/MTG-CORE-S121.toml"


STARTED = ev.GameStarted("magic", "1.6", ("a", "b"), 1, "magic", "1.6", "")


def _folded(*events: ev.Event) -> GameState:
    """A game's state after ``events`` (its GameStarted first, record 1)."""
    st = GameState()
    for n, e in enumerate((STARTED, *events), start=1):
        evolve(st, n, e)
    return st


def test_the_fold_remembers_this_turn_and_forgets_it_when_the_next_begins() -> None:
    st = _folded(ev.TurnBegan(1, 0), ev.Attacked(7, player=1), ev.DamageDealt(7, -2, 3, True),
                 ev.DamageDealt(8, -2, 1), ev.DamageDealt(8, 9, 2))
    memory = st.this_turn
    assert (memory.began, memory.attacked) == (2, [7])
    assert (memory.damage_dealt_to(-2), memory.damage_dealt_to(9), memory.damage_dealt_to(-1)) == (4, 2, 0)
    assert memory.arrived(3) and not memory.arrived(2)
    evolve(st, 7, ev.TurnBegan(2, 1))
    assert (st.this_turn.began, st.this_turn.attacked, st.this_turn.damage_to) == (7, [], {})


def test_a_control_change_is_remembered_when_it_starts_and_when_it_ends() -> None:
    creature = ev.Characteristics(name="c", types=("creature",))
    st = _folded(ev.ObjectCreated(1, 1, "c", 0, "0.battlefield", 0, creature), ev.TurnBegan(1, 0),
                 ev.ContinuousEffectStarted(1, 5, CONTROL, 1, amount=1, value="0"))
    assert st.this_turn.control_changed == [1] and st.objects[1].controller == 1
    evolve(st, 6, ev.TurnBegan(2, 1))
    assert st.this_turn.control_changed == []
    evolve(st, 7, ev.ContinuousEffectEnded(1))
    assert st.this_turn.control_changed == [1] and st.objects[1].controller == 0


def test_a_fork_keeps_its_own_memory() -> None:
    st = _folded(ev.TurnBegan(1, 0), ev.Attacked(7, player=1))
    other = fork(st)
    evolve(other, 4, ev.DamageDealt(7, -2, 2))
    evolve(other, 5, ev.Attacked(8, player=1))
    assert (st.this_turn.attacked, st.this_turn.damage_to) == ([7], {})
    assert (other.this_turn.attacked, other.this_turn.damage_to) == ([7, 8], {-2: 2})


def test_nether_shadow_declined_stays_in_the_graveyard() -> None:
    """CR 603.5: "you may": answered no, the Shadow stays where it lies, and nothing else happens."""
    r = played(NETHER, upto=4)
    eng, shadow = r.engine, r.obj("sh1")
    assert eng.state.request is not None and eng.state.request.kind == "may"
    eng.decide(Decision(0, "choose", ("no",)))
    assert board.kind_of(eng.state.objects[shadow].zone) == board.GRAVEYARD
    assert not board.stack_items(eng.state)


def test_the_graveyard_condition_reads_only_a_card_still_in_its_owners_graveyard() -> None:
    """CR 603.4, 404.1: "if ~ is in your graveyard with three or more creature cards above it" — judged again as
    the ability resolves: once the Shadow has left the graveyard (exiled in response) it no longer holds."""
    r = played(NETHER, upto=3)
    eng, shadow = r.engine, r.obj("sh1")
    card = eng.state.objects[shadow].card
    ctx = EffectContext(eng, controller=0, source=shadow, source_card=card)
    above = {"at_least": 3, "types": ["creature"]}
    vocab = eng.profile.vocabulary
    assert vocab.check(ctx, "cards_above_in_graveyard", above)
    assert not vocab.check(ctx, "cards_above_in_graveyard", {"at_least": 5, "types": ["creature"]})
    assert vocab.check(ctx, "cards_above_in_graveyard", {"at_least": 5})  # any card: the Bolt counts too
    assert not vocab.check(EffectContext(eng, controller=1, source=shadow, source_card=card),
                           "cards_above_in_graveyard", above)  # not the controller's graveyard
    eng.emit(board.move(eng, shadow, board.zone(0, board.EXILE), "exile"))
    assert not vocab.check(ctx, "cards_above_in_graveyard", above)


@pytest.mark.parametrize(("effects", "conditions", "why"), [
    ([{"name": "may", "params": {"then": []}}], [], "says what is done"),
    ([{"name": "may", "params": {"pay": "Q", "then": [{"name": "draw"}]}}], [], "params.pay"),
    ([{"name": "may", "params": {"then": [{"name": "target", "params": {"what": "creature"}}]}}], [],
     "names no target"),
    ([{"name": "if", "params": {"condition": "no_such", "then": [{"name": "draw"}]}}], [], "unknown condition"),
    ([{"name": "if", "params": {"condition": "source_this_turn", "condition_params": {"fact": "swam"},
                                "then": [{"name": "draw"}]}}], [], "condition_params"),
    ([{"name": "if", "params": {"condition": "source_untapped"}}], [], "does nothing either way"),
    ([{"name": "draw"}], [{"name": "cards_above_in_graveyard", "params": {"at_least": 0}}], "at_least"),
    ([{"name": "draw"}], [{"name": "cards_above_in_graveyard", "params": {"at_least": 3}}],
     "must work from there"),
    ([{"name": "damage", "params": {"on": "active", "amount": {"stat": "life"}}}], [], "unknown counter"),
])
def test_a_memory_piece_that_cannot_work_is_refused_at_load(effects: list[dict[str, Any]],
                                                            conditions: list[dict[str, Any]], why: str) -> None:
    ability = {"id": "a", "label": "a", "trigger": {"on": "step_begins", "filter": {"step": "upkeep"}},
               "conditions": conditions, "effects": effects}
    message = refused(magic_card(abilities=[ability]))
    assert why in message and "probe" in message and "'a'" in message, message


def test_a_trigger_filter_turn_of_names_only_the_attached_controller() -> None:
    ability = {"id": "a", "label": "a", "effects": [{"name": "draw"}],
               "trigger": {"on": "step_begins", "filter": {"step": "upkeep", "turn_of": "defending_player"}}}
    message = refused(magic_card(abilities=[ability]))
    assert "trigger.filter" in message and "'defending_player'" in message


def test_turn_of_on_a_trigger_that_does_not_read_it_is_refused() -> None:
    ability = {"id": "a", "label": "a", "effects": [{"name": "draw"}],
               "trigger": {"on": "dies", "filter": {"turn_of": "attached_controller"}}}
    message = refused(magic_card(abilities=[ability]))
    assert "turn_of filters trigger step_begins only" in message and "'a'" in message
