"""【連結(「A」+「B」…)】 (union, pool 1.7), and discarding a card of a field that is not a character.

The game's comprehensive rules, IR-10.20 (as the fan wiki quotes them): 10.20.2.b 「(自動β)〔このカード〕のプレイが
解決される場合、…〔あなたの場、手札、冥界のいずれかにある、名称に「A」を含むカード、「B」を含むカード、…それぞれ1枚〕
をゲームから除外しても良い。除外しない場合、このカードをゲームから除外する。」 and 10.20.3: if they are not removed,
this card is removed and its play fails. kifu: as the play of a card with the card field ``union`` resolves, before its
text, its controller may remove one card of theirs for each name — from the field, the hand or the discard pile, a card
whose printed name contains it, a different card for each — all at once; a name no card matches, or declining, removes
the union card instead and fizzles the play (VOP-GAME-UNION). 10.20.2.a (on the field its name is also A, B, …) is not
modelled: the only union card written resolves and never stays on the field.

``discard_field_card`` (「〔相手プレイヤーの場の、キャラクター以外のカード1枚〕を破棄しても良い」): the controller
chooses a card of that field whose types are not excluded, not targeted, as the step resolves (with ``may``, first
whether to).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Literal

from msgspec import Struct

from projections.characteristics import view
from projections.state import Pending
from statemachine.context import EffectContext, context_of
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.vision import board
from statemachine.games.vision.board import DISCARD, FIELD, HAND, REMOVED, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import Answer, Procedure

UNION = "union"  # the card field, and ZoneChanged.cause of the cards removed for it
FIELD_DISCARD = "discard"

VOP.card_field(UNION, tuple[str, ...], (),
               "【連結(「A」+「B」…)】: the names A, B, …; as its play resolves, one card of its controller's field, "
               "hand or discard pile whose name contains each is removed from the game, or else this card is and "
               "the play fails (VOP-GAME-UNION, IR-10.20)", later=True)


def candidates(engine: Engine, player: int, name: str, taken: list[int]) -> tuple[int, ...]:
    st = engine.state
    return tuple(o for where in (FIELD, HAND, DISCARD) for o in st.zone(zone(player, where))
                 if o not in taken and name in view(st, o).chars.name)


def pay_union(engine: Engine, pend: Pending, names: tuple[str, ...]) -> Generator[Request, Answer, bool]:
    """IR-10.20.2.b and 10.20.3 as the play of the union card ``pend.source`` resolves: True if the cards were
    removed (the play goes on), False if the union card was removed instead and the play fizzled."""
    st = engine.state
    me, src = pend.controller, pend.source
    chosen: list[int] = []
    able = all(candidates(engine, me, n, []) for n in names)
    agree = able and (yield from context_of(engine, pend).agrees(
        me, "【連結】: remove a card of each name from the game?", rule="VOP-GAME-UNION"))
    for name in names if agree else ():
        options = candidates(engine, me, name, chosen)
        if not options:  # the cards of one name were taken by another: it cannot be paid
            agree = False
            break
        pick = options[0]
        if len(options) > 1:
            answer = yield Request(me, UNION, f"【連結】: the card named 「{name}」 to remove from the game", options,
                                   effect=pend.effect, rule="VOP-GAME-UNION")
            pick = int(answer[0])
        chosen.append(pick)
    if agree:
        engine.emit(*board.move_all(engine, [(o, zone(st.objects[o].owner, REMOVED)) for o in chosen], UNION))
        return True
    engine.emit(board.move(engine, src, zone(st.objects[src].owner, REMOVED), UNION))
    board.fizzle(engine, pend.effect, "【連結】: the named cards were not removed from the game (VOP-GAME-UNION)")
    return False


class FieldCardParams(Struct, frozen=True, forbid_unknown_fields=True):
    whose: Literal["you", "opponent"] = "opponent"
    not_types: tuple[Literal["character", "spell_card", "command"], ...] = ()  # 「キャラクター以外の」
    may: bool = False  # 「…破棄しても良い」


@VOP.effect("discard_field_card", FieldCardParams)
def discard_field_card(ctx: EffectContext, p: FieldCardParams) -> Procedure:
    """「〔相手プレイヤーの場の、キャラクター以外のカード1枚〕を破棄しても良い」: the controller chooses one card of
    that field none of whose types is excluded, as the step resolves (not a target); it is discarded (破棄)."""
    st = ctx.state
    player = ctx.controller if p.whose == "you" else ctx.opponent
    options = tuple(o for o in st.zone(zone(player, FIELD)) if not set(board.types(st, o)) & set(p.not_types))
    if not options:
        return
    if p.may and not (yield from ctx.agrees(ctx.controller, "discard a card of the field?", rule="VOP-GAME-DISCARD")):
        return
    pick = options[0]
    if len(options) > 1:
        answer = yield ctx.request(ctx.controller, FIELD_DISCARD, "choose the card of the field to discard", options,
                                   rule="VOP-GAME-DISCARD")
        pick = int(answer[0])
    board.to_discard(ctx.engine, [pick], board.HAKI)


__all__ = ["UNION", "pay_union"]
