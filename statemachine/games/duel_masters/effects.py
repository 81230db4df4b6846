"""The Duel Masters vocabulary: the effect steps and conditions the card files are written in.

Each step is a generator over an ``EffectContext``: it emits events through the engine and yields a request
whenever the text gives a player a choice ("you may", "choose one of ...").
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from eventsource import events as ev
from projections.characteristics import ObjectView, last_known, view
from projections.state import UNDER, GameState
from statemachine.amounts import Amount
from statemachine.context import EffectContext
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.board import BATTLE, DECK, GRAVEYARD, HAND, HOLD, MANA, PUT, zone
from statemachine.vocabulary import KEYWORD, ZONE, NoParams, Procedure, Vocabulary

# A count or amount card data may not make negative: refused when the pool loads, naming card and field.
NonNegative = Annotated[int, Meta(ge=0)]

DM = Vocabulary("duel_masters")
DM.declare(KEYWORD, {
    "blocker": "ブロッカー: may block an attack when untapped (combat)",
    "speed_attacker": "スピードアタッカー: may attack the turn it enters",
    "w_breaker": "W・ブレイカー: breaks two shields",
    "t_breaker": "T・ブレイカー: breaks three shields",
    "s_trigger": "S・トリガー: may be used for free when it is broken from the shields",
    "neo_evolution": "NEO進化: may be summoned as an evolution or on its own",
    "slayer": "スレイヤー: when it battles, after the battle the creature it battled is destroyed (DM-GAME-SLAYER)",
    "power_attacker_<number>": "パワーアタッカー+N: while it attacks, its power is N higher (DM-GAME-POWER-ATTACKER)",
    "unblockable": "このクリーチャーはブロックされない: it cannot be blocked (DM-GAME-BLOCK)",
    "unblockable_by_power_at_most_<number>": "このクリーチャーは、パワーN以下のクリーチャーにブロックされない: no "
                                             "creature of power N or less may block it (DM-GAME-BLOCK, pool 1.6)",
    "cant_attack_players": "相手プレイヤーを攻撃できない: it may attack creatures only (DM-GAME-ATTACK)",
    "cant_attack": "このクリーチャーは攻撃できない: it cannot attack (DM-GAME-ATTACK, pool 1.4)",
    "attacks_if_able": "可能であれば毎ターン攻撃する: the attack step cannot end while it could attack "
                       "(DM-GAME-ATTACK)",
    "attacks_untapped": "このクリーチャーは、タップされていないクリーチャーを攻撃できる: it may attack untapped "
                        "creatures too (DM-GAME-ATTACK, pool 1.5)",
    "charger": "チャージャー: a spell put into its caster's mana zone instead of the graveyard after it is cast "
               "(DM-GAME-CHARGER)",
})
DM.declare(ZONE, {
    "battle": "the battle zone", "hand": "the hand", "mana": "the mana zone", "shields": "the shield zone",
    "graveyard": "the graveyard", "deck": "the deck", "hold": "set aside while an effect puts cards one by one",
})
DM.filter_key("by", Literal["any", "you", "opponent"], "trigger 'chosen': who must have chosen the subject")
DM.filter_key("under", Literal["self"], "trigger 'leaves_from_under': the card lay under the holder")
DM.filter_key("evolved", bool, "the subject is (true) or is not (false) an evolution creature with cards under it",
              test=lambda subject, want: bool(subject.under_cards) == bool(want))
DM.home_zone = "battle"  # a trigger that does not say where it works from works from the battle zone
DM.trigger_field("timing", Literal["shita", "suru"], "shita",
                 "\"shita\" (〜した時: after the event) or \"suru\" (〜する時: declared at the moment); "
                 "read by no rule yet")
DM.card_field("evolves_from", tuple[str, ...], (),
              "進化—自分の<race>1体の上に置く: the races (subtypes) an evolution creature may be put on (rules 1.2, "
              "DM-GAME-EVOLVE); empty: a creature sharing a civilization", later=True)
DM.card_field(board.POWER_WHILE_ATTACKING, Amount | None, None,
              "攻撃中、このクリーチャーのパワーは+N: N more power while it attacks, an amount computed as it battles "
              "(rules 1.3, DM-GAME-POWER-ATTACKER; ボルシャック・ドラゴン)", later=True)
DM.card_field("evolves_from_word", tuple[str, ...], (),
              "進化—自分の<word>1体の上に置く with <word> a part of race names (「ドラゴン」): an evolution creature "
              "goes on a creature with a race holding one of these words as a whole word (Armored Dragon, not "
              "Dragonoid) "
              "(rules 1.2, DM-GAME-EVOLVE; pool 1.5)", later=True)
DM.card_field(board.DESTROYED_TO, Literal["hand", "mana"] | None, None,
              "このクリーチャーが破壊される時、墓地に置くかわりに<zone>に置く (破壊置換, DM-GAME-REPLACE; pool 1.5): "
              "it is still destroyed, but goes to its owner's hand or mana zone", later=True)
DM.digest_also(card={"mana": None}, trigger={})  # the kernel's card format of pools 1.0-1.1


def may(ctx: EffectContext, prompt: str) -> Procedure:
    """Ask the controller a "you may" question; the answer is left in ``ctx.bound['yes']``."""
    ctx.bound["yes"] = yield from ctx.agrees(ctx.controller, prompt)


# -- conditions -------------------------------------------------------------------------------------------


Civilization = Literal["light", "water", "darkness", "fire", "nature"]


class ManaColorParams(Struct, frozen=True, forbid_unknown_fields=True):
    color: Civilization
    count: NonNegative


@DM.condition("mana_color_at_least", ManaColorParams)
def mana_color_at_least(ctx: EffectContext, p: ManaColorParams) -> bool:
    """マナ武装 (Mana Arms): N or more cards of a civilization in your mana zone — checked at resolution."""
    st = ctx.state
    n = sum(1 for o in st.zone(zone(ctx.controller, MANA)) if p.color in view(st, o).chars.colors)
    return n >= p.count


@DM.condition("was_evolved_before_moving")
def was_evolved_before_moving(ctx: EffectContext, _: NoParams) -> bool:
    """DM-LB-19: judged on the card as it was just before it was put where it is now (ジャババ・ハット)."""
    before = previous_state(ctx.state, ctx.source)
    return before is not None and bool(before.under_cards)


def previous_state(state: GameState, oid: int) -> ObjectView | None:
    """The look-back view of the object that became ``oid`` when it last moved (DM-LB-03)."""
    for old, lk in state.last_known.items():
        if lk.moved_to == oid:
            return last_known(state, old)
    return None


# -- drawing and mana -------------------------------------------------------------------------------------


class CountParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 1
    may: bool = False


def declined(ctx: EffectContext, p: CountParams, prompt: str) -> Procedure:
    """Ask a "you may" step's question when it has ``may`` and the rules honour it there: ``ctx.bound['yes']``
    is False when the controller declines. Rules 1.1 carried out ``mana_boost`` and ``discard_blind`` whatever
    their ``may`` said; from 1.2 (switch ``may_honoured``) they ask, as ``draw`` always did."""
    ctx.bound["yes"] = True
    if p.may and ctx.engine.profile.rules.may_honoured:
        yield from may(ctx, prompt)


@DM.effect("draw", CountParams)
def draw(ctx: EffectContext, p: CountParams) -> Procedure:
    """Draw N cards (asking first when ``may``)."""
    if p.may:
        yield from may(ctx, f"draw {p.count} card(s)?")
        if not ctx.bound["yes"]:
            return
    board.draw(ctx.engine, ctx.controller, p.count)


@DM.effect("mana_boost", CountParams)
def mana_boost(ctx: EffectContext, p: CountParams) -> Procedure:
    """Put the top card(s) of your deck into your mana zone (asking first when ``may``, rules 1.2)."""
    yield from declined(ctx, p, f"put the top {p.count} card(s) of your deck into your mana zone?")
    if not ctx.bound["yes"]:
        return
    for _ in range(p.count):
        deck = ctx.state.zone(zone(ctx.controller, DECK))
        if deck:
            ctx.engine.emit(board.move(ctx.engine, deck[0], zone(ctx.controller, MANA), "boost"))


# -- choosing creatures -----------------------------------------------------------------------------------


class ChooseParams(Struct, frozen=True, forbid_unknown_fields=True):
    may: bool = False
    count: NonNegative = 1
    untapped: bool = False


def choose(ctx: EffectContext, player: int, options: list[int], prompt: str, *, may_: bool, count: int = 1,
           rule: str = "") -> Procedure:
    """Have ``player`` choose up to ``count`` of ``options`` (at least one unless ``may_``); records Chosen."""
    ctx.bound["chosen"] = []
    if not options:
        return
    n = min(count, len(options))
    answer = yield ctx.request(player, "target", prompt, tuple(options), minimum=0 if may_ else n, maximum=n,
                               rule=rule)
    chosen = [int(a) for a in answer]
    if chosen:
        ctx.engine.emit(ev.Chosen(player, tuple(chosen), ctx.effect))
    ctx.bound["chosen"] = chosen


@DM.effect("tap_opponent_creature", ChooseParams)
def tap_opponent_creature(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """敵獣タップ: choose one of your opponent's creatures and tap it. Kept for pools 1.0-1.1 (雷光の使徒ミール);
    from pool 1.2 cards write ``tap`` (pieces.py)."""
    options = [o for o in board.creatures(ctx.state, ctx.opponent) if not board.is_tapped(ctx.state, o)]
    yield from choose(ctx, ctx.controller, options, "choose an opposing creature to tap", may_=p.may)
    board.set_tapped(ctx.engine, [o for o in ctx.bound["chosen"] if o in ctx.state.objects], True)


@DM.effect("bounce_own_creature", ChooseParams)
def bounce_own_creature(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """バウンス: return one of your creatures (this one included) to your hand. Kept for pools 1.0-1.1 (アクア忍者
    ライヤ); from pool 1.2 cards write ``return_to_hand`` (pieces.py)."""
    yield from choose(ctx, ctx.controller, board.creatures(ctx.state, ctx.controller),
                      "choose one of your creatures to return to your hand", may_=p.may)
    board.to_owner(ctx.engine, ctx.bound["chosen"], HAND, board.BOUNCE)


@DM.effect("destroy_opponent_creature", ChooseParams)
def destroy_opponent_creature(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """Destroy one of your opponent's (untapped) creatures. Choosing it is an event (「選んだ時」)."""
    options = [o for o in board.creatures(ctx.state, ctx.opponent)
               if not (p.untapped and board.is_tapped(ctx.state, o))]
    yield from choose(ctx, ctx.controller, options, "choose an opposing creature to destroy", may_=p.may,
                      count=p.count)
    board.destroy(ctx.engine, ctx.bound["chosen"])


