"""The common effects: drawing, PP, damage and healing, leaving the field, transforming, summoning tokens,
adding cards to the hand, buffs, keywords and the continuous effects put on each target (flags, damage cuts,
lost abilities). Each target is processed one at a time in the basic order (SV-O-25/26); damage never
destroys at once — a follower at 0 defense waits for the state check (SV-O-27/28).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from msgspec import Struct, field

from eventsource import events as ev
from statemachine.amounts import Amount, evaluate
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import CEMETERY, FIELD, HAND
from statemachine.games.shadowverse.effects.targets import (
    SV,
    NonNegative,
    Until,
    bundled,
    captured,
    ordered,
    step_index,
)
from statemachine.games.shadowverse.fire import healed
from statemachine.games.shadowverse.queue import captures
from statemachine.games.shadowverse.replacing import StaticReplacesParams
from statemachine.vocabulary import Keyword, Procedure, Selector


class DrawParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 1
    # who draws: you, your opponent, or both (「お互いのプレイヤーは」: the turn player first, SV-O-25; from pool 1.6)
    whose: Literal["you", "opponent", "both"] = "you"


@SV.effect("draw", DrawParams)
def draw(ctx: EffectContext, p: DrawParams) -> Procedure:
    """Draw ``count`` cards; with ``whose = "both"`` each player draws, the turn player first (SV-O-25)."""
    st = ctx.state
    players = {"you": [ctx.controller], "opponent": [ctx.opponent], "both": [st.active, 1 - st.active]}[p.whose]
    for player in players:
        board.draw(ctx.engine, player, p.count)
    return
    yield


class AmountParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: NonNegative = 1
    to: Selector = "own_leader"


class HitParams(Struct, frozen=True, forbid_unknown_fields=True):
    """Damage or healing: the amount may be computed (``statemachine.amounts``), at the resolution stage (SV-O-08)."""

    amount: Amount = 1
    to: Selector = "own_leader"


@SV.effect("recover_pp", AmountParams)
def recover_pp(ctx: EffectContext, p: AmountParams) -> Procedure:
    st = ctx.state
    me = ctx.controller
    ctx.engine.emit(ev.PlayerStat(me, "pp", min(st.stat(me, "max_pp"), st.stat(me, "pp") + p.amount)))
    return
    yield


@SV.effect("damage", HitParams)
def damage(ctx: EffectContext, p: HitParams) -> Procedure:
    """Deal damage to each target, one at a time in the basic order (SV-O-25). A bundled ability's instance
    deals one hit of the total for all the instances it stands for (SV-O-100). A computed amount is computed
    once, before the first target is hit (SV-O-08)."""
    amount = evaluate(ctx, p.amount) * bundled(ctx)
    for t in ordered(ctx, p.to):
        board.deal_damage(ctx.engine, t, amount, ctx.controller)
        if ctx.state.ended:
            return
    return
    yield


@SV.effect("heal", HitParams)
def heal(ctx: EffectContext, p: HitParams) -> Procedure:
    """Restore defense to each target in the basic order (SV-O-25); a computed amount is computed once, first."""
    amount = evaluate(ctx, p.amount)
    for t in ordered(ctx, p.to):
        board.heal(ctx.engine, t, amount)
        healed(ctx.engine, board.controller_of(ctx.state, t))  # healing counts as healing even at full life
    return
    yield


class ToParams(Struct, frozen=True, forbid_unknown_fields=True):
    to: Selector = "target"


def cards(ctx: EffectContext, selector: str) -> list[int]:
    """The followers and amulets (never a leader) a selector names now, in the basic order (SV-O-25)."""
    return [t for t in ordered(ctx, selector) if not board.is_leader(t)]


@SV.effect("destroy", ToParams)
def destroy(ctx: EffectContext, p: ToParams) -> Procedure:
    for t in cards(ctx, p.to):  # SV-O-25/26: one at a time
        board.destroy(ctx.engine, t)
    return
    yield


@SV.effect("banish", ToParams)
def banish(ctx: EffectContext, p: ToParams) -> Procedure:
    """消滅 (SV-O-88..91); a card in the hand (``this_card``) goes straight to the banished zone."""
    for t in cards(ctx, p.to):
        obj = ctx.state.objects[t]
        if board.kind_of(obj.zone) != HAND:
            board.banish(ctx.engine, t)  # on the field (it does nothing elsewhere)
            continue
        ctx.engine.emit(board.move(ctx.engine, t, board.zone(obj.owner, board.BANISHED), board.BANISH))
    return
    yield


@SV.effect("reveal", ToParams)
def reveal(ctx: EffectContext, p: ToParams) -> Procedure:
    """「公開する」: each card (in the hand: ``this_card``) is shown to the opponent."""
    st = ctx.state
    for t in cards(ctx, p.to):
        ctx.engine.emit(ev.Revealed(t, (ctx.opponent,), st.objects[t].card, st.facts(t).definition))
    return
    yield


@SV.effect("return_to_hand", ToParams)
def return_to_hand(ctx: EffectContext, p: ToParams) -> Procedure:
    for t in cards(ctx, p.to):
        board.return_to_hand(ctx.engine, t)
    return
    yield


class TransformParams(Struct, frozen=True, forbid_unknown_fields=True):
    into: str
    to: Selector = "target"


@SV.effect("transform", TransformParams)
def transform(ctx: EffectContext, p: TransformParams) -> Procedure:
    """変身 ignores "cannot be destroyed/banished" (SV-O-95)."""
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            board.transform(ctx.engine, t, p.into)
    return
    yield


class SummonParams(Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    count: Amount = 1  # computed at resolution (「スペルブースト +1体」: a spellboost count, SV-O-08)
    keywords: list[Keyword] = field(default_factory=list)
    keywords_if_wrath: list[Keyword] = field(default_factory=list)


@SV.effect("summon", SummonParams)
def summon(ctx: EffectContext, p: SummonParams) -> Procedure:
    """Summon tokens one at a time (each comes into play)."""
    st = ctx.state
    extra = list(p.keywords)
    i = step_index(ctx, "summon")
    if p.keywords_if_wrath and captured(ctx, i) == "wrath":
        extra += p.keywords_if_wrath
    for _ in range(evaluate(ctx, p.count, "count")):
        oid = board.create(ctx.engine, p.card, ctx.controller, FIELD)
        if oid > 0 and oid in st.objects:
            for kw in extra:
                grant(ctx, oid, kw)
    return
    yield


@captures("summon")
def _summon_wrath(ctx: EffectContext, params: dict[str, object]) -> str:
    """夜天の吸血鬼 (SV-O-09): whether Wrath holds is a condition, judged when the Fanfare triggers."""
    return "wrath" if board.wrath(ctx.state, ctx.controller) else "no_wrath"


def grant(ctx: EffectContext, oid: int, keyword: str, until: str = "") -> None:
    eid = ctx.state.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "grant_keyword", oid, value=keyword, until=until))


class CardParams(Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    count: int = 1
    reveal: bool = False


@SV.effect("add_to_hand", CardParams)
def add_to_hand(ctx: EffectContext, p: CardParams) -> Procedure:
    """Put a (token) card into your hand; at the hand limit it goes to the cemetery instead."""
    st = ctx.state
    limit = ctx.engine.options.hand_limit or board.HAND_LIMIT
    for _ in range(p.count):
        where = HAND if len(board.hand(st, ctx.controller)) < limit else CEMETERY
        oid = board.create(ctx.engine, p.card, ctx.controller, where)
        if p.reveal and where == HAND:  # SV-O-122: a token from a random range is shown to the opponent
            ctx.engine.emit(ev.Revealed(oid, (ctx.opponent,), st.objects[oid].card, p.card))
    return
    yield


class BuffParams(Struct, frozen=True, forbid_unknown_fields=True):
    signed: ClassVar[tuple[str, ...]] = ("attack", "defense")  # a buff may take away (-3/-3)
    attack: Amount = 0
    defense: Amount = 0
    to: Selector = "self"
    until: Until = ""  # "" (while on the field), "end_of_turn", "start_of_turn", "overflow"


@SV.effect("buff", BuffParams)
def buff(ctx: EffectContext, p: BuffParams) -> Procedure:
    # SV-O-54: "until the start of the turn" means the controller's next turn (≈ the end of the opponent's).
    until = f"start_of_turn:{ctx.controller}" if p.until == "start_of_turn" else p.until
    attack, defense = evaluate(ctx, p.attack, "attack"), evaluate(ctx, p.defense, "defense")  # SV-O-08
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            modify(ctx, t, attack, defense, until)
    return
    yield


def modify(ctx: EffectContext, oid: int, attack: int, defense: int, until: str = "") -> None:
    events: list[ev.Event] = []
    before = board.defense(ctx.state, oid)
    if defense < 0 and before + defense <= 0 < before:
        # SV-O-85: destroyed by a -X/-X, it is judged with its defense before the debuff.
        events.append(ev.StatusSet(oid, "defense_before_debuff", before))
    eid = ctx.state.next_effect
    if attack:
        events.append(ev.ContinuousEffectStarted(eid, ctx.source, "power", oid, amount=attack, until=until))
        eid += 1
    if defense:
        events.append(ev.ContinuousEffectStarted(eid, ctx.source, "toughness", oid, amount=defense, until=until))
    if events:
        ctx.engine.emit(*events)


class KeywordParams(Struct, frozen=True, forbid_unknown_fields=True):
    keyword: Keyword
    to: Selector = "self"
    until: Until = ""


@SV.effect("gain_keyword", KeywordParams)
def gain_keyword(ctx: EffectContext, p: KeywordParams) -> Procedure:
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            grant(ctx, t, p.keyword, p.until)
    return
    yield


class StaticKeywordParams(Struct, frozen=True, forbid_unknown_fields=True):
    keyword: Keyword


@SV.effect("has_keyword", StaticKeywordParams, asks=False)
def has_keyword(ctx: EffectContext, p: StaticKeywordParams) -> Procedure:
    """Static (SV-GAME-STATIC): while this is on the field and the ability's conditions hold, it has the keyword
    (「復讐状態なら、疾走を持つ」). Read by the rules as they read keywords (``statics.keywords``); allowed only
    in an ability of kind ``static``, which never resolves, so this step is never carried out."""
    raise AssertionError(f"the static step has_keyword ({p.keyword}) is read, never resolved (checked at load)")
    yield


class StaticStatsParams(Struct, frozen=True, forbid_unknown_fields=True):
    signed: ClassVar[tuple[str, ...]] = ("attack", "defense")  # 「-1/-0」 while a condition holds
    attack: int = 0
    defense: int = 0

    def problems(self) -> list[tuple[str, str]]:
        return [] if self.attack or self.defense else [("", "gives nothing: say attack or defense")]


@SV.effect("has_stats", StaticStatsParams, asks=False)
def has_stats(ctx: EffectContext, p: StaticStatsParams) -> Procedure:
    """Static (SV-GAME-STATIC): while this is on the field and the ability's conditions hold, it has +attack/
    +defense (「覚醒 +2/+0」): started and ended by the state check (``statics.reconcile``); allowed only in an
    ability of kind ``static``, which never resolves, so this step is never carried out."""
    raise AssertionError(f"the static step has_stats ({p.attack}/{p.defense}) is read, never resolved")
    yield


@SV.effect("replaces", StaticReplacesParams, asks=False)
def replaces(ctx: EffectContext, p: StaticReplacesParams) -> Procedure:
    """Static (SV-GAME-STATIC, SV-O-76, SV-O-88..91): while this is on the field and the ability's conditions
    hold, each of the ``of`` (on either side) that would be ``what`` is ``instead`` (ブラッドムーン
    「フォロワーが破壊されるかわりに消滅する」): a replacement effect of the kernel (``statemachine.replacements``),
    started and ended by the state check (``statics.reconcile``) and lost the moment this leaves the field. A card
    banished instead is not destroyed: no Last Words, not counted as destroyed. Allowed only in an ability of kind
    ``static``; never carried out."""
    raise AssertionError(f"the static step replaces ({p.what}>{p.instead}) is read, never resolved")
    yield


class FlagParams(Struct, frozen=True, forbid_unknown_fields=True):
    flag: str
    to: Selector = "target"
    amount: int = 0


def modify_each(ctx: EffectContext, targets: str, kind: str, *, amount: int = 0, value: str = "") -> None:
    """A continuous effect of ``kind`` on each follower or amulet among ``targets`` (never a leader)."""
    for t in ordered(ctx, targets):
        if not board.is_leader(t):
            eid = ctx.state.next_effect
            ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, kind, t, amount=amount, value=value))


@SV.effect("set_flag", FlagParams)
def set_flag(ctx: EffectContext, p: FlagParams) -> Procedure:
    modify_each(ctx, p.to, "set_flag", value=p.flag)
    return
    yield


@SV.effect("damage_cut", AmountParams)
def damage_cut(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Give a damage reduction to each target (lost if the follower leaves or boards, SV-O-38)."""
    modify_each(ctx, p.to, "damage_cut", amount=p.amount)
    return
    yield


@SV.effect("lose_abilities", ToParams)
def lose_abilities(ctx: EffectContext, p: ToParams) -> Procedure:
    modify_each(ctx, p.to, "ignore_abilities")
    return
    yield

