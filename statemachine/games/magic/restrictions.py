"""Restrictions on blocking, attacking and activating that card text states (CR 509.1b, 508.1c, 602.5), each a
general piece: "can't be blocked this turn", "can't be blocked by creatures with power 3 or greater", "can't
attack unless defending player controls an Island", "activate only as a sorcery", "activate only during your
turn". Fear (CR 702.36) is a keyword, read where blocks are declared (``combat.can_block``).

An activation restriction is a condition of an activated ability, checked as the ability is activated
(``actions.why_not_activate``) and refused at load on any other kind of ability (``check_restrictions``).
"""

from __future__ import annotations

import msgspec
from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import WHILE_SOURCE, GameState
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.magic import board
from statemachine.games.magic.select import CardType, Color
from statemachine.games.magic.statics import CANT_BE_BLOCKED, flagged
from statemachine.games.magic.verbs import Acts, acted_on
from statemachine.games.magic.vocab import MTG
from statemachine.loader import CardFileError
from statemachine.vocabulary import NoParams, Procedure

ATTACKS_ONLY_IF = "attacks_only_if:"  # flag prefix, then land subtypes: "can't attack unless defending player ..."
AS_SORCERY, DURING_YOUR_TURN = "as_sorcery", "during_your_turn"
ACTIVATION_RESTRICTIONS = (AS_SORCERY, DURING_YOUR_TURN)


@MTG.effect(CANT_BE_BLOCKED, Acts)
def cant_be_blocked(ctx: EffectContext, p: Acts) -> Procedure:
    """What ``on`` names can't be blocked this turn (CR 509.1b: a restriction on declaring blockers), until the
    cleanup (CR 514.2)."""
    st = ctx.state
    found = [o for o in acted_on(ctx, p) if o >= 0 and board.on_battlefield(st, o)]
    eid = st.next_effect
    events = [ev.ContinuousEffectStarted(eid + k, ctx.source, "set_flag", o, value=CANT_BE_BLOCKED,
                                         until="end_of_turn") for k, o in enumerate(found)]
    if events:
        ctx.engine.emit(*events)
    return
    yield


def unblockable(state: GameState, attacker: int) -> bool:
    return flagged(state, attacker, CANT_BE_BLOCKED)


class AttacksOnlyIf(Struct, frozen=True, forbid_unknown_fields=True):
    defender_controls: list[str] = field(default_factory=list)  # land subtypes, any of them ("Island")

    def problems(self) -> list[tuple[str, str]]:
        if not self.defender_controls:
            return [(".defender_controls", "names no land subtype: the creature could never attack (say one)")]
        return [(".defender_controls", "a subtype is one word, without ';' or '|'")] if any(
            set(s) & set(";|") or not s for s in self.defender_controls) else []


@MTG.effect("static_attacks_only_if", AttacksOnlyIf)
def attacks_only_if(ctx: EffectContext, p: AttacksOnlyIf) -> Procedure:
    """Static: this creature can't attack unless the defending player controls a land of one of these subtypes
    ("Sea Serpent can't attack unless defending player controls an Island", CR 508.1c), for as long as it is on
    the battlefield."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, "set_flag", ctx.source,
                                               value=ATTACKS_ONLY_IF + "|".join(p.defender_controls),
                                               until=WHILE_SOURCE))
    return
    yield


def attack_forbidden(state: GameState, attacker: int, defender: int) -> bool:
    """CR 508.1c: a restriction "can't attack unless defending player controls a <land>" that does not hold."""
    lands = [set(view(state, o).chars.subtypes) for o in board.permanents(state, defender)
             if "land" in view(state, o).chars.types]
    for m in state.modifiers.values():
        if m.kind == "set_flag" and m.target == attacker and str(m.value).startswith(ATTACKS_ONLY_IF):
            wanted = set(str(m.value)[len(ATTACKS_ONLY_IF):].split("|"))
            if not any(wanted & have for have in lands):
                return True
    return False


CANT_BE_BLOCKED_BY = "cant_be_blocked_by"  # a continuous effect on a creature: value = the blockers it excludes


class BlockedBy(Struct, frozen=True, forbid_unknown_fields=True):
    """The creatures that can't block it, by what they are: every field given must hold ("creatures with power
    3 or greater": min_power = 3; "Walls": subtypes = ["Wall"]; "white creatures": colors = ["white"])."""

    types: list[CardType] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    colors: list[Color] = field(default_factory=list)
    min_power: int | None = None  # "with power N or greater"
    max_power: int | None = None  # "with power N or less"

    def problems(self) -> list[tuple[str, str]]:
        if self == BlockedBy():
            return [("", "names no blocker: say types, subtypes, colors or a power")]
        if self.min_power is not None and self.max_power is not None and self.min_power > self.max_power:
            return [(".min_power", "selects nothing: min_power is above max_power")]
        return []

    def excludes(self, seen: ObjectView) -> bool:
        c = seen.chars
        return ((not self.types or bool(set(self.types) & set(c.types)))
                and (not self.subtypes or bool(set(self.subtypes) & set(c.subtypes)))
                and (not self.colors or bool(set(self.colors) & set(c.colors)))
                and (self.min_power is None or seen.power >= self.min_power)
                and (self.max_power is None or seen.power <= self.max_power))


@MTG.effect("static_cant_be_blocked_by", BlockedBy)
def cant_be_blocked_by(ctx: EffectContext, p: BlockedBy) -> Procedure:
    """Static: this creature can't be blocked by the creatures named ("Amrou Kithkin can't be blocked by
    creatures with power 3 or greater", CR 509.1b: a restriction on declaring blockers), read as blockers are
    declared, for as long as it is on the battlefield."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, CANT_BE_BLOCKED_BY, ctx.source,
                                               value=msgspec.json.encode(p).decode(), until=WHILE_SOURCE))
    return
    yield


def block_forbidden(state: GameState, attacker: int, blocker: int) -> bool:
    """CR 509.1b: a "can't be blocked by [creatures]" restriction on the attacker that names this blocker."""
    found = [m for m in state.modifiers.values() if m.kind == CANT_BE_BLOCKED_BY and m.target == attacker]
    return any(msgspec.json.decode(m.value, type=BlockedBy).excludes(view(state, blocker)) for m in found)


@MTG.condition(AS_SORCERY)
def as_sorcery(ctx: EffectContext, _: NoParams) -> bool:
    """"Activate only as a sorcery" (CR 602.5d): only in its controller's main phase with an empty stack; a
    restriction on activating, enforced as the ability is activated (``actions.why_not_activate``)."""
    return True


@MTG.condition(DURING_YOUR_TURN)
def during_your_turn(ctx: EffectContext, _: NoParams) -> bool:
    """"Activate only during your turn" (CR 602.5): a restriction on activating, enforced as the ability is
    activated (``actions.why_not_activate``)."""
    return True


def check_restrictions(pool: CardPool) -> CardPool:
    """An activation restriction belongs to an activated ability: on a spell, a trigger or a static ability it
    would restrict nothing, and the card would not play as printed."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, c in enumerate(ability.conditions):
                if c.name in ACTIVATION_RESTRICTIONS and ability.kind != "activated":
                    raise CardFileError("magic", f"{c.name!r} restricts activating: a {ability.kind} ability is "
                                        "not activated", card.id, f"$.abilities[{n}].conditions[{k}].name",
                                        ability.id)
    return pool
