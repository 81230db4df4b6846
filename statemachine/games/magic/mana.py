"""Mana: costs written as symbols ("1R", "UU", "0"), the mana pool, and the mana abilities that fill it.

The pool is a set of player counters (``PlayerStat`` ``mana.W`` ... ``mana.C``). A mana ability is an activated
ability that adds mana (605.1a, not in the seed; SPEC Part 4 #20): it does not use the stack and may be activated
whenever a player has priority or is asked to pay mana, even mid-cast or mid-resolution (MTG-P-06).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import NamedTuple

from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import view
from projections.state import SET_SUBTYPES, modifiers_applying
from statemachine.cards import AbilityDef, CardDef, EffectDef
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.costs import Why, pay_costs, why_not_costs
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Answer, Procedure

COLORS = ("W", "U", "B", "R", "G")
KINDS = (*COLORS, "C")
ANY = "any"
ADD_MANA = "add_mana"

Paying = Generator[Request, Answer, bool]
"""A procedure that may ask and ends telling whether the payment was made."""


class ManaCost(NamedTuple):
    generic: int
    pips: tuple[str, ...]  # one entry per coloured symbol, e.g. ("U", "U")
    xs: int = 0  # how many {X} the cost has: X is chosen as the spell is cast (601.2b) and counts 0 elsewhere

    @property
    def total(self) -> int:
        return self.generic + len(self.pips)

    def with_x(self, x: int, color: str | None = None, more: int = 0) -> ManaCost:
        """The cost to pay once X is chosen: each {X} is X generic mana (601.2f), or X mana of ``color`` when
        the card says "spend only [black] mana on X" (CR 107.3); ``more`` generic mana added (an increase,
        CR 601.2f)."""
        if color:
            return ManaCost(self.generic + more, self.pips + (color,) * (self.xs * x))
        return ManaCost(self.generic + self.xs * x + more, self.pips)

    def __str__(self) -> str:
        return "{X}" * self.xs + "".join(f"{{{p}}}" for p in (
            [str(self.generic)] if self.generic or not (self.pips or self.xs) else []) + list(self.pips))


def parse(symbols: str) -> ManaCost:
    """"2WW" -> 2 generic + W W; "0" -> a cost of zero; "XR" -> {X}{R} (X symbols first). Raises ValueError on
    anything else."""
    rest = symbols.lstrip("X")
    xs = len(symbols) - len(rest)
    digits = "".join(c for c in rest if c.isdecimal())
    pips = tuple(c for c in rest if not c.isdecimal())
    if not symbols or (not rest and not xs) or any(p not in KINDS for p in pips) or (
            digits and not rest.startswith(digits)):
        raise ValueError(f"not a mana cost: {symbols!r}")
    return ManaCost(int(digits) if digits else 0, pips, xs)


def key(kind: str) -> str:
    return f"mana.{kind}"


def pool(engine: Engine, player: int) -> dict[str, int]:
    st = engine.state
    return {k: st.stat(player, key(k)) for k in KINDS if st.stat(player, key(k))}


def describe(amounts: dict[str, int]) -> str:
    return "".join(f"{{{k}}}" * n for k, n in amounts.items()) or "nothing"


def spend_plan(amounts: dict[str, int], cost: ManaCost) -> dict[str, int] | None:
    """Which mana of the pool pays ``cost``: coloured symbols first, generic from colourless, then colours
    in WUBRG order (a fixed rule: which mana pays generic is not a timing question). None if it cannot."""
    left = dict(amounts)
    spend: dict[str, int] = {}
    for p in cost.pips:
        if left.get(p, 0) <= 0:
            return None
        left[p] -= 1
        spend[p] = spend.get(p, 0) + 1
    need = cost.generic
    for k in ("C", *COLORS):
        take = min(need, left.get(k, 0))
        if take:
            spend[k] = spend.get(k, 0) + take
            left[k] -= take
            need -= take
    return spend if need == 0 else None


# -- mana abilities ---------------------------------------------------------------------------------------


def card_of(engine: Engine, oid: int) -> CardDef:
    return engine.profile.pool[engine.state.facts(oid).definition]


def is_mana_ability(ability: AbilityDef) -> bool:
    """605.1a: an activated ability without a target that adds mana."""
    return ability.kind == "activated" and any(e.name == ADD_MANA for e in ability.effects) and not any(
        e.name == "target" for e in ability.effects)


def produced(ability: AbilityDef) -> tuple[str, ...]:
    for e in ability.effects:
        if e.name == ADD_MANA:
            color = str(e.params.get("color", "C"))
            return COLORS if color == ANY else (color,)
    return ()


WITH_PRIORITY = "with_priority"  # "activate only as an instant": not in the middle of a payment


class Source(NamedTuple):
    obj: int
    ability_index: int  # the ability's position on its card
    colors: tuple[str, ...]
    plain: bool  # one mana for at most {T} and life: what ``auto`` may use (never a sacrifice or a discard)
    ability: AbilityDef


class ManaAbility(NamedTuple):
    position: int  # its position on the card
    ability: AbilityDef
    colors: tuple[str, ...]
    plain: bool
    with_priority: bool


# A card's mana abilities, worked out once per card definition (the pool never changes under a profile). Keyed
# by the definition object's id, which the entry keeps alive, so an id is never reused while it is cached.
_mana_abilities: dict[int, tuple[CardDef, tuple[ManaAbility, ...]]] = {}


def mana_abilities(card: CardDef) -> tuple[ManaAbility, ...]:
    hit = _mana_abilities.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    found = []
    for i, ability in enumerate(card.abilities):
        if is_mana_ability(ability):
            amount = next((int(e.params.get("amount", 1)) for e in ability.effects if e.name == ADD_MANA), 1)
            plain = amount == 1 and all(c.name in ("tap", "life") for c in ability.costs)
            found.append(ManaAbility(i, ability, produced(ability), plain,
                                     any(c.name == WITH_PRIORITY for c in ability.conditions)))
    _mana_abilities[id(card)] = (card, tuple(found))
    return tuple(found)


# CR 305.6: each basic land type has an intrinsic mana ability. kifu's basic lands print theirs; a land whose land
# type an effect sets (CR 305.7, rules 1.6) has the one of its new type instead of the abilities of its rules text.
BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
INTRINSIC = {kind: AbilityDef(f"intrinsic_{kind.lower()}", f"{{T}}: Add {{{c}}}", kind="activated",
                              costs=(EffectDef("tap"),), effects=(EffectDef(ADD_MANA, {"color": c}),))
             for kind, c in BASIC_LAND_TYPES.items()}


def intrinsic(engine: Engine, oid: int) -> list[ManaAbility]:
    """The mana abilities a land has from a land type an effect set (CR 305.7), numbered after its card's
    abilities and those other objects give it (``actions.activated``)."""
    st = engine.state
    if not any(m.kind == SET_SUBTYPES and m.amount and m.target == oid for m in st.modifiers.values()):
        return []
    v = view(st, oid)
    if v.abilities_ignored:
        return []
    first = len(card_of(engine, oid).abilities) + sum(1 for m in modifiers_applying(st, oid)
                                                      if m.kind == "granted_ability")
    return [ManaAbility(first + k, INTRINSIC[kind], (c,), True, False)
            for k, (kind, c) in enumerate((kind, c) for kind, c in BASIC_LAND_TYPES.items()
                                          if kind in v.chars.subtypes)]


def object_mana_abilities(engine: Engine, oid: int) -> list[ManaAbility]:
    """The mana abilities the object has now: its card's (unless an effect took them away) and its land type's."""
    v = view(engine.state, oid)
    own = [m for m in mana_abilities(card_of(engine, oid)) if m.ability.id in v.chars.abilities]
    return own + intrinsic(engine, oid) if engine.state.modifiers else own


def sources(engine: Engine, player: int, *, paying: bool = False, only: int | None = None) -> list[Source]:
    """Mana abilities ``player`` could activate now (``paying``: in the middle of a payment): their costs can
    be paid (MTG-C-04..07). ``only``: those of that one object."""
    out: list[Source] = []
    st = engine.state
    for oid in board.permanents(st, player) if only is None else [only]:
        if only is not None and (not board.on_battlefield(st, oid) or st.objects[oid].controller != player):
            continue
        for m in object_mana_abilities(engine, oid):
            if m.with_priority and (paying or st.priority != player):
                continue
            if why_not_costs(engine, player, oid, m.ability.costs, 0) is None:
                out.append(Source(oid, m.position, m.colors, m.plain, m.ability))
    return out


def why_not_source(engine: Engine, player: int, oid: int) -> tuple[str, str] | None:
    """The cost rule that keeps a permanent's mana abilities from being activated now (a tapped source,
    MTG-C-06; more life than the player has, MTG-C-05; ...), or None if that is not why: a refusal names the
    rule the decision breaks, not the rule of the payment in progress (MTG-P-06)."""
    from statemachine.games.magic.costs import why_not_costs

    st = engine.state
    if not board.on_battlefield(st, oid) or st.objects[oid].controller != player:
        return None
    whys = [why_not_costs(engine, player, oid, m.ability.costs, 0) for m in object_mana_abilities(engine, oid)]
    if not whys or any(w is None for w in whys):
        return None
    return whys[0]


def tap_plan(engine: Engine, player: int, cost: ManaCost, *, extra: tuple[str, ...] = (),
             exclude: int | None = None) -> list[tuple[Source, str]] | None:
    """The mana abilities to activate (and the colour each makes) so that pool + new mana pays ``cost``.

    A small bipartite matching of coloured symbols to units of mana (the pool's first, plus ``extra`` units,
    then sources other than ``exclude``), the rest of the units paying generic; None if ``cost`` cannot be
    paid at all (MTG-C-04).
    """
    units: list[tuple[tuple[str, ...], Source | None]] = []
    for k, n in pool(engine, player).items():
        units += [((k,), None)] * n
    units += [((k,), None) for k in extra]
    for s in sources(engine, player):
        if s.plain and s.obj != exclude:
            units.append((s.colors, s))
    owner: list[int | None] = [None] * len(units)  # unit -> pip index

    def assign(pip: int, seen: set[int]) -> bool:
        for u, (colors, _) in enumerate(units):
            if cost.pips[pip] in colors and u not in seen:
                seen.add(u)
                holder = owner[u]
                if holder is None or assign(holder, seen):
                    owner[u] = pip
                    return True
        return False

    for pip in range(len(cost.pips)):
        if not assign(pip, set()):
            return None
    free = [u for u in range(len(units)) if owner[u] is None]
    if len(free) < cost.generic:
        return None
    plan: list[tuple[Source, str]] = []
    for u, owned in enumerate(owner):
        src = units[u][1]
        if owned is not None and src is not None:
            plan.append((src, cost.pips[owned]))
    for u in free[: cost.generic]:
        colors, src = units[u]
        if src is not None:
            plan.append((src, colors[0]))
    return plan


def useful_colors(engine: Engine, player: int, cost: ManaCost, src: Source) -> tuple[str, ...]:
    """The colours ``src`` may make now without leaving ``cost`` unpayable (a payment never dead-ends)."""
    return tuple(c for c in src.colors if tap_plan(engine, player, cost, extra=(c,), exclude=src.obj) is not None)


def affordable(engine: Engine, player: int, cost: ManaCost) -> bool:
    return tap_plan(engine, player, cost) is not None


def activate(engine: Engine, player: int, src: Source, color: str | None,
             colors: tuple[str, ...] | None = None) -> Generator[Request, Answer, None]:
    """Activate a mana ability: pay its costs, add its mana. It does not use the stack (MTG-P-06)."""
    ability = src.ability
    chosen = color
    allowed = colors or src.colors
    if chosen is None:
        if len(allowed) == 1:
            chosen = allowed[0]
        else:
            answer = yield Request(player, "mana_color", "choose the colour of mana to add", allowed,
                                   rule="MTG-P-06")
            chosen = str(answer[0])
    yield from pay_costs(engine, player, src.obj, ability.costs, None, 0)
    amount = 1
    for e in ability.effects:
        if e.name == ADD_MANA:
            amount = int(e.params.get("amount", 1))
    engine.emit(ev.PlayerStat(player, key(chosen), engine.state.stat(player, key(chosen)) + amount))


def pay(engine: Engine, player: int, cost: ManaCost, effect: int | None, *, optional: bool = False,
        prompt: str = "") -> Paying:
    """Pay ``cost`` from the pool, letting the player activate mana abilities first (MTG-P-06, 601.2g-h).

    With the pool already covering a required cost it is paid at once (nothing to choose). Otherwise the player
    picks a mana ability to activate, ``auto`` (kifu activates the ones ``tap_plan`` names), ``pay``, or — when
    paying is optional ("unless its controller pays") — ``decline``.
    """
    while True:
        plan = spend_plan(pool(engine, player), cost)
        if plan is not None and not optional:
            break
        options: list[int | str] = []
        if plan is not None:
            options.append("pay")
        elif affordable(engine, player, cost):
            options.append("auto")
        usable = {s.obj: s for s in sources(engine, player, paying=True)
                  if optional or useful_colors(engine, player, cost, s)}
        options += list(usable)
        if optional:
            options.append("decline")
        if not options:
            return False
        answer = yield Request(player, "pay_mana", prompt or f"pay {cost}: activate mana abilities, then pay",
                               tuple(options), effect=effect, rule="MTG-P-06", action="mana")
        choice = answer[0]
        if choice == "decline":
            return False
        if choice == "pay":
            break
        if choice == "auto":
            auto = tap_plan(engine, player, cost)
            assert auto is not None
            for src, color in auto:
                yield from activate(engine, player, src, color)
            if optional:
                break
            continue
        src = usable[int(choice)]
        yield from activate(engine, player, src, None, None if optional else useful_colors(engine, player, cost, src))
    spend = spend_plan(pool(engine, player), cost)
    assert spend is not None
    events: list[ev.Event] = [ev.PlayerStat(player, key(k), engine.state.stat(player, key(k)) - n)
                              for k, n in spend.items()]
    engine.emit(*events, ev.CostPaid(player, "mana", cost.total, (), effect))
    return True


def empty_pools(engine: Engine) -> None:
    """500.4: mana empties from each pool at the end of each step and phase."""
    st = engine.state
    events = [ev.PlayerStat(p, key(k), 0) for p in range(len(st.players)) for k in KINDS if st.stat(p, key(k))]
    if events:
        engine.emit(*events)


# -- the mana part of an ability's cost ------------------------------------------------------------------


class ManaParams(Struct, frozen=True, forbid_unknown_fields=True):
    mana: str  # symbols, e.g. "B" or "2"


@MTG.cost("mana", ManaParams)
class Mana:
    """A mana part of an ability's cost: paid with mana abilities activated now if need be (MTG-P-06)."""

    @staticmethod
    def why_not(engine: Engine, player: int, source: int, params: object, x: int) -> Why | None:
        assert isinstance(params, ManaParams)
        cost = parse(params.mana)
        if not affordable(engine, player, cost):
            return "MTG-C-04", f"you cannot pay {cost}: not enough mana"
        return None

    @staticmethod
    def pay(engine: Engine, player: int, source: int, params: object, effect: int | None, x: int) -> Procedure:
        assert isinstance(params, ManaParams)
        paid = yield from pay(engine, player, parse(params.mana), effect)
        assert paid, "checked before the decision was accepted"


def symbols(card: CardDef) -> str | None:
    """A card's mana cost symbols (Magic's card field ``mana``); None: it has no mana cost (MTG-C-12)."""
    found = card.fields.get("mana")
    return found if isinstance(found, str) else None
