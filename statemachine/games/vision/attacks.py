"""What a turn's attacks allow cards to say (pool 1.7): 「〔相手プレイヤー〕はこのターン、自分の場のキャラクターで
攻撃を行うまで、…出来ない」 and 「相手プレイヤーがこのターン一度も攻撃を行わなかった場合、…」 (《宣戦布告》).

The duration ``until_attacks`` (``durations``): a prohibition on a player ends as a character of theirs attacks
(``actions``), or else as the end phase begins. Rules 1.7 mark a player whose character attacks with the turn
(``attacked_turn``, switch ``attack_turn_marked``), so ``no_attack_this_turn`` can be judged. 【相手ターン制限】
(``opponent_turn_only``) refuses playing the card in its player's own turn (VOP-GAME-TIMING). ``has_characters``:
「…の場にキャラクターが1枚も居ない場合」 and its opposite.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.actions import ATTACKED_TURN, OPPONENT_TURN_ONLY
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import KEYWORD

VOP.declare(KEYWORD, {
    OPPONENT_TURN_ONLY: "【相手ターン制限】: played only in an opponent's turn (VOP-GAME-TIMING)",
})


class WhoseParams(Struct, frozen=True, forbid_unknown_fields=True):
    whose: Literal["you", "opponent"] = "opponent"


class CharactersParams(Struct, frozen=True, forbid_unknown_fields=True):
    whose: Literal["you", "opponent"] = "opponent"
    at_least: Annotated[int, Meta(ge=1)] = 1


@VOP.condition("has_characters", CharactersParams)
def has_characters(ctx: EffectContext, p: CharactersParams) -> bool:
    """「…の場にキャラクターが居る」: that player's field holds at least N characters (spell cards do not count)."""
    player = ctx.controller if p.whose == "you" else ctx.opponent
    return len(board.characters(ctx.state, player)) >= p.at_least


@VOP.condition("no_attack_this_turn", WhoseParams)
def no_attack_this_turn(ctx: EffectContext, p: WhoseParams) -> bool:
    """「…がこのターン一度も攻撃を行わなかった場合」: no character of that player attacked this turn (rules 1.7 mark
    each attack's turn; under a release without the mark it is never known to have happened: it holds)."""
    player = ctx.controller if p.whose == "you" else ctx.opponent
    return ctx.state.stat(player, ATTACKED_TURN) != ctx.state.turn
