"""Effects that last, and effects delayed to the end of the turn (pool 1.5).

One mechanism for everything 「ターン終了時まで、…」 says: a battle modifier (戦闘修正), a prohibition, a granted
ability (a keyword the rules read) — each is a ``ContinuousEffectStarted`` whose ``until`` is the step's
``duration``, and the end phase ends every effect lasting ``end_of_turn`` (``profile.enter_step``, SPEC Part 4
#21). 「ターン終了時に、…」 is one more such effect, of kind ``delayed``: it names an ability of the same card,
which arises as an automatic effect as the end phase begins, with the 自動γ 「ターンの終了時」 ones
(VOP-GAME-TURN-END), and then ends like the others.

What a battle modifier means is not in seed 003 (kifu's reading, README "Changes in 1.5"): its attack counts in
the damage the character deals in battle, its toughness whenever the character's damage is judged (決死状態);
characteristics that effects and amounts read (攻撃力, 耐久力) are without it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import view
from statemachine.amounts import Amount, evaluate
from statemachine.cards import AbilityDef
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.vision import board
from statemachine.games.vision.board import (
    BATTLE_POWER,
    BATTLE_TOUGHNESS,
    DELAYED,
    DRAWS_TO_DISCARDS,
    HAKI_WHEN_DAMAGED,
    INVERT_BATTLE,
    PROHIBIT,
)
from statemachine.games.vision.effects import VOP
from statemachine.triggers import Instance, Listener
from statemachine.vocabulary import KEYWORD, Procedure

END_OF_TURN = "end_of_turn"
# 「ターン終了時まで」: ended as the end phase begins; (pool 1.7) 「このターン、…攻撃を行うまで」: ended as a
# character of the player it is on attacks (``actions``), or else as the end phase begins
Duration = Literal["end_of_turn"]
PlayerDuration = Literal["end_of_turn", "until_attacks"]  # on players: also until that player attacks
Prohibited = Literal["play_character", "play_spell_card", "play_command", "activate", "attack", "defend", "set_node"]
Grantable = Literal["haki_when_damaged", "no_effect_damage"]  # keywords the rules read on the field

VOP.declare(KEYWORD, {
    HAKI_WHEN_DAMAGED: "(自動γ) 〔このキャラクター〕はダメージを受けた場合、破棄される: damage dealt to it marks it "
                         "for 破棄, processed right after the effect or battle (VOP-I-16); granted, as a rule, by "
                         "grant_keyword",
})


def start(ctx: EffectContext, kind: str, targets: list[int], *, amount: int = 0, value: str = "",
          until: str = END_OF_TURN) -> None:
    """One continuous effect per target, from now until ``until`` (effect ids in order, one batch)."""
    eid = ctx.state.next_effect
    if targets:
        ctx.engine.emit(*[ev.ContinuousEffectStarted(eid + i, ctx.source, kind, t, amount, value, until)
                          for i, t in enumerate(targets)])


def characters_targeted(ctx: EffectContext) -> list[int]:
    return [t for t in ctx.bound.get("targets", ()) if t >= 0 and board.on_field(ctx.state, t)]


class BattleParams(Struct, frozen=True, forbid_unknown_fields=True):
    signed: ClassVar[tuple[str, ...]] = ("power", "toughness")  # 「戦闘修正:-1/-0」 lowers
    # A literal, or (pool 1.6) an amount computed as the step is carried out: 「戦闘修正:±0/-X」 with X the
    # opponent's hand is ``toughness = { minus = [0, { count = ... }] }`` (《毒符「ポイズンブレス」》).
    power: Amount = 0
    toughness: Amount = 0
    duration: Duration = "end_of_turn"


@VOP.effect("battle_modifier", BattleParams, asks=False)
def battle_modifier(ctx: EffectContext, p: BattleParams) -> Procedure:
    """「ターン終了時まで、目標の〔キャラクター〕は「戦闘修正:+A/+T」を得る」: each targeted character's attack in
    battle and its toughness against damage change by A and T (README: what a battle modifier means). A computed
    A or T is computed once, at resolution, and recorded (``AmountComputed``); a literal records nothing, so a
    fixed modifier's events are as before; a part that comes to 0 starts no effect, as a literal 0 does."""
    hit = characters_targeted(ctx)
    for kind, param, amount in ((BATTLE_POWER, "power", p.power), (BATTLE_TOUGHNESS, "toughness", p.toughness)):
        n = evaluate(ctx, amount, param)
        if n:
            start(ctx, kind, hit, amount=n, until=p.duration)
    return
    yield


class ProhibitParams(Struct, frozen=True, forbid_unknown_fields=True):
    what: tuple[Prohibited, ...]
    players: Literal["all", "you", "opponent"] = "all"
    duration: PlayerDuration = "end_of_turn"

    def problems(self) -> list[tuple[str, str]]:
        return [(".what", "a prohibition must name what it forbids")] if not self.what else []