@DM.effect("tap_all_opponent_creatures")
def tap_all_opponent_creatures(ctx: EffectContext, _: NoParams) -> Procedure:
    """Tap all your opponent's creatures."""
    board.set_tapped(ctx.engine, board.creatures(ctx.state, ctx.opponent), True)
    return
    yield


@DM.effect("destroy_subject")
def destroy_subject(ctx: EffectContext, _: NoParams) -> Procedure:
    """Destroy "that creature" — the subject of the trigger, if it is still in the battle zone. Kept for pools
    1.0-1.1 (早撃人形マグナム); from pool 1.2 cards write ``destroy`` with ``what = "subject"`` (pieces.py)."""
    subject = ctx.subject
    obj = ctx.state.objects.get(subject) if subject is not None else None
    if obj is not None and board.kind_of(obj.zone) == BATTLE:
        board.destroy(ctx.engine, [obj.id])
    return
    yield


class PowerRefParams(Struct, frozen=True, forbid_unknown_fields=True):
    ref: Literal["subject", "self"] = "subject"  # the trigger's subject, or the source


@DM.effect("destroy_opponent_power_at_most", PowerRefParams)
def destroy_opponent_power_at_most(ctx: EffectContext, p: PowerRefParams) -> Procedure:
    """Destroy each opposing creature whose power is at most the referred creature's power.

    The referred creature is read now, or as it was just before it left the battle zone (DM-LB-13..15).
    """
    ref = ctx.subject if p.ref == "subject" else ctx.source
    seen = ctx.view(ref) if ref is not None else None
    if seen is None:
        return
    limit = seen.power
    ctx.bound["reference_power"] = limit
    board.destroy(ctx.engine, [o for o in board.creatures(ctx.state, ctx.opponent)
                               if view(ctx.state, o).power <= limit])
    return
    yield


