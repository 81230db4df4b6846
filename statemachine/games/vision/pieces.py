"""General Vision of Phantasm pieces the first sets' cards need (pool 1.3): a player drawing or having their hand
looked at, damage a character does not take, the opponent choosing to pay, 決死状態 by an effect, and the end
of the turn as a trigger (自動γ 「…ターンの終了時」).

《強引な取引》 is ``target`` a player + ``target_draws``; 《情報戦》 is ``target`` an opponent + ``look_and_discard``;
《館に棲むモノ》 is ``target`` an attacking opponent character + ``unless_pays`` carrying ``kesshi``;
《上海人形》 is a ``turn_ends`` trigger with the condition ``played_this_turn``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.board import card_in_owners
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.vision import board, computed  # noqa: F401 - the game's amount rules first
from statemachine.games.vision.actions import PLAYED_TURN
from statemachine.games.vision.board import DISCARD, FIELD, HAND, NODE, zone
from statemachine.games.vision.durations import delayed_instances
from statemachine.games.vision.effects import VOP
from statemachine.triggers import Instance, matches_filter
from statemachine.vocabulary import KEYWORD, NoParams, Procedure

VOP.declare(KEYWORD, {
    "no_effect_damage": "〔このキャラクター〕は効果ダメージを受けない: damage from effects is not dealt to it (battle "
                        "damage is)",
    "own_turn_once": "【自分ターン1枚制限】: played only in its player's own turn, and one card of that name a turn "
                     "(VOP-GAME-TIMING)",
    "doll": "人形: a doll (printed; the play limit of dolls, rule 5.4.1.e, is not modelled)",
})

HAND_DISCARD = "discard"
DISCARDED = "discarded"  # ctx.bound: the cards (card ids) the effect's look_and_discard discarded (pool 1.7)

Count = Annotated[int, Meta(ge=0)]


class DrawParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Count = 1


class LookParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Count = 1
    # Which cards of the hand seen may be chosen (pool 1.7): "any", or "highest_cost" — 「最もコストの高いカード」,
    # only a card whose COST is the highest among the cards seen (COST(X) counts 0 in the hand).
    only: Literal["any", "highest_cost"] = "any"


@VOP.effect("target_draws", DrawParams)
def target_draws(ctx: EffectContext, p: DrawParams) -> Procedure:
    """「目標の〔プレイヤー1人〕はNドローする」: each targeted player draws N."""
    for ref in ctx.bound.get("targets", ()):
        if ref < 0:
            yield from board.draw_by_effect(ctx.engine, -1 - ref, p.count)


@VOP.effect("look_and_discard", LookParams)
def look_and_discard(ctx: EffectContext, p: LookParams) -> Procedure:
    """「目標の〔相手プレイヤー1人の手札〕を全て見て、N枚を選んで破棄する」: the controller sees the targeted
    player's whole hand (recorded: who saw which cards) and chooses up to N of them, one at a time; with ``only =
    "highest_cost"`` (「最もコストの高いカード1枚を選んで」) among the cards of the highest COST only. The cards
    discarded are bound as ``discarded`` (the amount reference 「この効果で破棄したカード」)."""
    st = ctx.state
    ctx.bound[DISCARDED] = []
    for ref in ctx.bound.get("targets", ()):
        if ref >= 0:
            continue
        hand = list(st.zone(zone(-1 - ref, HAND)))
        if hand:
            ctx.engine.emit(*[ev.Revealed(o, (ctx.controller,), st.objects[o].card, st.facts(o).definition)
                              for o in hand])
        chosen: list[int] = []
        for k in range(min(p.count, len(hand))):
            left = tuple(o for o in hand if o not in chosen)
            if p.only == "highest_cost":
                top = max(_hand_cost(st, o) for o in left)
                left = tuple(o for o in left if _hand_cost(st, o) == top)
            answer = yield ctx.request(ctx.controller, "discard", f"choose a card of the hand to discard ({k + 1})",
                                       left, rule="VOP-GAME-DISCARD")
            chosen.append(int(answer[0]))
        ctx.bound[DISCARDED] += [st.objects[o].card for o in chosen]
        board.to_discard(ctx.engine, chosen, HAND_DISCARD)


def _hand_cost(state: GameState, oid: int) -> int:
    return view(state, oid).chars.cost or 0


def discarded_card(ctx: Any) -> int | None:
    """The first card an earlier look_and_discard of this effect discarded (「この効果で破棄したカード」), as it now
    lies in its owner's discard pile; nothing (0) if none was."""
    cards = ctx.bound.get(DISCARDED) or ()
    return card_in_owners(ctx.state, cards[0], DISCARD) if cards else None


