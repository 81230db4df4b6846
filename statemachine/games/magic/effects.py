"""The Magic effect steps and conditions the card files are written in.

Each step is a generator over an ``EffectContext``; ``ctx.bound["targets"]`` holds the chosen targets (players
as ``-1 - player``) and a step acts only on those still legal (608.2b). Anything that refers to an object that
has left the battlefield reads it as it last existed there, from the look-back projection (last known
information, ``ctx.view``), never from a copy the card kept.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.amounts import Amount, evaluate, peek
from statemachine.board import card_in_owners
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.games.magic import board, damage, lifegain, mana, targets
from statemachine.games.magic.board import GRAVEYARD, HAND, LIFE, STACK, zone
from statemachine.games.magic.sba import cant_lose
from statemachine.games.magic.select import players
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import NoParams, Procedure


def target(ctx: EffectContext, index: int) -> int | None:
    """The ``index``-th target if it is still legal, else None."""
    chosen: list[int] = ctx.bound.get("targets", [])
    specs: list[targets.TargetParams] = ctx.bound.get("specs", [])
    if index >= len(chosen) or index >= len(specs):
        return None
    ref = chosen[index]
    return ref if targets.legal(ctx.engine, specs[index], ref, ctx.bound.get("spell"), ctx.controller,
                                ctx.source) else None


def lose_life(ctx: EffectContext, player: int, amount: int) -> ev.PlayerStat:
    return ev.PlayerStat(player, LIFE, board.life(ctx.state, player) - amount)


EXILED, MILLED = "exile", "mill"  # ZoneChanged.cause


class TargetRef(Struct, frozen=True, forbid_unknown_fields=True):
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)]


# -- targets ------------------------------------------------------------------------------------------------


@MTG.effect("target", targets.TargetParams)
def target_step(ctx: EffectContext, _: targets.TargetParams) -> Procedure:
    """Names a target (chosen as the spell or ability was put on the stack); nothing happens at resolution."""
    return
    yield


# -- damage and life ----------------------------------------------------------------------------------------


@MTG.effect("damage_by_sacrificed_power", TargetRef)
def damage_by_sacrificed_power(ctx: EffectContext, p: TargetRef) -> Procedure:
    """Pools 1.0-1.1 (《投げ飛ばし》; since 1.2: ``damage`` of { power_of = "sacrificed" }): damage equal to the
    sacrificed creature's power — the creature as it last existed on the
    battlefield (last known information from the look-back projection, modifications included)."""
    spell = ctx.bound.get("spell")
    sacrificed = ctx.state.objects[spell].status.get("sacrificed") if spell in ctx.state.objects else None
    seen = ctx.view(sacrificed) if sacrificed is not None else None
    ref = target(ctx, p.target)
    if seen is None or ref is None:
        return
    ctx.bound["reference_power"] = seen.power
    damage.deal(ctx.engine, ctx.source, [(ref, seen.power)])
    return
    yield


class AmountParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 1
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)]


@MTG.effect("drain", AmountParams)
def drain(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Target player loses N life and you gain N life."""
    ref = target(ctx, p.target)
    player = board.ref_player(ref) if ref is not None else None
    if player is None:
        return
    if player == ctx.controller:
        return  # loses N and gains N: no change
    n = evaluate(ctx, p.amount)
    lifegain.emit(ctx.engine, lose_life(ctx, player, n),
                  ev.PlayerStat(ctx.controller, LIFE, board.life(ctx.state, ctx.controller) + n))
    return
    yield


class GainParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 1
    # "target_controller": the controller of the target as it is or last existed; "target": a target player
    who: Literal["you", "target_controller", "target"] = "you"
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.who != "you" else []