# -- battles ----------------------------------------------------------------------------------------------


@DM.effect("effect_battle", ChooseParams)
def effect_battle(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """効果バトル: this creature battles one of your opponent's creatures.

    The source does the battling (DM-W-07); if it is no longer in the battle zone there is nothing to battle
    with and the effect does nothing (SPEC Part 4 #7, decided in the game's README).
    """
    me = ctx.source_now()
    if me is None:
        return
    yield from choose(ctx, ctx.controller, board.creatures(ctx.state, ctx.opponent),
                      "choose an opposing creature to battle", may_=p.may)
    for target in ctx.bound["chosen"]:
        from statemachine.games.duel_masters.combat import battle

        battle(ctx.engine, me, target)


# -- discarding -------------------------------------------------------------------------------------------


@DM.effect("discard_blind", CountParams)
def discard_blind(ctx: EffectContext, p: CountParams) -> Procedure:
    """ハンデス: choose cards from your opponent's hand without looking; they are discarded.

    Choosing without looking is a choice of positions in the hand, not of cards. With ``may`` the controller
    is asked first (rules 1.2).
    """
    yield from declined(ctx, p, f"choose {p.count} card(s) of your opponent's hand to discard?")
    if not ctx.bound["yes"]:
        return
    for _ in range(p.count):
        hand = ctx.state.zone(zone(ctx.opponent, HAND))
        if not hand:
            return
        answer = yield ctx.request(ctx.controller, "blind", "choose a card of your opponent's hand without looking",
                                   tuple(range(len(hand))))
        oid = ctx.state.zone(zone(ctx.opponent, HAND))[int(answer[0])]
        ctx.engine.emit(board.move(ctx.engine, oid, zone(ctx.opponent, GRAVEYARD), board.DISCARD))


# -- putting creatures ------------------------------------------------------------------------------------


class PutParams(Struct, frozen=True, forbid_unknown_fields=True):
    may: bool = True
    max_cost: NonNegative | None = None
    max_total_cost: NonNegative | None = None
    evolution: bool = False


def _creature_cards(ctx: EffectContext, oids: list[int], p: PutParams) -> list[int]:
    out = []
    for o in oids:
        chars = view(ctx.state, o).chars
        if "creature" not in chars.types:
            continue
        if not p.evolution and "evolution" in chars.types:
            continue
        if p.max_cost is not None and (chars.cost or 0) > p.max_cost:
            continue
        out.append(o)
    return out


@DM.effect("put_creature_from_hand", PutParams)
def put_creature_from_hand(ctx: EffectContext, p: PutParams) -> Procedure:
    """コスト踏み倒し: put a creature from your hand into the battle zone without paying its cost."""
    options = _creature_cards(ctx, ctx.state.zone(zone(ctx.controller, HAND)), p)
    yield from choose(ctx, ctx.controller, options, "choose a creature to put into the battle zone", may_=p.may)
    for oid in ctx.bound["chosen"]:
        from statemachine.games.duel_masters.actions import enter_battle

        enter_battle(ctx.engine, oid, ctx.controller, PUT)


@DM.effect("put_creatures_total_cost", PutParams)
def put_creatures_total_cost(ctx: EffectContext, p: PutParams) -> Procedure:
    """Put any number of creatures with total cost at most N from your hand into the battle zone.

    The chosen cards are held and then put one at a time (DM-W-36, DM-W-37), so each entering is its own event.
    """
    options = _creature_cards(ctx, ctx.state.zone(zone(ctx.controller, HAND)), p)
    weights = tuple(view(ctx.state, o).chars.cost or 0 for o in options)
    req = ctx.request(ctx.controller, "targets", "choose creatures to put into the battle zone", tuple(options),
                      minimum=0, maximum=len(options), rule="DM-W-36")
    answer = yield msgspec.structs.replace(req, weights=weights, max_total=p.max_total_cost)
    chosen = [int(a) for a in answer]
    from statemachine.games.duel_masters.actions import process_held

    yield from process_held(ctx.engine, ctx.controller, chosen, PUT)


@DM.effect("put_from_deck_until", CountParams)
def put_from_deck_until(ctx: EffectContext, p: CountParams) -> Procedure:
    """サイバー・G・ホーガン-like: reveal from the top of your deck until N non-evolution creatures; hold them
    and put them into the battle zone one at a time (DM-W-35..38); the rest go to the bottom."""
    st = ctx.state
    found: list[int] = []
    rest: list[int] = []
    for oid in list(st.zone(zone(ctx.controller, DECK))):
        chars = view(st, oid).chars
        if "creature" in chars.types and "evolution" not in chars.types:
            found.append(oid)
        else:
            rest.append(oid)
        if len(found) == p.count:
            break
    if rest:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.controller, DECK)) for o in rest], "to_bottom"))
    from statemachine.games.duel_masters.actions import process_held

    yield from process_held(ctx.engine, ctx.controller, found, PUT)


