"""General Duel Masters effect pieces: one verb per action (tap, untap, destroy, return to the hand, put into the
mana zone) over creatures picked by a selection (whose, tapped or untapped, power at most N), chosen by the
controller (up to ``count``, optionally "you may") or taken all at once, or this creature itself.

Card data composes them: 《デーモン・ハンド》 is ``destroy`` of one opposing creature; 《デス・スモーク》 the
same, untapped only; 《ホーリー・スパーク》 ``tap`` of all of them; 《クリムゾン・ハンマー》 ``destroy`` with power
at most 2000. Choosing is a ``Chosen`` event (「選んだ時」), as for the older single-purpose verbs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import view
from statemachine.amounts import Expr, evaluate
from statemachine.context import EffectContext
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.board import BATTLE, BOUNCE, DECK, GRAVEYARD, HAND, MANA, TO_GRAVEYARD, zone
from statemachine.games.duel_masters.computed import MILL
from statemachine.games.duel_masters.effects import DM, NonNegative, choose, may
from statemachine.vocabulary import Procedure


class Creatures(Struct, frozen=True, forbid_unknown_fields=True):
    """Which creatures in the battle zone an effect may act on."""

    whose: Literal["opponent", "you", "any"] = "opponent"  # whose creatures, relative to the controller
    tapped: bool | None = None  # only tapped ones (true), only untapped ones (false), or either
    max_power: NonNegative | None = None  # power at most this (パワー2000以下)
    other: bool = False  # 「他の」: leaves out this creature itself (《ギガベロス》, pool 1.6)


class ActParams(Struct, frozen=True, forbid_unknown_fields=True):
    which: Creatures = field(default_factory=Creatures)
    # "chosen": the controller chooses up to ``count`` of them; "all": every one at once; "self": this creature;
    # "subject": the creature the trigger is about (「そのクリーチャー」), if it is still in the battle zone
    what: Literal["chosen", "all", "self", "subject"] = "chosen"
    count: NonNegative | Expr = 1  # up to this many (computed when the step is carried out, pool 1.4)
    may: bool = False  # "…してもよい": the controller may choose none
    # who chooses among them: the controller, or their opponent (「相手は自分自身のクリーチャーを1体選び」,
    # DM-GAME-CHOOSE, pool 1.5)
    chooser: Literal["you", "opponent"] = "you"

    def problems(self) -> list[tuple[str, str]]:
        """A chooser other than the controller needs something to choose: refused at load otherwise."""
        if self.chooser != "you" and self.what != "chosen":
            return [(".chooser", f"the opponent chooses only what = \"chosen\" creatures, not {self.what!r}")]
        return []


def selected(ctx: EffectContext, which: Creatures) -> list[int]:
    st = ctx.state
    players = {"opponent": [ctx.opponent], "you": [ctx.controller], "any": [st.active, 1 - st.active]}[which.whose]
    me = ctx.source_now() if which.other else None
    out = []
    for p in players:
        for o in board.creatures(st, p):
            if o == me:
                continue
            if which.tapped is not None and board.is_tapped(st, o) != which.tapped:
                continue
            if which.max_power is not None and view(st, o).power > which.max_power:
                continue
            out.append(o)
    return out


def acted_on(ctx: EffectContext, p: ActParams, verb: str) -> Procedure:
    """The creatures the step acts on, left in ``ctx.bound['chosen']``, and how many the text names, left in
    ``ctx.bound['wanted']`` (read by ``otherwise``, 「そうしなければ」). A ``may`` on a step that chooses nothing
    (this creature, the subject, all of them) is asked as a yes/no question first (pool 1.5: 《浄化の精霊ウルス》's
    「このクリーチャーをアンタップしてもよい」; no card of earlier pools says may there)."""
    ctx.bound["wanted"] = 1
    if p.may and p.what != "chosen":
        yield from may(ctx, f"{verb} ({p.what})?")
        if not ctx.bound["yes"]:
            ctx.bound["chosen"] = []
            return
    if p.what in ("self", "subject"):
        one = ctx.source_now() if p.what == "self" else ctx.subject
        obj = ctx.state.objects.get(one) if one is not None else None
        ctx.bound["chosen"] = [obj.id] if obj is not None and board.kind_of(obj.zone) == BATTLE else []
        return
    options = selected(ctx, p.which)
    if p.what == "all":
        ctx.bound["chosen"] = options
        ctx.bound["wanted"] = len(options)
        return
    count = evaluate(ctx, p.count, "count")
    ctx.bound["chosen"] = []
    ctx.bound["wanted"] = count
    chooser = ctx.controller if p.chooser == "you" else ctx.opponent  # DM-GAME-CHOOSE
    if count > 0:
        yield from choose(ctx, chooser, options, f"choose a creature to {verb}", may_=p.may, count=count)


# The verbs over a selection of creatures that say how many they did (``ctx.bound['short']``, read by ``otherwise``)
COUNTED_VERBS: set[str] = set()


def _verb(name: str, doc: str, act: Callable[[EffectContext, list[int]], None]) -> None:
    def step(ctx: EffectContext, p: ActParams) -> Procedure:
        yield from acted_on(ctx, p, name.replace("_", " "))
        chosen = [o for o in ctx.bound["chosen"] if o in ctx.state.objects]
        if chosen:
            act(ctx, chosen)
        ctx.bound["short"] = len(chosen) < ctx.bound["wanted"]  # 「そうしなければ」 (``otherwise``) reads it

    step.__doc__ = doc
    DM.effect(name, ActParams)(step)
    COUNTED_VERBS.add(name)


_verb("tap", "Tap the selected creatures (``which``; ``what`` = chosen, all or self).",
      lambda ctx, oids: board.set_tapped(ctx.engine, oids, True))
_verb("untap", "Untap the selected creatures.", lambda ctx, oids: board.set_tapped(ctx.engine, oids, False))
_verb("destroy", "Destroy the selected creatures at the same time.", lambda ctx, oids: board.destroy(ctx.engine, oids))
_verb("return_to_hand", "Return the selected creatures to their owners' hands (バウンス).",
      lambda ctx, oids: board.to_owner(ctx.engine, oids, HAND, BOUNCE))
_verb("put_into_graveyard", "Put the selected creatures into their owners' graveyards (「墓地に置く」, pool 1.6): "
      "they are not destroyed, so 「破壊された時」 abilities and 破壊置換 do not apply; 「墓地に置かれた時」 ones do "
      "(DM-LB-07).",
      lambda ctx, oids: board.to_owner(ctx.engine, oids, GRAVEYARD, TO_GRAVEYARD))
_verb("put_into_mana", "Put the selected creatures into their owners' mana zones (マナ送り).",
      lambda ctx, oids: board.to_owner(ctx.engine, oids, MANA, "to_mana"))


class SearchParams(Struct, frozen=True, forbid_unknown_fields=True):
    """Which cards of your deck a search may take (「山札を見て、その中から…を選び」)."""

    types: tuple[str, ...] = ("creature",)  # a card with at least one of these types; empty: any card (pool 1.5)
    count: NonNegative = 1
    may: bool = False  # 「…してもよい」: the controller may take none
    to: Literal["hand", "mana"] = "hand"  # where the chosen cards go (手札に加える / マナゾーンに置く)
    # 「…を相手に見せてから」: the chosen cards are shown to every player; false: only their taker sees them
    # (《クリスタル・メモリー》, pool 1.5)
    show: bool = True


@DM.effect("search_deck", SearchParams)
def search_deck(ctx: EffectContext, p: SearchParams) -> Procedure:
    """Look at your deck, choose up to ``count`` cards of the given types (any card when none is given), show them to
    your opponent (unless ``show`` is false) and put them into your hand (or mana zone); then shuffle your deck
    (DM-GAME-SEARCH; 《ディメンジョン・ゲート》, 《クリスタル・メモリー》). The controller sees the whole deck (recorded
    as Revealed to them)."""
    st = ctx.state
    deck = list(st.zone(zone(ctx.controller, DECK)))
    if deck:
        ctx.engine.emit(*[ev.Revealed(o, (ctx.controller,), st.objects[o].card, st.facts(o).definition)
                          for o in deck])
    options = [o for o in deck if not p.types or set(p.types) & set(view(st, o).chars.types)]
    yield from choose(ctx, ctx.controller, options, f"choose a card of your deck ({', '.join(p.types)})",
                      may_=p.may, count=p.count, rule="DM-GAME-SEARCH")
    taken = ctx.bound["chosen"]
    if taken:
        if p.show:
            ctx.engine.emit(*[ev.Revealed(o, tuple(range(len(st.players))), st.objects[o].card,
                                          st.facts(o).definition) for o in taken])
        dest = HAND if p.to == "hand" else MANA
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(ctx.controller, dest)) for o in taken], "search"))
    if st.zone(zone(ctx.controller, DECK)):
        ctx.engine.shuffle(zone(ctx.controller, DECK))


class MillParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: NonNegative = 1


@DM.effect("mill", MillParams)
def mill(ctx: EffectContext, p: MillParams) -> Procedure:
    """「自分の山札の上からN枚を墓地に置く」: the top N cards of your deck (as many as there are) go to your graveyard
    at the same time."""
    top = list(ctx.state.zone(zone(ctx.controller, DECK)))[: p.count]
    if top:
        moves = board.move_all(ctx.engine, [(o, zone(ctx.controller, GRAVEYARD)) for o in top], MILL)
        ctx.engine.emit(*moves)
        ctx.bound["moved"] = [m.new for m in moves]  # 「それが…なら」 (``if_moved``) reads them
    return
    yield


class DiscardParams(Struct, frozen=True, forbid_unknown_fields=True):
    # "seen": look at your opponent's hand and choose (「相手の手札を見て、その中から…選び、捨てさせる」);
    # "all": their whole hand (「相手の手札をすべて捨てさせる」)
    what: Literal["seen", "all"] = "seen"
    count: NonNegative = 1
    # whose hand: your opponent's, or your own (「自分の手札を1枚捨てる」, pool 1.5), chosen by you either way
    whose: Literal["opponent", "you"] = "opponent"


@DM.effect("discard", DiscardParams)
def discard(ctx: EffectContext, p: DiscardParams) -> Procedure:
    """A player discards cards of their hand: your opponent, ones you choose having seen the hand (recorded as
    Revealed to you), or all of them at the same time; or you, ones of your own hand you choose (DM-GAME-DISCARD).
    ``discard_blind`` chooses without looking."""
    st = ctx.state
    owner = ctx.opponent if p.whose == "opponent" else ctx.controller
    hand = list(st.zone(zone(owner, HAND)))
    if p.what == "all":
        chosen = hand
    else:
        if hand and owner != ctx.controller:
            ctx.engine.emit(*[ev.Revealed(o, (ctx.controller,), st.objects[o].card, st.facts(o).definition)
                              for o in hand])
        whose = "your opponent's" if owner != ctx.controller else "your"
        yield from choose(ctx, ctx.controller, hand, f"choose a card of {whose} hand to discard", may_=False,
                          count=p.count)
        chosen = ctx.bound["chosen"]
    if chosen:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, zone(owner, GRAVEYARD)) for o in chosen],
                                        board.DISCARD))


# The rule for one-card verbs (#25, tests/statemachine/test_duel_masters_pieces.py): a step or condition that only
# one card of the newest pool uses must be a general piece — an action of the game any card may take, its object
# given by parameters (a selection, types, an amount), never a card's whole text. These are, and why:
GENERAL_PIECES: dict[str, str] = {
    "battle": "効果バトル: this creature battles the creatures a selection picks",
    "cast_free_spell": "casts a spell from the hand for free; which spells is a name filter (名前に《X》とある)",
    "extra_turn": "追加ターン: a game primitive with no object",
    "if_moved": "「それが…なら」: types and civilizations of whatever the step before moved",
    "lift_attack_limits": "ダイヤモンド状態: a rule of the turn for a player's creatures, no object",
    "invade": "侵略: the keyword's action (this card onto the trigger's subject); every 侵略 card uses it",
    "look_top": "look at the top N, take a card of the given types, the rest to the bottom",
    "mana_boost": "マナブースト: the top N cards of the deck into the mana zone",
    "otherwise": "「そうしなければ」: a sequence word reading whether the step before did all it names; no object",
    "put_into_graveyard_after_battle": "「バトルの後、墓地に置く」: a mark on this creature or the subject (as "
                                       "destroy_after)",
    "search_deck": "search the deck for cards of the given types, to the hand or mana zone",
    "watch_this_turn": "「このターン、…した時」: an ability of the card watching a selection of creatures for the turn",
    "creatures_at_least": "「<race>のクリーチャーがN体以上あれば」: a condition with parameters (side, races, count)",
    "untap": "untap over a selection, as tap",
    "mana_color_at_least": "マナ武装 N of a civilization: a condition with parameters",
    "was_evolved_before_moving": "DM-LB-19: whether this card was an evolution creature just before it moved",
}
