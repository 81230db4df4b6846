"""General Duel Masters steps over cards outside the battle zone and over this creature (card pool 1.4):
moving a selection of cards between zones, putting creatures into the battle zone, looking at the top of the
deck, "if it is …" after a move, battling, and 「…の後、このクリーチャーを破壊する」.

They replace the one-card verbs of earlier pools (``bounce_opponent_mana``, ``put_creature_from_hand``,
``put_creatures_total_cost``, ``return_self_to_battle``, ``look_top_take_spell``, ``mill_top_if``,
``effect_battle``, ``destroy_self_after_attack``), which stay registered for the logs of pools up to 1.3.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import view
from statemachine.amounts import Expr, evaluate
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.board import (
    BATTLE,
    BOUNCE,
    DECK,
    END_OF_TURN,
    GRAVEYARD,
    GRAVEYARD_AFTER_BATTLE,
    HAND,
    MANA,
    PUT,
    TO_GRAVEYARD,
    WATCH,
    WATCHABLE,
    zone,
)
from statemachine.games.duel_masters.effects import DM, NonNegative, choose
from statemachine.games.duel_masters.pieces import COUNTED_VERBS, ActParams, acted_on
from statemachine.loader import CardFileError
from statemachine.vocabulary import NoParams, Procedure

# ZoneChanged.cause of a card an effect moves to each zone (バウンス, 墓地送り, マナ送り)
_CAUSE = {HAND: BOUNCE, GRAVEYARD: TO_GRAVEYARD, MANA: "to_mana"}


class Cards(Struct, frozen=True, forbid_unknown_fields=True):
    """Which cards of a zone other than the battle zone an effect may choose."""

    zone: Literal["mana", "hand", "graveyard"] = "mana"
    whose: Literal["opponent", "you"] = "opponent"  # whose zone, relative to the controller
    types: tuple[str, ...] = ()  # a card with at least one of these types (empty: any card)


class MoveParams(Struct, frozen=True, forbid_unknown_fields=True):
    which: Cards = field(default_factory=Cards)
    to: Literal["hand", "graveyard", "mana"] = "hand"  # the owner's zone the chosen cards go to
    count: NonNegative | Expr = 1  # up to this many, computed when the step is carried out
    may: bool = False  # 「…まで」/「…してもよい」: the controller may choose fewer, or none


@DM.effect("move_cards", MoveParams)
def move_cards(ctx: EffectContext, p: MoveParams) -> Procedure:
    """Choose up to ``count`` cards of a zone (``which``) and put them into their owner's ``to`` zone at the same
    time: 《ハイドロ・ハリケーン》 (opponent's mana zone to the hand), 《超竜バジュラ》 (to the graveyard)."""
    n = evaluate(ctx, p.count, "count")
    ctx.bound["chosen"] = []
    st = ctx.state
    owner = ctx.opponent if p.which.whose == "opponent" else ctx.controller
    options = [o for o in st.zone(zone(owner, p.which.zone))
               if not p.which.types or set(p.which.types) & set(view(st, o).chars.types)]
    if n > 0:
        yield from choose(ctx, ctx.controller, options, f"choose up to {n} card(s) of the {p.which.zone} zone to "
                          f"put into the {p.to}", may_=p.may, count=n)
    board.to_owner(ctx.engine, ctx.bound["chosen"], p.to, _CAUSE[p.to])


class PutParams(Struct, frozen=True, forbid_unknown_fields=True):
    # "chosen": creatures of your ``source`` zone you choose; "self": this card, from wherever it is now
    what: Literal["chosen", "self"] = "chosen"
    source: Literal["hand", "graveyard", "mana"] = "hand"
    evolution: bool = False  # evolution creatures may be chosen too
    max_cost: NonNegative | None = None  # each of cost at most this
    # any number of them whose costs add up to at most this; they are held and put one at a time (DM-W-36, 37)
    max_total_cost: NonNegative | None = None
    may: bool = False  # 「出してもよい」: the controller may choose none


def _fits(ctx: EffectContext, oid: int, p: PutParams) -> bool:
    chars = view(ctx.state, oid).chars
    return "creature" in chars.types and (p.evolution or "evolution" not in chars.types) and (
        p.max_cost is None or (chars.cost or 0) <= p.max_cost)


@DM.effect("put_into_battle", PutParams)
def put_into_battle(ctx: EffectContext, p: PutParams) -> Procedure:
    """Put creatures into the battle zone without paying their cost: one you choose from your ``source`` zone
    (《太陽の精霊龍 ルルフェンズ》), any number up to a total cost (《ヘブンズ・フォース》), or this card itself from
    where it is now (《ジャババ・ハット》)."""
    from statemachine.games.duel_masters.actions import enter_battle, process_held

    if p.what == "self":
        me = ctx.source_now()
        if me is not None:
            enter_battle(ctx.engine, me, ctx.controller, PUT)
        return
    options = [o for o in ctx.state.zone(zone(ctx.controller, p.source)) if _fits(ctx, o, p)]
    if p.max_total_cost is not None:
        weights = tuple(view(ctx.state, o).chars.cost or 0 for o in options)
        req = ctx.request(ctx.controller, "targets", "choose creatures to put into the battle zone", tuple(options),
                          minimum=0, maximum=len(options), rule="DM-W-36")
        answer = yield msgspec.structs.replace(req, weights=weights, max_total=p.max_total_cost)
        yield from process_held(ctx.engine, ctx.controller, [int(a) for a in answer], PUT)
        return
    yield from choose(ctx, ctx.controller, options, "choose a creature to put into the battle zone", may_=p.may)
    for oid in ctx.bound["chosen"]:
        enter_battle(ctx.engine, oid, ctx.controller, PUT)


class LookParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 5  # how many cards from the top
    types: tuple[str, ...] = ("spell",)  # what may be taken: a card with at least one of these types
    may: bool = True  # 「…手札に加えてもよい」


@DM.effect("look_top", LookParams)
def look_top(ctx: EffectContext, p: LookParams) -> Procedure:
    """Look at the top N cards of your deck; reveal one of the given types among them and put it into your hand;
    the rest go to the bottom of your deck in the order they were (the order is the controller's choice in
    print, taken here as "as they were"): 《龍聖霊ウィズダムフェウス》."""
    st = ctx.state
    top = list(st.zone(zone(ctx.controller, DECK)))[: p.count]
    if top:  # the controller looks: the log records who saw which cards
        ctx.engine.emit(*[ev.Revealed(o, (ctx.controller,), st.objects[o].card, st.facts(o).definition)
                          for o in top])
    options = [o for o in top if set(p.types) & set(view(st, o).chars.types)]
    yield from choose(ctx, ctx.controller, options, f"reveal a card ({', '.join(p.types)}) and put it into your "
                      "hand", may_=p.may)
    taken = ctx.bound["chosen"]
    for oid in taken:
        ctx.engine.emit(ev.Revealed(oid, tuple(range(len(st.players))), st.objects[oid].card,
                                    st.facts(oid).definition))
        ctx.engine.emit(board.move(ctx.engine, oid, zone(ctx.controller, HAND), "take"))
    rest = [o for o in top if o not in taken]
    if rest:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.controller, DECK)) for o in rest], "to_bottom"))


