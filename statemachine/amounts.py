"""Computed amounts: the one expression form card data uses wherever an effect takes a number.

Card text says "gain life equal to its power", "damage equal to the number of creatures you control", "draw X",
"+1/+1 for each". An effect parameter typed ``Amount`` takes either a literal integer (as every amount did
before) or one expression, a TOML table with exactly one form key:

    amount = 3                                                      # a literal, unchanged
    amount = { power_of = "target" }                                # a characteristic of one object
    amount = { count = { zone = "battle", whose = "you", types = ["creature"] } }
    amount = { x = true }                                           # the value chosen for X
    amount = { stat_of = { stat = "life", whose = "any" } }          # a counter, summed over players
    amount = { minus = [{ cost_of = "chosen" }, 1] }                # arithmetic on amounts
    amount = { half = { count = { zone = "deck", whose = "target" } }, round = "down" }
    amount = { max = [0, { minus = [{ highest = { of = "power", zone = "field", whose = "opponent" } }, 2] }] }
    amount = { status_of = { of = "source", status = "spellboost" } }  # a counter kept on one object
    amount = { named = "x" }                                        # a value an earlier step of the effect named
    amount = { if_at_least = { amount = { count = { zone = "battle", subtypes = ["Human"] } }, then = 2000 } }

The forms are listed in ``FORMS`` (the vocabulary reference reads it); what each game allows — its zones, its
characteristics, whether it has X, how it rounds a half — is its ``AmountRules``, set on the game's
``Vocabulary`` and checked when a card file loads (``check_amount``), so a misspelt form, zone or reference is refused
there, naming the card, the ability and the field, with the valid names.

``evaluate`` computes an amount when the effect step carries it out — at resolution, so a count or a
characteristic is read then (DM-W-17 conditions at resolution; SV-O-07/08 maxima and counts at resolution) —
reading an object that has left its zone as it was just before it left: the look-back state (DM-LB-03,
DM-LB-13..15; Magic last known information, CR 608.2h). A computed amount is recorded as an
``AmountComputed`` event (the expression, its value, the objects read in their look-back state), so a judge
sees what was counted; a literal records nothing, so a card written with literals plays exactly as before. An
amount that read what some player may not see (a characteristic of a card in another's hand, in a deck or face
down; a filtered count over such cards) is a ``SecretAmountComputed`` naming those players, whose views show the
expression but not the value (``projections.views.redact_event``); a zone's size is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import msgspec
from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import ObjectView, last_known, view
from projections.state import GameState
from projections.views import can_see, can_see_view


class Count(Struct, frozen=True, forbid_unknown_fields=True):
    """``count``: how many objects are now in a zone and match every filter given."""

    zone: str  # a zone of the game ("battle", "graveyard", "field", ...): ``AmountRules.zones``
    whose: str = "you"  # "you", "opponent", "any", or "target" (the player targeted, or the target's controller)
    types: tuple[str, ...] = ()  # has at least one of these types
    subtypes: tuple[str, ...] = ()  # has at least one of these subtypes (races, creature types)
    colors: tuple[str, ...] = ()  # has at least one of these colours (civilizations, classes)
    name: str = ""  # has exactly this name
    other: bool = False  # "other": the source itself is not counted


class Highest(Count, frozen=True, forbid_unknown_fields=True):
    """``highest``: the greatest power, toughness or cost among the objects ``count`` would count (0 if none)."""

    of: str = "power"  # "power", "toughness" or "cost": a characteristic the game has (``AmountRules``)


class StatusOf(Struct, frozen=True, forbid_unknown_fields=True):
    """``status_of``: a counter kept on one object (how often a card was spellboosted), read as ``power_of``."""

    of: str  # a reference: source, subject, target, or the game's own
    status: str  # a counter the game lets cards read: ``AmountRules.statuses``


class StatOf(Struct, frozen=True, forbid_unknown_fields=True):
    """``stat_of``: a player counter, summed over the players ``whose`` names."""

    stat: str  # a counter of the game: ``AmountRules.stats``
    whose: str = "you"  # "you", "opponent", "any" (every player: the total), or "target"


class IfAtLeast(Struct, frozen=True, forbid_unknown_fields=True):
    """``if_at_least``: N if a condition holds (「…があれば+2000」): ``then`` when ``amount`` is at least ``at_least``,
    else ``otherwise``."""

    amount: Amount  # what the condition reads: a count, a characteristic, a counter
    then: Amount
    at_least: int = 1
    otherwise: Amount = 0


class Expr(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One computed amount: exactly one form key is set (``round`` goes with ``half``)."""

    power_of: str | None = None
    toughness_of: str | None = None
    cost_of: str | None = None
    under_of: str | None = None
    count: Count | None = None
    highest: Highest | None = None
    status_of: StatusOf | None = None
    named: str | None = None
    stat: str | None = None
    stat_of: StatOf | None = None
    x: bool | None = None
    that_much: bool | None = None
    plus: tuple[Amount, ...] | None = None
    minus: tuple[Amount, ...] | None = None
    times: tuple[Amount, ...] | None = None
    max: tuple[Amount, ...] | None = None
    if_at_least: IfAtLeast | None = None
    half: Amount | None = None
    round: str | None = None  # with ``half``: "up" or "down"; the game's own rounding when left out


