"""Costs (seed 002, MTG-C): what can be paid, and paying it as events other abilities can see.

A cost that cannot be paid in full cannot be paid (MTG-C-04): more life than you have (MTG-C-05), tapping a
tapped permanent (MTG-C-06), "discard a card" from a hand too small (MTG-C-09), a cost that does not exist
(MTG-C-12, checked by the caster). Zero life and zero mana are always payable, at any life total (MTG-C-07);
"discard your hand" is payable with an empty hand (MTG-C-08). Paying life equal to your life total is allowed
(SPEC Part 4 #18, decided in the README). Each payment is a ``CostPaid`` naming the spell or ability it pays for,
folded and matched for triggers like any other event (MTG-C-10). A cost changed into another action and paid
that way is recorded as the printed cost paid (MTG-C-11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import view
from statemachine.cards import EffectDef
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.board import BATTLEFIELD, HAND, LIFE, STACK, zone
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import NoParams, Procedure

Why = tuple[str, str]  # (SPEC id, reason)

# The static ability of 《代償の肩代わり》: "if a cost would have you discard a card, you may pay 2 life instead".
DISCARD_AS_LIFE = "discard_as_life"
CHANGED_LIFE = 2


class Cost(Protocol):
    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None: ...

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure: ...


def entry(c: EffectDef) -> tuple[Cost, object]:
    fn, params = MTG.cost_entry(c.name, c.params)
    return fn, params


def why_not_costs(engine: Engine, player: int, source: int, costs: Sequence[EffectDef], x: int) -> Why | None:
    """Why these costs cannot all be paid now, or None (each is checked; the first that fails is named)."""
    for c in costs:
        fn, params = entry(c)
        why = fn.why_not(engine, player, source, params, x)
        if why is not None:
            return why
    return None


def pay_costs(engine: Engine, player: int, source: int, costs: Sequence[EffectDef], effect: int | None,
              x: int) -> Procedure:
    for c in costs:
        fn, params = entry(c)
        yield from fn.pay(engine, player, source, params, effect, x)


def life_x(costs: Sequence[EffectDef]) -> bool:
    """Whether one of the costs is "pay X life" (X is chosen as the spell is cast, 601.2b)."""
    return any(c.name == "life" and c.params.get("x") for c in costs)


# -- tap ----------------------------------------------------------------------------------------------------


@MTG.cost("tap")
class Tap:
    """{T}: tap this permanent."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        st = engine.state
        if not board.on_battlefield(st, source):
            return "MTG-C-04", "only a permanent on the battlefield can be tapped"
        if board.is_tapped(st, source):
            return "MTG-C-06", "a tapped permanent cannot pay a cost that taps it"
        v = view(st, source)
        if "creature" in v.chars.types and v.status.get("sick") and "haste" not in v.chars.keywords:
            return "MTG-C-04", "a creature cannot pay {T} until you have controlled it since your turn began"
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        engine.emit(ev.StatusSet(source, "tapped", 1), ev.CostPaid(player, "tap", 1, (source,), effect))
        return
        yield


# -- life ---------------------------------------------------------------------------------------------------


class LifeParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: int = 0
    x: bool = False  # "pay X life": X is chosen while casting


