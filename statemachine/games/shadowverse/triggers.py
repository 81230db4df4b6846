"""Shadowverse trigger words, the state each is checked in, and the timing tier of each (SV-O-15..24).

A tier orders triggers of one simultaneous group before the sort keys do: moments that "may look
simultaneous" are in fact ordered (SV-O-15). Tiers are multiples of 10 so a switch can put a timing between
two others. Turn-start, turn-end, countdown and boarding triggers are not read off an event: the game fires
them itself (``fire``), at the moment its turn procedure says.
"""

from __future__ import annotations

from typing import Any

from eventsource import events as ev
from statemachine.games.shadowverse.board import (
    BURN,
    CASTING,
    CEMETERY,
    DESTROY,
    DISCARD,
    DISEMBARK,
    DRAW,
    ENTERING,
    FIELD,
    HAND,
    MULLIGAN,
    PLAY,
    TRANSFORM,
    UNDER_CAUSES,
    kind_of,
)
from statemachine.games.shadowverse.versions import Options
from statemachine.triggers import TriggerKind

__all__ = ["KINDS", "TIERS", "tier"]


def _zc(e: ev.Event) -> ev.ZoneChanged | None:
    # ``type() is``, not ``isinstance``: msgspec Structs answer isinstance through their metaclass (slow).
    return e if type(e) is ev.ZoneChanged else None


