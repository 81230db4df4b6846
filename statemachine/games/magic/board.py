"""Magic zones and the moves every rule is made of (draw, tap, destroy, put), as events.

Zones: deck (the library), hand, battlefield, graveyard, exile, and the shared stack. A player is named in an
object-id field as ``-1 - player`` (the kernel's convention for targets that are players).
"""

from __future__ import annotations

from collections.abc import Iterable

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import ADD_TYPES, EACH, GameState, Pending
from statemachine import board as kit
from statemachine import replacements
from statemachine.board import (
    DREW_FROM_EMPTY,
    is_tapped,
    kind_of,
    move,
    move_all,
    player_ref,
    ref_player,
    set_tapped,
    views,
    zone,
)
from statemachine.cards import TriggerDef
from statemachine.engine import Engine
from statemachine.triggers import Listener

DECK, HAND, BATTLEFIELD, GRAVEYARD, EXILE = "deck", "hand", "battlefield", "graveyard", "exile"
STACK = "stack"

# Why a card moved: ZoneChanged.cause.
CAST, RESOLVED, COUNTERED, DESTROY, SACRIFICE, DISCARD, DRAW, PLAY, SBA, ENTER = (
    "cast", "resolved", "countered", "destroy", "sacrifice", "discard", "draw", "play", "state_based", "enter")

LIFE = "life"
LANDS_PLAYED = "lands_played"
POISON = "poison"  # a player's poison counters (CR 122.1f); ten or more lose the game (704.5c)
POISON_LIMIT = 10
STARTING_LIFE = 20
HAND_SIZE = 7


def on_battlefield(state: GameState, oid: int) -> bool:
    return kit.is_in(state, oid, BATTLEFIELD)


def permanents(state: GameState, controller: int | None = None) -> list[int]:
    out: list[int] = []
    for p in range(len(state.players)):
        out += [o for o in state.zone(zone(p, BATTLEFIELD))
                if controller is None or state.objects[o].controller == controller]
    return out


def has_type(state: GameState, oid: int, kind: str) -> bool:
    # Read from the printed card unless a type-changing effect is in force (layer 4, rules 1.6): the state-based
    # actions ask this of every permanent at every check.
    if any(m.kind in ANIMATING for m in state.modifiers.values()):
        return kind in view(state, oid).chars.types
    return kind in state.cards[state.objects[oid].card].printed.types


ANIMATING = (ADD_TYPES, EACH + ADD_TYPES)  # effects that may make a permanent a creature (layer 4)
SICK = "sick"  # status: its controller has not controlled it continuously since their turn began (CR 302.6)


def entered(engine: Engine, oid: int, types: Iterable[str]) -> list[ev.Event]:
    """CR 302.6: the mark of a permanent that just came under a player's control. A creature can't attack or pay
    {T} while it has it; from rules 1.6 (``sick_any_permanent``) every permanent gets it, so one that becomes a
    creature later this turn (layer 4) is still marked. Before, creatures only."""
    if "creature" in types or getattr(engine.profile.rules, "sick_any_permanent", False):
        return [ev.StatusSet(oid, SICK, 1)]
    return []


def creatures(state: GameState, controller: int | None = None) -> list[int]:
    return [o for o in permanents(state, controller) if has_type(state, o, "creature")]


def to_graveyards(engine: Engine, oids: Iterable[int], cause: str) -> list[ev.ZoneChanged]:
    """Events that put the objects still in the game into their owners' graveyards at the same time. A permanent
    an effect says goes elsewhere instead ("if it would die this turn, exile it instead", CR 614.1a) goes there."""
    st = engine.state
    if not any(m.kind == replacements.INSTEAD for m in st.modifiers.values()):
        return kit.to_owners(engine, oids, GRAVEYARD, cause)
    moving = kit.with_under(st, [o for o in oids if o in st.objects])
    where = [(replacements.instead(st, o, GRAVEYARD) if on_battlefield(st, o) else None) or GRAVEYARD
             for o in moving]
    return move_all(engine, [(o, kit.owner_zone(st, o, w)) for o, w in zip(moving, where, strict=True)], cause)


def draw(engine: Engine, player: int, count: int = 1) -> int:
    """Draw one card at a time. Drawing from an empty library is remembered for the state-based actions
    (MTG 704.5b)."""
    return kit.draw(engine, player, count, mark_empty=True)


def life(state: GameState, player: int) -> int:
    return state.stat(player, LIFE)


def controls_ability(state: GameState, player: int, ability: str) -> bool:
    """Whether ``player`` controls a permanent with (static) ability ``ability`` in force."""
    return any(view(state, o).has_ability(ability) for o in permanents(state, player))


def listening(engine: Engine, name: str) -> list[tuple[Listener, TriggerDef, ObjectView]]:
    """The listeners for trigger ``name`` that the rules match themselves (not by an event), with each one's
    trigger and its holder as it is now: those whose holder is in the game and has the ability (not ignored)."""
    st = engine.state
    out: list[tuple[Listener, TriggerDef, ObjectView]] = []
    for lst in engine.index.listeners(name):
        t = lst.ability.trigger
        assert t is not None
        if lst.obj not in st.objects:
            continue
        holder = view(st, lst.obj)
        if lst.ability.id in holder.chars.abilities:
            out.append((lst, t, holder))
    return out


def stack_items(state: GameState) -> list[Pending]:
    """The stack, bottom first: the last is the top (MTG-P-22: the newest resolves first)."""
    return sorted((p for p in state.pending.values() if p.holder == STACK), key=lambda p: p.key)


# The kernel's board toolkit (statemachine.board), named here so Magic's rules read board.move(...).
__all__ = ["DREW_FROM_EMPTY", "is_tapped", "kind_of", "move", "move_all", "player_ref", "ref_player", "set_tapped",
           "views", "zone"]
