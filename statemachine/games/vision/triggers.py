"""Vision of Phantasm trigger words for automatic effects (自動効果).

"Enters the field" (CIP) and "takes damage" and "enters 決死状態" are read in the state just after their
event; "is discarded from the field" looks back at the state just before it.
"""

from __future__ import annotations

from typing import Any

from eventsource import events as ev
from statemachine.games.vision.board import DISCARD, FIELD, kind_of
from statemachine.triggers import TriggerKind


def _enters(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == FIELD else []


def _damaged(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.obj] if isinstance(e, ev.StatusSet) and e.key == "damage" and e.value > 0 else []


def _kesshi(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.obj] if isinstance(e, ev.StatusSet) and e.key == "kesshi" and e.value > 0 else []


def _discarded(e: ev.Event, _: dict[str, Any]) -> list[int]:
    if isinstance(e, ev.ZoneChanged) and kind_of(e.src) == FIELD and kind_of(e.dst) == DISCARD:
        return [e.old]
    return []


def _fired(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return []  # fired by the game itself as a phase begins (``pieces.fire_turn_end``, ``discard_pile``)


KINDS: dict[str, TriggerKind] = {
    "enters": TriggerKind("enters", ev.AFTER, _enters),
    "damaged": TriggerKind("damaged", ev.AFTER, _damaged),
    "kesshi": TriggerKind("kesshi", ev.AFTER, _kesshi),
    "discarded": TriggerKind("discarded", ev.BEFORE, _discarded),
    "turn_ends": TriggerKind("turn_ends", ev.AFTER, _fired),  # 自動γ 「ターンの終了時」 (VOP-GAME-TURN-END)
    "delayed": TriggerKind("delayed", ev.AFTER, _fired),  # 「ターン終了時に、…」: named by at_end_of_turn (pool 1.5)
    # 自動β 「メンテナンスフェイズに…」 (pool 1.6, VOP-GAME-MAINTENANCE): fired as the maintenance phase's
    # prescribed effects are done (``discard_pile.fire_maintenance``)
    "maintenance": TriggerKind("maintenance", ev.AFTER, _fired),
}
