"""Targets: what a "target" step of an ability may choose, chosen as it is put on the stack and checked again
as it resolves (601.2c, 603.3d, 608.2b — rules the seed refers to but does not quote; SPEC Part 4 #3).

A target step is an effect step ``{ name = "target", params = { what = "creature", ... } }``; an ability's targets
are its target steps in printed order, recorded in one ``Chosen`` event naming the effect (players as
``-1 - player``). Effect steps refer to them by position. A step's restrictions are a ``select.Filter`` (types,
"non-", colours, controller, tapped, power, mana value); keywords restrict targeting too: shroud (CR 702.18),
hexproof (CR 702.11), protection (CR 702.16b). A step may stand for exactly N different targets (``count``).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from projections.characteristics import ObjectView, view
from projections.state import GameState
from statemachine.cards import AbilityDef
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.board import GRAVEYARD, STACK, zone
from statemachine.games.magic.select import Color, Filter, matches, player_ok

COLORS: tuple[Color, ...] = ("white", "blue", "black", "red", "green")


class TargetParams(Filter, frozen=True, forbid_unknown_fields=True):
    # "any": a creature or a player (CR 115.4); "permanent": a permanent matching the filter; "card": a card in
    # a graveyard ("target creature card in your graveyard": controller = "you" is whose graveyard);
    # "spell_or_permanent": either (CR 115.1: "target spell or permanent", rules 1.6)
    what: Literal["any", "creature", "player", "spell", "permanent", "card", "spell_or_permanent"] = "any"
    # "any number of targets" (CR 115.1, 601.2c): one or more different targets; only an ability's last target
    # step may say it, and the steps after it refer to them as targets from its index on
    any_number: bool = False
    # "two target creatures" (CR 115.3, 601.2c): the step stands for exactly this many targets, each a different
    # object or player (one word "target" never chooses the same thing twice); later steps name them by position
    count: int = 1

    def problems(self, at: str = "") -> list[tuple[str, str]]:
        out = Filter.problems(self, at)
        if self.count < 1:
            out.append((f"{at}.count", "a target step stands for one target or more (count 1 or more)"))
        if self.count > 1 and self.any_number:
            out.append((f"{at}.count", "exactly N targets or any number: say one of count and any_number"))
        if self.max_cost is not None and not isinstance(self.max_cost, int):
            out.append((f"{at}.max_cost", "a target's mana value limit is a number: targets are chosen before "
                                          "anything is computed"))
        if self.what == "player" and (self.types or self.not_types or self.colors or self.keywords):
            out.append((f"{at}.what", "a player has no types, colours or keywords to restrict"))
        return out


CHOOSE_ONE = "choose_one"
MODE = "mode"  # status of a spell: 1 + the mode chosen as it was cast (CR 700.2a)


def cast_modes(ability: AbilityDef) -> list[dict[str, Any]]:
    """The modes of the ability's "choose one" chosen as it is cast (``as_cast``), each a table with its steps;
    none if it has no such choice."""
    step = next((e for e in ability.effects if e.name == CHOOSE_ONE and e.params.get("as_cast")), None)
    return list(step.params["modes"]) if step is not None else []


def expand(found: list[TargetParams], chosen: int) -> list[TargetParams]:
    """The specs of the targets chosen: a step of ``count`` N stands for N targets (CR 115.3), a last "any
    number" step for each target chosen for it."""
    found = [s for s in found for _ in range(s.count)]
    if found and found[-1].any_number and chosen > len(found):
        return found + [found[-1]] * (chosen - len(found))
    return found


def spell_mode(state: GameState, spell: int | None) -> int | None:
    """The mode chosen as the spell was cast (CR 700.2a), if it has one."""
    found = state.objects[spell].status.get(MODE) if spell is not None and spell in state.objects else None
    return int(found) - 1 if found else None


def specs(ability: AbilityDef, mode: int | None = None) -> list[TargetParams]:
    """The ability's targets in printed order: its own target steps, then those of the mode chosen as it was
    cast (CR 601.2c: the targets of the chosen mode only)."""
    out = [msgspec.convert(e.params, TargetParams) for e in ability.effects if e.name == "target"]
    modes = cast_modes(ability)
    if modes and mode is not None:
        out += [msgspec.convert(e.get("params", {}), TargetParams) for e in modes[mode]["effects"]
                if e["name"] == "target"]
    return out


