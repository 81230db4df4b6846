"""Card text that asks about the turn so far or about a graveyard's order (rules 1.6).

The answers are read from the fold, never from a counter the rules keep: the memory of the turn
(``projections.turn``, ``GameState.this_turn``: attacks declared, damage dealt, control changes this turn) and the
graveyard as the projection keeps it, each card put on top of the ones before (CR 404.1: the zone's list, bottom
first). "Whenever ~ attacks and isn't blocked" triggers as the blockers have been declared (CR 509.1h).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import GameState
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.board import GRAVEYARD
from statemachine.games.magic.select import CardType
from statemachine.games.magic.vocab import MTG
from statemachine.loader import CardFileError
from statemachine.triggers import Instance, matches_filter

UNBLOCKED = "attacks_unblocked"  # the trigger "whenever ~ attacks and isn't blocked"
DAMAGE_THIS_TURN = "damage_this_turn"  # the amount ``stat``: the damage dealt to you this turn


# -- the memory of the turn ---------------------------------------------------------------------------------


def came_under_control_this_turn(state: GameState, seen: ObjectView) -> bool:
    """CR 302.6's question asked of this turn: the object entered (or was created) this turn, or its controller
    changed this turn."""
    memory = state.this_turn
    return memory.arrived(seen.since) or seen.obj in memory.control_changed


def damage_this_turn(state: GameState, player: int) -> int:
    """The damage dealt to ``player`` this turn, after prevention (CR 120.3; recorded from rules 1.4 on)."""
    return state.this_turn.damage_dealt_to(board.player_ref(player))


class TurnFact(Struct, frozen=True, forbid_unknown_fields=True):
    # "attacked": it was declared as an attacker this turn (CR 508.1); "came_under_your_control": it came under
    # your control this turn (CR 302.6: it entered or changed controller this turn)
    fact: Literal["attacked", "came_under_your_control"]
    holds: bool = True  # false: the card says it did not ("if ~ didn't attack this turn")


@MTG.condition("source_this_turn", TurnFact)
def source_this_turn(ctx: EffectContext, p: TurnFact) -> bool:
    """A fact of this turn about the source ("if ~ didn't attack this turn", "unless it came under your control
    this turn"), read from the memory of the turn; a source that has left is read as it last existed (CR 608.2h)."""
    seen = ctx.view(ctx.source)
    if seen is None:
        return not p.holds
    st = ctx.state
    match p.fact:
        case "attacked":
            found = seen.obj in st.this_turn.attacked
        case _:
            found = seen.controller == ctx.controller and came_under_control_this_turn(st, seen)
    return found == p.holds


# -- the graveyard's order ----------------------------------------------------------------------------------


class Above(Struct, frozen=True, forbid_unknown_fields=True):
    at_least: Annotated[int, Meta(ge=1)]
    types: list[CardType] = field(default_factory=list)  # cards of one of these types (none: any card)


@MTG.condition("cards_above_in_graveyard", Above)
def cards_above_in_graveyard(ctx: EffectContext, p: Above) -> bool:
    """"If ~ is in your graveyard with N or more [creature] cards above it" (CR 404.1: a graveyard keeps its
    order, each card put on top): the source is in its controller's graveyard, and at least N cards of those
    types were put there after it."""
    st = ctx.state
    obj = st.objects.get(ctx.source)
    if obj is None or board.kind_of(obj.zone) != GRAVEYARD or obj.owner != ctx.controller:
        return False
    pile = st.zone(obj.zone)
    above = pile[pile.index(ctx.source) + 1:]  # the zone's list is bottom first
    found = [o for o in above if not p.types or set(p.types) & set(st.cards[st.objects[o].card].printed.types)]
    return len(found) >= p.at_least


# -- "whenever ~ attacks and isn't blocked" -----------------------------------------------------------------


def unblocked_triggers(engine: Engine) -> None:
    """Once blockers are declared, each attacking creature no creature was declared to block is an unblocked
    creature (CR 509.1h): the abilities that trigger when it "attacks and isn't blocked" trigger now, once each
    combat, and wait for priority (the Oracle ruling of 2013-04-15: in the declare blockers step, after blockers
    are declared, if it is attacking and no creature was declared to block it)."""
    st = engine.state
    unblocked = [o for o in board.creatures(st) if st.objects[o].status.get("attacking")
                 and not st.objects[o].status.get("blocked")]
    found: list[Instance] = []
    for lst, t, holder in board.listening(engine, UNBLOCKED):
        for a in unblocked:
            subject = view(st, a)
            if (t.subject == "self" and a != lst.obj) or (t.subject == "other" and a == lst.obj):
                continue
            if t.whose != "any" and (subject.controller == holder.controller) != (t.whose == "you"):
                continue
            if matches_filter(subject, t.filter, engine.index.tests):
                found.append(Instance(lst, holder.controller, holder, subject, st.seq, ev.AFTER))
    if found:
        engine.policy.triggered(engine, found)


def check_memory(pool: CardPool) -> CardPool:
    """What would never hold is refused at load: ``turn_of`` filters the beginning of a step (trigger
    ``step_begins``) and no other trigger reads it; a card is "in your graveyard with cards above it" only for
    an ability that works from the graveyard (trigger ``where = "graveyard"``)."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            t = ability.trigger
            if t is not None and "turn_of" in t.filter and t.on != "step_begins":
                raise CardFileError("magic", f"turn_of filters trigger step_begins only, not {t.on!r}", card.id,
                                    f"$.abilities[{n}].trigger.filter.turn_of", ability.id)
            for k, cond in enumerate(ability.conditions):
                if cond.name == "cards_above_in_graveyard" and (t is None or t.where != GRAVEYARD):
                    raise CardFileError("magic", "cards_above_in_graveyard is read of a card in its graveyard: the "
                                        "ability must work from there (trigger where = \"graveyard\")", card.id,
                                        f"$.abilities[{n}].conditions[{k}]", ability.id)
    return pool
