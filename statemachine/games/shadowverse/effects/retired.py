"""Verbs shaped to one card's text, kept registered only so that logs recorded under the pools that used them verify
byte for byte (tests/test_releases.py). No card of the newest pool uses one (tests/statemachine/
test_shadowverse_pieces.py); each docstring names the pool that re-expressed its card with general pieces.
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.actions import evolve_group
from statemachine.games.shadowverse.board import DECK, HAND, leader
from statemachine.games.shadowverse.effects.basic import AmountParams, modify
from statemachine.games.shadowverse.effects.discard import discard
from statemachine.games.shadowverse.effects.targets import SV, captured, declared, ordered, random_pick, step_index
from statemachine.games.shadowverse.queue import captures
from statemachine.vocabulary import NoParams, Procedure


@SV.effect("evolve_others")
def evolve_others(ctx: EffectContext, _: NoParams) -> Procedure:
    """Evolve every other allied unevolved follower at once (one simultaneous group, SV-O-100). Kept for pools up to
    1.5 (一斉進化の呪文); from pool 1.6: ``evolve`` with the selector ``own_followers``."""
    st = ctx.state
    evolve_group(ctx.engine, [o for o in board.followers(st, ctx.controller)
                              if o != ctx.source and not st.objects[o].status.get("evolved")])
    return
    yield


@captures("tenko_damage")
def _tenko_branch(ctx: EffectContext, params: dict[str, object]) -> str:
    """天狐の社: whether the opponent has followers is the condition, judged at trigger (SV-O-05)."""
    return "follower" if board.followers(ctx.state, ctx.opponent) else "leader"


@SV.effect("tenko_damage", AmountParams)
def tenko_damage(ctx: EffectContext, p: AmountParams) -> Procedure:
    """If the opponent had a follower (at trigger): 2 damage to a random enemy follower (drawn now, SV-O-06);
    else 2 damage to the enemy leader. Kept for pools up to 1.2 (天狐の社); from pool 1.3 the card writes ``if``
    (condition ``opponent_has_follower``) with ``damage`` on either branch."""
    if captured(ctx, step_index(ctx, "tenko_damage")) == "follower":
        pick = random_pick(ctx, board.followers(ctx.state, ctx.opponent), "tenko target")
        if pick is not None:
            board.deal_damage(ctx.engine, pick, p.amount, ctx.controller)
    else:
        board.deal_damage(ctx.engine, leader(ctx.opponent), p.amount, ctx.controller)
    return
    yield


@SV.effect("attack_to_enemy_max")
def attack_to_enemy_max(ctx: EffectContext, _: NoParams) -> Procedure:
    """カムラ (SV-O-07): gain attack up to the highest attack among enemy followers, read at resolution.
    Kept for pools up to 1.3; from pool 1.4 カムラ writes ``buff`` with the amounts ``max`` and ``highest``."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    best = max((view(st, o).power for o in board.followers(st, ctx.opponent)), default=0)
    gain = best - view(st, me).power
    if gain > 0:
        modify(ctx, me, gain, 0)
    return
    yield


@SV.effect("noa_count")
def noa_count(ctx: EffectContext, _: NoParams) -> Procedure:
    """ノア (SV-O-08, provisional): +X/+X where X = allied followers on the field, counted at resolution;
    if X is 3 or more, it also evolves. Option count_timing=trigger counts when it triggered instead. Kept for pools
    up to 1.4; from pool 1.5: ``let``, ``buff``, ``if`` and ``evolve``."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    cap = captured(ctx, step_index(ctx, "noa_count"))
    x = int(cap) if ctx.engine.options.count_timing == "trigger" and cap else len(
        [o for o in board.followers(st, ctx.controller) if o != me])
    modify(ctx, me, x, x)
    if x >= 3 and not st.objects[me].status.get("evolved"):
        evolve_group(ctx.engine, [me])
    return
    yield


@captures("noa_count")
def _noa_count(ctx: EffectContext, params: dict[str, object]) -> str:
    return str(len([o for o in board.followers(ctx.state, ctx.controller) if o != ctx.source]))


@SV.effect("banish_self_from_hand")
def banish_self_from_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """絢爛のセクシーヴァンパイア-like: this card, in the hand, is banished. Kept for pools up to 1.3; from pool 1.4:
    ``banish`` with the selector ``this_card``."""
    st = ctx.state
    me = ctx.source_now()
    if me is not None and board.kind_of(st.objects[me].zone) == HAND:
        ctx.engine.emit(board.move(ctx.engine, me, board.zone(st.objects[me].owner, board.BANISHED), board.BANISH))
    return
    yield


@SV.effect("reveal_self")
def reveal_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """This card is shown to the opponent. Kept for pools up to 1.3; from pool 1.4: ``reveal`` ``this_card``."""
    st = ctx.state
    me = ctx.source_now()
    if me is not None:
        ctx.engine.emit(ev.Revealed(me, (ctx.opponent,), st.objects[me].card, st.facts(me).definition))
    return
    yield


@SV.effect("piercing_bundle", AmountParams)
def piercing_bundle(ctx: EffectContext, p: AmountParams) -> Procedure:
    """ピアシィ as in pool 1.0 (SV-O-100): one hit for all the evolutions of one simultaneous group, bundled by
    this effect's id under rules 1.0. From 1.1 a card says ``bundle = true`` and uses ``damage``."""
    n = int(captured(ctx, step_index(ctx, "piercing_bundle")) or 1)
    for t in ordered(ctx, p.to):
        board.deal_damage(ctx.engine, t, p.amount * n, ctx.controller)
    return
    yield


