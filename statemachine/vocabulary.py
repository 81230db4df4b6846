"""The small vocabulary cards are built from: triggers, conditions and effect steps, each a named, typed
Python function registered here and checked when a card pool loads.

An effect step is a generator: it yields a ``Request`` when it needs a player's choice and receives the chosen
options. A named function that data cannot say (an escape hatch) is registered the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar

import msgspec
import msgspec.inspect as mi
from msgspec import Meta, Struct

from statemachine.cards import DigestForm
from statemachine.decisions import Arg, Request

if TYPE_CHECKING:
    from statemachine.amounts import AmountRules

Answer = tuple[Arg, ...]
Procedure = Generator[Request, Answer, None]
"""A procedure of the rules that may stop to ask a player: it yields requests and receives the answers."""

P = TypeVar("P", bound=Struct)
T = TypeVar("T")


class NoParams(Struct, frozen=True, forbid_unknown_fields=True):
    pass


# Parameters whose values are names the game declares (checked at load against ``Vocabulary.names``): a
# keyword a card has or is given, a selector naming what an effect acts on.
KEYWORD, SELECTOR, ZONE = "keyword", "selector", "zone"
Keyword = Annotated[str, Meta(extra={"names": KEYWORD})]
Selector = Annotated[str, Meta(extra={"names": SELECTOR})]

# A declared name ending in one of these is a family: ``countdown_<number>`` is ``countdown_2``, ``countdown_3``.
_FORMS = {"<number>": re.compile(r"[0-9]+"), "<card>": re.compile(r"[a-z0-9_]+")}


def named_values(info: mi.Type, value: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Every (kind, value, path) in ``value`` whose type says it is a declared name (``Keyword``, ``Selector``),
    walking a decoded value along its ``msgspec.inspect`` type."""
    match info:
        case mi.Metadata(type=inner, extra=extra):
            kind = (extra or {}).get("names")
            if kind and isinstance(value, str):
                yield kind, value, path
            else:
                yield from named_values(inner, value, path)
        case mi.StructType(cls=cls, fields=fields) if isinstance(value, cls):  # (a union's other member: not)
            for f in fields:
                yield from named_values(f.type, getattr(value, f.name), f"{path}.{f.encode_name}")
        case mi.ListType(item_type=item) | mi.VarTupleType(item_type=item) if isinstance(value, list | tuple):
            for i, v in enumerate(value):
                yield from named_values(item, v, f"{path}[{i}]")
        case mi.UnionType(types=types):
            for t in types:
                if not isinstance(t, mi.NoneType):
                    yield from named_values(t, value, path)
        case _:
            pass


def allowed_at(info: mi.Type, path: str) -> tuple[str, ...]:
    """The values or field names a type allows at ``path`` (``$.to``, ``$.targets[0]``): the names an error
    about that place should list. Empty when it is not a closed set."""
    steps = re.findall(r"\.([A-Za-z0-9_]+)|\[\d+\]", path)
    for step in steps:
        while isinstance(info, mi.Metadata | mi.UnionType):
            info = info.type if isinstance(info, mi.Metadata) else next(
                (t for t in info.types if not isinstance(t, mi.NoneType)), mi.NoneType())
        if isinstance(info, mi.StructType) and step:
            info = next((f.type for f in info.fields if f.encode_name == step), mi.AnyType())
        elif isinstance(info, mi.ListType | mi.VarTupleType | mi.FrozenSetType | mi.SetType) and not step:
            info = info.item_type
        else:
            return ()
    while isinstance(info, mi.Metadata):
        info = info.type
    if isinstance(info, mi.LiteralType):
        return tuple(str(v) for v in info.values)
    if isinstance(info, mi.StructType):
        return tuple(f.encode_name for f in info.fields)
    return ()


class Checked:
    """What a parameter struct may define for the loader to check beyond types (duck-typed, any may be absent):

    - ``signed``: a class attribute, the parameters that may take a negative literal (all others refuse one);
    - ``problems()``: ``(path, message)`` pairs for what cannot work (a selector that can select nothing);
    - ``target_refs()``: ``(path, index)`` pairs, the ability's targets the step acts on (counted from 0);
    - ``nested()``: ``(field, name, params)`` of steps it carries, checked the same way (a fourth item: how many
      targets the carrier adds for that step, counted after the ability's own).
    """


