"""The board toolkit every game stands on: zone names, and the moves, draws and taps rules are made of, as events.

A zone is named ``"<player>.<kind>"`` (``"0.hand"``) or, when shared, by its kind alone (``"stack"``). A card
that changes zones becomes a new object (DESIGN "Objects, zones and identity"); a card lying under another is
in the pseudo-zone ``UNDER`` and moves with it. Zones whose contents nobody sees are the profile's
``hidden_zones``: a card moved into one goes face down.

Each game's ``board.py`` names these beside what is truly its own (its zones, its numbers, its keywords), so its
rules read ``board.move(...)`` whatever the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from eventsource import events as ev
from projections.characteristics import TAPPED, ObjectView, view
from projections.state import UNDER, GameState
from projections.views import zone_kind
from statemachine.engine import Engine

DECK, HAND = "deck", "hand"
DRAW = "draw"  # ZoneChanged.cause of a draw
DREW_FROM_EMPTY = "drew_from_empty"  # player stat: tried to draw from an empty deck (a state check reads it)


# -- names and places --------------------------------------------------------------------------------------------


def zone(player: int, name: str) -> str:
    return f"{player}.{name}"


@cache
def kind_of(zone_name: str) -> str:
    """The kind of a zone (``"hand"`` for ``"0.hand"``; a shared zone is its own kind)."""
    return zone_kind(zone_name)[1]


def owner_zone(state: GameState, oid: int, name: str) -> str:
    """The zone ``name`` of the object's owner (where its card goes when it is put into "its owner's" zone)."""
    return zone(state.objects[oid].owner, name)


def in_zone(state: GameState, player: int, name: str) -> list[int]:
    return list(state.zone(zone(player, name)))


def is_in(state: GameState, oid: int, kind: str) -> bool:
    """Whether object ``oid`` still exists and is in a zone of that kind (anyone's)."""
    obj = state.objects.get(oid)
    return obj is not None and kind_of(obj.zone) == kind


def card_in_owners(state: GameState, card: int, name: str) -> int | None:
    """The object card ``card`` is now in its owner's zone ``name`` (a graveyard, a discard pile), if it is there:
    where an ability of a card that left finds that card again ("return this card ...")."""
    owner = state.cards[card].owner
    return next((o for o in state.zone(zone(owner, name)) if state.objects[o].card == card), None)


def views(state: GameState, oids: Iterable[int]) -> list[ObjectView]:
    return [view(state, o) for o in oids]


def player_ref(player: int) -> int:
    """A player where an object id is expected (a target, a ``Chosen``): ``-1 - player``."""
    return -1 - player


def ref_player(ref: int) -> int | None:
    """The player an object-id-like reference names, or None when it is an object."""
    return -1 - ref if ref < 0 else None


def with_under(state: GameState, oids: Iterable[int]) -> list[int]:
    """Objects and every card under them, each followed by its own: they move together."""
    out: list[int] = []
    for oid in oids:
        out.append(oid)
        out.extend(state.objects[oid].under)
    return out


# -- moving ------------------------------------------------------------------------------------------------------


def move(engine: Engine, oid: int, dst: str, cause: str, *, pos: int = -1, new_id: int | None = None,
         controller: int | None = None) -> ev.ZoneChanged:
    """The event that moves object ``oid`` to ``dst`` (at ``pos``; -1 is the end) as a new object, with the next
    object id unless ``new_id`` is given. Into a hidden zone (the profile's ``hidden_zones``) it goes face down."""
    st = engine.state
    obj = st.objects[oid]
    if obj.zone == UNDER:
        top = st.objects.get(obj.on) if obj.on is not None else None
        src_pos = top.under.index(oid) if top is not None else 0
    else:
        src_pos = st.zones[obj.zone].index(oid)
    nid = new_id if new_id is not None else st.next_object
    face_down = kind_of(dst) in engine.profile.hidden_zones
    return ev.ZoneChanged(oid, nid, obj.card, obj.zone, src_pos, dst, pos, cause, face_down, controller)


def move_all(engine: Engine, moves: list[tuple[int, str]], cause: str) -> list[ev.ZoneChanged]:
    """Events that move several objects at once (one simultaneous group), each to its own destination."""
    ids = engine.new_object_ids(len(moves))
    return [move(engine, oid, dst, cause, new_id=nid) for (oid, dst), nid in zip(moves, ids, strict=True)]


def to_owners(engine: Engine, oids: Iterable[int], where: str, cause: str) -> list[ev.ZoneChanged]:
    """Events that put the objects still in the game, and the cards under them, into their owners' ``where``
    zones at the same time."""
    st = engine.state
    moving = with_under(st, [o for o in oids if o in st.objects])
    return move_all(engine, [(o, owner_zone(st, o, where)) for o in moving], cause)


def put_into_owners(engine: Engine, oids: Iterable[int], where: str, cause: str) -> None:
    """Put the objects (and what lies under them) into their owners' ``where`` zones at the same time."""
    moves = to_owners(engine, oids, where, cause)
    if moves:
        engine.emit(*moves)


def shuffle_decks(engine: Engine) -> None:
    """Shuffle every player's deck, in seat order (each shuffle drawn from the game's seed and recorded)."""
    for p in range(len(engine.state.players)):
        engine.shuffle(zone(p, DECK))


def draw(engine: Engine, player: int, count: int = 1, *, mark_empty: bool = False) -> int:
    """Draw one card at a time from the top of the deck; returns how many were drawn (fewer if it ran out).
    With ``mark_empty``, trying to draw from an empty deck sets the player stat ``drew_from_empty``."""
    drawn = 0
    for _ in range(count):
        deck = engine.state.zone(zone(player, DECK))
        if not deck:
            if mark_empty:
                engine.emit(ev.PlayerStat(player, DREW_FROM_EMPTY, 1))
            break
        engine.emit(move(engine, deck[0], zone(player, HAND), DRAW))
        drawn += 1
    return drawn


def deal(engine: Engine, count: int, *, mark_empty: bool = False) -> None:
    """The opening hands: each player in seat order draws ``count`` cards, one at a time."""
    for p in range(len(engine.state.players)):
        draw(engine, p, count, mark_empty=mark_empty)


# -- tapping -----------------------------------------------------------------------------------------------------


def is_tapped(state: GameState, oid: int) -> bool:
    return bool(state.objects[oid].status.get(TAPPED))


def set_tapped(engine: Engine, oids: Iterable[int], tapped: bool) -> None:
    """Tap (or untap) at the same time the objects that are not so already."""
    changes = [ev.StatusSet(o, TAPPED, int(tapped)) for o in oids
               if bool(engine.state.objects[o].status.get(TAPPED)) != tapped]
    if changes:
        engine.emit(*changes)