Amount = int | Expr
"""An effect parameter that is a number in card data: a literal or an ``Expr``."""

REFERENCES = ("source", "subject", "target")
THAT_MUCH = "that_much="  # ctx.captured: the triggering event's amount, as "that_much=N"
NAMED = "named"  # ctx.bound: the values earlier steps of the effect named (``named``)
WHOSE = ("you", "opponent", "any", "target")
ROUNDING = ("up", "down")


class Form(Struct, frozen=True):
    name: str
    takes: str  # what the value is, as written in TOML
    means: str


FORMS: dict[str, Form] = {f.name: f for f in (
    Form("power_of", "a reference: " + ", ".join(REFERENCES),
         "the power (attack) of that object, now, or as it was just before it left its zone (look-back)"),
    Form("toughness_of", "a reference: " + ", ".join(REFERENCES),
         "its toughness (Magic), 耐久力 (Vision of Phantasm) or defense left after damage (Shadowverse), read as "
         "power_of"),
    Form("cost_of", "a reference: " + ", ".join(REFERENCES),
         "its cost (Magic: mana value), read as power_of"),
    Form("under_of", "a reference: " + ", ".join(REFERENCES),
         "how many cards lie under that object (set on it, evolution sources, a pilot aboard), read as power_of"),
    Form("count", "{ zone, whose = you/opponent/any/target, types, subtypes, colors, name, other }",
         "how many objects are in that zone now and match every filter given"),
    Form("highest", "{ of = power/toughness/cost, zone, whose, types, subtypes, colors, name, other }",
         "the greatest of that characteristic among the objects count would count now; 0 if there are none"),
    Form("status_of", "{ of = a reference, status = a counter: AmountRules.statuses }",
         "that counter kept on the object (how often it was spellboosted), now or in its look-back state"),
    Form("named", "a name an earlier step of the same effect gave a value (games with such a step: AmountRules.named)",
         "that value: X counted once and read twice (「+X/+X…Xが3以上なら」), as the step that named it took it"),
    Form("stat", "a counter of the game: AmountRules.stats", "that counter of the effect's controller now"),
    Form("stat_of", "{ stat, whose = you/opponent/any/target }",
         "that counter of those players now, summed (any: every player's, the total)"),
    Form("x", "true", "the value chosen for X as the spell was cast (games with X only)"),
    Form("that_much", "true",
         "the amount of the event that triggered the ability (\"deals that much damage\": the damage it was "
         "dealt), as it triggered; only in a triggered ability on a trigger of AmountRules.that_much"),
    Form("plus", "[amount, amount, ...]", "the sum"),
    Form("minus", "[amount, amount]", "the first less the second"),
    Form("times", "[amount, amount, ...]", "the product"),
    Form("max", "[amount, amount, ...]", "the greatest of them (「…まで」: max = [0, amount] is never negative)"),
    Form("if_at_least", "{ amount, at_least = 1, then, otherwise = 0 }",
         "then if amount is at least at_least, else otherwise: an amount under a condition (「…があれば+2000」); "
         "at_least is 1 or more (0 would always hold)"),
    Form("half", "amount, with round = up/down", "half of it, rounded as the card says, else as the game rounds"),
)}
"""Every expression form, for the vocabulary reference (``docs/vocabulary.md``)."""