assert VOP.amounts is not None  # computed.py sets the game's amount rules first
VOP.amounts.references[DISCARDED] = discarded_card


@VOP.effect("kesshi")
def kesshi(ctx: EffectContext, _: NoParams) -> Procedure:
    """「目標の〔キャラクター〕を決死状態にする」: each targeted character enters 決死状態; it is discarded (破棄)
    right after this effect (VOP-I-16)."""
    st = ctx.state
    hit = [t for t in ctx.bound.get("targets", ()) if t >= 0 and board.on_field(st, t)]
    if hit:
        ctx.engine.emit(*[ev.StatusSet(t, "kesshi", 1) for t in hit])
    return
    yield


class UnlessParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Count  # what the opponent may pay: ``amount`` untapped nodes tapped, as a cost
    then: str  # the effect carried out unless they pay
    params: dict[str, Any] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)]


@VOP.effect("unless_pays", UnlessParams)
def unless_pays(ctx: EffectContext, p: UnlessParams) -> Procedure:
    """「〔相手プレイヤー〕は(N)支払っても良い。支払わない場合、…」: the opponent chooses; with fewer than N untapped
    nodes they cannot pay. Paying taps N of their nodes (a ``CostPaid``); otherwise ``then`` is carried out."""
    st = ctx.state
    opp = ctx.opponent
    nodes = board.untapped_nodes(st, opp)
    if len(nodes) >= p.amount and (yield from ctx.agrees(opp, f"pay ({p.amount})?", rule="VOP-GAME-COST")):
        paid = nodes[: p.amount]
        ctx.engine.emit(ev.CostPaid(opp, "nodes", p.amount, tuple(paid)), *[ev.StatusSet(o, "tapped", 1) for o in paid])
        return
    yield from VOP.run_effect(ctx, p.then, p.params)


@VOP.condition("played_this_turn")
def played_this_turn(ctx: EffectContext, _: NoParams) -> bool:
    """「〔このキャラクター〕がプレイされて場に出たターン」: it was played and entered the field this turn (rules
    1.3 mark it as it enters)."""
    obj = ctx.state.objects.get(ctx.source)
    return obj is not None and obj.status.get(PLAYED_TURN) == ctx.state.turn


def fire_turn_end(engine: Engine) -> None:
    """自動γ 「…ターンの終了時」 (VOP-GAME-TURN-END): ``turn_ends`` abilities of the cards on the field arise as the
    end phase begins, the turn player's first (VOP-I-15); the holder is the subject. Effects delayed to the
    end of the turn (``at_end_of_turn``) arise with them. A card that left the field
    before then has nothing to arise from, nor one whose conditions do not hold then."""
    st = engine.state
    found: list[Instance] = []
    for lst in engine.index.listeners("turn_ends"):
        obj = st.objects.get(lst.obj)
        if obj is None or board.kind_of(obj.zone) != FIELD:
            continue
        holder = view(st, lst.obj)
        t = lst.ability.trigger
        assert t is not None
        theirs = holder.controller == st.active
        if lst.ability.id not in holder.chars.abilities or (t.whose == "you" and not theirs) \
                or (t.whose == "opponent" and theirs):
            continue
        ctx = EffectContext(engine, controller=holder.controller, source=lst.obj, source_card=holder.card,
                            ability=lst.ability.id)
        if not all(VOP.check(ctx, c.name, c.params) for c in lst.ability.conditions):
            continue  # 「プレイされて場に出たターンの終了時」: nothing arises for a card not played this turn
        if matches_filter(holder, t.filter, engine.index.tests):
            found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    found += delayed_instances(engine)  # 「ターン終了時に、…」 (pool 1.5): after the cards' own, oldest first
    if found:
        engine.policy.triggered(engine, found)