@MTG.effect("gain_life", GainParams)
def gain_life(ctx: EffectContext, p: GainParams) -> Procedure:
    """You (or the target's controller: 《剣を鍬に》, or a target player) gain N life. The target may have left the
    battlefield by now; its controller is then read from its last known information (608.2h)."""
    player: int | None = ctx.controller
    if p.who == "target":  # "target player gains N life" (治癒の軟膏): a player still legal as it resolves
        ref = target(ctx, p.target)
        player = board.ref_player(ref) if ref is not None else None
    elif p.who == "target_controller":
        chosen: list[int] = ctx.bound.get("targets", [])
        ref = chosen[p.target] if p.target < len(chosen) else None
        seen = ctx.view(ref) if ref is not None and ref >= 0 else None
        player = board.ref_player(ref) if ref is not None and ref < 0 else (seen.controller if seen else None)
    if player is None:
        return
    n = evaluate(ctx, p.amount)
    if n > 0:
        lifegain.emit(ctx.engine, ev.PlayerStat(player, LIFE, board.life(ctx.state, player) + n))
    return
    yield


@MTG.effect("win_game")
def win_game(ctx: EffectContext, _: NoParams) -> Procedure:
    """"You win the game" (104.2b): every opponent loses — unless one of them controls an ability that says
    they can't lose and their opponents can't win (《プラチナの天使》)."""
    st = ctx.state
    others = [p for p in range(len(st.players)) if p != ctx.controller and not st.players[p].lost]
    if any(cant_lose(st, p) for p in others):
        return
    reason = f"{st.players[ctx.controller].name} won the game (104.2b)"
    ctx.engine.emit(*[ev.PlayerLost(p, reason) for p in others], ev.GameEnded(ctx.controller, reason))
    return
    yield


# -- creatures ----------------------------------------------------------------------------------------------


def pump_events(ctx: EffectContext, oid: int, power: int, toughness: int, first: int) -> list[ev.Event]:
    out: list[ev.Event] = []
    eid = first
    for kind, amount in (("power", power), ("toughness", toughness)):
        if amount:
            out.append(ev.ContinuousEffectStarted(eid, ctx.source, kind, oid, amount=amount, until="end_of_turn"))
            eid += 1
    return out


@MTG.effect("all_creatures_minus_x")
def all_creatures_minus_x(ctx: EffectContext, _: NoParams) -> Procedure:
    """Pools 1.0-1.1 (《毒の濁流》; since 1.2: ``pump`` on each creature, minus X): all creatures get -X/-X until
    end of turn, X being the life paid as the spell was cast."""
    spell = ctx.bound.get("spell")
    x = ctx.state.objects[spell].status.get("x", 0) if spell in ctx.state.objects else 0
    if not x:
        return
    events: list[ev.Event] = []
    eid = ctx.state.next_effect
    for oid in board.creatures(ctx.state):
        more = pump_events(ctx, oid, -x, -x, eid)
        eid += len(more)
        events += more
    if events:
        ctx.engine.emit(*events)
    return
    yield


@MTG.effect("sacrifice_self")
def sacrifice_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """Sacrifice this permanent, if it is still on the battlefield (701.17)."""
    me = ctx.source_now()
    if me is not None and board.on_battlefield(ctx.state, me):
        ctx.engine.emit(*board.to_graveyards(ctx.engine, [me], board.SACRIFICE))
    return
    yield


@MTG.effect("return_self_to_battlefield")
def return_self_to_battlefield(ctx: EffectContext, _: NoParams) -> Procedure:
    """Return this card from its owner's graveyard to the battlefield under your control (a new object, 400.7)."""
    here = card_in_owners(ctx.state, ctx.source_card, GRAVEYARD)
    if here is not None:
        ctx.engine.emit(board.move(ctx.engine, here, zone(ctx.controller, board.BATTLEFIELD), board.ENTER,
                                   controller=ctx.controller))
    return
    yield


# -- the stack ----------------------------------------------------------------------------------------------


def counter_spell(ctx: EffectContext, spell: int, why: str) -> None:
    st = ctx.state
    pend = next((p for p in st.pending.values() if p.holder == STACK and len(p.key) > 1 and p.key[1] == spell
                 and p.source < 0), None)
    if pend is not None:
        ctx.engine.emit(ev.EffectFizzled(pend.effect, why))
    ctx.engine.emit(board.move(ctx.engine, spell, zone(st.objects[spell].owner, GRAVEYARD), board.COUNTERED))


