"""Vision of Phantasm zones and the moves every rule is made of, as events.

Zones per player: deck (山札), hand (手札), node (ノード), field (場), discard (冥界, where 破棄 puts cards).
The shared zone ``chain`` holds cards that were announced (played) and are not processed yet (VOP-I-09).
A card set under a spell card lies in the pseudo-zone "under".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from eventsource import events as ev
from projections.characteristics import view
from projections.state import UNDER, GameState
from projections.views import zone_kind
from statemachine.engine import Engine

DECK, HAND, NODE, FIELD, DISCARD = "deck", "hand", "node", "field", "discard"
CHAIN: Final = "chain"

CHARACTER, SPELL_CARD, COMMAND = "character", "spell_card", "command"
AMBUSH, HASTE = "ambush", "haste"  # 奇襲, 速攻

# Why a card moved (ZoneChanged.cause).
PLAY, ENTER, SET_NODE, DRAW, HAKI, RESOLVED, SET_UNDER, NEGATED = (
    "play", "enter", "set_node", "draw", "haki", "resolved", "set_under", "negated")

LIFE: Final = 20  # [assumed] a player loses once they have taken this much damage (VOP-GAME-LIFE)


def zone(player: int, name: str) -> str:
    return f"{player}.{name}"


def kind_of(zone_name: str) -> str:
    return zone_kind(zone_name)[1]


def player_target(player: int) -> int:
    """Players are targets too; as an object id a player is ``-1 - player`` (as in ContinuousEffectStarted)."""
    return -1 - player


def keyword_number(state: GameState, oid: int, word: str, default: int = 0) -> int:
    """The number of a keyword written ``word:N`` (``node:2`` = NODE 2, ``uses:3`` = three uses per card)."""
    for k in view(state, oid).chars.keywords:
        name, _, n = k.partition(":")
        if name == word and n.isdigit():
            return int(n)
    return default


def types(state: GameState, oid: int) -> tuple[str, ...]:
    return view(state, oid).chars.types


def is_character(state: GameState, oid: int) -> bool:
    return CHARACTER in types(state, oid)


def characters(state: GameState, player: int | None = None) -> list[int]:
    players = range(len(state.players)) if player is None else (player,)
    return [o for p in players for o in state.zone(zone(p, FIELD)) if is_character(state, o)]


def on_field(state: GameState, oid: int) -> bool:
    obj = state.objects.get(oid)
    return obj is not None and kind_of(obj.zone) == FIELD


def is_tapped(state: GameState, oid: int) -> bool:
    return bool(state.objects[oid].status.get("tapped"))


def untapped_nodes(state: GameState, player: int) -> list[int]:
    return [o for o in state.zone(zone(player, NODE)) if not is_tapped(state, o)]


def move(engine: Engine, oid: int, dst: str, cause: str, *, new_id: int | None = None,
         controller: int | None = None, face_down: bool = False) -> ev.ZoneChanged:
    st = engine.state
    obj = st.objects[oid]
    if obj.zone == UNDER:
        top = st.objects.get(obj.on) if obj.on is not None else None
        src_pos = top.under.index(oid) if top is not None else 0
    else:
        src_pos = st.zones[obj.zone].index(oid)
    nid = new_id if new_id is not None else st.next_object
    return ev.ZoneChanged(oid, nid, obj.card, obj.zone, src_pos, dst, -1, cause, face_down, controller)


def move_all(engine: Engine, moves: list[tuple[int, str]], cause: str) -> list[ev.ZoneChanged]:
    ids = engine.new_object_ids(len(moves))
    return [move(engine, oid, dst, cause, new_id=nid) for (oid, dst), nid in zip(moves, ids, strict=True)]


def with_under(state: GameState, oids: Iterable[int]) -> list[int]:
    out: list[int] = []
    for oid in oids:
        out.append(oid)
        out.extend(state.objects[oid].under)
    return out


def to_discard(engine: Engine, oids: Iterable[int], cause: str) -> None:
    """破棄: cards (and what lies under them) go to their owners' discard piles at the same time."""
    st = engine.state
    moving = with_under(st, [o for o in oids if o in st.objects])
    if moving:
        engine.emit(*move_all(engine, [(o, zone(st.objects[o].owner, DISCARD)) for o in moving], cause))


def draw(engine: Engine, player: int, count: int = 1) -> None:
    for _ in range(count):
        deck = engine.state.zone(zone(player, DECK))
        if not deck:
            engine.emit(ev.PlayerStat(player, "drew_from_empty", 1))
            return
        engine.emit(move(engine, deck[0], zone(player, HAND), DRAW))


def set_tapped(engine: Engine, oids: Iterable[int], tapped: bool) -> None:
    changes = [ev.StatusSet(o, "tapped", int(tapped)) for o in oids
               if bool(engine.state.objects[o].status.get("tapped")) != tapped]
    if changes:
        engine.emit(*changes)


def damage(engine: Engine, hits: list[tuple[int, int]]) -> None:
    """Deal damage at the same time: ``(target, amount)``; a target below 0 is a player (-1 - player)."""
    st = engine.state
    events: list[ev.Event] = []
    for target, amount in hits:
        if amount <= 0:
            continue
        if target < 0:
            p = -1 - target
            events.append(ev.PlayerStat(p, "damage", st.stat(p, "damage") + amount))
        elif on_field(st, target):
            events.append(ev.StatusSet(target, "damage", st.objects[target].status.get("damage", 0) + amount))
    if events:
        engine.emit(*events)