class Entry(Generic[P]):
    def __init__(self, name: str, params: type[P], fn: Callable[..., Any], asks: bool = True) -> None:
        self.name, self.params, self.fn = name, params, fn
        self.asks = asks  # whether the step may stop to ask a player (a ``may`` needs it to)
        self.doc = " ".join((fn.__doc__ or "").split("\n\n")[0].split())  # the first paragraph, for docs

    def parse(self, raw: dict[str, Any]) -> P:
        return msgspec.convert(raw, self.params, strict=True)


class Vocabulary:
    """One game's names: ``effects`` (generators), ``conditions`` (predicates), ``costs``; and the names
    card data may use elsewhere (``names``): the keywords a card may have (``keyword``), the selectors an effect
    may act on (``selector``), each with what it means. A card using a name not declared here is refused at load.
    ``filters`` are the trigger filter keys the game reads beyond the shared ones (``SubjectFilter``).

    The ``ctx`` its steps run in is the game's ``statemachine.context.EffectContext``; it is passed through
    unread, so the vocabulary (below the engine) need not name it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.effects: dict[str, Entry[Any]] = {}
        self.conditions: dict[str, Entry[Any]] = {}
        self.costs: dict[str, Entry[Any]] = {}  # what an ability's ``costs`` may name (the game reads them)
        self.triggers: set[str] = set()
        self.names: dict[str, dict[str, str]] = {KEYWORD: {}, SELECTOR: {}, ZONE: {}}
        self.filters: dict[str, tuple[Any, str]] = {}
        # Subject tests of the filter keys the game declares with one (``filter_key(..., test=)``): the kernel's
        # trigger matching applies them to the subject as it applies the shared keys.
        self.filter_tests: dict[str, Callable[[Any, Any], bool]] = {}
        # The zone a trigger works from when a card does not say (``TriggerDef.where``); empty: it must say.
        self.home_zone = ""
        # Fields of the game's own on cards and triggers: name -> (type, default, meaning).
        self.card_fields: dict[str, tuple[Any, Any, str]] = {}
        self.trigger_fields: dict[str, tuple[Any, Any, str]] = {}
        self.later_fields: dict[str, Any] = {}  # card fields added after the first pools: name -> default
        self._digest_also: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        # The effect steps that name a target (Magic's ``target``): an ability's targets are these steps in
        # printed order, and a step's ``target_refs()`` (its indices into them) are checked against them at load.
        self.target_steps: frozenset[str] = frozenset()
        # Ability kinds whose steps are carried out without asking anyone (Magic's static abilities): a ``may``
        # on one of their steps is refused at load.
        self.silent_kinds: frozenset[str] = frozenset()
        # What computed amounts (``statemachine.amounts``) this game's card data may use; None: none.
        self.amounts: AmountRules | None = None
        self._parsed: dict[tuple[str, str, int], tuple[dict[str, Any], Any]] = {}

    def declare(self, kind: str, table: dict[str, str]) -> None:
        """Declare names of ``kind`` (``keyword``, ``selector``) with what each means. A name ending in
        ``<number>`` or ``<card>`` stands for a family (``countdown_<number>``: ``countdown_2``)."""
        for name in table:
            if name in self.names.setdefault(kind, {}):
                raise ValueError(f"{kind} {name!r} is declared twice in {self.name}")
        self.names[kind].update(table)

    def filter_key(self, key: str, typ: Any, meaning: str,
                   test: Callable[[Any, Any], bool] | None = None) -> None:
        """A trigger filter key this game reads (its value must have type ``typ``). With ``test(subject view,
        value)``, trigger matching applies it to the subject; without, the game's trigger kinds read it."""
        self.filters[key] = (typ, meaning)
        if test is not None:
            self.filter_tests[key] = test

    def card_field(self, name: str, typ: Any, default: Any, meaning: str, *, later: bool = False) -> None:
        """A field of this game's cards (``CardDef.fields``): Magic's mana symbols. ``later``: added after the
        game's first pools, so a card that leaves it at its default digests as before it existed."""
        self.card_fields[name] = (typ, default, meaning)
        if later:
            self.later_fields[name] = default

    def trigger_field(self, name: str, typ: Any, default: Any, meaning: str) -> None:
        """A field of this game's triggers (``TriggerDef.fields``): Duel Masters' timing."""
        self.trigger_fields[name] = (typ, default, meaning)

    def digest_also(self, card: dict[str, Any], trigger: dict[str, Any]) -> None:
        """Fields the kernel's card format carried for every game when this game's pools were released, with
        the value each card had: written into the digest form so that pinned pool digests stay true."""
        self._digest_also = (card, trigger)

    def digest_form(self) -> DigestForm:
        """Where this game's fields go in a pool's digest form (``statemachine.cards.DigestForm``)."""
        card, trigger = self._digest_also
        return DigestForm({**{k: d for k, (_, d, _) in self.card_fields.items()}, **card},
                          {**{k: d for k, (_, d, _) in self.trigger_fields.items()}, **trigger},
                          dict(self.later_fields))

    def knows(self, kind: str, value: str) -> bool:
        """Whether ``value`` is a declared name of ``kind`` (or of one of its families)."""
        table = self.names.get(kind, {})
        if value in table:  # (a family's own name, ``countdown_<number>``, names no member of it)
            return not any(value.endswith(form) for form in _FORMS)
        for name in table:
            for form, pattern in _FORMS.items():
                if name.endswith(form) and value.startswith(prefix := name.removesuffix(form)) \
                        and pattern.fullmatch(value[len(prefix):]):
                    return True
        return False

    def effect(self, name: str, params: type[Struct] = NoParams, *, asks: bool = True
               ) -> Callable[[Callable[..., Procedure]], Callable[..., Procedure]]:
        """Register an effect step. ``asks=False``: the step never stops to ask, so a card may not give it
        ``may = true`` (refused at load)."""

        def register(fn: Callable[..., Procedure]) -> Callable[..., Procedure]:
            if name in self.effects:
                raise ValueError(f"effect {name!r} is registered twice in {self.name}")
            self.effects[name] = Entry(name, params, fn, asks)
            return fn

        return register

    def condition(self, name: str, params: type[Struct] = NoParams) -> Callable[[Callable[..., bool]],
                                                                              Callable[..., bool]]:
        def register(fn: Callable[..., bool]) -> Callable[..., bool]:
            if name in self.conditions:
                raise ValueError(f"condition {name!r} is registered twice in {self.name}")
            self.conditions[name] = Entry(name, params, fn)
            return fn

        return register

    def cost(self, name: str, params: type[Struct] = NoParams) -> Callable[[T], T]:
        """Register a cost: ``fn`` is whatever the game uses to check and pay it (checked by name at load)."""

        def register(fn: T) -> T:
            if name in self.costs:
                raise ValueError(f"cost {name!r} is registered twice in {self.name}")
            self.costs[name] = Entry(name, params, fn)  # type: ignore[arg-type]
            return fn

        return register

    def run_effect(self, ctx: object, name: str, raw: dict[str, Any]) -> Procedure:
        entry = self.effects[name]
        return entry.fn(ctx, self._params("e", entry, raw))  # type: ignore[no-any-return]

    def cost_entry(self, name: str, raw: dict[str, Any]) -> tuple[Any, Any]:
        """A cost's registered object and its typed parameters."""
        entry = self.costs[name]
        return entry.fn, self._params("k", entry, raw)

    def check(self, ctx: object, name: str, raw: dict[str, Any]) -> bool:
        entry = self.conditions[name]
        return bool(entry.fn(ctx, self._params("c", entry, raw)))

    def _params(self, kind: str, entry: Entry[Any], raw: dict[str, Any]) -> Any:
        # Parameters were validated at load; parse once per distinct dict and keep the typed value.
        key = (kind, entry.name, id(raw))
        hit = self._parsed.get(key)
        if hit is not None and hit[0] is raw:
            return hit[1]
        parsed = entry.parse(raw)
        self._parsed[key] = (raw, parsed)  # holding ``raw`` keeps its id from being reused
        return parsed
