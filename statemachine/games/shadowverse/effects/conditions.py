"""Shadowverse conditions: judged when the effect triggers (SV-O-05); an unmet condition means no trigger."""

from __future__ import annotations

from msgspec import Struct

from statemachine.amounts import Amount, peek
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import CEMETERY
from statemachine.games.shadowverse.effects.targets import SV, NonNegative
from statemachine.vocabulary import NoParams


class CountParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 1


class AtLeastParams(Struct, frozen=True, forbid_unknown_fields=True):
    of: Amount  # a computed amount: a count, a player's counter (``statemachine.amounts``)
    count: NonNegative = 1


@SV.condition("at_least", AtLeastParams)
def c_at_least(ctx: EffectContext, p: AtLeastParams) -> bool:
    """An amount is at least N: 連携 N (the cards played this turn before this one: ``played_turn`` less 1, for
    it counts the card played), 「相手の場にフォロワーが2体以上いるなら」 (a count). Judged when the effect
    triggers (SV-O-05), or whenever the rules read a static ability's condition; read without an event, for
    the outcome is what is recorded."""
    return peek(ctx, p.of) >= p.count


@SV.condition("vengeance")
def c_vengeance(ctx: EffectContext, _: NoParams) -> bool:
    return board.vengeance(ctx.state, ctx.controller)


@SV.condition("overflow")
def c_overflow(ctx: EffectContext, _: NoParams) -> bool:
    return board.overflow(ctx.state, ctx.controller)


@SV.condition("resonance")
def c_resonance(ctx: EffectContext, _: NoParams) -> bool:
    return board.resonance(ctx.state, ctx.controller)


@SV.condition("necromancy", CountParams)
def c_necromancy(ctx: EffectContext, p: CountParams) -> bool:
    """ネクロマンス N: judged at the instant it triggers (SV-O-82/83): a Last Words sees its own card."""
    return len(ctx.state.zone(board.zone(ctx.controller, CEMETERY))) >= p.count


@SV.condition("evolved_times", CountParams)
def c_evolved_times(ctx: EffectContext, p: CountParams) -> bool:
    """You have evolved at least N times this game. Spending EP is not evolving (SV-O-98): only evolving counts."""
    return ctx.state.stat(ctx.controller, "evolutions") >= p.count


@SV.condition("earth_sigil")
def c_earth_sigil(ctx: EffectContext, _: NoParams) -> bool:
    return bool(board.earth_sigils(ctx.state, ctx.controller))


@SV.condition("enhanced")
def c_enhanced(ctx: EffectContext, _: NoParams) -> bool:
    """エンハンス: the card was played enhanced (its Enhance cost paid instead of its cost, SV-GAME-ENHANCE)."""
    obj = ctx.state.objects.get(ctx.source)
    return obj is not None and bool(obj.status.get("enhanced"))


@SV.condition("opponent_has_follower")
def c_opponent_has_follower(ctx: EffectContext, _: NoParams) -> bool:
    """「相手の場にフォロワーがいるなら」: the opponent has at least one follower on the field."""
    return bool(board.followers(ctx.state, ctx.opponent))
