"""Cards taken from the deck by a rule, and targets chosen as an effect resolves.

``summon_from_deck`` (「デッキから…ランダムに出す」, ネフティス) and ``add_from_deck`` (「デッキから…ランダムに手札に
加える」) draw each card at random at resolution (SV-O-06) among the deck's cards their filter names; a card
summoned from the deck comes into play (summoned, not played: no Fanfare of its own is asked, SV-O-59), and one
added to the hand is not revealed (SV-O-121). ``choose`` asks the controller, as the effect resolves, for one
of what a selector names now (「自分のリーダーか自分のフォロワー1体を選ぶ」 in a turn-end effect, ルシフェル:
unlike a Fanfare's or spell's target, SV-O-35, nobody chose it at play); the selector ``chosen`` then names it.
``add_copy`` makes a copy of a card a player played last, or of the card chosen at play, into the deck or hand.
``replace_deck`` puts a listed deck in the place of the player's deck (サタン's Apocalypse Deck).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from projections.characteristics import view
from statemachine.amounts import Amount, evaluate
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import DECK, HAND, LIMBO
from statemachine.games.shadowverse.effects.targets import CHOSEN, SV, Where, declared, ordered, random_pick
from statemachine.loader import CardFileError
from statemachine.vocabulary import Procedure, Selector

CardType = Literal["follower", "spell", "amulet"]
REPLACED = "replaced"  # ZoneChanged.cause: a card of a deck that was replaced, set aside outside the game


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
    where: Where | None = None  # only cards whose defense, attack or cost now are within bounds (from pool 1.6)

    def problems(self) -> list[tuple[str, str]]:
        return [(".where" + at, why) for at, why in self.where.problems()] if self.where else []


@SV.effect("choose", ChooseParams)
def choose(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """Choose one, as the effect resolves, of what ``among`` names now (a leader too); the selector ``chosen``
    names it for the rest of the text. Nothing to choose from: ``chosen`` names nothing."""
    options = [o for o in ordered(ctx, p.among) if p.where is None or p.where.admits(ctx.state, o)]
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


class DeckEntry(Struct, frozen=True, forbid_unknown_fields=True):
    card: str  # a card of the pool (checked at load)
    count: Annotated[int, Meta(ge=1)] = 1


class DeckListParams(Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[DeckEntry]  # the new deck, card by card (「アポカリプスデッキ」: 3+3+3+1)

    def problems(self) -> list[tuple[str, str]]:
        return [] if self.cards else [(".cards", "a deck of no cards: say the cards it holds")]


@SV.effect("replace_deck", DeckListParams, asks=False)
def replace_deck(ctx: EffectContext, p: DeckListParams) -> Procedure:
    """「自分のデッキを…デッキにする」 (サタン: the Apocalypse Deck): every card of your deck leaves the game — set
    aside outside it (``limbo``, cause ``replaced``), neither banished nor to the cemetery — and the cards listed
    are made into your deck, shuffled (a ``Shuffled`` from the game's seed, SV-O-06); drawing goes on from the new
    deck, and drawing from it empty loses as ever. ``cards = [{ card, count }]``: each card of the pool (checked at
    load) and how many of it (at least 1)."""
    st = ctx.state
    me = ctx.controller
    deck = board.zone(me, DECK)
    old = list(st.zone(deck))
    if old:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, board.zone(me, LIMBO)) for o in old], REPLACED))
    for entry in p.cards:
        for _ in range(entry.count):
            board.create(ctx.engine, entry.card, me, DECK)
    ctx.engine.shuffle(deck)
    return
    yield


def check_deck_lists(pool: CardPool) -> None:
    """Every card a deck list of ``replace_deck`` names is in the pool: refused at load, naming card, ability, path."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if step.name != "replace_deck":
                    continue
                for i, entry in enumerate(step.params.get("cards", [])):
                    if entry.get("card") not in pool.cards:
                        raise CardFileError(pool.name, f"the new deck holds {entry.get('card')!r}, which is not in "
                                            "the pool", card.id, f"$.abilities[{n}].effects[{k}].params.cards[{i}]"
                                            ".card", ability.id)