class IfMovedParams(Struct, frozen=True, forbid_unknown_fields=True):
    types: tuple[str, ...] = ()  # it has every one of these types
    colors: tuple[str, ...] = ()  # it has at least one of these civilizations


@DM.effect("if_moved", IfMovedParams, asks=False)
def if_moved(ctx: EffectContext, p: IfMovedParams) -> Procedure:
    """「それが…なら」: unless the card the step before moved (``mill``) is of the given types and civilizations,
    as it is where it went, the rest of the ability is not done; nothing moved, nothing more is done
    (《地獄の悪魔龍 デスゲイト》)."""
    moved = [o for o in ctx.bound.get("moved", []) if o in ctx.state.objects]
    chars = [view(ctx.state, o).chars for o in moved]

    def fits(c: ev.Characteristics) -> bool:
        return set(p.types) <= set(c.types) and (not p.colors or bool(set(p.colors) & set(c.colors)))

    if not chars or not all(fits(c) for c in chars):
        ctx.stopped = True
    return
    yield


@DM.effect("battle", ActParams)
def battle(ctx: EffectContext, p: ActParams) -> Procedure:
    """効果バトル: this creature battles the selected creature (《爆炎シューター マッカラン》). The source does the
    battling (DM-W-07); if it is no longer in the battle zone the effect does nothing (SPEC Part 4 #7)."""
    me = ctx.source_now()
    if me is None:
        return
    yield from acted_on(ctx, p, "battle")
    from statemachine.games.duel_masters.combat import battle as fight
    from statemachine.games.duel_masters.triggers import fire_on

    for target in ctx.bound["chosen"]:
        if ctx.engine.profile.rules.effect_battle_fires and target in ctx.state.objects:
            # DM-GAME-BATTLE (rules 1.5): 「バトルする時」 of both creatures resolve before this battle, within this
            # resolution; the abilities waiting before it stay waiting
            pool = ctx.engine.policy
            before = {w.effect for w in pool.waiting(ctx.engine)}  # type: ignore[attr-defined]
            if fire_on(ctx.engine, "battles", me, target):
                new = {w.effect for w in pool.waiting(ctx.engine)} - before  # type: ignore[attr-defined]
                yield from pool.settle(ctx.engine, new)  # type: ignore[attr-defined]
            now = ctx.source_now()
            if now is None or target not in ctx.state.objects:
                continue  # one of them left the battle zone meanwhile: no battle
            me = now
        fight(ctx.engine, me, target)


class AfterParams(Struct, frozen=True, forbid_unknown_fields=True):
    after: Literal["attack", "battle"]  # 「攻撃の後」 or 「バトルの後」


class SubjectAfterParams(Struct, frozen=True, forbid_unknown_fields=True):
    # this creature, or the creature the trigger is about (「そのクリーチャー」)
    what: Literal["self", "subject"] = "self"