# -- looking and casting ----------------------------------------------------------------------------------


class LookParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 5


@DM.effect("look_top_take_spell", LookParams)
def look_top_take_spell(ctx: EffectContext, p: LookParams) -> Procedure:
    """Look at the top N cards; you may reveal a spell among them and put it into your hand; the rest go to
    the bottom of your deck (kept in the order they were in: the order is the controller's choice in print,
    taken here as "as they were")."""
    st = ctx.state
    top = list(st.zone(zone(ctx.controller, DECK)))[: p.count]
    if top:  # the controller looks: the log records who saw which cards
        ctx.engine.emit(*[ev.Revealed(o, (ctx.controller,), st.objects[o].card, st.facts(o).definition)
                          for o in top])
    spells = [o for o in top if "spell" in view(st, o).chars.types]
    yield from choose(ctx, ctx.controller, spells, "you may reveal a spell and put it into your hand", may_=True)
    taken = ctx.bound["chosen"]
    if taken:
        ctx.engine.emit(ev.Revealed(taken[0], tuple(range(len(st.players))), st.objects[taken[0]].card,
                                    st.facts(taken[0]).definition))
        ctx.engine.emit(board.move(ctx.engine, taken[0], zone(ctx.controller, HAND), "take"))
    rest = [o for o in top if o not in taken]
    if rest:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.controller, DECK)) for o in rest], "to_bottom"))


