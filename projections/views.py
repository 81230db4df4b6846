"""Per-player views: what one player may see of a state, and of an event.

Hidden: the game's seed (from which every shuffle and random result is computed), the opponent's hand contents (a
count instead), the order and contents of every deck and of the game's other hidden zones (a count), face-down
cards (a placeholder) until a ``Revealed`` event shows them to that player.
Which zones are hidden is the game's to say (``RulesProfile.hidden_zones``; Duel Masters adds its shields): the
functions here take them as ``hidden``, every deck by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

import msgspec

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import SEEN_BY, GameState

HIDDEN: Final = "?"
OBJECT: Final = "object"  # a request's options are object ids unless its game says otherwise
# Zones whose contents nobody sees (by default; a game names its own), and zones only their owner sees.
SECRET_ZONES: Final = frozenset({"deck"})
PRIVATE_ZONES: Final = frozenset({"hand"})


def zone_kind(zone: str) -> tuple[int | None, str]:
    owner, _, kind = zone.partition(".")
    return (int(owner), kind) if kind and owner.isdecimal() else (None, zone)


def can_see(state: GameState, player: int | None, oid: int, zone: str | None = None, *,
            hidden: frozenset[str] = SECRET_ZONES) -> bool:
    """Whether ``player`` (None: an omniscient judge) may see the identity of object ``oid``."""
    if player is None:
        return True
    obj = state.objects.get(oid)
    return obj is not None and sees(obj, player, zone, hidden=hidden)


class Placed(Protocol):
    """An object where it is (``GameObject``) or as a view shows it (``ObjectView``, a look-back one too)."""

    @property
    def zone(self) -> str: ...

    @property
    def face_down(self) -> bool: ...

    @property
    def status(self) -> dict[str, int]: ...


def sees(obj: Placed, player: int, zone: str | None = None, *, hidden: frozenset[str] = SECRET_ZONES) -> bool:
    """Whether ``player`` may see the identity of ``obj`` (an object in play, or as it was before it left)."""
    owner, kind = zone_kind(zone or obj.zone)
    return _sees_in(obj, player, owner, kind, hidden)


def _sees_in(obj: Placed, player: int, owner: int | None, kind: str, hidden: frozenset[str]) -> bool:
    """``sees`` for an object in the zone of ``kind`` owned by ``owner`` (a board's zones are split once each)."""
    if kind in hidden or obj.face_down:
        return bool(obj.status.get(f"{SEEN_BY}{player}"))
    if kind in PRIVATE_ZONES:
        return owner == player or bool(obj.status.get(f"{SEEN_BY}{player}"))
    return True


def can_see_view(seen: ObjectView, player: int | None, *, hidden: frozenset[str] = SECRET_ZONES) -> bool:
    """Whether ``player`` may see an object as ``seen`` shows it: where it is, or, for a look-back view, where it
    was just before it left (``projections.characteristics.last_known``)."""
    return player is None or sees(seen, player, hidden=hidden)


def player_view(state: GameState, player: int | None, *, hidden: frozenset[str] = SECRET_ZONES,
                publics: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The board as ``player`` sees it, as plain data (for ``kifu at``, the HTML view and bots). ``publics``, when
    given, keeps each object's data as it is made, for the other viewers of the same state: what an object shows
    is the same for every viewer who may see it (a server drawing both seats' boards at one head draws each object
    once). The caller drops it when the state moves on."""
    shown_as = _public if publics is None else _kept(publics)
    zones: dict[str, Any] = {}
    for name in sorted(state.zones):
        ids = state.zones[name]
        if player is None:
            shown = ids
        else:
            owner, kind = zone_kind(name)
            objects = state.objects
            shown = [oid for oid in ids if (obj := objects.get(oid)) is not None
                     and _sees_in(obj, player, owner, kind, hidden)]
        if len(shown) == len(ids):
            zones[name] = [shown_as(state, oid) for oid in ids]
        else:
            zones[name] = {"count": len(ids), "visible": [shown_as(state, oid) for oid in shown]}
    return {
        "seq": state.seq,
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "step": state.step,
        "priority": state.priority,
        "players": [{"name": p.name, "stats": dict(sorted(p.stats.items())), "lost": p.lost} for p in state.players],
        "zones": zones,
        "pending": [
            {"effect": p.effect, "label": p.label or p.ability, "controller": p.controller, "holder": p.holder,
             "source": p.source, "resolving": p.resolving}
            for p in state.pending.values()
        ],
        "ended": state.ended,
        "winner": state.winner,
    }


def _kept(publics: dict[int, dict[str, Any]]) -> Any:
    def shown_as(state: GameState, oid: int) -> dict[str, Any]:
        data = publics.get(oid)
        if data is None:
            data = publics[oid] = _public(state, oid)
        return data
    return shown_as


def _public(state: GameState, oid: int) -> dict[str, Any]:
    v = view(state, oid)
    return {
        "obj": oid, "name": v.chars.name, "definition": v.definition, "power": v.chars.power,
        "status": {k: n for k, n in sorted(v.status.items()) if not k.startswith(SEEN_BY)},
        "under": len(v.under_cards),
    }


def _sees_destination(event: ev.ZoneChanged, player: int, hidden: frozenset[str]) -> bool:
    owner, kind = zone_kind(event.dst)
    if kind in hidden or event.face_down:
        return False
    return not (kind in PRIVATE_ZONES and owner != player)


def shown_options(state: GameState, player: int | None, chooser: int, options: tuple[int | str, ...], *,
                  objects: bool, hidden: frozenset[str] = SECRET_ZONES) -> tuple[int | str, ...]:
    """The options of ``chooser``'s choice as ``player`` may see them. Another player's options among objects may
    name cards hidden from ``player`` (the spells among the top of a deck, the cards in a hand that may be
    discarded): those are left out, so the choice shows only what ``player`` may see. Options that are no object
    ids (``objects`` false: effect ids, plain values) are all shown: an effect id is no card."""
    if player is None or player == chooser or not objects:
        return options
    return tuple(o for o in options if not (isinstance(o, int) and o in state.objects
                                            and not can_see(state, player, o, hidden=hidden)))


def redact_event(event: ev.Event, player: int | None, state_before: GameState, *,
                 hidden: frozenset[str] = SECRET_ZONES,
                 option_kinds: Mapping[str, str] | None = None) -> ev.Event | None:
    """The event as ``player`` may see it: None to hide it entirely, or a copy without hidden identities.
    ``option_kinds`` is the game's word on what a request's options are (``RulesProfile.option_kinds``: an
    ``effect`` id, a plain ``value``; an object id where it says nothing): ids are redacted by what they name."""
    if player is None:
        return event
    match event:
        case ev.GameStarted():
            # The seed is every shuffle and random result of the game: with it and their own deck list a player
            # recomputes their deck order and face-down shields. Nobody but a judge sees it.
            return msgspec.structs.replace(event, seed=0)
        case ev.ObjectCreated():
            owner, kind = zone_kind(event.zone)
            if kind in hidden or event.face_down or (kind in PRIVATE_ZONES and owner != player):
                return ev.ObjectCreated(event.obj, -1, HIDDEN, event.owner, event.zone, event.position,
                                        ev.Characteristics(HIDDEN), event.face_down)
            return event
        case ev.Shuffled():
            return ev.Shuffled(event.zone, ())
        case ev.ZoneChanged() if not can_see(state_before, player, event.old, hidden=hidden) and not _sees_destination(
                event, player, hidden):
            # A hidden card moving to where this player cannot see it (a draw, a card put into a shield):
            # neither which card nor which earlier object it was may show.
            return msgspec.structs.replace(event, old=-1, card=-1)
        case ev.Revealed():
            return event if player in event.to else None
        case ev.ChoiceRequested() if event.player != player:
            shown = shown_options(state_before, player, event.player, event.options,
                                  objects=(option_kinds or {}).get(event.kind, OBJECT) == OBJECT, hidden=hidden)
            return event if len(shown) == len(event.options) else msgspec.structs.replace(event, options=shown)
        case ev.SecretAmountComputed() if player in event.hidden_from:
            # The value read cards this player may not see (another's hand, a deck, face down): the expression
            # (printed card text) stays; the value and the objects read do not.
            return msgspec.structs.replace(event, value=0, looked_back=(), redacted=True)
        case _:
            return event
