"""Damage distributed among characters (「…ダメージを振り分けて与える」, pool 1.5).

The chooser splits the amount among the characters on the named side, one character at a time (in the order
they are on the field), and the whole of it is dealt at the same time. 「可能な限り」: as much of the amount as
can be placed is placed, so every answer is bounded below by what the characters after it can still take; with
``up_to_toughness``, a character takes at most its toughness (「耐久力を超えるダメージを振り分けることは出来
ない」; the damage already on it does not count, as the wiki's worked example of 彗星「ブレイジングスター」 reads).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from projections.characteristics import view
from statemachine.amounts import Amount, evaluate
from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import Procedure

DISTRIBUTE = "damage"  # the request kind: its options are amounts (profile.option_kinds)


class DistributeParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount
    chooser: Literal["you", "opponent"] = "you"  # who splits it: 〔あなた〕 or 〔相手プレイヤー〕
    among: Literal["you", "opponent", "any"] = "any"  # whose characters, seen from the effect's controller
    up_to_toughness: bool = False


@VOP.effect("distribute_damage", DistributeParams)
def distribute_damage(ctx: EffectContext, p: DistributeParams) -> Procedure:
    """「〔相手プレイヤー〕は自分の場のキャラクターにNダメージを可能な限り振り分けて与える」: the chooser places the
    damage character by character; it is dealt together (効果ダメージ: not to a no_effect_damage character)."""
    st = ctx.state
    who = ctx.controller if p.chooser == "you" else ctx.opponent
    sides = {"you": [ctx.controller], "opponent": [ctx.opponent], "any": [ctx.controller, ctx.opponent]}[p.among]
    chars = [o for side in sides for o in board.characters(st, side)]
    total = evaluate(ctx, p.amount)
    caps = [max(0, view(st, o).chars.toughness or 0) if p.up_to_toughness else total for o in chars]
    left = min(total, sum(caps))
    split: list[tuple[int, int]] = []
    for i, oid in enumerate(chars):
        low, high = max(0, left - sum(caps[i + 1:])), min(caps[i], left)
        n = low
        if high > low:
            answer = yield ctx.request(who, DISTRIBUTE, f"damage to {view(st, oid).chars.name} ({left} to place)",
                                       tuple(range(low, high + 1)), rule="VOP-GAME-DISTRIBUTE")
            n = int(answer[0])
        split.append((oid, n))
        left -= n
    board.damage(ctx.engine, [(o, n) for o, n in split
                              if "no_effect_damage" not in view(ctx.state, o).chars.keywords])


__all__ = ["DISTRIBUTE"]