@MTG.cost("life", LifeParams)
class Life:
    """Pay N life."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        assert isinstance(params, LifeParams)
        n = x if params.x else params.amount
        if n == 0:
            return None  # MTG-C-07: zero life is payable even at zero or negative life
        have = board.life(engine.state, player)
        if have < n:  # MTG-C-05; paying exactly your life total is allowed (SPEC Part 4 #18)
            return "MTG-C-05", f"you cannot pay {n} life with {have} life"
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        assert isinstance(params, LifeParams)
        n = x if params.x else params.amount
        have = board.life(engine.state, player)
        events: list[ev.Event] = [ev.PlayerStat(player, LIFE, have - n)] if n else []
        engine.emit(*events, ev.CostPaid(player, "life", n, (), effect))
        return
        yield


# -- discard ------------------------------------------------------------------------------------------------


class DiscardParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: int = 1


def _hand(engine: Engine, player: int, source: int) -> list[int]:
    return [o for o in engine.state.zone(zone(player, HAND)) if o != source]


def _may_change(engine: Engine, player: int, count: int) -> bool:
    st = engine.state
    return count == 1 and board.controls_ability(st, player, DISCARD_AS_LIFE) and board.life(
        st, player) >= CHANGED_LIFE


@MTG.cost("discard", DiscardParams)
class Discard:
    """Discard N cards (as many as it says: "discard a card" is N = 1)."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        assert isinstance(params, DiscardParams)
        hand = _hand(engine, player, source)
        if len(hand) < params.count and not _may_change(engine, player, params.count):
            return "MTG-C-09", f"you cannot discard {params.count} card(s) with {len(hand)} in hand"
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        assert isinstance(params, DiscardParams)
        hand = _hand(engine, player, source)
        options: list[int | str] = list(hand)
        if _may_change(engine, player, params.count):
            options.append("life")
        n = params.count
        if not n:
            engine.emit(ev.CostPaid(player, "discard", 0, (), effect))
            return
        chosen: list[int] = []
        for k in range(n):  # the cards are chosen one at a time, then discarded together
            left = [o for o in options if o not in chosen]
            answer = yield Request(player, "discard_cost", f"discard a card to pay the cost ({k + 1} of {n})",
                                   tuple(left), effect=effect, rule="MTG-C-09")
            if answer[0] == "life":
                # MTG-C-11: the cost was changed into paying life; paying it that way is paying the cost.
                have = board.life(engine.state, player)
                engine.emit(ev.PlayerStat(player, LIFE, have - CHANGED_LIFE),
                            ev.CostPaid(player, "discard", n, (), effect))
                return
            chosen.append(int(answer[0]))
        moves = board.to_graveyards(engine, chosen, board.DISCARD)
        engine.emit(*moves, ev.CostPaid(player, "discard", n, tuple(m.old for m in moves), effect))


@MTG.cost("discard_hand")
class DiscardHand:
    """Discard your hand: payable with an empty hand, by discarding all zero cards (MTG-C-08)."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        moves = board.to_graveyards(engine, _hand(engine, player, source), board.DISCARD)
        engine.emit(*moves, ev.CostPaid(player, "discard_hand", len(moves), tuple(m.old for m in moves), effect))
        return
        yield


# -- sacrifice ----------------------------------------------------------------------------------------------


class SacrificeParams(Struct, frozen=True, forbid_unknown_fields=True):
    what: Literal["self", "creature"] = "self"  # "creature": a creature you control


def _sacrificable(engine: Engine, player: int, source: int, p: SacrificeParams) -> list[int]:
    st = engine.state
    if p.what == "self":
        return [source] if board.on_battlefield(st, source) and st.objects[source].controller == player else []
    return board.creatures(st, player)


@MTG.cost("sacrifice", SacrificeParams)
class Sacrifice:
    """Sacrifice this permanent, or a creature you control. The spell remembers which (for its effect)."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        assert isinstance(params, SacrificeParams)
        if not _sacrificable(engine, player, source, params):
            return "MTG-C-04", f"you have no {'permanent' if params.what == 'self' else params.what} to sacrifice"
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        assert isinstance(params, SacrificeParams)
        options = _sacrificable(engine, player, source, params)
        if len(options) == 1 and params.what == "self":
            chosen = options[0]
        else:
            answer = yield Request(player, "sacrifice_cost", f"sacrifice a {params.what} to pay the cost",
                                   tuple(options), effect=effect, rule="MTG-C-04")
            chosen = int(answer[0])
        mark = [ev.StatusSet(source, "sacrificed", chosen)] if _on_stack(engine, source) else []
        moves = board.to_graveyards(engine, [chosen], board.SACRIFICE)
        engine.emit(*mark, *moves, ev.CostPaid(player, "sacrifice", 1, (chosen,), effect))


def _on_stack(engine: Engine, oid: int) -> bool:
    obj = engine.state.objects.get(oid)
    return obj is not None and obj.zone == STACK


@MTG.cost("none")
class NoCost:
    """A cost of nothing (an ability written "{0}:"): always payable (MTG-C-07)."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        engine.emit(ev.CostPaid(player, "none", 0, (), effect))
        return
        yield


__all__ = ["BATTLEFIELD", "NoParams", "Why", "life_x", "pay_costs", "why_not_costs"]
