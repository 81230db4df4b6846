"""Duel Masters zones and the moves every rule is made of (draw, tap, destroy, put), as events.

Zones: deck, hand, mana, battle, shields, graveyard, and hold — where cards used together by one effect wait
to be processed one at a time (DM-W-36). A card under an evolution creature is in the pseudo-zone "under".
"""

from __future__ import annotations

from collections.abc import Iterable

from projections.state import GameState
from statemachine import board as kit
from statemachine.board import draw, in_zone, is_tapped, kind_of, move, move_all, set_tapped, views, zone
from statemachine.engine import Engine

DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD = "deck", "hand", "mana", "battle", "shields", "graveyard", "hold"
ZONES = (DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD)
# A card field: 攻撃中、このクリーチャーのパワーは+N (an amount computed as it battles; combat.power_while_attacking)
POWER_WHILE_ATTACKING = "power_while_attacking"
EXTRA_TURNS = "extra_turns"  # a player's counter of extra turns waiting (DM-GAME-EXTRA-TURN)

# Why a card moved: ZoneChanged.cause. "summon" is the only way into the battle zone that taps mana for it.
SUMMON, PUT, DESTROY, BATTLE_LOST, BREAK, BOUNCE, DRAW, CHARGE, CAST, DISCARD = (
    "summon", "put", "destroy", "battle", "break", "bounce", "draw", "charge", "cast", "discard")


def creatures(state: GameState, player: int) -> list[int]:
    return [o for o in state.zone(zone(player, BATTLE)) if "creature" in state.facts(o).printed.types]


def destroy(engine: Engine, oids: Iterable[int], cause: str = DESTROY) -> None:
    """Destroy creatures at the same time: they and the cards under them go to their owners' graveyards."""
    kit.put_into_owners(engine, oids, GRAVEYARD, cause)


def to_owner(engine: Engine, oids: Iterable[int], where: str, cause: str) -> None:
    """Put creatures (with the cards under them) into their owners' ``where`` zones at the same time."""
    kit.put_into_owners(engine, oids, where, cause)


# The kernel's board toolkit (statemachine.board), named here so Duel Masters' rules read board.move(...).
__all__ = ["draw", "in_zone", "is_tapped", "kind_of", "move", "move_all", "set_tapped", "views", "zone"]
