"""Static effects a card has where it lies (pool 1.7), read by the rules they change, and play conditions on this
turn's nodes.

An ability of kind ``static`` holds ``static_...`` steps: nothing carries them out; the rule they change reads them
while the card lies where the step's ``where`` says. ``static_play_discount`` (《魔界》): 「(自動β): 〔このカード〕
があなたの冥界にある場合、〔あなたがプレイする種族:Rを持つキャラクターカード〕の必要ノードとコストは-1される。」 —
while the card lies in its owner's discard pile, the cards of that kind its owner plays need N fewer nodes and cost
N less (never below 0); several such cards add up (VOP-GAME-COST).

The keyword ``excludes_node_from_hand`` (《西蔵人形》): 「このターン、あなたが手札を直接ノードにセットしていない場
合のみプレイ出来る。このカードがプレイされたターン、あなたは手札を直接ノードにセット出来ない。」 — refused once its
player set a node from the hand this turn; once it is played, setting a node from the hand is prohibited to its
player until the end of the turn (a ``prohibit`` of ``set_node``, VOP-GAME-NODE).

Seed 003 says neither; kifu decides (README, "Changes in 1.7").
"""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple

from msgspec import Meta, Struct

from projections.characteristics import view
from projections.state import GameState
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.vision.board import DISCARD, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import KEYWORD, Procedure

EXCLUDES_NODE = "excludes_node_from_hand"
STATIC = "static"
VOP.declare(KEYWORD, {
    EXCLUDES_NODE: "「このターン、あなたが手札を直接ノードにセットしていない場合のみプレイ出来る。このカードが"
                   "プレイされたターン、あなたは手札を直接ノードにセット出来ない」: refused after its player "
                   "set a node from the hand this turn; once played, setting one from the hand is prohibited to "
                   "them this turn (VOP-GAME-NODE)",
})
VOP.silent_kinds = VOP.silent_kinds | {STATIC}  # a static effect asks nobody: a ``may`` on it is refused at load

Reduction = Annotated[int, Meta(ge=1)]


class DiscountParams(Struct, frozen=True, forbid_unknown_fields=True):
    where: Literal["discard"] = "discard"  # where the card lies for it to be in force: 「あなたの冥界にある場合」
    types: tuple[Literal["character", "spell_card", "command"], ...] = ("character",)  # the cards it applies to
    race: str = ""  # and, if given, their race (「種族:R」を持つ)
    node: int = 0  # 必要ノード -N
    cost: int = 0  # コスト -N

    def problems(self) -> list[tuple[str, str]]:
        if self.node < 0 or self.cost < 0:
            return [(".node", "a discount is a number of nodes taken off: not negative")]
        if not (self.node or self.cost):
            return [(".node", "a discount must lower NODE or COST")]
        return []


@VOP.effect("static_play_discount", DiscountParams, asks=False)
def static_play_discount(ctx: EffectContext, p: DiscountParams) -> Procedure:
    """A static effect (ability kind ``static``): read by the play rules (``discount``), never carried out."""
    return
    yield


class Discount(NamedTuple):
    node: int
    cost: int


def discount(state: GameState, pool: CardPool, player: int, oid: int) -> Discount:
    """What the static effects in force take off the NODE and COST of the card ``oid`` that ``player`` plays."""
    chars = view(state, oid).chars
    node = cost = 0
    for lying in state.zone(zone(player, DISCARD)):
        card = pool.cards.get(state.facts(lying).definition)
        for ability in card.abilities if card is not None else ():
            if ability.kind != STATIC:
                continue
            for step in ability.effects:
                if step.name != "static_play_discount":
                    continue
                p: DiscountParams = VOP.effects[step.name].parse(step.params)
                if set(chars.types) & set(p.types) and (not p.race or p.race in chars.subtypes):
                    node, cost = node + p.node, cost + p.cost
    return Discount(node, cost)


__all__ = ["EXCLUDES_NODE", "Discount", "discount"]
