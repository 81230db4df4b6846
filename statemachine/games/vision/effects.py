"""The Vision of Phantasm vocabulary: the effect steps and conditions the card files are written in.

The step ``target`` is read when an effect is *used* (announced), not when it resolves: what it targets is
chosen at announcement, or when an automatic effect is placed in the interference. At resolution ``target``
checks that a target is still proper; every other step does what it says, in printed order, with the chosen
targets in ``ctx.bound["targets"]``. An activated effect's ``costs`` (``nodes``, ``rest``) are paid when it is
used.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from msgspec import Meta, Struct

from eventsource import events as ev
from projections.characteristics import view
from projections.state import Pending
from statemachine.amounts import Amount, evaluate
from statemachine.board import card_in_owners
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.vision import board
from statemachine.games.vision.board import CHAIN, CHARACTER, COMMAND, DISCARD, zone
from statemachine.vocabulary import KEYWORD, ZONE, NoParams, Procedure, Vocabulary

# A count or amount card data may not make negative: refused when the pool loads, naming card and field.
NonNegative = Annotated[int, Meta(ge=0)]

VOP = Vocabulary("vision")
VOP.declare(KEYWORD, {
    "haste": "速攻: may attack the turn it is played",
    "ambush": "伏兵: may be played at instant speed, as a command card is",
    "node:<number>": "NODE N: the nodes it needs",
    "uses:<number>": "an activated effect usable N times per card",
})
VOP.digest_also(card={"mana": None}, trigger={"timing": "shita"})  # the kernel's card format of pools 1.0-1.2
VOP.declare(ZONE, {
    "field": "the field", "hand": "the hand", "node": "the node area", "deck": "the deck",
    "discard": "the discard pile", "chain": "being announced (in an interference)",
})

ANNOUNCED = ("target",)  # steps read when the effect is used, not when it resolves
RETARGET = "retarget"  # the flag No.148 少女密室 leaves for its player until the end of this interference
END_OF_INTERFERENCE = "end_of_interference"


TargetKind = Literal["character", "character_or_player", "player", "attacking_character", "command_play",
                     "character_play"]


class NodesParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 0  # untapped nodes to tap


class TargetParams(Struct, frozen=True, forbid_unknown_fields=True):
    what: TargetKind = "character"
    whose: Literal["any", "you", "opponent"] = "any"  # whose field (or which player) it must be
    race: str = ""  # 「「種族:R」を持つキャラクター」: a character of that race (its subtypes; pool 1.5)


class AmountParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 1


class CountParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 1


TARGET_KINDS: tuple[str, ...] = get_args(TargetKind)


def chain_entries(engine: Engine) -> list[Pending]:
    """The interference, bottom (the originating action) first."""
    return sorted((p for p in engine.state.pending.values() if p.holder == CHAIN), key=lambda p: (p.key, p.effect))


def target_options(engine: Engine, controller: int, spec: TargetParams, itself: int | None = None) -> list[int]:
    """Every proper target of ``spec`` for an effect controlled by ``controller`` (players as -1 - player)."""
    st = engine.state
    players = range(len(st.players))
    if spec.whose == "you":
        players = range(controller, controller + 1)
    elif spec.whose == "opponent":
        players = range(1 - controller, 2 - controller)
    out: list[int] = []
    if spec.what in ("character", "character_or_player"):
        out += [o for p in players for o in board.characters(st, p)
                if not spec.race or spec.race in view(st, o).chars.subtypes]
    if spec.what in ("player", "character_or_player"):
        out += [board.player_target(p) for p in players]
    if spec.what == "attacking_character":
        out += [p.subject for p in chain_entries(engine) if p.ability == "attack" and p.subject is not None
                and board.on_field(st, p.subject) and st.objects[p.subject].controller in players]
    if spec.what in ("command_play", "character_play"):  # 「プレイされた〔コマンド/キャラクターカード〕」 in the chain
        kind = COMMAND if spec.what == "command_play" else CHARACTER
        out += [p.source for p in chain_entries(engine)
                if p.ability == "play" and p.effect != itself and p.source in st.objects
                and st.objects[p.source].zone == CHAIN and kind in board.types(st, p.source)
                and p.controller in players]
    return out


def target_spec(steps: tuple[object, ...]) -> TargetParams | None:
    for step in steps:
        if getattr(step, "name", "") == "target":
            return VOP.effects["target"].parse(getattr(step, "params", {}))  # type: ignore[no-any-return]
    return None


# -- steps read at announcement -------------------------------------------------------------------------


@VOP.cost("nodes", NodesParams)
def nodes_cost(p: NodesParams) -> int:
    """Tap this many untapped nodes (paid by actions.announce)."""
    return p.count


@VOP.cost("rest")
def rest_cost(_: NoParams) -> bool:
    """Tap the card itself (レスト)."""
    return True


@VOP.effect("target", TargetParams)
def target(ctx: EffectContext, p: TargetParams) -> Procedure:
    """Chosen when the effect is used; whether it is still proper is checked by the resolution itself."""
    return
    yield


# -- conditions -------------------------------------------------------------------------------------------


@VOP.condition("opponent_turn")
def opponent_turn(ctx: EffectContext, _: NoParams) -> bool:
    """「相手のターン」: usable only during an opponent's turn."""
    return ctx.state.active != ctx.controller