@captures("piercing_bundle")
def _bundle(ctx: EffectContext, params: dict[str, object]) -> str:
    return "1"


@SV.effect("destroy_own_amulets")
def destroy_own_amulets(ctx: EffectContext, _: NoParams) -> Procedure:
    """Kept for pools up to 1.3; from pool 1.4: ``destroy`` with the selector ``own_amulets``."""
    st = ctx.state
    for o in board.field(st, ctx.controller):
        if "amulet" in view(st, o).chars.types:
            board.destroy(ctx.engine, o)
    return
    yield


@SV.effect("copy_last_played")
def copy_last_played(ctx: EffectContext, _: NoParams) -> Procedure:
    """ローフラッド: a copy of the card the opponent played last, as it was played (SV-O-63/64), into your deck.
    Kept for pools up to 1.4; from pool 1.5: ``add_copy``."""
    st = ctx.state
    cid = st.stat(ctx.opponent, "last_played")
    if cid and cid in st.cards:
        board.create(ctx.engine, st.cards[cid].definition, ctx.controller, DECK)
    return
    yield


@SV.effect("damage_by_last_defense")
def damage_by_last_defense(ctx: EffectContext, _: NoParams) -> Procedure:
    """「破壊される直前の体力」: the look-back defense (SV-O-73), or the defense before a -X/-X that
    destroyed it (SV-O-85). Kept for pools up to 1.3; from pool 1.4: ``damage`` with ``toughness_of`` the source."""
    lk = ctx.view(ctx.source)
    if lk is None:
        return
    amount = lk.status.get("defense_before_debuff") or board.defense_of(lk)
    board.deal_damage(ctx.engine, leader(ctx.opponent), amount, ctx.controller)
    return
    yield


@SV.effect("buff_by_entered")
def buff_by_entered(ctx: EffectContext, _: NoParams) -> Procedure:
    """+X/+0, X the cards that came into play on your side this game (ダーティプリースト). Kept for pools up to 1.2;
    from pool 1.3: ``buff`` with the amount ``stat = "entered"``."""
    me = ctx.source_now()
    if me is not None and board.on_field(ctx.state, me):
        modify(ctx, me, ctx.state.stat(ctx.controller, "entered"), 0)
    return
    yield


@SV.effect("damage_by_attack")
def damage_by_attack(ctx: EffectContext, _: NoParams) -> Procedure:
    """Damage equal to this follower's attack now (SV-O-115: "until end of turn" still applies). Kept for pools up
    to 1.2 (終了時の読み手); from pool 1.3: ``damage`` with the amount ``power_of`` the source."""
    me = ctx.source_now()
    if me is not None:
        board.deal_damage(ctx.engine, leader(ctx.opponent), view(ctx.state, me).power, ctx.controller)
    return
    yield


@SV.effect("throw_from_hand")
def throw_from_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """ゾディアックデーモン: discard the follower chosen at play and deal its attack, as it is in the hand
    (an Overflow bonus is not on it there, SV-O-112). Kept for pools up to 1.3; from pool 1.4: ``discard`` then
    ``damage`` with ``power_of`` the target."""
    st = ctx.state
    for t in declared(ctx):
        if t in st.objects and board.kind_of(st.objects[t].zone) == HAND:
            amount = view(st, t).power
            discard(ctx, [t])
            board.deal_damage(ctx.engine, leader(ctx.opponent), amount, ctx.controller)
    return
    yield


@SV.effect("tutor_follower")
def tutor_follower(ctx: EffectContext, _: NoParams) -> Procedure:
    """A card added from the deck is not revealed (SV-O-121). Kept for pools up to 1.4; from pool 1.5:
    ``add_from_deck``."""
    st = ctx.state
    options = [o for o in st.zone(board.zone(ctx.controller, DECK)) if "follower" in view(st, o).chars.types]
    pick = random_pick(ctx, options, "tutor")
    if pick is not None:
        ctx.engine.emit(board.move(ctx.engine, pick, board.zone(ctx.controller, HAND), "tutor"))
    return
    yield