class NamedSpellParams(Struct, frozen=True, forbid_unknown_fields=True):
    name_contains: str


@DM.effect("cast_free_spell", NamedSpellParams)
def cast_free_spell(ctx: EffectContext, p: NamedSpellParams) -> Procedure:
    """You may cast a spell with the given word in its name from your hand without paying its cost.

    The spell is cast during this resolution (DM-W-12 (b)); its abilities run at once, in printed order,
    and never wait in the pool (DM-W-32, DM-W-33)."""
    options = [o for o in ctx.state.zone(zone(ctx.controller, HAND))
               if "spell" in view(ctx.state, o).chars.types and p.name_contains in view(ctx.state, o).chars.name]
    yield from choose(ctx, ctx.controller, options, f"you may cast a 《{p.name_contains}》 spell for free", may_=True)
    from statemachine.games.duel_masters.actions import cast_spell

    for oid in ctx.bound["chosen"]:
        yield from cast_spell(ctx.engine, ctx.controller, oid)


# -- turns ------------------------------------------------------------------------------------------------


@DM.effect("extra_turn")
def extra_turn(ctx: EffectContext, _: NoParams) -> Procedure:
    """Take an extra turn after this one."""
    n = ctx.state.stat(ctx.controller, board.EXTRA_TURNS)
    ctx.engine.emit(ev.PlayerStat(ctx.controller, board.EXTRA_TURNS, n + 1))
    return
    yield


