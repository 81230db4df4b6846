"""Cards taken from the deck by a rule, and targets chosen as an effect resolves.

``summon_from_deck`` (「デッキから…ランダムに出す」, ネフティス) and ``add_from_deck`` (「デッキから…ランダムに手札に
加える」) draw each card at random at resolution (SV-O-06) among the deck's cards their filter names; a card
summoned from the deck comes into play (summoned, not played: no Fanfare of its own is asked, SV-O-59), and one
added to the hand is not revealed (SV-O-121). ``choose`` asks the controller, as the effect resolves, for one
of what a selector names now (「自分のリーダーか自分のフォロワー1体を選ぶ」 in a turn-end effect, ルシフェル:
unlike a Fanfare's or spell's target, SV-O-35, nobody chose it at play); the selector ``chosen`` then names it.
``add_copy`` makes a copy of a card a player played last, or of the card chosen at play, into the deck or hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from msgspec import Struct, field

from projections.characteristics import view
from statemachine.amounts import Amount, evaluate
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import DECK, HAND
from statemachine.games.shadowverse.effects.targets import CHOSEN, SV, declared, ordered, random_pick
from statemachine.vocabulary import Procedure, Selector

CardType = Literal["follower", "spell", "amulet"]


class DeckParams(Struct, frozen=True, forbid_unknown_fields=True):
    types: list[CardType] = field(default_factory=lambda: ["follower"])  # a card of one of these types
    count: Amount = 1  # how many, computed at resolution (SV-O-08)
    until_full: bool = False  # 「場がいっぱいになるまで」: until the field holds 5 (then count is not said)
    different_costs: bool = False  # 「コストの異なる」: no two of the same cost

    def problems(self) -> list[tuple[str, str]]:
        if self.until_full and self.count != 1:
            return [(".count", "say count or until_full, not both")]
        return []


def _deck_picks(ctx: EffectContext, p: DeckParams, purpose: str, room: int) -> Iterator[int]:
    """Cards of the deck drawn one at a time at random (SV-O-06), each among those the filter still allows once
    the one before has been dealt with (put into play, into the hand)."""
    st = ctx.state
    want = room if p.until_full else min(room, evaluate(ctx, p.count, "count"))
    costs: set[int] = set()
    for _ in range(want):
        options = [o for o in st.zone(board.zone(ctx.controller, DECK))
                   if any(t in view(st, o).chars.types for t in p.types)
                   and not (p.different_costs and (view(st, o).chars.cost or 0) in costs)]
        pick = random_pick(ctx, options, purpose)
        if pick is None:
            return
        costs.add(view(st, pick).chars.cost or 0)
        yield pick


@SV.effect("summon_from_deck", DeckParams, asks=False)
def summon_from_deck(ctx: EffectContext, p: DeckParams) -> Procedure:
    """「デッキから…ランダムに出す」: cards of the deck drawn at random at resolution, one at a time, each among those
    the filter still allows (different costs), put onto the field while it has room; they come into play."""
    room = board.FIELD_LIMIT - len(board.field(ctx.state, ctx.controller))
    for pick in _deck_picks(ctx, p, "summon from deck", room):
        board.come_into_play(ctx.engine, pick, ctx.controller)
    return
    yield


@SV.effect("add_from_deck", DeckParams, asks=False)
def add_from_deck(ctx: EffectContext, p: DeckParams) -> Procedure:
    """「デッキから…ランダムに手札に加える」: cards of the deck drawn at random at resolution to the hand, not
    revealed (SV-O-121)."""
    for pick in _deck_picks(ctx, p, "tutor", len(ctx.state.zone(board.zone(ctx.controller, DECK)))):
        ctx.engine.emit(board.move(ctx.engine, pick, board.zone(ctx.controller, HAND), "tutor"))
    return
    yield


class ChooseParams(Struct, frozen=True, forbid_unknown_fields=True):
    among: Selector  # what the controller chooses from, as the selector names it now
    prompt: str = "choose"


@SV.effect("choose", ChooseParams)
def choose(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """Choose one, as the effect resolves, of what ``among`` names now (a leader too); the selector ``chosen``
    names it for the rest of the text. Nothing to choose from: ``chosen`` names nothing."""
    options = ordered(ctx, p.among)
    ctx.bound[CHOSEN] = []
    if not options:
        return
    answer = yield ctx.request(ctx.controller, "target", p.prompt, tuple(options))
    ctx.bound[CHOSEN] = [int(answer[0])]


class CopyParams(Struct, frozen=True, forbid_unknown_fields=True):
    of: Literal["last_played", "target"]  # the card a player played last (as played), or the card chosen at play
    whose: Literal["you", "opponent"] = "opponent"  # with last_played: whose last card
    to: Literal["deck", "hand"] = "deck"  # where the copy goes (yours)


@SV.effect("add_copy", CopyParams, asks=False)
def add_copy(ctx: EffectContext, p: CopyParams) -> Procedure:
    """「…のコピーを自分のデッキに加える」: a copy of a card — the one a player played last, as it was played
    (SV-O-63/64: an Accelerate or Crystallize card is the card it was played as), or the one chosen at play —
    made into your deck or hand. Nothing played yet, nothing chosen: nothing is made."""
    st = ctx.state
    if p.of == "last_played":
        cid = st.stat(ctx.controller if p.whose == "you" else ctx.opponent, "last_played")
        definition = st.cards[cid].definition if cid and cid in st.cards else None
    else:
        chosen = [t for t in declared(ctx) if t in st.objects]
        definition = st.facts(chosen[0]).definition if chosen else None
    if definition is not None:
        board.create(ctx.engine, definition, ctx.controller, DECK if p.to == "deck" else HAND)
    return
    yield