@MTG.effect("counter", TargetRef)
def counter(ctx: EffectContext, p: TargetRef) -> Procedure:
    """Counter target spell: it leaves the stack for its owner's graveyard without resolving."""
    ref = target(ctx, p.target)
    if ref is not None:
        seen = ctx.view(ctx.source)
        counter_spell(ctx, ref, f"countered by {seen.chars.name if seen is not None else 'a spell'}")
    return
    yield


class UnlessParams(Struct, frozen=True, forbid_unknown_fields=True):
    mana: str = "3"
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)]


@MTG.effect("counter_unless_pays", UnlessParams)
def counter_unless_pays(ctx: EffectContext, p: UnlessParams) -> Procedure:
    """《マナ漏出》: counter target spell unless its controller pays. The controller may activate mana abilities
    now, in the middle of the resolution, though nobody has priority (MTG-P-06, MTG-P-13)."""
    ref = target(ctx, p.target)
    if ref is None:
        return
    payer = ctx.state.objects[ref].controller
    cost = mana.parse(p.mana)
    paid = yield from mana.pay(ctx.engine, payer, cost, ctx.effect, optional=True,
                               prompt=f"pay {cost}, or your spell is countered")
    if not paid and ref in ctx.state.objects:
        counter_spell(ctx, ref, f"countered: {cost} was not paid")


# -- cards --------------------------------------------------------------------------------------------------


class DrawParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Amount = 1
    # "active": the player whose turn it is; "target": targeted; "each_player": each, from you in turn order
    who: Literal["you", "active", "target", "each_player"] = "you"
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.who == "target" else []


@MTG.effect("draw", DrawParams)
def draw(ctx: EffectContext, p: DrawParams) -> Procedure:
    if p.who == "target":
        ref = target(ctx, p.target)
        player = board.ref_player(ref) if ref is not None else None
        if player is None:
            return
    elif p.who == "each_player":
        n = evaluate(ctx, p.count, "count")
        for q in players(ctx, "each_player"):
            board.draw(ctx.engine, q, n)
        return
    else:
        player = ctx.state.active if p.who == "active" else ctx.controller
    board.draw(ctx.engine, player, evaluate(ctx, p.count, "count"))
    return
    yield


class MillParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Amount = 1
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)]


@MTG.effect("mill", MillParams)
def mill(ctx: EffectContext, p: MillParams) -> Procedure:
    """Target player mills N cards: the top N of their library go to their graveyard, all at once."""
    ref = target(ctx, p.target)
    player = board.ref_player(ref) if ref is not None else None
    if player is None:
        return
    n = evaluate(ctx, p.count, "count")
    top = list(ctx.state.zone(zone(player, board.DECK)))[:max(0, n)]
    if top:
        ctx.engine.emit(*board.to_graveyards(ctx.engine, top, MILLED))
    return
    yield


class DiscardParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Amount = 1  # "discards X cards at random" (1.4: computed as it resolves)
    target: int = 0
    on: Literal["target", "you", "each_opponent", "each_player"] = "target"  # who discards
    at_random: bool = False  # "discards a card at random" (CR 701.8a): chosen by the game's seed, not the player

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.on == "target" else []


@MTG.effect("discard", DiscardParams)
def discard(ctx: EffectContext, p: DiscardParams) -> Procedure:
    """Target player (or you, each opponent — "that player" of a trigger on damage to an opponent, two players
    only — or each player, in turn order from you) discards N cards of their choice, or at random (as many as
    they have, if fewer)."""
    if p.on == "target":
        ref = target(ctx, p.target)
        player = board.ref_player(ref) if ref is not None else None
        who = [] if player is None else [player]
    else:
        who = players(ctx, p.on)
    n = evaluate(ctx, p.count, "count") if who else 0
    for player in who:
        for k in range(n):  # one card at a time, each chosen among the cards left
            hand = ctx.state.zone(zone(player, HAND))
            if not hand:
                break
            if p.at_random:
                card = hand[ctx.engine.random_below(len(hand), "discard at random")]
            else:
                answer = yield Request(player, "discard", f"discard a card ({k + 1} of {n})", tuple(hand),
                                       effect=ctx.effect, rule="MTG-GAME-DISCARD")
                card = int(answer[0])
            ctx.engine.emit(*board.to_graveyards(ctx.engine, [card], board.DISCARD))


