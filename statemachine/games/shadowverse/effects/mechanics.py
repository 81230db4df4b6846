"""Game mechanics the common vocabulary does not cover, each named for what it does: evolving (SV-O-98/100) and EP,
boarding a vehicle (SV-O-36..44), granting abilities (SV-O-14/31/33/80), countdowns (SV-O-58), Reanimate, direct
summons (SV-O-59), lowering maximum PP and Overflow (SV-O-113), and cards added to the hand (SV-O-120..122).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from eventsource import events as ev
from projections.characteristics import view
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.actions import board_onto, evolve_group
from statemachine.games.shadowverse.board import CEMETERY, DECK, FIELD, HAND, leader
from statemachine.games.shadowverse.effects.basic import AmountParams, ToParams, cards
from statemachine.games.shadowverse.effects.targets import SV, random_pick
from statemachine.games.shadowverse.queue import STOP
from statemachine.vocabulary import NoParams, Procedure, Selector


@SV.effect("evolve", ToParams)
def evolve(ctx: EffectContext, p: ToParams) -> Procedure:
    """Evolve the unevolved followers a selector names (「進化する」), at once: one simultaneous group (SV-O-100)."""
    st = ctx.state
    evolve_group(ctx.engine, [o for o in cards(ctx, p.to) if o in board.followers(st, st.objects[o].controller)
                              and not st.objects[o].status.get("evolved")])
    return
    yield


@SV.effect("spend_ep", AmountParams)
def spend_ep(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Spend EP for an effect: this is not evolving (SV-O-98). With too few EP nothing is spent, and (from
    rules 1.1, switch ``unpaid_ep_stops``) the effect does nothing more: what the EP pays for does not happen."""
    st = ctx.state
    me = ctx.controller
    if st.stat(me, "ep") >= p.amount:
        ctx.engine.emit(ev.PlayerStat(me, "ep", st.stat(me, "ep") - p.amount))
        ctx.bound["spent"] = True
    elif ctx.engine.profile.rules.unpaid_ep_stops:
        ctx.bound[STOP] = True
    return
    yield


@SV.effect("board_vehicle")
def board_vehicle(ctx: EffectContext, _: NoParams) -> Procedure:
    """乗り込み (SV-O-36, SV-O-44): the pilot (the subject) boards an empty allied vehicle, if at resolution
    both are still there; boarding is not leaving (SV-O-37) but strips damage reductions (SV-O-38)."""
    st = ctx.state
    pilot = ctx.subject
    if pilot is None or not board.on_field(st, pilot):
        if ctx.effect is not None:
            ctx.engine.emit(ev.EffectFizzled(ctx.effect, "the pilot left the field before boarding (SV-O-42)"))
        return
    vehicle = ctx.source_now()
    if vehicle is not None and board.on_field(st, vehicle) and not st.objects[vehicle].under:
        board_onto(ctx.engine, pilot, vehicle)
    elif ctx.effect is not None:
        ctx.engine.emit(ev.EffectFizzled(ctx.effect, "no empty vehicle to board (SV-O-44)"))
    return
    yield


class GrantParams(Struct, frozen=True, forbid_unknown_fields=True):
    ability: str
    while_on_field: bool = False  # "lost when this card leaves the field" (SV-O-80)


@SV.effect("grant_leader", GrantParams)
def grant_leader(ctx: EffectContext, p: GrantParams) -> Procedure:
    """Your leader gains one of this card's abilities (密約の吸血鬼); the leader holds it (SV-O-33).

    With ``while_on_field`` it is lost when this card leaves the field, whatever became of the card's own
    abilities meanwhile: the leader, in effect, checks whether the card is there (SV-O-80, ``board.WHILE_ON``).
    """
    st = ctx.state
    definition = st.cards[ctx.source_card].definition
    eid = st.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "leader_ability", leader(ctx.controller),
                                               amount=ctx.source_card, value=f"{definition}/{p.ability}",
                                               until=board.WHILE_ON if p.while_on_field else ""))
    return
    yield


@SV.effect("grant_fanfare", GrantParams)
def grant_fanfare(ctx: EffectContext, p: GrantParams) -> Procedure:
    """Give one of this card's Fanfares to a follower in your hand (ディメンションドミネーター, SV-O-31)."""
    st = ctx.state
    options = [o for o in board.hand(st, ctx.controller) if "follower" in view(st, o).chars.types]
    if not options:
        return
    pick = options[0]
    if len(options) > 1:
        answer = yield ctx.request(ctx.controller, "target", "choose a follower in your hand", tuple(options))
        pick = int(answer[0])
    definition = st.cards[ctx.source_card].definition
    eid = st.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "grant_ability", pick, amount=ctx.source_card,
                                               value=f"{definition}/{p.ability}"))