# Steps and conditions that one card of the newest pool uses, each a general piece of the game's card language
# (#25; tests/statemachine/test_vision_pieces.py): why it is not shaped to that card. A verb kept only for the logs
# of older pools is not here (``set_from_discard``, pools up to 1.3).
GENERAL_PIECES: dict[str, str] = {
    "at_end_of_turn": "「ターン終了時に、…」: delays any ability of the same card to the end of the turn",
    "battle_modifier": "戦闘修正 +A/+T, signed, fixed or computed, on the targets: the game's battle modifier",
    "discard_own_hand": "「〔あなたの手札X枚〕を破棄する」: any count, computed or not; failing with too few cards",
    "discard_random": "「…無作為に選んで破棄する」: N cards of a player's hand at random",
    "discard_self": "「〔このカード〕を破棄する」: this card, whatever it is",
    "distribute_damage": "「…ダメージを振り分けて与える」: any amount, chooser, side and cap",
    "grant_keyword": "「ターン終了時まで、…は以下の効果を得る」: any keyword the rules read, to targets or all",
    "haki_self": "「このカードを破棄する」 as 破棄 that arises (VOP-I-16), processed after the effect",
    "kesshi": "「…を決死状態にする」: the game's 決死状態 on the targets",
    "look_and_discard": "「…手札を全て見て、N枚を選んで破棄する」: any targeted player, any N",
    "opponent_turn": "(相手のターン): the game's timing restriction",
    "own_turn": "(自分のターン): the game's timing restriction",
    "prohibit": "「ターン終了時まで、…出来ない」: any of the game's actions, for any players",
    "retarget_rights": "VOP-I-23, a rule of seed 003 itself: the right to change targets until the interference ends",
    "set_life": "「…のライフポイントはXに変更される」: any X, any players",
    "set_on_self": "「…の一番上のカードをこのカードの上にセットする」: any pile of either player",
    "skip_draw": "「このターンのドローフェイズをスキップし」: the game's draw phase",
    "target_discards": "「目標の〔プレイヤー〕は〔自分の手札X枚〕を…破棄する」: any X",
    "target_draws": "「目標の〔プレイヤー1人〕はNドローする」: any N",
    "unless_pays": "「〔相手プレイヤー〕は(N)支払っても良い。支払わない場合、…」: any N, carrying any effect",
    "hand_fewer_than_opponent": "「あなたの手札が相手プレイヤーの手札よりN枚少ない場合」: any bounds",
    "has_cards": "「…にカードがある」: any zone of either player",
    "reveal_from_hand": "「〔全てのプレイヤー〕は手札を1枚公開する」: every player, any hand",
    "for_highest_revealed": "「最も…が大きいカードを公開したプレイヤーは、…」: carries any effect for the winners",
    "revealed_is": "「そのカードが…カードであれば」: any of the card types",
    "put_revealed_onto_field": "「(そのカードを)スリープ状態で場に出し」: whichever card was revealed",
    # pool 1.7
    "reveal_deck_top": "「〔あなたのデッキの上のカードN枚〕を公開し、…を全て手札に加える。それ以外のカードは"
                       "任意の順番でデッキの下に戻す」: any N, any type and race",
    "static_play_discount": "「〔このカード〕が…冥界にある場合、〔あなたがプレイする…〕の必要ノードとコストは"
                            "-Nされる」: any kind of card, any N of NODE and COST",
    "deck_to_node": "「〔あなたのデッキの上のカード1枚〕をアクティブ状態でノードに加えても良い」: may or must",
    "invert_battle_modifiers": "「…が持つ戦闘修正の+を-に変更する」: every character's, with or without the "
                               "toughness floor",
    "draws_become_discards": "「…ドローする場合、そのドローを無効とし、代わりに手札をX枚破棄する」: any players, "
                             "any effect's draw",
    "has_characters": "「…の場にキャラクターが(1枚も)居ない場合」: either player, any N",
    "no_attack_this_turn": "「…がこのターン一度も攻撃を行わなかった場合」: either player",
    "discard_field_card": "「〔…の場の、…以外のカード1枚〕を破棄しても良い」: either field, any excluded types, may "
                          "or must",
}


__all__ = ["NODE", "PLAYED_TURN", "fire_turn_end"]
