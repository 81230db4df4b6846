"""Duel Masters zones and the moves every rule is made of (draw, tap, destroy, put), as events.

Zones: deck, hand, mana, battle, shields, graveyard, and hold — where cards used together by one effect wait
to be processed one at a time (DM-W-36). A card under an evolution creature is in the pseudo-zone "under".
"""

from __future__ import annotations

from collections.abc import Iterable

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import UNDER, GameState
from projections.views import zone_kind
from statemachine.engine import Engine

DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD = "deck", "hand", "mana", "battle", "shields", "graveyard", "hold"
ZONES = (DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD)

# Why a card moved: ZoneChanged.cause. "summon" is the only way into the battle zone that taps mana for it.
SUMMON, PUT, DESTROY, BATTLE_LOST, BREAK, BOUNCE, DRAW, CHARGE, CAST, DISCARD = (
    "summon", "put", "destroy", "battle", "break", "bounce", "draw", "charge", "cast", "discard")


def zone(player: int, name: str) -> str:
    return f"{player}.{name}"


def kind_of(zone_name: str) -> str:
    return zone_kind(zone_name)[1]


def in_zone(state: GameState, player: int, name: str) -> list[int]:
    return list(state.zone(zone(player, name)))


def creatures(state: GameState, player: int) -> list[int]:
    return [o for o in state.zone(zone(player, BATTLE)) if "creature" in state.facts(o).printed.types]


def views(state: GameState, oids: Iterable[int]) -> list[ObjectView]:
    return [view(state, o) for o in oids]


def move(engine: Engine, oid: int, dst: str, cause: str, *, pos: int = -1, new_id: int | None = None,
         controller: int | None = None) -> ev.ZoneChanged:
    """The event that moves object ``oid`` to ``dst`` (a new object id unless given)."""
    st = engine.state
    obj = st.objects[oid]
    if obj.zone == UNDER:
        top = st.objects.get(obj.on) if obj.on is not None else None
        src_pos = top.under.index(oid) if top is not None else 0
    else:
        src_pos = st.zones[obj.zone].index(oid)
    nid = new_id if new_id is not None else st.next_object
    face_down = kind_of(dst) in (DECK, SHIELDS)
    return ev.ZoneChanged(oid, nid, obj.card, obj.zone, src_pos, dst, pos, cause, face_down, controller)


def move_all(engine: Engine, moves: list[tuple[int, str]], cause: str) -> list[ev.ZoneChanged]:
    """Events that move several objects at once (one simultaneous group)."""
    ids = engine.new_object_ids(len(moves))
    return [move(engine, oid, dst, cause, new_id=nid) for (oid, dst), nid in zip(moves, ids, strict=True)]


def with_under(engine: Engine, oids: Iterable[int]) -> list[int]:
    """Objects and every card under them: an evolution creature moves with its sources."""
    out: list[int] = []
    for oid in oids:
        out.append(oid)
        out.extend(engine.state.objects[oid].under)
    return out


def destroy(engine: Engine, oids: Iterable[int], cause: str = DESTROY) -> None:
    """Destroy creatures at the same time: they and the cards under them go to their owners' graveyards."""
    st = engine.state
    moving = with_under(engine, [o for o in oids if o in st.objects])
    if moving:
        engine.emit(*move_all(engine, [(o, zone(st.objects[o].owner, GRAVEYARD)) for o in moving], cause))


def to_owner(engine: Engine, oids: Iterable[int], where: str, cause: str) -> None:
    st = engine.state
    moving = with_under(engine, [o for o in oids if o in st.objects])
    if moving:
        engine.emit(*move_all(engine, [(o, zone(st.objects[o].owner, where)) for o in moving], cause))


def draw(engine: Engine, player: int, count: int = 1) -> int:
    """Draw one card at a time; returns how many were drawn (fewer if the deck ran out)."""
    drawn = 0
    for _ in range(count):
        deck = engine.state.zone(zone(player, DECK))
        if not deck:
            break
        engine.emit(move(engine, deck[0], zone(player, HAND), DRAW))
        drawn += 1
    return drawn


def set_tapped(engine: Engine, oids: Iterable[int], tapped: bool) -> None:
    changes = [ev.StatusSet(o, "tapped", int(tapped)) for o in oids
               if bool(engine.state.objects[o].status.get("tapped")) != tapped]
    if changes:
        engine.emit(*changes)


def is_tapped(state: GameState, oid: int) -> bool:
    return bool(state.objects[oid].status.get("tapped"))
