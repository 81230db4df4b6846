"""Vision of Phantasm pieces for when a card may be played and what a turn holds (pool 1.4): a card played only in
the maintenance phase, skipping this turn's draw phase, a condition comparing hand sizes with a branch on it
(``if``), and discarding cards of a hand at random.

《人形の森》 is ``maintenance_only`` + ``skip_draw`` + ``draw``; 《流星祈願会》 is ``if`` on
``hand_fewer_than_opponent`` carrying ``discard_random`` or ``draw``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from projections.state import GameState
from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.actions import MAINTENANCE_ONLY
from statemachine.games.vision.board import HAND, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import KEYWORD, NoParams, Procedure

# ``actions`` refuses a card with the keyword outside the maintenance phase: kifu's first phase of the turn (where
# nodes and cards become active) is the maintenance phase, before the draw phase.
SKIP_DRAW = "skip_draw"  # the turn whose draw phase is skipped, kept on the turn player

VOP.declare(KEYWORD, {
    MAINTENANCE_ONLY: "〔このカード〕はメンテナンスフェイズにしかプレイ出来ない: played only in the maintenance phase "
                      "(kifu's first phase, 'active'), in any player's turn (VOP-GAME-TIMING)",
})

Count = Annotated[int, Meta(ge=0)]


@VOP.effect("skip_draw")
def skip_draw(ctx: EffectContext, _: NoParams) -> Procedure:
    """「このターンのドローフェイズをスキップし」: the turn player draws nothing in this turn's draw phase (a card
    played in the maintenance phase comes before it; played later, the draw phase has passed and nothing changes)."""
    st = ctx.state
    ctx.engine.emit(ev.PlayerStat(st.active, SKIP_DRAW, st.turn))
    return
    yield


def draw_skipped(state: GameState, player: int) -> bool:
    """Whether this turn's draw phase is skipped for ``player`` (``skip_draw``)."""
    return state.stat(player, SKIP_DRAW) == state.turn


class HandParams(Struct, frozen=True, forbid_unknown_fields=True):
    at_least: Count = 1  # your hand has at least this many cards fewer than the opponent's...
    at_most: Count | None = None  # ...and at most this many (none: no bound)


@VOP.condition("hand_fewer_than_opponent", HandParams)
def hand_fewer_than_opponent(ctx: EffectContext, p: HandParams) -> bool:
    """「あなたの手札が相手プレイヤーの手札よりN枚少ない場合」 (「N枚以上少ない」: no ``at_most``): judged where
    the card says — in an ``if`` step, as the effect resolves (「〔このカード〕の解決時」)."""
    st = ctx.state
    short = len(st.zone(zone(ctx.opponent, HAND))) - len(st.zone(zone(ctx.controller, HAND)))
    return short >= p.at_least and (p.at_most is None or short <= p.at_most)


ConditionName = Annotated[str, Meta(extra={"names": "condition"})]


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    condition: ConditionName  # a condition of the vocabulary, judged as this step resolves
    then: str  # the effect carried out when it holds
    params: dict[str, object] = field(default_factory=dict)
    condition_params: dict[str, object] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)]


@VOP.effect("if", IfParams)
def if_(ctx: EffectContext, p: IfParams) -> Procedure:
    """「…場合、…」: carry out ``then`` if ``condition`` holds as this step resolves (a card's text is judged at its
    resolution, VOP-I-13); several ``if`` steps in a row are the numbered effects a card chooses between."""
    if VOP.check(ctx, p.condition, p.condition_params):
        yield from VOP.run_effect(ctx, p.then, p.params)


class RandomDiscardParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Count = 1
    whose: Literal["opponent", "you"] = "opponent"


@VOP.effect("discard_random", RandomDiscardParams)
def discard_random(ctx: EffectContext, p: RandomDiscardParams) -> Procedure:
    """「〔相手プレイヤー1人の手札N枚〕を無作為に選んで破棄する」: drawn at random as it resolves (each pick a
    ``RandomDrawn`` from the game's seed), then discarded together."""
    player = ctx.opponent if p.whose == "opponent" else ctx.controller
    hand = list(ctx.state.zone(zone(player, HAND)))
    picked: list[int] = []
    for _ in range(min(p.count, len(hand))):
        left = [o for o in hand if o not in picked]
        picked.append(left[ctx.engine.random_below(len(left), "random discard")])
    if picked:
        board.to_discard(ctx.engine, picked, "discard")
    return
    yield


# The conditions an ``if`` step may name (checked at load like any declared name); every module registering
# conditions is imported before this one (``profile``).
VOP.declare("condition", {name: entry.doc for name, entry in VOP.conditions.items()})

__all__ = ["draw_skipped"]
