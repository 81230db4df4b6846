"""Vision of Phantasm pieces for when a card may be played and what a turn holds (pool 1.4): a card played only in
the maintenance phase, skipping this turn's draw phase, a condition comparing hand sizes with a branch on it
(``if``, with ``else``), discarding cards of a hand at random, and setting a pile's top card on this card or else
discarding it (死神『ヒガンルトゥール』, re-expressed so from pool 1.4: ``if`` ``has_cards`` ``set_on_self`` else
``haki_self``).

《人形の森》 is ``maintenance_only`` + ``skip_draw`` + ``draw``; 《流星祈願会》 is ``if`` on
``hand_fewer_than_opponent`` carrying ``discard_random`` or ``draw``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from projections.state import GameState
from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.actions import MAINTENANCE_ONLY
from statemachine.games.vision.board import HAND, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import KEYWORD, NoParams, Procedure

# ``actions`` refuses a card with the keyword outside the maintenance phase: kifu's first phase of the turn (where
# nodes and cards become active) is the maintenance phase, before the draw phase.
SKIP_DRAW = "skip_draw"  # the turn whose draw phase is skipped, kept on the turn player

VOP.declare(KEYWORD, {
    MAINTENANCE_ONLY: "〔このカード〕はメンテナンスフェイズにしかプレイ出来ない: played only in the maintenance phase "
                      "(kifu's first phase, 'active'), in any player's turn (VOP-GAME-TIMING)",
})

Count = Annotated[int, Meta(ge=0)]


@VOP.effect("skip_draw")
def skip_draw(ctx: EffectContext, _: NoParams) -> Procedure:
    """「このターンのドローフェイズをスキップし」: the turn player draws nothing in this turn's draw phase (a card
    played in the maintenance phase comes before it; played later, the draw phase has passed and nothing changes)."""
    st = ctx.state
    ctx.engine.emit(ev.PlayerStat(st.active, SKIP_DRAW, st.turn))
    return
    yield


def draw_skipped(state: GameState, player: int) -> bool:
    """Whether this turn's draw phase is skipped for ``player`` (``skip_draw``)."""
    return state.stat(player, SKIP_DRAW) == state.turn


class HandParams(Struct, frozen=True, forbid_unknown_fields=True):
    at_least: Count = 1  # your hand has at least this many cards fewer than the opponent's...
    at_most: Count | None = None  # ...and at most this many (none: no bound)


@VOP.condition("hand_fewer_than_opponent", HandParams)
def hand_fewer_than_opponent(ctx: EffectContext, p: HandParams) -> bool:
    """「あなたの手札が相手プレイヤーの手札よりN枚少ない場合」 (「N枚以上少ない」: no ``at_most``): judged where
    the card says — in an ``if`` step, as the effect resolves (「〔このカード〕の解決時」)."""
    st = ctx.state
    short = len(st.zone(zone(ctx.opponent, HAND))) - len(st.zone(zone(ctx.controller, HAND)))
    return short >= p.at_least and (p.at_most is None or short <= p.at_most)


ConditionName = Annotated[str, Meta(extra={"names": "condition"})]


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    condition: ConditionName  # a condition of the vocabulary, judged as this step resolves
    then: str  # the effect carried out when it holds
    params: dict[str, object] = field(default_factory=dict)
    condition_params: dict[str, object] = field(default_factory=dict)
    otherwise: str = field(default="", name="else")  # carried out when it does not hold (「できない場合、…」)
    else_params: dict[str, object] = field(default_factory=dict)

    def judged(self) -> list[tuple[str, str, dict[str, object]]]:
        """The condition it judges, checked at load as a card's own conditions are (``statemachine.loader``)."""
        return [("condition", self.condition, self.condition_params)]

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effects it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)] + ([("else", self.otherwise, self.else_params)]
                                                     if self.otherwise else [])


@VOP.effect("if", IfParams)
def if_(ctx: EffectContext, p: IfParams) -> Procedure:
    """「…場合、…」: carry out ``then`` if ``condition`` holds as this step resolves (「〔このカード〕の解決時」), else
    ``else`` if given; several ``if`` steps in a row are the numbered effects a card chooses between."""
    if VOP.check(ctx, p.condition, p.condition_params):
        yield from VOP.run_effect(ctx, p.then, p.params)
    elif p.otherwise:
        yield from VOP.run_effect(ctx, p.otherwise, p.else_params)


class PileParams(Struct, frozen=True, forbid_unknown_fields=True):
    zone: Literal["discard", "deck", "hand", "node"] = "discard"
    whose: Literal["you", "opponent"] = "you"
    at_least: Count = 1


@VOP.condition("has_cards", PileParams)
def has_cards(ctx: EffectContext, p: PileParams) -> bool:
    """「あなたの冥界にカードがある」: that zone of that player holds at least N cards (judged where the card says;
    in an ``if`` step, as it resolves: 「(できない場合、…)」)."""
    player = ctx.controller if p.whose == "you" else ctx.opponent
    return len(ctx.state.zone(zone(player, p.zone))) >= p.at_least


@VOP.effect("set_on_self", PileParams)
def set_on_self(ctx: EffectContext, p: PileParams) -> Procedure:
    """「〔あなたの冥界の一番上のカード〕をこのカードの上に裏向きでセットする」: the top card of that pile is set on
    this card (one use of a ``uses:N`` card: with N set on it, it is discarded)."""
    me = ctx.source_now()
    player = ctx.controller if p.whose == "you" else ctx.opponent
    pile = ctx.state.zone(zone(player, p.zone))
    if me is not None and board.on_field(ctx.state, me) and pile:
        ctx.engine.emit(ev.Stacked(me, pile[-1]))
    return
    yield


@VOP.effect("haki_self")
def haki_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """「このカードを破棄する」 as 破棄 that arises: the card is discarded right after this effect, with the other
    cards whose 破棄 arose (VOP-I-16); ``discard_self`` discards it at once, within the effect."""
    me = ctx.source_now()
    if me is not None and board.on_field(ctx.state, me):
        ctx.engine.emit(ev.StatusSet(me, "haki", 1))
    return
    yield


class RandomDiscardParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Count = 1
    whose: Literal["opponent", "you"] = "opponent"


@VOP.effect("discard_random", RandomDiscardParams)
def discard_random(ctx: EffectContext, p: RandomDiscardParams) -> Procedure:
    """「〔相手プレイヤー1人の手札N枚〕を無作為に選んで破棄する」: drawn at random as it resolves (each pick a
    ``RandomDrawn`` from the game's seed), then discarded together."""
    player = ctx.opponent if p.whose == "opponent" else ctx.controller
    hand = list(ctx.state.zone(zone(player, HAND)))
    picked: list[int] = []
    for _ in range(min(p.count, len(hand))):
        left = [o for o in hand if o not in picked]
        picked.append(left[ctx.engine.random_below(len(left), "random discard")])
    if picked:
        board.to_discard(ctx.engine, picked, "discard")
    return
    yield


# The conditions an ``if`` step may name (checked at load like any declared name); every module registering
# conditions is imported before this one (``profile``).
VOP.declare("condition", {name: entry.doc for name, entry in VOP.conditions.items()})

__all__ = ["draw_skipped"]