@VOP.effect("prohibit", ProhibitParams, asks=False)
def prohibit(ctx: EffectContext, p: ProhibitParams) -> Procedure:
    """「ターン終了時まで、〔全てのプレイヤー〕は…出来ない」: each named action is refused to those players, naming
    VOP-GAME-PROHIBIT and the card, until the effect ends."""
    players = {"all": [0, 1], "you": [ctx.controller], "opponent": [ctx.opponent]}[p.players]
    for what in p.what:
        start(ctx, PROHIBIT, [board.player_target(q) for q in players], amount=ctx.source_card, value=what,
              until=p.duration)
    return
    yield


class GrantParams(Struct, frozen=True, forbid_unknown_fields=True):
    keyword: Grantable
    to: Literal["targets", "all_characters"] = "targets"
    duration: Duration = "end_of_turn"


@VOP.effect("grant_keyword", GrantParams, asks=False)
def grant_keyword(ctx: EffectContext, p: GrantParams) -> Procedure:
    """「ターン終了時まで、〔全てのキャラクター〕は以下の効果を得る」: the targeted characters, or every character on
    the field as the step resolves (one that enters later does not), have the keyword until the effect ends."""
    hit = characters_targeted(ctx) if p.to == "targets" else board.characters(ctx.state)
    start(ctx, "grant_keyword", hit, value=p.keyword, until=p.duration)
    return
    yield


class InvertParams(Struct, frozen=True, forbid_unknown_fields=True):
    # 「但し、この効果で変更された戦闘修正のみで耐久力は0以下にならない」: the changed modifiers alone never bring a
    # character's toughness to 0 or below
    never_to_zero: bool = False
    duration: Duration = "end_of_turn"


@VOP.effect("invert_battle_modifiers", InvertParams, asks=False)
def invert_battle_modifiers(ctx: EffectContext, p: InvertParams) -> Procedure:
    """「ターン終了時まで、〔全てのキャラクター〕が持つ戦闘修正の+を-に変更する」 (pool 1.7): on every character on the
    field as the step resolves, each + battle modifier it has while the effect lasts counts as - (its attack in
    battle at least 0, as always); with ``never_to_zero`` the changed modifiers alone leave its toughness at least
    1 (``board.battle_bonus``)."""
    start(ctx, INVERT_BATTLE, board.characters(ctx.state), amount=int(p.never_to_zero), until=p.duration)
    return
    yield


class ReplaceDrawsParams(Struct, frozen=True, forbid_unknown_fields=True):
    players: Literal["all", "you", "opponent"] = "all"
    duration: Duration = "end_of_turn"


@VOP.effect("draws_become_discards", ReplaceDrawsParams, asks=False)
def draws_become_discards(ctx: EffectContext, p: ReplaceDrawsParams) -> Procedure:
    """「〔全てのプレイヤー〕は、ドローフェイズの規定の効果以外でカードをX枚ドローする場合、そのドローを無効とし、
    代わりに手札をX枚破棄する」 (pool 1.7): while it lasts, an effect's draw of N by those players is not made and they
    discard N cards of their hand instead (``board.draw_by_effect``); the draw phase's draw is not replaced."""
    players = {"all": [0, 1], "you": [ctx.controller], "opponent": [ctx.opponent]}[p.players]
    start(ctx, DRAWS_TO_DISCARDS, [board.player_target(q) for q in players], until=p.duration)
    return
    yield


class DelayedParams(Struct, frozen=True, forbid_unknown_fields=True):
    ability: str  # an ability of this card (trigger ``delayed``): what happens at the end of the turn

    def ability_refs(self) -> list[tuple[str, str]]:
        return [(".ability", self.ability)]


@VOP.effect("at_end_of_turn", DelayedParams, asks=False)
def at_end_of_turn(ctx: EffectContext, p: DelayedParams) -> Procedure:
    """「ターン終了時に、…」: the named ability of this card arises as an automatic effect as this turn's end phase
    begins, controlled by this effect's controller, wherever the card is then (VOP-GAME-TURN-END)."""
    start(ctx, DELAYED, [board.player_target(ctx.controller)], amount=ctx.source_card, value=p.ability)
    return
    yield


def delayed_instances(engine: Engine) -> list[Instance]:
    """The delayed effects that arise as the end phase begins, oldest first."""
    st = engine.state
    found: list[Instance] = []
    for m in sorted((m for m in st.modifiers.values() if m.kind == DELAYED), key=lambda m: m.effect):
        obj = next((o for o in sorted(st.objects) if st.objects[o].card == m.amount), None)
        if obj is None:
            continue
        card = engine.profile.pool[st.facts(obj).definition]
        ability: AbilityDef = card.ability(m.value)
        holder = view(st, obj)
        found.append(Instance(Listener(obj, card, ability), -1 - m.target, holder, holder, st.seq, ev.AFTER))
    return found


__all__ = ["END_OF_TURN", "delayed_instances"]
