"""Magic zones and the moves every rule is made of (draw, tap, destroy, put), as events.

Zones: deck (the library), hand, battlefield, graveyard, exile, and the shared stack. A player is named in an
object-id field as ``-1 - player`` (the kernel's convention for targets that are players).
"""

from __future__ import annotations

from collections.abc import Iterable

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import GameState
from projections.views import zone_kind
from statemachine.engine import Engine

DECK, HAND, BATTLEFIELD, GRAVEYARD, EXILE = "deck", "hand", "battlefield", "graveyard", "exile"
STACK = "stack"

# Why a card moved: ZoneChanged.cause.
CAST, RESOLVED, COUNTERED, DESTROY, SACRIFICE, DISCARD, DRAW, PLAY, SBA, ENTER = (
    "cast", "resolved", "countered", "destroy", "sacrifice", "discard", "draw", "play", "state_based", "enter")

LIFE = "life"
DREW_FROM_EMPTY = "drew_from_empty"
LANDS_PLAYED = "lands_played"
STARTING_LIFE = 20
HAND_SIZE = 7


def zone(player: int, name: str) -> str:
    return f"{player}.{name}"


def kind_of(zone_name: str) -> str:
    return zone_kind(zone_name)[1]


def player_ref(player: int) -> int:
    """A player as an object-id-like reference (targets, Chosen)."""
    return -1 - player


def ref_player(ref: int) -> int | None:
    return -1 - ref if ref < 0 else None


def on_battlefield(state: GameState, oid: int) -> bool:
    obj = state.objects.get(oid)
    return obj is not None and kind_of(obj.zone) == BATTLEFIELD


def permanents(state: GameState, controller: int | None = None) -> list[int]:
    out: list[int] = []
    for p in range(len(state.players)):
        out += [o for o in state.zone(zone(p, BATTLEFIELD))
                if controller is None or state.objects[o].controller == controller]
    return out


def has_type(state: GameState, oid: int, kind: str) -> bool:
    # Read from the printed card: no continuous effect kifu knows changes types (projections.characteristics
    # ``compute`` copies them), and the state-based actions ask this of every permanent at every check.
    return kind in state.cards[state.objects[oid].card].printed.types


def creatures(state: GameState, controller: int | None = None) -> list[int]:
    return [o for o in permanents(state, controller) if has_type(state, o, "creature")]


def views(state: GameState, oids: Iterable[int]) -> list[ObjectView]:
    return [view(state, o) for o in oids]


def is_tapped(state: GameState, oid: int) -> bool:
    return bool(state.objects[oid].status.get("tapped"))


def move(engine: Engine, oid: int, dst: str, cause: str, *, pos: int = -1, new_id: int | None = None,
         controller: int | None = None) -> ev.ZoneChanged:
    """The event that moves object ``oid`` to ``dst`` as a new object (a new id unless given)."""
    st = engine.state
    obj = st.objects[oid]
    src_pos = st.zones[obj.zone].index(oid)
    nid = new_id if new_id is not None else st.next_object
    return ev.ZoneChanged(oid, nid, obj.card, obj.zone, src_pos, dst, pos, cause, kind_of(dst) == DECK, controller)


def move_all(engine: Engine, moves: list[tuple[int, str]], cause: str) -> list[ev.ZoneChanged]:
    """Events that move several objects at once (one simultaneous group)."""
    ids = engine.new_object_ids(len(moves))
    return [move(engine, oid, dst, cause, new_id=nid) for (oid, dst), nid in zip(moves, ids, strict=True)]


def to_graveyards(engine: Engine, oids: Iterable[int], cause: str) -> list[ev.ZoneChanged]:
    st = engine.state
    return move_all(engine, [(o, zone(st.objects[o].owner, GRAVEYARD)) for o in oids if o in st.objects], cause)


def draw(engine: Engine, player: int, count: int = 1) -> int:
    """Draw one card at a time. Drawing from an empty library is remembered for the state-based actions."""
    drawn = 0
    for _ in range(count):
        deck = engine.state.zone(zone(player, DECK))
        if not deck:
            engine.emit(ev.PlayerStat(player, DREW_FROM_EMPTY, 1))
            break
        engine.emit(move(engine, deck[0], zone(player, HAND), DRAW))
        drawn += 1
    return drawn


def set_tapped(engine: Engine, oids: Iterable[int], tapped: bool) -> None:
    changes = [ev.StatusSet(o, "tapped", int(tapped)) for o in oids
               if bool(engine.state.objects[o].status.get("tapped")) != tapped]
    if changes:
        engine.emit(*changes)


def life(state: GameState, player: int) -> int:
    return state.stat(player, LIFE)


def controls_ability(state: GameState, player: int, ability: str) -> bool:
    """Whether ``player`` controls a permanent with (static) ability ``ability`` in force."""
    return any(view(state, o).has_ability(ability) for o in permanents(state, player))