@DM.effect("put_into_graveyard_after_battle", SubjectAfterParams, asks=False)
def put_into_graveyard_after_battle(ctx: EffectContext, p: SubjectAfterParams) -> Procedure:
    """「バトルに勝っても持ち主の墓地に置かれる」: marks the creature; after its next battle, if it is still in the
    battle zone (it won, or nothing destroyed it), it is put into its owner's graveyard — not destroyed
    (``combat.battle``; 《ブラック・スレイヤー》). A mark whose battle never comes ends with the attack."""
    one = ctx.source_now() if p.what == "self" else ctx.subject
    obj = ctx.state.objects.get(one) if one is not None else None
    if obj is not None and board.kind_of(obj.zone) == BATTLE:
        ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, "set_flag", obj.id,
                                                   value=GRAVEYARD_AFTER_BATTLE, until="end_of_battle"))
    return
    yield


class WatchParams(ActParams, frozen=True, forbid_unknown_fields=True):
    """The creatures watched (as ``tap``: ``which``, ``what``, ``count``, ``may``) and the ability that watches them."""

    ability: str = ""  # the id of this card's ability whose trigger (``blocks`` or ``battles``) they fire this turn

    def ability_refs(self) -> list[tuple[str, str]]:
        return [(".ability", self.ability)]


@DM.effect("watch_this_turn", WatchParams)
def watch_this_turn(ctx: EffectContext, p: WatchParams) -> Procedure:
    """「このターン、<those creatures>が…した時、…」: this card's ``ability`` triggers this turn whenever one of the
    selected creatures, as they are now, does what its trigger says (``blocks``: 「ブロックした時」, ``battles``);
    its controller is this effect's controller, its subject the creature (DM-GAME-WATCH; 《ブラック・スレイヤー》:
    「このターン、自分のクリーチャーをブロックした相手クリーチャーはすべて…」 — creatures put into the battle zone
    later are not watched, dmwiki 《ブラック・スレイヤー》). A watched creature that leaves is no longer watched."""
    yield from acted_on(ctx, p, "watch this turn")
    chosen = [o for o in ctx.bound["chosen"] if o in ctx.state.objects]
    eid = ctx.state.next_effect
    if chosen:
        ctx.engine.emit(*[ev.ContinuousEffectStarted(eid + k, ctx.source, WATCH, o, amount=ctx.controller,
                                                     value=p.ability, until=END_OF_TURN)
                          for k, o in enumerate(chosen)])


def check_watch(pool: CardPool) -> CardPool:
    """A ``watch_this_turn`` names an ability of its own card whose trigger is one the game fires itself for a
    creature (``blocks``, ``battles``): refused at load otherwise, naming card, ability and path."""
    for card in pool.cards.values():
        watching = {a.id for a in card.abilities if a.trigger is not None and a.trigger.on in WATCHABLE}
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if step.name == "watch_this_turn" and step.params.get("ability") not in watching:
                    raise CardFileError("duel_masters", f"watch_this_turn names {step.params.get('ability')!r}, not "
                                        f"an ability of this card triggered on {' or '.join(WATCHABLE)}", card.id,
                                        f"$.abilities[{n}].effects[{k}].params.ability", ability.id)
    return pool


@DM.effect("destroy_after", AfterParams, asks=False)
def destroy_after(ctx: EffectContext, p: AfterParams) -> Procedure:
    """「攻撃の後、このクリーチャーを破壊する」 (《ジャババ・ハット》) / 「バトルの後、…」 (《ブラッディ・イヤリング》):
    marks this creature; the attack (``combat.after_attack``) or its next battle (``combat.battle``) destroys it when it
    ends. A mark for a battle that never happens ends with the attack."""
    me = ctx.source_now()
    if me is not None:
        ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, me, "set_flag", me,
                                                   value=f"destroy_after_{p.after}", until=f"end_of_{p.after}"))
    return
    yield


@DM.effect("otherwise", asks=False)
def otherwise(ctx: EffectContext, _: NoParams) -> Procedure:
    """「そうしなければ」: the rest of the ability is done only if the step before (a verb over creatures) did not do
    all it says — it acted on fewer creatures than it names, because there were fewer or because a "may" was declined
    (《ギガベロス》: 「自分の他のクリーチャー2体を自分の墓地に置く。そうしなければ、このクリーチャーを自分の墓地に
    置く」). What can be done is done first (with one other creature, that one goes, then this one)."""
    if not ctx.bound.get("short", True):
        ctx.stopped = True
    return
    yield


def check_otherwise(pool: CardPool) -> CardPool:
    """「そうしなければ」 reads the step before it: an ``otherwise`` that does not follow a verb over a selection of
    creatures (``pieces.COUNTED_VERBS``) could never be decided, and is refused at load naming card, ability and
    step."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if step.name == "otherwise" and (k == 0 or ability.effects[k - 1].name not in COUNTED_VERBS):
                    raise CardFileError("duel_masters", "otherwise (「そうしなければ」) must follow a verb over "
                                        f"creatures ({', '.join(sorted(COUNTED_VERBS))})", card.id,
                                        f"$.abilities[{n}].effects[{k}].name", ability.id)
    return pool