class ManaParams(Struct, frozen=True, forbid_unknown_fields=True):
    color: Literal["W", "U", "B", "R", "G", "C", "any"] = "C"
    amount: int = 1


@MTG.effect(mana.ADD_MANA, ManaParams)
def add_mana(ctx: EffectContext, p: ManaParams) -> Procedure:
    """Add mana to the controller's pool. A mana ability's is carried out by ``mana.activate`` (mana abilities
    do not resolve); a spell's (《暗黒の儀式》: "Add {B}{B}{B}") as it resolves (CR 605.1: a spell that adds mana is
    no mana ability and uses the stack)."""
    color: str = p.color
    if color == mana.ANY:
        answer = yield Request(ctx.controller, "mana_color", "choose the colour of mana to add", mana.COLORS,
                               effect=ctx.effect, rule="CR 106.4")
        color = str(answer[0])
    pool_key = mana.key(color)
    ctx.engine.emit(ev.PlayerStat(ctx.controller, pool_key, ctx.state.stat(ctx.controller, pool_key) + p.amount))


# -- conditions ---------------------------------------------------------------------------------------------


@MTG.condition("source_untapped")
def source_untapped(ctx: EffectContext, _: NoParams) -> bool:
    """"if this is untapped" (《ハウリング・マイン》): the source as it is now, or as it last existed."""
    seen = ctx.view(ctx.source)
    return seen is not None and board.kind_of(seen.zone) == board.BATTLEFIELD and not seen.tapped


class LifeParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: int


@MTG.condition("life_at_least", LifeParams)
def life_at_least(ctx: EffectContext, p: LifeParams) -> bool:
    """"if you have N or more life" (《フェリダーの君主》: 40)."""
    return board.life(ctx.state, ctx.controller) >= p.amount


@MTG.condition(mana.WITH_PRIORITY)
def with_priority(ctx: EffectContext, _: NoParams) -> bool:
    """"Activate only as an instant": a timing restriction, enforced where mana sources are listed."""
    return True


class Compare(Struct, frozen=True, forbid_unknown_fields=True):
    of: Amount  # a literal or an expression ({ count = { zone = "battlefield", whose = "any", types = [...] } })
    count: Annotated[int, Meta(ge=0)] = 0


@MTG.condition("at_least", Compare)
def at_least(ctx: EffectContext, p: Compare) -> bool:
    """An amount is at least N now ("if you control three or more Swamps"): read without recording it; as an
    intervening "if" it is judged as the ability triggers and again as it resolves (CR 603.4)."""
    return peek(ctx, p.of) >= p.count


@MTG.condition("at_most", Compare)
def at_most(ctx: EffectContext, p: Compare) -> bool:
    """An amount is at most N now: "if no creatures are on the battlefield" is a count of them at most 0
    (《疫病》); judged as ``at_least`` is."""
    return peek(ctx, p.of) <= p.count


class TimesParams(Struct, frozen=True, forbid_unknown_fields=True):
    times: Annotated[int, Meta(ge=1)] = 1


TIMES_EACH_TURN = "times_each_turn"
ACTIVATIONS = "activations."  # status: how many times this turn an ability of the permanent was activated
ACTIVATED_TURN = "activated_turn."  # status: the turn those activations were counted in


def activations_this_turn(state: GameState, oid: int, ability: str) -> int:
    """How many times the permanent's ability was activated in the current turn (CR 602.5b)."""
    status = state.objects[oid].status
    return int(status.get(ACTIVATIONS + ability, 0)) if status.get(ACTIVATED_TURN + ability) == state.turn else 0


@MTG.condition(TIMES_EACH_TURN, TimesParams)
def times_each_turn(ctx: EffectContext, _: TimesParams) -> bool:
    """"Activate only once each turn" / "no more than twice each turn" (CR 602.5b): a restriction on activating,
    enforced as the ability is activated (``actions.why_not_activate``); nothing to check as it resolves."""
    return True


__all__ = ["MTG", "view"]
