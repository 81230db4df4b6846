"""Discarding (SV-O-24, SV-O-108..111), Burial Rite (SV-O-34/35) and the cost of Necromancy."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import CEMETERY, DISCARD, FIELD, HAND
from statemachine.games.shadowverse.effects.basic import DrawParams
from statemachine.games.shadowverse.effects.targets import SV, captured, declared, random_pick, step_index
from statemachine.games.shadowverse.queue import captures
from statemachine.vocabulary import NoParams, Procedure


@SV.effect("discard_random", DrawParams)
def discard_random(ctx: EffectContext, p: DrawParams) -> Procedure:
    """Discard random card(s). An empty hand when it triggered means "discard nothing" (SV-O-109).

    The cards are drawn at random when it resolves (SV-O-06), one ``RandomDrawn`` each. How several are then
    processed is open (SV-O-111, option ``multi_random_discard``): ``left`` (default) discards them together,
    so their own effects go from the left like any discard (SV-O-108, seed L124); ``random`` discards them one
    at a time in the order drawn.
    """
    if captured(ctx, step_index(ctx, "discard_random")) == "empty":
        return
    st = ctx.state
    one_by_one = ctx.engine.options.multi_random_discard == "random"
    picks: list[int] = []
    for _ in range(p.count):
        pick = random_pick(ctx, [o for o in board.hand(st, ctx.controller) if o not in picks], "discard")
        if pick is None:
            break
        if one_by_one:
            discard(ctx, [pick])
        else:
            picks.append(pick)
    if picks:
        discard(ctx, [o for o in board.hand(st, ctx.controller) if o in picks])
    return
    yield


class ChosenParams(Struct, frozen=True, forbid_unknown_fields=True):
    to: Literal["target"] = "target"  # the cards chosen as the card was played (SV-O-35), in the hand


@SV.effect("discard", ChosenParams)
def discard_chosen(ctx: EffectContext, p: ChosenParams) -> Procedure:
    """「手札の…を捨てる」 of a card chosen at play (``target = "hand_follower"``): each one still in the hand is
    discarded; an amount after it reads its look-back state, as it was in the hand (SV-O-112)."""
    st = ctx.state
    chosen = [t for t in declared(ctx) if t in st.objects and board.kind_of(st.objects[t].zone) == HAND]
    if chosen:
        discard(ctx, chosen)
    return
    yield


@captures("discard_random")
def _hand_empty(ctx: EffectContext, params: dict[str, object]) -> str:
    return "empty" if not board.hand(ctx.state, ctx.controller) else "cards"


@SV.effect("discard_choose", DrawParams)
def discard_choose(ctx: EffectContext, p: DrawParams) -> Procedure:
    """Choose up to N cards in your hand and discard them; with fewer in hand, all of them (SV-O-110)."""
    hand = board.hand(ctx.state, ctx.controller)
    if not hand:
        return
    n = min(p.count, len(hand))
    answer = yield ctx.request(ctx.controller, "discard", f"choose {n} card(s) to discard", tuple(hand),
                               minimum=n, maximum=n, rule="SV-O-110")
    discard(ctx, [int(a) for a in answer])


def discard(ctx: EffectContext, oids: list[int]) -> None:
    """Discard cards at once (one group): their own effects first, then "whenever you discard" (SV-O-24)."""
    st = ctx.state
    moves = board.move_all(ctx.engine, [(o, board.owner_zone(st, o, CEMETERY)) for o in oids], DISCARD)
    ctx.engine.emit(*moves)



@SV.effect("burial_rite")
def burial_rite(ctx: EffectContext, _: NoParams) -> Procedure:
    """葬送: put the follower chosen when the card was played from your hand onto the field, then destroy
    it; "if you did" is mandatory when possible (SV-O-34) and happens where the text says (SV-O-35)."""
    st = ctx.state
    ctx.bound["burial"] = False
    for t in declared(ctx):
        if t in st.objects and board.kind_of(st.objects[t].zone) == HAND:
            if len(board.field(st, ctx.controller)) >= board.FIELD_LIMIT:
                return
            moved = board.move(ctx.engine, t, board.zone(ctx.controller, FIELD), board.BURIAL)
            ctx.engine.emit(moved)
            board.destroy(ctx.engine, moved.new)
            ctx.bound["burial"] = True
            return
    return
    yield


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    then: str
    params: dict[str, object] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)]


@SV.effect("if_burial_rite", IfParams)
def if_burial_rite(ctx: EffectContext, p: IfParams) -> Procedure:
    if ctx.bound.get("burial"):
        yield from SV.run_effect(ctx, p.then, p.params)


class NecroParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: int


@SV.effect("spend_shadows", NecroParams)
def spend_shadows(ctx: EffectContext, p: NecroParams) -> Procedure:
    """Necromancy's cost: banish N cards from the cemetery (oldest first)."""
    st = ctx.state
    grave = list(st.zone(board.zone(ctx.controller, CEMETERY)))[: p.count]
    if grave:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, board.zone(ctx.controller, board.BANISHED))
                                                     for o in grave], board.SPENT))
    return
    yield