class CountdownParams(Struct, frozen=True, forbid_unknown_fields=True):
    by: Annotated[int, Meta(ge=1)] = 1
    to: Selector = "self"


@SV.effect("countdown", CountdownParams)
def countdown(ctx: EffectContext, p: CountdownParams) -> Procedure:
    """カウントダウン: N less (1 at the start of its controller's turn; 「カウントダウンを2進める」 of another amulet, a
    selector, from pool 1.7); at 0 the amulet is destroyed at once and its Last Words triggers now, when the
    reduction resolves (SV-O-58). An amulet with no countdown is left as it is."""
    st = ctx.state
    if p.to == "self":
        me = ctx.source_now()
        targets = [me] if me is not None and board.on_field(st, me) else []
    else:
        targets = [o for o in cards(ctx, p.to) if board.on_field(st, o) and "countdown" in st.objects[o].status]
    for amulet in targets:  # SV-O-25: one at a time
        left = st.objects[amulet].status.get("countdown", 0) - p.by
        ctx.engine.emit(ev.StatusSet(amulet, "countdown", max(left, 0)))
        if left <= 0:
            board.destroy(ctx.engine, amulet)
    return
    yield


class ReanimateParams(Struct, frozen=True, forbid_unknown_fields=True):
    cost: int


@SV.effect("reanimate", ReanimateParams)
def reanimate(ctx: EffectContext, p: ReanimateParams) -> Procedure:
    """リアニメイト X: summon a copy of the highest-cost follower of cost X or less in your cemetery. The
    maximum is read at resolution (SV-O-07), a tie is broken at random (SV-O-06); the cemetery keeps its
    cards (the copy comes into play: it is summoned, not played)."""
    st = ctx.state
    grave = [o for o in st.zone(board.zone(ctx.controller, CEMETERY))
             if "follower" in view(st, o).chars.types and (view(st, o).chars.cost or 0) <= p.cost]
    if not grave:
        return
    top = max(view(st, o).chars.cost or 0 for o in grave)
    tied = [o for o in grave if (view(st, o).chars.cost or 0) == top]
    pick = tied[0] if len(tied) == 1 else random_pick(ctx, tied, "reanimate")
    if pick is not None:
        board.create(ctx.engine, st.facts(pick).definition, ctx.controller, FIELD)
    return
    yield


@SV.effect("summon_self")
def summon_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """A direct summon (直接召喚): this card goes from where it is (the deck) onto the field; it comes into
    play. Several at once happen in random order (SV-O-59, ``queue``)."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or board.kind_of(st.objects[me].zone) != DECK:
        return
    p = st.objects[me].owner
    if len(board.field(st, p)) >= board.FIELD_LIMIT:
        return
    board.come_into_play(ctx.engine, me, p)
    return
    yield


@SV.effect("max_pp_down", AmountParams)
def max_pp_down(ctx: EffectContext, p: AmountParams) -> Procedure:
    st = ctx.state
    me = ctx.controller
    top = max(0, st.stat(me, "max_pp") - p.amount)
    ctx.engine.emit(ev.PlayerStat(me, "max_pp", top), ev.PlayerStat(me, "pp", min(st.stat(me, "pp"), top)))
    overflow_check(ctx.engine, me)
    return
    yield


def overflow_check(engine: Engine, player: int) -> None:
    """SV-O-113: below 7 maximum PP, the Overflow bonuses end."""
    st = engine.state
    if board.overflow(st, player):
        return
    ending = [m.effect for m in st.modifiers.values() if m.until == "overflow"
              and m.target in st.objects and st.objects[m.target].controller == player]
    if ending:
        engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])


class CardsParams(Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[str]


@SV.effect("add_random_token", CardsParams)
def add_random_token(ctx: EffectContext, p: CardsParams) -> Procedure:
    """A token from a random range is added revealed (SV-O-122)."""
    st = ctx.state
    value = ctx.engine.random_below(len(p.cards), "token")
    oid = board.create(ctx.engine, p.cards[value], ctx.controller, HAND)
    ctx.engine.emit(ev.Revealed(oid, (ctx.opponent,), st.objects[oid].card, p.cards[value]))
    return
    yield


@SV.effect("choose_card", CardsParams)
def choose_card(ctx: EffectContext, p: CardsParams) -> Procedure:
    """チョイス: the chosen card is added without being revealed (SV-O-120)."""
    answer = yield ctx.request(ctx.controller, "choice", "choose a card", tuple(p.cards), rule="SV-O-120")
    board.create(ctx.engine, str(answer[0]), ctx.controller, HAND)