@DM.effect("skip_rest_of_turn")
def skip_rest_of_turn(ctx: EffectContext, _: NoParams) -> Procedure:
    """The rest of the turn is skipped: every pending effect vanishes at once (DM-W-20)."""
    ctx.engine.policy.vanish_all(ctx.engine, "vanished: the rest of the turn was skipped (DM-W-20)")  # type: ignore[attr-defined]
    ctx.engine.emit(ev.PlayerStat(ctx.state.active, "skip_turn", 1))
    return
    yield


# -- this card --------------------------------------------------------------------------------------------


@DM.effect("destroy_self_after_attack")
def destroy_self_after_attack(ctx: EffectContext, _: NoParams) -> Procedure:
    """「攻撃の後、このクリーチャーを破壊する」: marks the creature; the attack destroys it when it ends."""
    me = ctx.source_now()
    if me is not None:
        eid = ctx.state.next_effect
        ctx.engine.emit(ev.ContinuousEffectStarted(eid, me, "set_flag", me, value="destroy_after_attack",
                                                   until="end_of_attack"))
    return
    yield


@DM.effect("return_self_to_battle")
def return_self_to_battle(ctx: EffectContext, _: NoParams) -> Procedure:
    """Return this card (from where it is now) to the battle zone."""
    me = ctx.source_now()
    if me is not None:
        from statemachine.games.duel_masters.actions import enter_battle

        enter_battle(ctx.engine, me, ctx.controller, PUT)
    return
    yield


@DM.effect("invade")
def invade(ctx: EffectContext, _: NoParams) -> Procedure:
    """侵略: put this card from your hand onto your attacking creature; it evolves and the attack goes on."""
    me = ctx.source_now()
    attacker = ctx.subject
    st = ctx.state
    if me is None or attacker is None or attacker not in st.objects or board.kind_of(st.objects[me].zone) != HAND:
        return
    from statemachine.games.duel_masters.actions import evolve_onto, top_of

    if ctx.engine.profile.rules.evolve_onto_whole_stack:
        # DM-GAME-EVOLVE: onto the attacking creature as it is now — the top of its stack, if another invader
        # declared with this one went first — never onto a card that lies under it.
        attacker = top_of(st, attacker)
        if board.kind_of(st.objects[attacker].zone) != BATTLE:
            return
    evolve_onto(ctx.engine, me, attacker, ctx.controller, PUT)
    return
    yield


__all__ = ["DM", "HOLD", "previous_state"]


# -- icons (キズナプラス) ------------------------------------------------------------------------------------


@DM.effect("discard_under", CountParams)
def discard_under(ctx: EffectContext, p: CountParams) -> Procedure:
    """Put card(s) from under this creature into the graveyard."""
    me = ctx.source_now()
    if me is None:
        return
    under = list(ctx.state.objects[me].under)[-p.count:]
    if under:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.state.objects[o].owner, GRAVEYARD))
                                                     for o in under], "kizuna"))
    return
    yield


@DM.effect("use_icons", CountParams)
def use_icons(ctx: EffectContext, p: CountParams) -> Procedure:
    """Use N of the icon abilities captured when this triggered: chosen now (DM-W-21), from the contents
    captured then (DM-W-22), so they resolve even if the creature bearing the icon is gone (DM-W-23)."""
    if not ctx.captured:
        return
    n = min(p.count, len(ctx.captured))
    answer = yield ctx.request(ctx.controller, "icons", f"choose {n} icon abilities to use", ctx.captured,
                               minimum=n, maximum=n, rule="DM-W-21")
    for choice in answer:
        card_id, _, ability_id = str(choice).partition(":")
        ability = ctx.engine.profile.pool[card_id].ability(ability_id)
        for step in ability.effects:
            yield from ctx.engine.profile.vocabulary.run_effect(ctx, step.name, step.params)


