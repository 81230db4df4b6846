"""Revealing cards of the hand and comparing them (pool 1.6): 「〔全てのプレイヤー〕は手札を1枚公開する。
最も必要ノードとコストの合計値が大きいカードを公開したプレイヤーは、…」 (《月都万象展》).

``reveal_from_hand``: every player chooses a card of their hand, shown to all at once.
``for_highest_revealed``: an effect carried out for each player who revealed the highest card by a measure, that
player controlling it, their card bound as ``revealed``. ``revealed_is``: that card's type.
``put_revealed_onto_field``: it enters the field tapped (「スリープ状態で場に出し」).

Seed 003 is silent on all of it; the fan wiki's rulings on 《月都万象展》 are followed (README, "Changes in 1.6"):
equal highest cards make every such player a winner; a player with no card in hand reveals nothing and counts 0,
and winning so, nothing happens for them; a revealed card that is not put anywhere stays in its hand.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.board import FIELD, HAND, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import NoParams, Procedure

REVEALED = "revealed"  # ctx.bound: player -> the card they revealed


def turn_order(state: GameState) -> list[int]:
    """Every player, the turn player first (simultaneous choices are asked in this order)."""
    n = len(state.players)
    return [(state.active + k) % n for k in range(n)]


@VOP.effect("reveal_from_hand")
def reveal_from_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """「〔全てのプレイヤー〕は手札を1枚公開する」: each player, the turn player first, chooses a card of their hand
    (with one card, that one; with none, nothing); the chosen cards are shown to every player at once, after all have
    chosen, and stay in the hand."""
    st = ctx.state
    chosen: dict[int, int] = {}
    for player in turn_order(st):
        hand = tuple(st.zone(zone(player, HAND)))
        if len(hand) == 1:
            chosen[player] = hand[0]
        elif hand:
            answer = yield ctx.request(player, "reveal", "choose a card of your hand to reveal", hand,
                                       rule="VOP-GAME-REVEAL")
            chosen[player] = int(answer[0])
    everyone = tuple(range(len(st.players)))
    if chosen:
        ctx.engine.emit(*[ev.Revealed(o, everyone, st.objects[o].card, st.facts(o).definition)
                          for o in chosen.values()])
    ctx.bound[REVEALED] = chosen


def node_plus_cost(state: GameState, oid: int) -> int:
    """「必要ノードとコストの合計値」: NODE N plus COST (X counts 0 in the hand)."""
    return board.keyword_number(state, oid, "node") + (view(state, oid).chars.cost or 0)


class HighestParams(Struct, frozen=True, forbid_unknown_fields=True):
    then: str  # carried out for each player who revealed a highest card, controlled by that player
    params: dict[str, Any] = field(default_factory=dict)
    by: Literal["node_plus_cost"] = "node_plus_cost"

    def nested(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)]


@VOP.effect("for_highest_revealed", HighestParams)
def for_highest_revealed(ctx: EffectContext, p: HighestParams) -> Procedure:
    """「最も…の合計値が大きいカードを公開したプレイヤーは、…」: the players whose revealed card measures highest —
    every one of them when equal; a player who revealed nothing counts 0 — each carry out ``then`` in turn order,
    as its controller, their card bound as ``revealed`` (a winner who revealed nothing does nothing)."""
    st = ctx.state
    shown: dict[int, int] = ctx.bound.get(REVEALED, {})
    score = {q: node_plus_cost(st, shown[q]) if q in shown else 0 for q in turn_order(st)}
    best = max(score.values(), default=0)
    controller = ctx.controller
    for player in [q for q, s in score.items() if s == best and q in shown]:
        ctx.controller, ctx.bound[REVEALED + "_card"] = player, shown[player]
        yield from VOP.run_effect(ctx, p.then, p.params)
    ctx.controller = controller
    ctx.bound.pop(REVEALED + "_card", None)


class TypesParams(Struct, frozen=True, forbid_unknown_fields=True):
    types: tuple[Literal["character", "spell_card", "command"], ...]

    def problems(self) -> list[tuple[str, str]]:
        return [(".types", "name at least one card type")] if not self.types else []


@VOP.condition("revealed_is", TypesParams)
def revealed_is(ctx: EffectContext, p: TypesParams) -> bool:
    """「そのカードがキャラクターカードであれば」: the card bound as ``revealed`` has one of the types."""
    oid = ctx.bound.get(REVEALED + "_card")
    return oid is not None and oid in ctx.state.objects and bool(set(board.types(ctx.state, oid)) & set(p.types))


@VOP.effect("put_revealed_onto_field")
def put_revealed_onto_field(ctx: EffectContext, _: NoParams) -> Procedure:
    """「(そのカードを)スリープ状態で場に出し」: the card bound as ``revealed``, if still in its owner's hand, enters
    the field tapped (not played: it has no play mark; its 「場に出た時」 effects arise as any entering's)."""
    st = ctx.state
    oid = ctx.bound.get(REVEALED + "_card")
    if oid is None or oid not in st.objects or board.kind_of(st.objects[oid].zone) != HAND:
        return
    moved = board.move(ctx.engine, oid, zone(st.objects[oid].owner, FIELD), board.ENTER, controller=ctx.controller)
    ctx.engine.emit(moved, ev.StatusSet(moved.new, "tapped", 1))
    return
    yield
