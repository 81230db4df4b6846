"""Targets: what a "target" step of an ability may choose, chosen as it is put on the stack and checked again
as it resolves (601.2c, 603.3d, 608.2b — rules the seed refers to but does not quote; SPEC Part 4 #3).

A target step is an effect step ``{ name = "target", params = { what = "creature", ... } }``; an ability's targets
are its target steps in printed order, recorded in one ``Chosen`` event naming the effect (players as
``-1 - player``). Effect steps refer to them by position.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from projections.characteristics import view
from projections.state import GameState
from statemachine.cards import AbilityDef
from statemachine.games.magic import board
from statemachine.games.magic.board import STACK

Color = Literal["white", "blue", "black", "red", "green"]


class TargetParams(Struct, frozen=True, forbid_unknown_fields=True):
    what: Literal["any", "creature", "player", "spell"] = "any"  # "any": a creature or a player
    not_colors: list[Color] = field(default_factory=list)  # "target nonblack creature"


def specs(ability: AbilityDef) -> list[TargetParams]:
    import msgspec

    return [msgspec.convert(e.params, TargetParams) for e in ability.effects if e.name == "target"]


def _creature_ok(state: GameState, oid: int, spec: TargetParams) -> bool:
    if not board.on_battlefield(state, oid):
        return False
    v = view(state, oid)
    return "creature" in v.chars.types and not set(spec.not_colors) & set(v.chars.colors)


def legal(state: GameState, spec: TargetParams, ref: int, spell: int | None = None) -> bool:
    """Whether ``ref`` is (still) a legal target for ``spec``; an object that moved is a new object."""
    player = board.ref_player(ref)
    if player is not None:
        return spec.what in ("any", "player") and player < len(state.players) and not state.players[player].lost
    match spec.what:
        case "creature" | "any":
            return _creature_ok(state, ref, spec)
        case "spell":
            obj = state.objects.get(ref)
            return obj is not None and obj.zone == STACK and ref != spell
        case _:
            return False


def candidates(state: GameState, spec: TargetParams, spell: int | None = None) -> list[int]:
    out: list[int] = []
    if spec.what in ("any", "creature"):
        out += [o for o in board.creatures(state) if _creature_ok(state, o, spec)]
    if spec.what in ("any", "player"):
        out += [board.player_ref(p) for p in range(len(state.players)) if not state.players[p].lost]
    if spec.what == "spell":
        out += [o for o in state.zone(STACK) if o != spell]
    return out


def has_targets(state: GameState, ability: AbilityDef, spell: int | None = None) -> bool:
    return all(candidates(state, s, spell) for s in specs(ability))
