"""Magic trigger words and the state each is checked in.

"Dies" and "leaves the battlefield" look back at the state just before the move (the creature as it last
existed on the battlefield); "enters" and "is discarded" read the state just after. "At the beginning of"
a step is matched by the turn itself as the step begins (``turn.step_triggers``), not by an event; so is gaining
life (``lifegain``). "Deals damage" reads the ``DamageDealt`` events of rules 1.4.
"""

from __future__ import annotations

from typing import Any

from eventsource import events as ev
from projections.characteristics import ObjectView
from statemachine.games.magic.board import BATTLEFIELD, DISCARD, GRAVEYARD, HAND, kind_of
from statemachine.games.magic.lifegain import GAINS_LIFE
from statemachine.games.magic.memory import UNBLOCKED
from statemachine.games.magic.statics import ATTACHED
from statemachine.triggers import TriggerKind


def _enters(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == BATTLEFIELD else []


def _dies(e: ev.Event, _: dict[str, Any]) -> list[int]:
    if isinstance(e, ev.ZoneChanged) and kind_of(e.src) == BATTLEFIELD and kind_of(e.dst) == GRAVEYARD:
        return [e.old]
    return []


def _dies_filter(e: ev.Event, holder: ObjectView, subject: ObjectView, flt: dict[str, Any]) -> bool:
    """"Whenever a creature dealt damage by ~ this turn dies": the creature as it last existed remembers the
    sources that dealt it damage this turn (``damage.DEALT_BY``, rules 1.4). "When enchanted creature dies": the
    aura, as it was just before, is attached to it (CR 303.4, 603.10a)."""
    if flt.get("dealt_damage_by_this") and not subject.status.get(f"dealt_damage_by_{holder.obj}"):
        return False
    return not flt.get("attached_to_this") or holder.status.get(ATTACHED) == subject.obj


def _leaves(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.old] if isinstance(e, ev.ZoneChanged) and kind_of(e.src) == BATTLEFIELD else []


def _discarded(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # Discarding as a cost is discarding too: the payment is part of the spell's event (MTG-C-10).
    if (isinstance(e, ev.ZoneChanged) and kind_of(e.src) == HAND and kind_of(e.dst) == GRAVEYARD
            and e.cause == DISCARD):
        return [e.new]
    return []


def _attacks(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.attacker] if isinstance(e, ev.Attacked) else []  # declared as an attacker (CR 508.1, 508.3a)


def _never(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return []


def _blocks(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # declared as a blocker (CR 509.1, 509.2a): the blocker is what the event is about
    return [e.obj] if isinstance(e, ev.StatusSet) and e.key == "blocking" and e.value else []


def _deals_damage(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.source] if isinstance(e, ev.DamageDealt) and e.source >= 0 else []  # CR 120.3 (rules 1.4)


def _damaged(e: ev.Event, holder: ObjectView, subject: ObjectView, flt: dict[str, Any]) -> bool:
    """The filter of "whenever ~ deals [combat] damage to [a player / an opponent / you / a creature]"; "whenever
    enchanted creature deals damage" (1.6): the aura is attached to the source (CR 303.4)."""
    assert isinstance(e, ev.DamageDealt)
    if flt.get("combat") and not e.combat:
        return False
    if flt.get("attached_to_this") and holder.status.get(ATTACHED) != subject.obj:
        return False
    to = flt.get("to", "any")
    if e.to >= 0:
        return to in ("any", "creature")
    player = -1 - e.to
    return (to in ("any", "player") or (to == "opponent" and player != holder.controller)
            or (to == "you" and player == holder.controller))


KINDS: dict[str, TriggerKind] = {
    "enters": TriggerKind("enters", ev.AFTER, _enters),
    "dies": TriggerKind("dies", ev.BEFORE, _dies, _dies_filter),
    "leaves": TriggerKind("leaves", ev.BEFORE, _leaves),
    "discarded": TriggerKind("discarded", ev.AFTER, _discarded),
    "step_begins": TriggerKind("step_begins", ev.AFTER, _never),
    "attacks": TriggerKind("attacks", ev.AFTER, _attacks),
    "blocks": TriggerKind("blocks", ev.AFTER, _blocks),
    # "whenever ~ attacks and isn't blocked": matched as blockers have been declared (``memory``, rules 1.6)
    UNBLOCKED: TriggerKind(UNBLOCKED, ev.AFTER, _never),
    "deals_damage": TriggerKind("deals_damage", ev.AFTER, _deals_damage, _damaged),
    "delayed": TriggerKind("delayed", ev.AFTER, _never),  # created by a ``delay`` step (``delayed``, CR 603.7)
    "state": TriggerKind("state", ev.AFTER, _never),  # matched as the rules look at the game (``state_triggers``)
    GAINS_LIFE: TriggerKind(GAINS_LIFE, ev.AFTER, _never),  # matched as life is gained (``lifegain.emit``)
}
