"""Vision of Phantasm effect steps whose amounts are computed (``statemachine.amounts``), and the game's rules
for them.

An amount is computed as the step is carried out, at resolution. A card that has left the field is read as it
was just before it left (the look-back state): 《釣瓶「ウェルディストラクター」》 is discarded first, then deals
damage counting the cards that were set on it. X is declared as a COST(X) card is played (``actions``).

A player's life points (ライフポイント) are what is left of ``board.LIFE`` after the damage they have taken: the
counter ``life`` an amount may read is derived so (《均衡》), and changing life points to X sets the damage taken
to LIFE - X. An effect on every player whose amount is each one's own (「Xはそれぞれ自分の場の…」, 《無名の丘》)
computes it once per player, with "target" referring to that player.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Literal

from msgspec import Struct

from eventsource import events as ev
from projections.state import GameState
from statemachine.amounts import Amount, AmountRules, evaluate
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.games.vision import board
from statemachine.games.vision.board import DECK, DISCARD, FIELD, HAND, LIFE, NODE, player_target, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import KEYWORD, Answer, NoParams, Procedure


# Cards say how a half is rounded: 「半分(端数切り上げ)」 (幽冥の住人チーム), 「半分(端数切り下げ)」 (霊峰の魔獣);
# no rule of the game that kifu has gives a rounding of its own, so a card must say it.
def _stat(state: GameState, player: int, name: str) -> int:
    """A player counter as card text reads it: ``life`` (ライフポイント) is LIFE less the damage taken."""
    if name == "life":
        return LIFE - state.stat(player, "damage")
    return state.stat(player, name)


VOP.amounts = AmountRules(
    zones=(DECK, HAND, NODE, FIELD, DISCARD),
    characteristics=("power_of", "toughness_of", "cost_of"),
    stats=("life", "damage"),
    stat_value=_stat,
    has_x=True,
    rounding="",
    rounding_rule="the card states it: 「端数切り上げ」 or 「端数切り下げ」 on printed cards",
)

VOP.declare(KEYWORD, {
    "cost:X": "COST(X): its cost is the X declared as it is played, paid in untapped nodes (《月の間諜》)",
    "own_turn_only": "【自分ターン制限】: played only in its player's own turn",
})

HAND_DISCARD = "discard"  # ZoneChanged.cause: a card of the hand 破棄 by an effect


@VOP.effect("discard_self")
def discard_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """「〔このカード〕を破棄する」: this card (and what is set on it) goes to its owner's discard pile."""
    me = ctx.source_now()
    if me is not None and board.on_field(ctx.state, me):
        board.to_discard(ctx.engine, [me], board.HAKI)
    return
    yield


class HandParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Amount = 1


@VOP.effect("discard_own_hand", HandParams)
def discard_own_hand(ctx: EffectContext, p: HandParams) -> Procedure:
    """「〔あなたの手札X枚〕を破棄する」: you choose that many cards of your hand. With fewer in hand the effect
    cannot be done: its resolution fails and nothing after it happens (《月の間諜》)."""
    n = evaluate(ctx, p.count, "count")
    hand = list(ctx.state.zone(zone(ctx.controller, HAND)))
    if n > len(hand):
        assert ctx.effect is not None, "a command's text resolves as an entry of the interference"
        ctx.engine.emit(ev.EffectFizzled(ctx.effect, f"its resolution fails: you cannot discard {n} cards "
                                                     f"with {len(hand)} in hand"))
        return
    chosen = yield from _choose_cards(ctx, ctx.controller, hand, n)
    board.to_discard(ctx.engine, chosen, HAND_DISCARD)


def _choose_cards(ctx: EffectContext, player: int, hand: list[int], n: int) -> Generator[Request, Answer, list[int]]:
    """``player`` chooses ``n`` cards of ``hand``, one at a time (each among those left); they are discarded
    together afterwards."""
    chosen: list[int] = []
    for k in range(n):
        left = tuple(o for o in hand if o not in chosen)
        answer = yield ctx.request(player, "discard", f"choose a card of your hand to discard ({k + 1} of {n})", left,
                                   rule="VOP-GAME-DISCARD")
        chosen.append(int(answer[0]))
    return chosen


@VOP.effect("target_discards", HandParams)
def target_discards(ctx: EffectContext, p: HandParams) -> Procedure:
    """「目標の〔相手プレイヤー1人〕は〔自分の手札X枚〕を選べるだけ選び、破棄する」: the target player chooses as
    many as they can, up to that many (2009-12-30 erratum: fewer in hand is no failure)."""
    n = evaluate(ctx, p.count, "count")
    for ref in ctx.bound.get("targets", ()):
        if ref >= 0:
            continue
        player = -1 - ref
        hand = list(ctx.state.zone(zone(player, HAND)))
        chosen = yield from _choose_cards(ctx, player, hand, min(n, len(hand)))
        board.to_discard(ctx.engine, chosen, HAND_DISCARD)


class PlayersParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 0
    who: Literal["all", "you", "opponent"] = "all"  # 〔全てのプレイヤー〕, 〔あなた〕, 〔相手プレイヤー〕


def _players(ctx: EffectContext, who: str) -> list[int]:
    """The players named, the effect's controller first."""
    order = [ctx.controller, 1 - ctx.controller]
    return {"all": order, "you": order[:1], "opponent": order[1:]}[who]


@VOP.effect("set_life", PlayersParams)
def set_life(ctx: EffectContext, p: PlayersParams) -> Procedure:
    """「〔全てのプレイヤー〕のライフポイントはXに変更される」: X is computed once; each player's life points become
    X. A change is not damage: the damage taken becomes LIFE - X (《均衡》). From 1.3 X is at most LIFE: 《均衡》's X,
    half of the players' total, is never more on a board the game can be in; an X above it raised life points above
    the start (damage taken below 0) under 1.2."""
    x = evaluate(ctx, p.amount)
    if ctx.engine.profile.rules.life_at_most_start:  # VOP-GAME-LIFE: no more life points than a player starts with
        x = min(x, LIFE)
    ctx.engine.emit(*[ev.PlayerStat(q, "damage", LIFE - x) for q in _players(ctx, p.who)])
    return
    yield


@VOP.effect("damage_each_player", PlayersParams)
def damage_each_player(ctx: EffectContext, p: PlayersParams) -> Procedure:
    """「〔全てのプレイヤー〕はXダメージを受ける。Xはそれぞれ…」: the amount is computed for each player in turn,
    "target" being that player (the controller first); the damage is dealt to all at the same time (《無名の丘》)."""
    hits = [(player_target(q), evaluate(ctx, p.amount, f"amount (player {q})", targets=(player_target(q),)))
            for q in _players(ctx, p.who)]
    board.damage(ctx.engine, hits)
    return
    yield
