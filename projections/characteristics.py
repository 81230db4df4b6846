"""Computed characteristics: printed characteristics plus the continuous effects in force, in timestamp order.

Nothing is written into objects: an object's power, keywords and abilities are always computed here from the
modifiers the fold keeps (STYLE 6). The same computation over a ``LastKnown`` gives the look-back view:
a card that left is judged as it was just before (DM-LB-13), modifications included (DM-LB-14), evolution
included (DM-LB-15); ignored abilities stay ignored (DM-LB-11, DM-LB-17).
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec import Struct

from eventsource import events as ev
from projections.state import (
    BASE_PT,
    SET_SUBTYPES,
    UNLESS_CREATURE,
    CardFacts,
    GameObject,
    GameState,
    LastKnown,
    Modifier,
    modifiers_applying,
    retyped,
    unless_creature_applies,
)

# The status of the kernel's tapping kit (``statemachine.board.set_tapped``), for the games that tap their cards.
TAPPED = "tapped"


class ObjectView(Struct, frozen=True):
    obj: int
    card: int
    definition: str
    owner: int
    controller: int
    zone: str
    chars: ev.Characteristics
    status: dict[str, int]
    under_cards: tuple[int, ...]
    face_down: bool
    abilities_ignored: bool
    since: int
    left_at: int | None = None  # set on a look-back view: the sequence number of the move
    on: int | None = None  # the object it lies (or lay) under

    @property
    def tapped(self) -> bool:
        return bool(self.status.get(TAPPED))

    @property
    def power(self) -> int:
        return self.chars.power or 0

    def has_ability(self, ability: str) -> bool:
        return ability in self.chars.abilities

    def has_keyword(self, keyword: str) -> bool:
        return keyword in self.chars.keywords


# CR 613.4 (layer 7): power and toughness defined by the object itself first (7a), then effects that set them
# (7b: "becomes 0/2"), then every other change in timestamp order (7c and the layers kifu keeps in one order).
SET_POWER, SET_TOUGHNESS = "set_power", "set_toughness"
_PT_LAYER = {BASE_PT: 0, SET_POWER: 1, SET_TOUGHNESS: 1}


def compute(printed: ev.Characteristics, modifiers: Iterable[Modifier]) -> tuple[ev.Characteristics, bool]:
    """Apply modifiers in the order they started; returns the characteristics and whether abilities are ignored.
    Types and colours first (layers 4 and 5, ``retyped``); power and toughness defined by the object itself come
    before those set by an effect, and both before every other change, whatever their timestamps (CR 613.4)."""
    modifiers = list(modifiers)
    types, subtypes, colors = retyped(printed, modifiers)
    if any(m.value == UNLESS_CREATURE for m in modifiers) and not unless_creature_applies(printed, modifiers):
        modifiers = [m for m in modifiers if m.value != UNLESS_CREATURE]
    # CR 305.7: a land whose land type is set loses the abilities of its rules text
    rules_text = not any(m.kind == SET_SUBTYPES and m.amount for m in modifiers)
    power = printed.power
    toughness = printed.toughness
    keywords = list(printed.keywords) if rules_text else []
    granted: list[str] = []
    ignored = False
    changed = False
    for m in sorted(modifiers, key=lambda m: (_PT_LAYER.get(m.kind, 2), m.since, m.effect)):
        changed = True
        match m.kind:
            case "base_pt":
                power = toughness = m.amount
            case "set_power":
                power = m.amount
            case "set_toughness":
                toughness = m.amount
            case "granted_ability":  # an ability another object gives it (Zombie Master's regeneration)
                if m.value not in printed.abilities and m.value not in granted:
                    granted.append(m.value)
            case "power":
                power = (power or 0) + m.amount
            case "toughness":
                toughness = (toughness or 0) + m.amount
            case "ignore_abilities":
                ignored = True
            case "grant_keyword":
                if m.value not in keywords:
                    keywords.append(m.value)
            case "remove_keyword":
                if m.value in keywords:
                    keywords.remove(m.value)
            case _:
                pass  # flags and player-wide effects do not change an object's characteristics
    if not changed:
        return printed, False
    own = printed.abilities if rules_text else ()
    return (
        ev.Characteristics(
            printed.name, types, subtypes, colors, printed.cost, power,
            toughness, () if ignored else tuple(keywords), () if ignored else own + tuple(granted),
        ),
        ignored,
    )


def _view(obj: GameObject, facts: CardFacts, modifiers: Iterable[Modifier], under: tuple[int, ...],
          left_at: int | None) -> ObjectView:
    chars, ignored = compute(facts.printed, modifiers)
    return ObjectView(
        obj.id, obj.card, facts.definition, obj.owner, obj.controller, obj.zone, chars, dict(obj.status),
        under, obj.face_down, ignored, obj.since, left_at, obj.on,
    )


def modifiers_on(state: GameState, oid: int) -> list[Modifier]:
    return modifiers_applying(state, oid) if state.modifiers else []


def view(state: GameState, oid: int) -> ObjectView:
    """The object as it is now.

    Memoised per sequence number: only a fold changes the state, and every fold sets ``seq``, so a view
    computed at this ``seq`` stays true until the next event (rules code asks for the same object's
    characteristics many times per decision). The memo lives beside the state, never in its fields.
    """
    memo: tuple[int, dict[int, ObjectView]] | None = state.__dict__.get("_views")
    if memo is None or memo[0] != state.seq:
        memo = (state.seq, {})
        state.__dict__["_views"] = memo
    seen = memo[1].get(oid)
    if seen is not None:
        return seen
    obj = state.objects[oid]
    under = tuple(state.objects[u].card for u in obj.under if u in state.objects)
    made = _view(obj, state.cards[obj.card], modifiers_on(state, oid), under, None)
    memo[1][oid] = made
    return made


def last_known(state: GameState, oid: int) -> ObjectView | None:
    """The object as it was just before it left its zone, if it left during this turn."""
    lk: LastKnown | None = state.last_known.get(oid)
    if lk is None:
        return None
    return _view(lk.obj, state.cards[lk.obj.card], lk.modifiers, tuple(lk.under_cards), lk.left_at)


def current_or_last_known(state: GameState, oid: int) -> ObjectView | None:
    """DM-LB-03 / MTG last known information: the object now, or as it last existed where it was."""
    if oid in state.objects:
        return view(state, oid)
    return last_known(state, oid)