def _fanfare(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and kind_of(z.dst) == FIELD and z.cause == PLAY else []


def _enters(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and kind_of(z.dst) == FIELD and z.cause in ENTERING else []


def _played(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and z.cause == PLAY and kind_of(z.dst) in (FIELD, CASTING) else []


def _cast(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and z.cause == PLAY and kind_of(z.dst) == CASTING else []


def _destroyed(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.old] if z and kind_of(z.src) == FIELD and z.cause == DESTROY else []


def _leaves(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # SV-O-93: a transformed card does not leave; SV-O-37: a boarding pilot does not leave.
    z = _zc(e)
    return [z.old] if z and kind_of(z.src) == FIELD and z.cause != TRANSFORM and z.cause not in UNDER_CAUSES else []


def _disembarks(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and z.cause == DISEMBARK else []


def _attacks(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.attacker] if type(e) is ev.Attacked else []


def _clash(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # 交戦: the attacker and the follower it attacks both clash.
    return [e.attacker, e.target] if type(e) is ev.Attacked and e.target is not None else []


def _evolves(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.obj] if type(e) is ev.StatusSet and e.key == "evolved" and e.value else []


def _discarded(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.old] if z and kind_of(z.src) == HAND and z.cause == DISCARD else []


def _drawn(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and z.cause == DRAW else []  # SV-O-104: a burned card is not drawn into the hand


def _added_to_hand(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # SV-O-105: "whenever a card is added to your hand" sees a burned card too. Mulligan draws see nothing.
    z = _zc(e)
    if z is None or z.cause == MULLIGAN:
        return []
    return [z.new] if kind_of(z.dst) == HAND or z.cause == BURN else []


def _damaged(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.obj] if type(e) is ev.StatusSet and e.key == "hit" and e.value else []


def _healed(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return []  # fired by the game (a leader is not an object)


def _fired(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return []  # fired by the game at the moment its procedure says (see ``fire``)


def _to_cemetery(e: ev.Event, _: dict[str, Any]) -> list[int]:
    z = _zc(e)
    return [z.new] if z and kind_of(z.dst) == CEMETERY else []


KINDS: dict[str, TriggerKind] = {
    "fanfare": TriggerKind("fanfare", ev.AFTER, _fanfare),
    "enters": TriggerKind("enters", ev.AFTER, _enters),
    "played": TriggerKind("played", ev.AFTER, _played),
    "cast": TriggerKind("cast", ev.AFTER, _cast),
    "last_words": TriggerKind("last_words", ev.BEFORE, _destroyed),
    "destroyed": TriggerKind("destroyed", ev.BEFORE, _destroyed),
    "leaves": TriggerKind("leaves", ev.BEFORE, _leaves),
    "disembarks": TriggerKind("disembarks", ev.AFTER, _disembarks),
    "strike": TriggerKind("strike", ev.AFTER, _attacks),
    "clash": TriggerKind("clash", ev.AFTER, _clash),
    "attacks": TriggerKind("attacks", ev.AFTER, _attacks),
    "evolves": TriggerKind("evolves", ev.AFTER, _evolves),
    "discarded": TriggerKind("discarded", ev.BEFORE, _discarded),
    "drawn": TriggerKind("drawn", ev.AFTER, _drawn),
    "added_to_hand": TriggerKind("added_to_hand", ev.AFTER, _added_to_hand),
    "damaged": TriggerKind("damaged", ev.AFTER, _damaged),
    "to_cemetery": TriggerKind("to_cemetery", ev.AFTER, _to_cemetery),
    "healed": TriggerKind("healed", ev.AFTER, _healed),
    "turn_start": TriggerKind("turn_start", ev.AFTER, _fired),
    "turn_end": TriggerKind("turn_end", ev.AFTER, _fired),
    "countdown": TriggerKind("countdown", ev.AFTER, _fired),
    "boarding": TriggerKind("boarding", ev.AFTER, _fired),
    "maneuver": TriggerKind("maneuver", ev.AFTER, _fired),
    "survived_attack": TriggerKind("survived_attack", ev.AFTER, _fired),
    "overflow": TriggerKind("overflow", ev.AFTER, _fired),
    "destroyed_by_attack": TriggerKind("destroyed_by_attack", ev.AFTER, _fired),
}

# (trigger, whose event: "self" or "other") -> tier. Lower resolves first within one simultaneous group.
TIERS: dict[tuple[str, str], int] = {
    # SV-O-15, SV-O-17: Fanfare and "this comes into play" first; "when played" next; "another comes into
    # play" last. A spell's own text is at Fanfare timing (SV-O-62).
    ("fanfare", "self"): 0, ("enters", "self"): 0, ("cast", "self"): 0,
    ("played", "other"): 10, ("played", "self"): 10,  # SV-O-16: レオネル-type interference is here
    ("enters", "other"): 20, ("boarding", "other"): 20,  # SV-O-36: boarding at "another comes into play"
    ("maneuver", "self"): 0,
    # SV-O-18..20: Last Words, then disembark (unverified), then "another is destroyed".
    ("last_words", "self"): 0, ("leaves", "self"): 0, ("disembarks", "self"): 5,
    ("destroyed", "other"): 10, ("destroyed", "self"): 10, ("leaves", "other"): 10,
    # SV-O-21: on-evolve before "another evolves".
    ("evolves", "self"): 0, ("evolves", "other"): 10,
    # SV-O-22/23: Strike and Clash together, then "another attacks" (2021-03-30 update).
    ("strike", "self"): 0, ("clash", "self"): 0, ("attacks", "other"): 10,
    # SV-O-24: a discarded card's own effect before "whenever you discard".
    ("discarded", "self"): 0, ("discarded", "other"): 10,
    ("drawn", "self"): 0, ("added_to_hand", "other"): 10, ("added_to_hand", "self"): 10,
    ("damaged", "self"): 0, ("damaged", "other"): 10,
    ("turn_start", "self"): 0, ("turn_end", "self"): 0, ("overflow", "self"): 0,
    ("countdown", "self"): 90,  # SV-O-57: countdowns appear to come last (unverified)
    ("survived_attack", "self"): 0, ("destroyed_by_attack", "self"): 0,
    ("healed", "other"): 0, ("to_cemetery", "other"): 10,
}


def tier(trigger: str, subject: str, options: Options, *, where: str = FIELD, played: bool = True) -> int:
    """The timing tier of a trigger, with the switches for what the seed leaves open applied.

    ``where`` is the holder's zone kind; ``played`` whether a card's own "comes into play" comes from its
    being played (rather than summoned or reanimated).
    """
    whose = "self" if subject == "self" else "other"
    base = TIERS.get((trigger, whose), 10)
    if options.attack_timing == "simultaneous" and trigger == "attacks":
        return 0  # before the 2021-03-30 update (SV-O-22)
    if options.leave_timing == "after_last_words" and trigger == "leaves" and whose == "self":
        return 5  # SV-O-19 is unverified: the other reading
    if trigger == "evolves" and whose == "other" and where == HAND and options.evolve_hand_order != "basic":
        # SV-O-99 (unverified, the seed's provisional reading): evolve-triggered effects in the hand (cost
        # reductions, アジ・ダハーカ) after the field's "when evolved" effects, not before them as SV-O-10 would.
        return 15
    if trigger == "enters" and whose == "self" and not played and options.enter_timing == "played_only":
        # SV-O-17 is established only for a card played from the hand; the other reading of SV-O-116 (霊道
        # and a reanimated 死滅の剣皇): a card that came into play otherwise has its own effect after
        # "another comes into play".
        return 25
    return base
