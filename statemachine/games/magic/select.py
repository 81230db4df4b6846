"""What an effect acts on: restrictions on objects and players, and the selectors that name them.

A ``Filter`` is the restriction a card states ("nonblack", "artifact or enchantment", "tapped", "an opponent
controls", "with power 2 or less", "mana value X or less"); a target step carries one (``targets``), and so does
an effect that acts on "each creature [with ...]" without targeting. ``On`` says what an effect step acts on:
a chosen target, this object, each object matching a filter, or players (CR 115 targets; CR 608.2b; "each" and
"all" do not target, CR 115.10).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from projections.characteristics import ObjectView, view
from projections.state import GameState
from statemachine.amounts import Amount, evaluate
from statemachine.context import EffectContext
from statemachine.games.magic import board
from statemachine.vocabulary import Keyword

Color = Literal["white", "blue", "black", "red", "green"]
CardType = Literal["creature", "artifact", "enchantment", "land", "instant", "sorcery", "planeswalker"]
Whose = Literal["any", "you", "opponent"]
# What an effect step acts on. "target": the ability's target step ``target`` (counted from 0); "this": the
# source itself ("this creature gets +1/+0"); "each": every permanent matching ``filter`` ("each creature",
# "all artifacts"); "each_player", "you", "each_opponent": players; "subject": what the trigger is about;
# "attached": the permanent this aura is attached to ("enchanted creature", CR 303.4); "subject_controller": the
# player who controls (or last controlled) what the trigger is about ("that creature's controller"); "active":
# the player whose turn it is ("that player" of a trigger at the beginning of a player's step: Cursed Land, 1.6).
On = Literal["target", "this", "each", "each_player", "you", "each_opponent", "subject", "attached",
             "subject_controller", "active"]


class Filter(Struct, frozen=True, forbid_unknown_fields=True):
    """A restriction on an object: every field given must hold (a list holds when any of its values does)."""

    types: list[CardType] = field(default_factory=list)  # has one of these card types
    not_types: list[CardType] = field(default_factory=list)  # "non-": has none of them
    subtypes: list[str] = field(default_factory=list)  # has one of these subtypes ("Wall", "Forest")
    colors: list[Color] = field(default_factory=list)  # is one of these colours
    not_colors: list[Color] = field(default_factory=list)  # "nonblack": is none of them
    keywords: list[Keyword] = field(default_factory=list)  # has one of these keywords ("with flying")
    not_keywords: list[Keyword] = field(default_factory=list)  # "without flying"
    controller: Whose = "any"  # relative to the ability's controller ("an opponent controls")
    tapped: bool | None = None  # "tapped creature" (true), "untapped" (false)
    attacking: bool | None = None  # "attacking creature"
    in_combat: bool | None = None  # "attacking or blocking creature" (true), or neither (false)
    max_power: int | None = None  # "with power N or less"
    max_cost: Amount | None = None  # "with mana value N or less" ({ x = true }: X or less)
    other: bool = False  # "another": not the source itself
    blocked_by_this: bool | None = None  # "the creature it blocks" (true): the attacker the source is blocking
    toughness_below_source_power: bool = False  # "with toughness less than ~'s power" (the source as it is now)

    def problems(self, at: str = "") -> list[tuple[str, str]]:
        """Restrictions no object can meet: a selector that can select nothing."""
        out = []
        for have, lack, what in ((self.types, self.not_types, "types"), (self.colors, self.not_colors, "colors"),
                                 (self.keywords, self.not_keywords, "keywords")):
            both = sorted(set(have) & set(lack))
            if both:
                out.append((f"{at}.not_{what}", f"selects nothing: both {what} and not_{what} name {both[0]!r}"))
        if self.max_power is not None and self.max_power < 0:
            out.append((f"{at}.max_power", "a power of less than zero is never asked for (write 0 or more)"))
        return out


def matches(ctx: EffectContext, f: Filter, seen: ObjectView) -> bool:
    """Whether the object as seen meets every restriction (characteristics as they are now, CR 613)."""
    c = seen.chars
    for want, have in ((f.types, c.types), (f.subtypes, c.subtypes), (f.colors, c.colors), (f.keywords, c.keywords)):
        if want and not set(want) & set(have):
            return False
    for lack, have in ((f.not_types, c.types), (f.not_colors, c.colors), (f.not_keywords, c.keywords)):
        if set(lack) & set(have):
            return False
    if f.controller == "you" and seen.controller != ctx.controller:
        return False
    if f.controller == "opponent" and seen.controller == ctx.controller:
        return False
    if f.tapped is not None and seen.tapped != f.tapped:
        return False
    if f.attacking is not None and bool(seen.status.get("attacking")) != f.attacking:
        return False
    if f.in_combat is not None and bool(seen.status.get("attacking") or seen.status.get("blocking")) != f.in_combat:
        return False
    if f.max_power is not None and seen.power > f.max_power:
        return False
    if f.other and seen.obj == ctx.source:
        return False
    if f.blocked_by_this is not None and _blocked_by_source(ctx, seen.obj) != f.blocked_by_this:
        return False
    if f.toughness_below_source_power and not (
            ctx.source in ctx.state.objects and (c.toughness or 0) < view(ctx.state, ctx.source).power):
        return False
    return f.max_cost is None or (c.cost or 0) <= evaluate(ctx, f.max_cost, "max_cost")


def _blocked_by_source(ctx: EffectContext, oid: int) -> bool:
    src = ctx.state.objects.get(ctx.source)
    return src is not None and board.on_battlefield(ctx.state, ctx.source) and src.status.get("blocking") == oid


def player_ok(ctx: EffectContext, whose: Whose, player: int) -> bool:
    return whose == "any" or (player == ctx.controller) == (whose == "you")


def each(ctx: EffectContext, f: Filter) -> list[int]:
    """Every permanent matching ``f``, in object order ("each creature", "all artifacts": no targeting)."""
    st = ctx.state
    return [o for o in sorted(board.permanents(st)) if matches(ctx, f, view(st, o))]


def players(ctx: EffectContext, on: On) -> list[int]:
    st = ctx.state
    live = [p for p in range(len(st.players)) if not st.players[p].lost]
    order = [p for p in [(ctx.controller + k) % len(st.players) for k in range(len(st.players))] if p in live]
    match on:
        case "you":
            return [ctx.controller] if ctx.controller in live else []
        case "each_opponent":
            return [p for p in order if p != ctx.controller]
        case "each_player":
            return order  # APNAP from the controller's point of view is enough for two players
        case "subject_controller":  # as it last existed, if it has left (CR 608.2h)
            seen = ctx.view(ctx.subject) if ctx.subject is not None else None
            return [seen.controller] if seen is not None and seen.controller in live else []
        case "active":
            return [st.active] if st.active in live else []
        case _:
            return []


def is_player_selector(on: On) -> bool:
    return on in ("each_player", "you", "each_opponent", "subject_controller", "active")


def source_on_battlefield(state: GameState, oid: int) -> bool:
    return oid in state.objects and board.on_battlefield(state, oid)
