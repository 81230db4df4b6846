"""Cards of the deck's top worked by effects (pool 1.7): revealed and sorted (《魔界》), or set as a node
(《西蔵人形》).

``reveal_deck_top``: 「〔あなたのデッキの上のカードN枚〕を公開し、その中に含まれている…を全て手札に加える。それ以外
のカードは任意の順番でデッキの下に戻す。」 — the top N cards are shown to every player; those matching the filter go
to the hand, and the controller puts the others on the bottom one at a time, in the order they choose
(VOP-GAME-DECK-TOP). ``deck_to_node``: 「〔あなたのデッキの上のカード1枚〕をアクティブ状態でノードに加えても良い」 —
the top card becomes a node, active (untapped); with ``may`` the controller is asked. Neither is setting a node from
the hand (VOP-GAME-NODE's one a turn is not used).

Seed 003 is silent on both; kifu decides (README, "Changes in 1.7").
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.context import EffectContext
from statemachine.games.vision import board
from statemachine.games.vision.board import DECK, HAND, NODE, zone
from statemachine.games.vision.effects import VOP
from statemachine.vocabulary import Procedure

TAKEN, TO_BOTTOM, TO_NODE = "taken", "to_bottom", "deck_to_node"  # ZoneChanged.cause

Positive = Annotated[int, Meta(ge=1)]


class DeckTopParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: Positive = 1
    # What is taken into the hand: cards with one of these types (empty: any type) and, if given, this race
    # (「種族:R」を持つ, the card's subtypes).
    types: tuple[Literal["character", "spell_card", "command"], ...] = ()
    race: str = ""


def matches(state: GameState, oid: int, p: DeckTopParams) -> bool:
    chars = view(state, oid).chars
    return (not p.types or bool(set(chars.types) & set(p.types))) and (not p.race or p.race in chars.subtypes)


@VOP.effect("reveal_deck_top", DeckTopParams)
def reveal_deck_top(ctx: EffectContext, p: DeckTopParams) -> Procedure:
    """The controller's top N cards are revealed to every player; every one matching goes to the hand at once; the
    controller then chooses, one at a time, which of the rest goes to the bottom next (the first chosen lies
    above the later ones); a last card needs no choice."""
    st = ctx.state
    me = ctx.controller
    seen = list(st.zone(zone(me, DECK))[: p.count])
    if not seen:
        return
    everyone = tuple(range(len(st.players)))
    ctx.engine.emit(*[ev.Revealed(o, everyone, st.objects[o].card, st.facts(o).definition) for o in seen])
    taken = [o for o in seen if matches(st, o, p)]
    if taken:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(me, HAND)) for o in taken], TAKEN))
    rest = [o for o in seen if o not in taken]
    while rest:
        pick = rest[0]
        if len(rest) > 1:
            answer = yield ctx.request(me, "order", "choose the card to put on the bottom of your deck next",
                                       tuple(rest), rule="VOP-GAME-DECK-TOP")
            pick = int(answer[0])
        rest.remove(pick)
        ctx.engine.emit(board.move(ctx.engine, pick, zone(me, DECK), TO_BOTTOM))


class DeckToNodeParams(Struct, frozen=True, forbid_unknown_fields=True):
    may: bool = False  # 「…加えても良い」: the controller chooses


@VOP.effect("deck_to_node", DeckToNodeParams)
def deck_to_node(ctx: EffectContext, p: DeckToNodeParams) -> Procedure:
    """The controller's top card becomes one of their nodes, active (untapped); not setting a node from the hand.
    With an empty deck nothing happens (it is not a draw)."""
    st = ctx.state
    me = ctx.controller
    deck = st.zone(zone(me, DECK))
    if not deck:
        return
    if p.may:
        answer = yield ctx.request(me, "may", "put the top card of your deck into your nodes, active?",
                                   ("yes", "no"), rule="VOP-GAME-NODE")
        if not answer or answer[0] != "yes":
            return
    ctx.engine.emit(board.move(ctx.engine, deck[0], zone(me, NODE), TO_NODE))


__all__ = ["TAKEN", "TO_BOTTOM", "TO_NODE"]