_FORM_KEYS = tuple(FORMS)


# -- what an amount is read in ------------------------------------------------------------------------------
# An amount is computed inside one resolution (``statemachine.context.EffectContext``). This module sits below
# the vocabulary and the loader, which name ``AmountRules``, so it names the resolution by what it reads of it.


class _Vocabulary(Protocol):
    @property
    def amounts(self) -> AmountRules | None: ...


class _Profile(Protocol):
    @property
    def vocabulary(self) -> _Vocabulary: ...

    @property
    def hidden_zones(self) -> frozenset[str]: ...


class _Engine(Protocol):
    @property
    def profile(self) -> _Profile: ...

    def emit(self, *events: ev.Event) -> None: ...


class Effect(Protocol):
    """What ``evaluate`` reads of one resolution (``statemachine.context.EffectContext``)."""

    @property
    def engine(self) -> _Engine: ...

    @property
    def state(self) -> GameState: ...

    @property
    def bound(self) -> dict[str, Any]: ...

    @property
    def controller(self) -> int: ...

    @property
    def opponent(self) -> int: ...

    @property
    def source(self) -> int: ...

    @property
    def subject(self) -> int | None: ...

    @property
    def effect(self) -> int | None: ...

    @property
    def captured(self) -> tuple[str, ...]: ...

    @property
    def ability(self) -> str: ...

    def view(self, oid: int) -> ObjectView | None: ...


def _no_targets(ctx: Effect) -> list[int]:
    return list(ctx.bound.get("targets") or ctx.bound.get("chosen") or ())


class AmountRules(Struct, frozen=True):
    """What one game's card data may compute, and how (set as ``Vocabulary.amounts``)."""

    zones: tuple[str, ...]  # zone names ``count`` may name
    characteristics: tuple[str, ...] = ("power_of", "cost_of")  # which of power_of/toughness_of/cost_of exist
    stats: tuple[str, ...] = ()  # the player counters ``stat`` may name
    has_x: bool = False  # whether a value is chosen for X as a card is cast
    rounding: str = ""  # "up" or "down": how the game rounds a half; "" = the card must say (``round``)
    rounding_rule: str = ""  # where that rounding comes from (a rule id, or "assumed")
    negative_is_zero: bool = False  # a negative result is used as zero (Magic, CR 107.1b)
    # The objects an effect's "target" refers to, first first (players as -1 - player); default: the chosen
    # targets (``ctx.bound["targets"]``) or the chosen objects (``ctx.bound["chosen"]``).
    # (it is given the game's ``EffectContext``, whose captured and bound values a game may read).
    targets: Callable[[Any], list[int]] = _no_targets
    # References of the game's own beyond source/subject/target, each reading the object it names from the
    # resolution (Magic's "sacrificed": the creature sacrificed to pay the spell's cost).
    references: dict[str, Callable[[Any], int | None]] = msgspec.field(default_factory=dict)
    # Counters kept on an object that ``status_of`` may read (Shadowverse: "spellboost").
    # The step that names a value ``named`` reads (Shadowverse: "let"), kept in ``ctx.bound[NAMED]``; "": none.
    named: str = ""
    statuses: tuple[str, ...] = ()
    # "toughness" of an object view (Shadowverse and Vision subtract damage); None: the printed toughness.
    toughness: Callable[[ObjectView], int] | None = None
    # How a player counter is read, for counters a game derives from others (Vision's life points are 20 less
    # the damage taken); None: the counter as the state keeps it.
    stat_value: Callable[[GameState, int, str], int] | None = None
    # The triggers whose event has an amount ``that_much`` may read ("that much", captured as the ability
    # triggers: ``THAT_MUCH`` in ``ctx.captured``); (): the game has no such form.
    that_much: tuple[str, ...] = ()