@DM.effect("destroy_self")
def destroy_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """Destroy this creature, if it is still in the battle zone."""
    me = ctx.source_now()
    if me is not None and board.kind_of(ctx.state.objects[me].zone) == BATTLE:
        board.destroy(ctx.engine, [me])
    return
    yield


class WhoseParams(Struct, frozen=True, forbid_unknown_fields=True):
    whose: Literal["opponent", "you", "all"] = "opponent"


@DM.effect("destroy_all", WhoseParams)
def destroy_all(ctx: EffectContext, p: WhoseParams) -> Procedure:
    """Destroy all the creatures of a side at the same time (one simultaneous group)."""
    players = {"opponent": [ctx.opponent], "you": [ctx.controller], "all": [0, 1]}[p.whose]
    board.destroy(ctx.engine, [o for pl in players for o in board.creatures(ctx.state, pl)])
    return
    yield


@DM.effect("return_self_to_hand")
def return_self_to_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """Return this creature to its owner's hand, if it is still in the battle zone."""
    me = ctx.source_now()
    if me is not None and board.kind_of(ctx.state.objects[me].zone) == BATTLE:
        board.to_owner(ctx.engine, [me], HAND, board.BOUNCE)
    return
    yield


@DM.effect("evolve_from_subject", ChooseParams)
def evolve_from_subject(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """Put an evolution creature that can evolve from "that" card (the subject) from your hand onto it.

    What it can evolve from is judged on the subject as it was where the effect found it: if it has since
    become part of an evolution creature, its characteristics from before are used (DM-LB-16)."""
    subject = ctx.subject
    if subject is None:
        return
    st = ctx.state
    seen = ctx.view(subject)
    obj = st.objects.get(subject)
    if obj is not None and obj.zone == UNDER:
        seen = view(st, subject)  # the card as it was before it became part of the evolution creature
    if seen is None:
        return
    colors, races = set(seen.chars.colors), set(seen.chars.subtypes)
    by_race = ctx.engine.profile.rules.evolution_race  # DM-GAME-EVOLVE (rules 1.2): a card naming races needs one

    def fits(o: int) -> bool:
        chars = view(st, o).chars
        fields = ctx.engine.profile.pool[st.facts(o).definition].fields
        named, words = fields.get("evolves_from", ()), fields.get("evolves_from_word", ())
        if (named or words) and by_race:
            return board.race_fits(named, words, races)
        return bool(colors & set(chars.colors))

    options = [o for o in st.zone(zone(ctx.controller, HAND)) if "evolution" in view(st, o).chars.types and fits(o)]
    yield from choose(ctx, ctx.controller, options, "choose an evolution creature to put onto it", may_=p.may)
    top = subject
    while top in st.objects and st.objects[top].on is not None:
        top = st.objects[top].on  # type: ignore[assignment]
    for oid in ctx.bound["chosen"]:
        if top in st.objects and board.kind_of(st.objects[top].zone) == BATTLE:
            from statemachine.games.duel_masters.actions import evolve_onto

            evolve_onto(ctx.engine, oid, top, ctx.controller, PUT)


class TypesParams(Struct, frozen=True, forbid_unknown_fields=True):
    types: list[str]
    may: bool = False


@DM.effect("put_card_from_hand", TypesParams)
def put_card_from_hand(ctx: EffectContext, p: TypesParams) -> Procedure:
    """Put a card of the given types from your hand into the battle zone."""
    options = [o for o in ctx.state.zone(zone(ctx.controller, HAND))
               if set(p.types) & set(view(ctx.state, o).chars.types)]
    yield from choose(ctx, ctx.controller, options, "choose a card to put into the battle zone", may_=p.may)
    from statemachine.games.duel_masters.actions import enter_battle

    for oid in ctx.bound["chosen"]:
        enter_battle(ctx.engine, oid, ctx.controller, PUT)
