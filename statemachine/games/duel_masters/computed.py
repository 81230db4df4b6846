"""Duel Masters effect steps whose amounts are computed (``statemachine.amounts``), and the game's amount rules.

An amount is read when the step is carried out, at resolution; a card that has left the zone where the effect
found it is read as it was just before it left (DM-LB-03, DM-LB-13; modifications and evolution included,
DM-LB-14/15). "That creature" of a spell that chose one (「そのクリーチャー」) is the reference ``target``: the
creature chosen by the step before.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from projections.characteristics import view
from statemachine.amounts import Amount, AmountRules, evaluate
from statemachine.context import EffectContext
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.board import GRAVEYARD, HAND, MANA, PUT, zone
from statemachine.games.duel_masters.effects import DM, ChooseParams, choose
from statemachine.vocabulary import Procedure

# Zones a count may name; a half is rounded down ([assumed]: no seed or SPEC rule gives Duel Masters' rounding,
# and no card of the pool halves an amount yet). Duel Masters has no X chosen as a card is used.
DM.amounts = AmountRules(
    zones=(board.DECK, HAND, MANA, board.BATTLE, board.SHIELDS, GRAVEYARD),
    characteristics=("power_of", "cost_of"),
    rounding="down",
    rounding_rule="assumed",
)

MANA_SEND = "mana_send"  # ZoneChanged.cause: put into the mana zone by an effect
MILL = "mill"  # ZoneChanged.cause: put from the top of the deck into the graveyard by an effect


class CheaperParams(Struct, frozen=True, forbid_unknown_fields=True):
    max_cost: Amount  # the highest cost allowed ("cost smaller than N" is N - 1)
    source: Literal["graveyard", "mana"] = "graveyard"  # where the creature comes from (your own zone)
    may: bool = True  # 「出してもよい」


@DM.effect("put_creature_costing_at_most", CheaperParams)
def put_creature_costing_at_most(ctx: EffectContext, p: CheaperParams) -> Procedure:
    """Put a non-evolution creature with cost at most N from your graveyard (or mana zone) into the battle zone.

    N is computed first, before anything is chosen: 《地獄門デス・ゲート》's "smaller than that creature's cost"
    reads the destroyed creature as it was just before it left the battle zone (DM-LB-13)."""
    limit = evaluate(ctx, p.max_cost, "max_cost")
    st = ctx.state
    options = [o for o in st.zone(zone(ctx.controller, p.source)) if "creature" in (c := view(st, o).chars).types
               and "evolution" not in c.types and (c.cost or 0) <= limit]
    yield from choose(ctx, ctx.controller, options, f"choose a creature of cost {limit} or less to put into the "
                      f"battle zone", may_=p.may)
    from statemachine.games.duel_masters.actions import enter_battle

    for oid in ctx.bound["chosen"]:
        enter_battle(ctx.engine, oid, ctx.controller, PUT)


@DM.effect("mana_send_opponent_creature", ChooseParams)
def mana_send_opponent_creature(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """「相手のクリーチャーを1体選び、持ち主のマナゾーンに置く」 (cards under it go with it)."""
    yield from choose(ctx, ctx.controller, board.creatures(ctx.state, ctx.opponent),
                      "choose an opposing creature to put into its owner's mana zone", may_=p.may)
    board.to_owner(ctx.engine, ctx.bound["chosen"], MANA, MANA_SEND)


class MillTopParams(Struct, frozen=True, forbid_unknown_fields=True):
    # 「それが〔types〕の〔colors〕なら」: what the card put into the graveyard must be for the rest to happen
    if_types: tuple[str, ...] = ()
    if_colors: tuple[str, ...] = ()


@DM.effect("mill_top_if", MillTopParams)
def mill_top_if(ctx: EffectContext, p: MillTopParams) -> Procedure:
    """「自分の山札の上から1枚目を墓地に置く。それが…なら、…」: the top card of your deck goes to your graveyard;
    unless it is of the given types and civilizations (as it is there, now), the rest of the ability is not done."""
    deck = ctx.state.zone(zone(ctx.controller, board.DECK))
    if not deck:
        ctx.stopped = True
        return
    moved = board.move(ctx.engine, deck[0], zone(ctx.controller, GRAVEYARD), MILL)
    ctx.engine.emit(moved)
    chars = view(ctx.state, moved.new).chars
    if (p.if_types and not set(p.if_types) <= set(chars.types)) or (
            p.if_colors and not set(p.if_colors) & set(chars.colors)):
        ctx.stopped = True
    return
    yield


class UpToParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Amount  # up to this many ("… 1体につき … してもよい")


@DM.effect("bounce_opponent_mana", UpToParams)
def bounce_opponent_mana(ctx: EffectContext, p: UpToParams) -> Procedure:
    """Choose up to N cards of your opponent's mana zone; they return to their owner's hand."""
    n = evaluate(ctx, p.count, "count")
    ctx.bound["chosen"] = []
    if n > 0:
        yield from choose(ctx, ctx.controller, list(ctx.state.zone(zone(ctx.opponent, MANA))),
                          f"choose up to {n} cards of your opponent's mana zone to return", may_=True, count=n)
    board.to_owner(ctx.engine, ctx.bound["chosen"], HAND, board.BOUNCE)


@DM.effect("bounce_opponent_creatures", UpToParams)
def bounce_opponent_creatures(ctx: EffectContext, p: UpToParams) -> Procedure:
    """Choose up to N of your opponent's creatures; they return to their owner's hand."""
    n = evaluate(ctx, p.count, "count")
    ctx.bound["chosen"] = []
    if n > 0:
        yield from choose(ctx, ctx.controller, board.creatures(ctx.state, ctx.opponent),
                          f"choose up to {n} opposing creatures to return", may_=True, count=n)
    board.to_owner(ctx.engine, ctx.bound["chosen"], HAND, board.BOUNCE)
