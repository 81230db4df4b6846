"""Cards working from the discard pile (pool 1.6): 自動β 「メンテナンスフェイズに…」, removal from the game (除外),
and returning a card of a name from the discard pile to the hand.

《白玉楼》 and 《無名の丘》 print the same 自動β: 「メンテナンスフェイズに〔あなたの冥界にあるこのカード〕を
ゲームから除外しても良い。除外した場合、〔あなたの冥界にある「X」1枚〕を手札に戻す。」 — the trigger
``maintenance`` with ``where = "discard"``, the step ``remove_from_game`` (``may``, carrying ``then``) and
``return_to_hand``.

Seed 003 says neither when a maintenance-phase automatic effect arises nor what removal from the game is; kifu
decides (README, "Changes in 1.6"): it arises as the maintenance phase's prescribed effects have been done (the
nodes and cards made active), in every maintenance phase (the text names no player's), the turn player's first; a
card removed from the game lies in its owner's zone ``removed`` (VOP-GAME-REMOVED), from which nothing returns.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from projections.characteristics import view
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.vision import board
from statemachine.games.vision.board import HAND, REMOVED, RETURNED, zone
from statemachine.games.vision.effects import VOP
from statemachine.triggers import Instance, matches_filter
from statemachine.vocabulary import Procedure

Count = Annotated[int, Meta(ge=1)]


def fire_maintenance(engine: Engine) -> None:
    """自動β 「メンテナンスフェイズに…」 (VOP-GAME-MAINTENANCE): ``maintenance`` abilities arise from wherever their
    trigger's ``where`` says (the discard pile), the turn player's first, each side in card order; ``whose = "you"``
    limits one to its controller's own maintenance phase."""
    st = engine.state
    found: list[Instance] = []
    for lst in engine.index.listeners("maintenance"):
        holder = view(st, lst.obj)
        t = lst.ability.trigger
        assert t is not None
        theirs = holder.controller == st.active
        if (t.whose == "you" and not theirs) or (t.whose == "opponent" and theirs):
            continue
        if matches_filter(holder, t.filter, engine.index.tests):
            found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    if found:
        engine.policy.triggered(engine, found)


class RemoveParams(Struct, frozen=True, forbid_unknown_fields=True):
    # 「〔あなたの冥界にあるこのカード〕」: this card, and only while it lies in that zone of its owner
    where: Literal["discard", "field", "hand"] = "discard"
    may: bool = False  # 「除外しても良い」: its controller chooses
    then: str = ""  # 「除外した場合、…」: carried out only if it was removed
    params: dict[str, Any] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)] if self.then else []


@VOP.effect("remove_from_game", RemoveParams)
def remove_from_game(ctx: EffectContext, p: RemoveParams) -> Procedure:
    """「〔…このカード〕をゲームから除外する(しても良い)。除外した場合、…」: this card, if it still lies in ``where``,
    goes to its owner's excluded zone (除外) (VOP-GAME-REMOVED); then ``then`` is carried out. A card no longer there is
    not removed, and nothing follows."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or board.kind_of(st.objects[me].zone) != p.where:
        return
    asked = "remove this card from the game?"
    if p.may and not (yield from ctx.agrees(ctx.controller, asked, rule="VOP-GAME-REMOVED")):
        return
    ctx.engine.emit(board.move(ctx.engine, me, zone(st.objects[me].owner, REMOVED), REMOVED))
    if p.then:
        yield from VOP.run_effect(ctx, p.then, p.params)


class ReturnParams(Struct, frozen=True, forbid_unknown_fields=True):
    name: str  # 「「X」1枚」: the printed name the card must have
    count: Count = 1
    source: Literal["discard"] = field(default="discard", name="from")  # 「あなたの冥界にある」

    def problems(self) -> list[tuple[str, str]]:
        return [(".name", "a card to return must be named")] if not self.name.strip() else []


@VOP.effect("return_to_hand", ReturnParams)
def return_to_hand(ctx: EffectContext, p: ReturnParams) -> Procedure:
    """「〔あなたの冥界にある「X」N枚〕を手札に戻す」: N cards named X of the controller's pile go to their hand; with
    more such cards than N the controller chooses which, one at a time (all are face up: no card is hidden)."""
    st = ctx.state
    named = [o for o in st.zone(zone(ctx.controller, p.source)) if view(st, o).chars.name == p.name]
    chosen = named if len(named) <= p.count else []
    while len(chosen) < min(p.count, len(named)):
        left = tuple(o for o in named if o not in chosen)
        answer = yield ctx.request(ctx.controller, "return", f"choose a card named {p.name} to return to your hand",
                                   left, rule="VOP-GAME-RETURN")
        chosen.append(int(answer[0]))
    if chosen:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.controller, HAND)) for o in chosen], RETURNED))