class AmountError(ValueError):
    """An expression that does not fit the game: ``path`` is where in the amount, below the parameter."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


# -- checking at load ---------------------------------------------------------------------------------------


def reads_that_much(raw: Any) -> bool:
    """Whether an amount anywhere in these raw parameters is ``that_much`` (the triggering event's amount)."""
    if isinstance(raw, dict):
        return "that_much" in raw or any(reads_that_much(v) for v in raw.values())
    return isinstance(raw, list) and any(reads_that_much(v) for v in raw)


def amount_fields(params: type[Struct]) -> tuple[str, ...]:
    """The parameters of an effect's parameter struct that take an ``Amount``."""
    return tuple(f.encode_name for f in msgspec.structs.fields(params) if f.type == Amount)


def check_amount(raw: object, rules: AmountRules | None, path: str = "") -> None:
    """Refuse an amount that is not a literal or a well-formed expression for this game (``AmountError``)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return
    if not isinstance(raw, dict):
        got = {bool: "bool", str: "str", float: "float", list: "array", type(None): "null"}.get(type(raw), "value")
        raise AmountError(path, f"Expected `int`, got `{got}`: an amount is an integer or a table with one of: "
                                f"{', '.join(_allowed(rules))}")
    allowed = _allowed(rules)
    forms = [k for k in raw if k != "round"]
    unknown = [k for k in forms if k not in FORMS]
    if unknown:
        raise AmountError(f"{path}.{unknown[0]}", f"unknown amount form {unknown[0]!r} (known: {', '.join(allowed)})")
    if len(forms) != 1:
        named = ", ".join(map(str, forms)) or "none"
        raise AmountError(path, f"an amount names exactly one form, not {len(forms)} ({named}); "
                                f"known: {', '.join(allowed)}")
    form = forms[0]
    if form not in allowed:
        raise AmountError(f"{path}.{form}", f"{form!r} is not an amount in this game (known: {', '.join(allowed)})")
    if "round" in raw and form != "half":
        raise AmountError(f"{path}.round", "round goes with half only")
    value = raw[form]
    here = f"{path}.{form}"
    match form:
        case "power_of" | "toughness_of" | "cost_of" | "under_of":
            known = REFERENCES + tuple(sorted(rules.references)) if rules is not None else REFERENCES
            if value not in known:
                raise AmountError(here, f"{value!r} is not a reference (known: {', '.join(known)})")
        case "x" | "that_much":
            if value is not True:
                raise AmountError(here, f"write {form} = true")
        case "count":
            _check_count(value, rules, here)
        case "highest":
            of = value.get("of", "power") if isinstance(value, dict) else None
            chars = rules.characteristics if rules is not None else ("power_of", "toughness_of", "cost_of")
            if not isinstance(of, str) or f"{of}_of" not in chars:
                names = ", ".join(c.removesuffix("_of") for c in chars)
                raise AmountError(f"{here}.of", f"{of!r} is not a characteristic of this game (known: {names})")
            _check_count({k: v for k, v in value.items() if k != "of"}, rules, here)
        case "status_of":
            if not isinstance(value, dict) or "of" not in value or "status" not in value:
                raise AmountError(here, "status_of takes a table: { of, status }")
            known = REFERENCES + tuple(sorted(rules.references)) if rules is not None else REFERENCES
            if value["of"] not in known:
                raise AmountError(f"{here}.of", f"{value['of']!r} is not a reference (known: {', '.join(known)})")
            statuses = rules.statuses if rules is not None else ()
            if value["status"] not in statuses:
                raise AmountError(f"{here}.status", f"{value['status']!r} is not a counter cards may read "
                                                    f"(known: {', '.join(statuses) or 'none'})")
        case "named":
            if not isinstance(value, str) or not value:
                raise AmountError(here, "named takes the name an earlier step gave a value")
        case "stat":
            _check_stat(value, rules, here)
        case "stat_of":
            if not isinstance(value, dict) or "stat" not in value:
                raise AmountError(here, "stat_of takes a table: { stat, whose }")
            _check_stat(value["stat"], rules, f"{here}.stat")
            whose = value.get("whose", "you")
            if whose not in WHOSE:
                raise AmountError(f"{here}.whose", f"{whose!r} is not one of {', '.join(WHOSE)}")
        case "plus" | "times" | "minus" | "max":
            if not isinstance(value, list) or len(value) < 2 or (form == "minus" and len(value) != 2):
                want = "two amounts" if form == "minus" else "a list of two or more amounts"
                raise AmountError(here, f"{form} takes {want}")
            for i, item in enumerate(value):
                check_amount(item, rules, f"{here}[{i}]")
        case "if_at_least":
            _check_if_at_least(value, rules, here)
        case "half":
            check_amount(value, rules, here)
            rnd = raw.get("round")
            if rnd is not None and rnd not in ROUNDING:
                raise AmountError(f"{path}.round", f"{rnd!r} is not a rounding (known: {', '.join(ROUNDING)})")
            if rnd is None and rules is not None and not rules.rounding:
                raise AmountError(f"{path}.round", "this game has no rounding of its own: the card says round = "
                                                   "\"up\" or \"down\" (CR 107.1a)")
    try:
        msgspec.convert(raw, Expr, strict=True)
    except msgspec.ValidationError as exc:
        msg, _, where = str(exc).partition(" - at ")
        raise AmountError(path + where.strip("`").removeprefix("$"), msg) from exc


def _allowed(rules: AmountRules | None) -> list[str]:
    if rules is None:
        return list(_FORM_KEYS)
    out = [k for k in _FORM_KEYS if k not in ("power_of", "toughness_of", "cost_of", "x", "stat", "stat_of",
                                               "status_of", "named", "that_much")]
    out += list(rules.characteristics)
    if rules.statuses:
        out.append("status_of")
    if rules.named:
        out.append("named")
    if rules.has_x:
        out.append("x")
    if rules.that_much:
        out.append("that_much")
    if rules.stats:
        out += ["stat", "stat_of"]
    return sorted(out)


def _check_if_at_least(value: object, rules: AmountRules | None, here: str) -> None:
    if not isinstance(value, dict) or "amount" not in value or "then" not in value:
        raise AmountError(here, "if_at_least takes a table: { amount, at_least = 1, then, otherwise = 0 }")
    known = [f.name for f in msgspec.structs.fields(IfAtLeast)]
    for k in value:
        if k not in known:
            raise AmountError(f"{here}.{k}", f"unknown if_at_least key {k!r} (known: {', '.join(known)})")
    at_least = value.get("at_least", 1)
    if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 1:
        raise AmountError(f"{here}.at_least", f"at_least is an integer of 1 or more, not {at_least!r} "
                                              "(a condition of 0 always holds)")
    for key in ("amount", "then", "otherwise"):
        if key in value:
            check_amount(value[key], rules, f"{here}.{key}")


def _check_stat(value: object, rules: AmountRules | None, here: str) -> None:
    stats = rules.stats if rules is not None else ()
    if stats and value not in stats:
        raise AmountError(here, f"unknown counter {value!r} (known: {', '.join(stats)})")


def _check_count(value: object, rules: AmountRules | None, here: str) -> None:
    if not isinstance(value, dict):
        raise AmountError(here, "count takes a table: { zone, whose, types, subtypes, colors, name, other }")
    fields = [f.name for f in msgspec.structs.fields(Count)]
    for k in value:
        if k not in fields:
            raise AmountError(f"{here}.{k}", f"unknown count filter {k!r} (known: {', '.join(fields)})")
    zones = rules.zones if rules is not None else ()
    if "zone" not in value:
        raise AmountError(f"{here}.zone", f"count needs a zone (known: {', '.join(zones)})")
    if zones and value["zone"] not in zones:
        raise AmountError(f"{here}.zone", f"unknown zone {value['zone']!r} (known: {', '.join(zones)})")
    whose = value.get("whose", "you")
    if whose not in WHOSE:
        raise AmountError(f"{here}.whose", f"{whose!r} is not one of {', '.join(WHOSE)}")


# -- evaluating at resolution -------------------------------------------------------------------------------


class _Reading:
    def __init__(self, ctx: Effect, rules: AmountRules, targets: Sequence[int] | None) -> None:
        self.ctx, self.rules = ctx, rules
        self.targets = targets
        self.looked_back: list[int] = []
        self.hidden_from: set[int] = set()  # players who may not see something this computation read

    def _players(self) -> range:
        return range(len(self.ctx.state.players))

    def read(self, seen: ObjectView) -> None:
        """A characteristic of ``seen`` was read: whoever cannot see it (where it is, or where it was) may not
        see the value."""
        hidden = self.ctx.engine.profile.hidden_zones
        self.hidden_from.update(p for p in self._players() if not can_see_view(seen, p, hidden=hidden))

    def filtered(self, oid: int) -> None:
        """A filtered count looked at ``oid``'s characteristics: whoever cannot see it may not see the count (an
        unfiltered count is a zone's size, which is public)."""
        st, hidden = self.ctx.state, self.ctx.engine.profile.hidden_zones
        self.hidden_from.update(p for p in self._players() if not can_see(st, p, oid, hidden=hidden))

    def chosen(self) -> list[int]:
        """What "target" refers to, first first (players as -1 - player)."""
        return list(self.targets) if self.targets is not None else self.rules.targets(self.ctx)


def evaluate(ctx: Effect, amount: Amount, param: str = "amount", *, targets: Sequence[int] | None = None) -> int:
    """The value of ``amount`` now. A literal is itself; an expression is computed and recorded.

    ``targets``: what "target" refers to in this computation, when an effect acts on several objects or players
    in turn and its amount is each one's own (「それぞれ自分の場の…」): the one it is acting on. By default, the
    targets chosen for the effect (``AmountRules.targets``)."""
    if isinstance(amount, int):
        return amount
    rules = ctx.engine.profile.vocabulary.amounts
    assert rules is not None, "checked when the card pool loaded"
    reading = _Reading(ctx, rules, targets)
    value = _value(reading, amount)
    if rules.negative_is_zero and value < 0:
        value = 0  # CR 107.1b
    looked_back, secret = tuple(reading.looked_back), tuple(sorted(reading.hidden_from))
    if secret:
        ctx.engine.emit(ev.SecretAmountComputed(ctx.effect, ctx.ability, param, describe(amount), value, looked_back,
                                                secret))
    else:
        ctx.engine.emit(ev.AmountComputed(ctx.effect, ctx.ability, param, describe(amount), value, looked_back))
    return value


def peek(ctx: Effect, amount: Amount) -> int:
    """The value of ``amount`` now, recording nothing: for a condition, whose outcome is recorded as what it
    decided (a trigger judged, SV-O-05), or one read while the rules only look at the game (a static ability's
    condition, asked whenever a keyword is read), where no event may be emitted."""
    if isinstance(amount, int):
        return amount
    rules = ctx.engine.profile.vocabulary.amounts
    assert rules is not None, "checked when the card pool loaded"
    value = _value(_Reading(ctx, rules, None), amount)
    return 0 if rules.negative_is_zero and value < 0 else value


def _value(r: _Reading, e: Amount) -> int:
    if isinstance(e, int):
        return e
    if e.power_of is not None:
        seen = _object(r, e.power_of)
        return seen.power if seen is not None else 0
    if e.toughness_of is not None:
        seen = _object(r, e.toughness_of)
        if seen is None:
            return 0
        return r.rules.toughness(seen) if r.rules.toughness is not None else seen.chars.toughness or 0
    if e.cost_of is not None:
        seen = _object(r, e.cost_of)
        return (seen.chars.cost or 0) if seen is not None else 0
    if e.under_of is not None:
        seen = _object(r, e.under_of)
        return len(seen.under_cards) if seen is not None else 0
    if e.count is not None:
        return _count(r, e.count)
    if e.highest is not None:
        return max((_characteristic(r, oid, e.highest.of) for oid in _matching(r, e.highest)), default=0)
    if e.status_of is not None:
        seen = _object(r, e.status_of.of)
        return seen.status.get(e.status_of.status, 0) if seen is not None else 0
    if e.named is not None:
        return int(r.ctx.bound.get(NAMED, {}).get(e.named, 0))  # checked at load: an earlier step names it
    if e.that_much is not None:  # captured as the ability triggered (checked at load: a trigger with an amount)
        return next((int(c.removeprefix(THAT_MUCH)) for c in r.ctx.captured if c.startswith(THAT_MUCH)), 0)
    if e.stat is not None:
        return _stat(r, r.ctx.controller, e.stat)
    if e.stat_of is not None:
        return sum(_stat(r, p, e.stat_of.stat) for p in _players(r, e.stat_of.whose))
    if e.x is not None:
        return _x(r)
    if e.plus is not None:
        return sum(_value(r, a) for a in e.plus)
    if e.minus is not None:
        return _value(r, e.minus[0]) - _value(r, e.minus[1])
    if e.times is not None:
        out = 1
        for a in e.times:
            out *= _value(r, a)
        return out
    if e.max is not None:
        return max(_value(r, a) for a in e.max)
    if e.if_at_least is not None:
        cond = e.if_at_least
        return _value(r, cond.then) if _value(r, cond.amount) >= cond.at_least else _value(r, cond.otherwise)
    if e.half is not None:
        n = _value(r, e.half)
        up = (e.round or r.rules.rounding) == "up"
        return -((-n) // 2) if up else n // 2
    raise AssertionError(f"an expression with no form: {e!r} (checked at load)")


def _stat(r: _Reading, player: int, name: str) -> int:
    if r.rules.stat_value is not None:
        return r.rules.stat_value(r.ctx.state, player, name)
    return r.ctx.state.stat(player, name)


def _ref(r: _Reading, ref: str) -> int | None:
    ctx = r.ctx
    match ref:
        case "source":
            return ctx.source
        case "subject":
            return ctx.subject
        case "target":
            chosen = r.chosen()
            return chosen[0] if chosen else None
        case _:
            read = r.rules.references.get(ref)
            assert read is not None, f"unknown reference {ref!r} (checked at load)"
            return read(ctx)


def _object(r: _Reading, ref: str) -> ObjectView | None:
    """The object now, or as it was just before it left its zone (DM-LB-13, CR 608.2h)."""
    oid = _ref(r, ref)
    if oid is None or oid < 0:
        return None
    st = r.ctx.state
    seen = view(st, oid) if oid in st.objects else last_known(st, oid)
    if seen is not None:
        if oid not in st.objects:
            r.looked_back.append(oid)
        r.read(seen)
    return seen


def _players(r: _Reading, whose: str) -> list[int]:
    ctx = r.ctx
    match whose:
        case "you":
            return [ctx.controller]
        case "opponent":
            return [ctx.opponent]
        case "target":
            chosen = r.chosen()
            if not chosen:
                return []
            ref = chosen[0]
            if ref < 0:
                return [-1 - ref]
            seen = ctx.view(ref)
            return [seen.controller] if seen is not None else []
        case _:
            return list(range(len(ctx.state.players)))


def _count(r: _Reading, c: Count) -> int:
    return len(_matching(r, c))


def _matching(r: _Reading, c: Count) -> list[int]:
    """The objects now in ``c``'s zone that match every filter it gives."""
    st = r.ctx.state
    players = _players(r, c.whose)
    filters = bool(c.types or c.subtypes or c.colors or c.name)
    out: list[int] = []
    for p in range(len(st.players)):
        for oid in st.zone(f"{p}.{c.zone}"):
            obj = st.objects[oid]
            if obj.controller not in players or (c.other and oid == r.ctx.source):
                continue
            if filters:
                r.filtered(oid)
            chars = view(st, oid).chars
            if c.types and not set(c.types) & set(chars.types):
                continue
            if c.subtypes and not set(c.subtypes) & set(chars.subtypes):
                continue
            if c.colors and not set(c.colors) & set(chars.colors):
                continue
            if c.name and chars.name != c.name:
                continue
            out.append(oid)
    return out


def _characteristic(r: _Reading, oid: int, of: str) -> int:
    seen = view(r.ctx.state, oid)
    r.read(seen)
    if of == "toughness":
        return r.rules.toughness(seen) if r.rules.toughness is not None else seen.chars.toughness or 0
    return (seen.chars.cost or 0) if of == "cost" else seen.power


def _x(r: _Reading) -> int:
    """X as chosen while casting: the ``x`` the spell carries (``StatusSet``), read now or as it last was."""
    ctx = r.ctx
    if "x" in ctx.bound:
        return int(ctx.bound["x"])
    spell = ctx.bound.get("spell")
    if spell is None:
        spell = ctx.source  # an effect of a card in play (Vision's chain entry is the card itself)
    st = ctx.state
    if spell in st.objects:
        return st.objects[spell].status.get("x", 0)
    seen = last_known(st, spell)
    return seen.status.get("x", 0) if seen is not None else 0


def describe(e: Amount) -> str:
    """An expression as one line of text, as the reference and the trace show it."""
    if isinstance(e, int):
        return str(e)
    for name in ("power_of", "toughness_of", "cost_of", "under_of"):
        ref = getattr(e, name)
        if ref is not None:
            return f"{name.removesuffix('_of')} of {ref}" if name != "under_of" else f"cards under {ref}"
    if e.stat is not None:
        return f"your {e.stat}"
    if e.stat_of is not None:
        whose = {"you": "your", "opponent": "the opponent's", "any": "all players'", "target": "the target's"}
        return f"{whose.get(e.stat_of.whose, e.stat_of.whose)} {e.stat_of.stat}"
    if e.highest is not None:
        h = e.highest
        among = Count(h.zone, h.whose, h.types, h.subtypes, h.colors, h.name, h.other)
        return f"highest {h.of} in {describe(Expr(count=among))}"
    if e.status_of is not None:
        return f"{e.status_of.status} of {e.status_of.of}"
    if e.named is not None:
        return e.named
    if e.count is not None:
        c = e.count
        filters = [f"{k}={'|'.join(v) if isinstance(v, tuple) else v}" for k, v in (
            ("types", c.types), ("subtypes", c.subtypes), ("colors", c.colors), ("name", c.name)) if v]
        return f"count({c.zone}, {c.whose}{', other' if c.other else ''}{''.join(', ' + f for f in filters)})"
    if e.x is not None:
        return "X"
    if e.that_much is not None:
        return "that much"
    if e.max is not None:
        return "max(" + ", ".join(describe(a) for a in e.max) + ")"
    for name, sign in (("plus", " + "), ("minus", " - "), ("times", " * ")):
        items = getattr(e, name)
        if items is not None:
            return "(" + sign.join(describe(a) for a in items) + ")"
    if e.if_at_least is not None:
        cond = e.if_at_least
        return f"({describe(cond.then)} if {describe(cond.amount)} >= {cond.at_least} else {describe(cond.otherwise)})"
    if e.half is not None:
        return f"half({describe(e.half)}{', ' + e.round if e.round else ''})"
    return "?"


__all__ = ["FORMS", "NAMED", "Amount", "AmountError", "AmountRules", "Count", "Expr", "Highest", "IfAtLeast", "StatOf",
           "StatusOf", "amount_fields", "check_amount", "describe", "evaluate"]