def protected_from(seen: ObjectView, source: ObjectView | None) -> bool:
    """CR 702.16: protection from a colour: a source of that colour can't target, damage, enchant or block it."""
    if source is None:
        return False
    return any(f"protection_from_{c}" in seen.chars.keywords and c in source.chars.colors for c in COLORS)


def _context(engine: Engine, controller: int, source: int | None) -> EffectContext:
    st = engine.state
    src = source if source is not None else -1
    card = st.objects[src].card if src in st.objects else -1
    return EffectContext(engine, controller=controller, source=src, source_card=card)


def _object_ok(ctx: EffectContext, spec: TargetParams, ref: int, spell: int | None) -> bool:
    st = ctx.state
    obj = st.objects.get(ref)
    if obj is None:
        return False
    seen = view(st, ref)
    on_stack = obj.zone == STACK
    match spec.what:
        case "spell":
            if not on_stack or ref == spell:
                return False
        case "spell_or_permanent":
            if ref == spell or not (on_stack or board.on_battlefield(st, ref)):
                return False
        case "card":
            if obj.zone != zone(obj.owner, GRAVEYARD) or not (spec.controller == "any" or (
                    obj.owner == ctx.controller) == (spec.controller == "you")):
                return False
            return _chars_ok(ctx, spec, seen)
        case "creature" | "any":
            if not board.on_battlefield(st, ref) or "creature" not in seen.chars.types:
                return False
        case "permanent":
            if not board.on_battlefield(st, ref):
                return False
        case _:
            return False
    if not on_stack:
        source = view(st, ctx.source) if ctx.source in st.objects else None
        if "shroud" in seen.chars.keywords:
            return False  # CR 702.18a: it can't be the target of spells or abilities
        if "hexproof" in seen.chars.keywords and seen.controller != ctx.controller:
            return False  # CR 702.11b
        if protected_from(seen, source):
            return False  # CR 702.16b
    return matches(ctx, spec, seen)


def _chars_ok(ctx: EffectContext, spec: TargetParams, seen: ObjectView) -> bool:
    """A card in a graveyard: its characteristics only (it has no controller or status there)."""
    plain = msgspec.structs.replace(spec, controller="any", tapped=None, attacking=None, in_combat=None)
    return matches(ctx, plain, seen)


def legal(engine: Engine, spec: TargetParams, ref: int, spell: int | None = None, controller: int = 0,
          source: int | None = None) -> bool:
    """Whether ``ref`` is (still) a legal target for ``spec``; an object that moved is a new object."""
    st = engine.state
    player = board.ref_player(ref)
    ctx = _context(engine, controller, source if source is not None else spell)
    if player is not None:
        return (spec.what in ("any", "player") and player < len(st.players) and not st.players[player].lost
                and player_ok(ctx, spec.controller, player))
    return _object_ok(ctx, spec, ref, spell)


def candidates(engine: Engine, spec: TargetParams, spell: int | None = None, controller: int = 0,
               source: int | None = None) -> list[int]:
    st = engine.state
    ctx = _context(engine, controller, source if source is not None else spell)
    out: list[int] = []
    if spec.what in ("any", "creature", "permanent", "spell_or_permanent"):
        pool = board.creatures(st) if spec.what in ("any", "creature") else board.permanents(st)
        out += [o for o in pool if _object_ok(ctx, spec, o, spell)]
    if spec.what == "card":
        out += [o for p in range(len(st.players)) for o in st.zone(zone(p, GRAVEYARD))
                if _object_ok(ctx, spec, o, spell)]
    if spec.what in ("any", "player"):
        out += [board.player_ref(p) for p in range(len(st.players))
                if not st.players[p].lost and player_ok(ctx, spec.controller, p)]
    if spec.what in ("spell", "spell_or_permanent"):
        out += [o for o in st.zone(STACK) if _object_ok(ctx, spec, o, spell)]
    return out


def has_targets(engine: Engine, ability: AbilityDef, spell: int | None = None, controller: int = 0,
                source: int | None = None, mode: int | None = None) -> bool:
    """Whether every target can be chosen; for a spell with modes chosen as it is cast, of that mode, or (no
    mode given) of at least one mode (CR 700.2a: a mode whose targets can't be chosen can't be chosen)."""
    modes = cast_modes(ability)
    if modes and mode is None:
        return any(has_targets(engine, ability, spell, controller, source, m) for m in range(len(modes)))
    return all(len(candidates(engine, s, spell, controller, source)) >= s.count for s in specs(ability, mode))