@VOP.condition("own_turn")
def own_turn(ctx: EffectContext, _: NoParams) -> bool:
    """It is its controller's turn."""
    return ctx.state.active == ctx.controller


# -- effects ----------------------------------------------------------------------------------------------


@VOP.effect("damage", AmountParams)
def damage(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Deal damage to each target (a character on the field, or a player)."""
    n = evaluate(ctx, p.amount)
    st = ctx.state
    # 「効果ダメージを受けない」 (keyword no_effect_damage, pool 1.3): an effect's damage is not dealt to it.
    board.damage(ctx.engine, [(t, n) for t in ctx.bound.get("targets", ())
                              if t < 0 or "no_effect_damage" not in view(st, t).chars.keywords])
    return
    yield


@VOP.effect("draw", CountParams)
def draw(ctx: EffectContext, p: CountParams) -> Procedure:
    """Draw N cards (an effect's draw: replaced by discards from the hand while a ``draws_become_discards`` effect
    is on the player, pool 1.7)."""
    yield from board.draw_by_effect(ctx.engine, ctx.controller, p.count)


@VOP.effect("negate")
def negate(ctx: EffectContext, _: NoParams) -> Procedure:
    """作戦阻止 [ext]: the targeted command card's play is negated; the card is put into the discard pile."""
    engine = ctx.engine
    for t in ctx.bound.get("targets", ()):
        for pend in chain_entries(engine):
            if pend.ability == "play" and pend.source == t and not pend.resolving:
                engine.emit(ev.EffectFizzled(pend.effect, f"negated by {ctx.state.facts(ctx.source).printed.name}"
                                             if ctx.source in ctx.state.objects else "negated"))
                board.to_discard(engine, [t], board.NEGATED)
    return
    yield


@VOP.effect("retarget_rights")
def retarget_rights(ctx: EffectContext, _: NoParams) -> Procedure:
    """No.148 少女密室: until the end of this interference you may change the target of command cards and
    character effects that target cards on your field (VOP-I-23); offered as each such effect resolves."""
    eid = ctx.state.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "set_flag", board.player_target(ctx.controller),
                                               value=RETARGET, until=END_OF_INTERFERENCE))
    return
    yield


@VOP.effect("set_from_discard")
def set_from_discard(ctx: EffectContext, _: NoParams) -> Procedure:
    """死神『ヒガンルトゥール』 [ext]: set the top card of your discard pile on this card; if you cannot, discard
    this card. (A card set on it counts one use; with ``uses:N`` cards set on it, it is discarded: 破棄.) Kept for
    pools up to 1.3; from pool 1.4 the card writes ``if`` ``has_cards`` ``set_on_self`` else ``haki_self``."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    pile = st.zone(zone(ctx.controller, DISCARD))
    if pile:
        ctx.engine.emit(ev.Stacked(me, pile[-1]))
    else:
        ctx.engine.emit(ev.StatusSet(me, "haki", 1))  # 破棄 arises: processed right after this effect (VOP-I-16)
    return
    yield


@VOP.effect("return_self_to_field")
def return_self_to_field(ctx: EffectContext, _: NoParams) -> Procedure:
    """Put this card from its owner's discard pile onto the field under your control (it enters as any card)."""
    here = card_in_owners(ctx.state, ctx.source_card, DISCARD)
    if here is not None:
        board.enter_field(ctx.engine, here, ctx.controller)
    return
    yield


__all__ = ["ANNOUNCED", "END_OF_INTERFERENCE", "RETARGET", "TARGET_KINDS", "VOP", "chain_entries",
           "target_options", "target_spec"]
