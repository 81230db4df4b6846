"""The small vocabulary cards are built from: triggers, conditions and effect steps, each a named, typed
Python function registered here and checked when a card pool loads.

An effect step is a generator: it yields a ``Request`` when it needs a player's choice and receives the chosen
options. A named function that data cannot say (an escape hatch) is registered the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec
from msgspec import Struct

from statemachine.decisions import Arg, Request

if TYPE_CHECKING:
    from statemachine.context import EffectContext

Answer = tuple[Arg, ...]
Procedure = Generator[Request, Answer, None]
"""A procedure of the rules that may stop to ask a player: it yields requests and receives the answers."""

P = TypeVar("P", bound=Struct)
T = TypeVar("T")


class NoParams(Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Entry(Generic[P]):
    def __init__(self, name: str, params: type[P], fn: Callable[..., Any]) -> None:
        self.name, self.params, self.fn = name, params, fn

    def parse(self, raw: dict[str, Any]) -> P:
        return msgspec.convert(raw, self.params, strict=True)


class Vocabulary:
    """One game's names: ``effects`` (generators), ``conditions`` (predicates)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.effects: dict[str, Entry[Any]] = {}
        self.conditions: dict[str, Entry[Any]] = {}
        self.costs: dict[str, Entry[Any]] = {}  # what an ability's ``costs`` may name (the game reads them)
        self.triggers: set[str] = set()
        self._parsed: dict[tuple[str, str, int], tuple[dict[str, Any], Any]] = {}

    def effect(self, name: str, params: type[Struct] = NoParams) -> Callable[[Callable[..., Procedure]],
                                                                           Callable[..., Procedure]]:
        def register(fn: Callable[..., Procedure]) -> Callable[..., Procedure]:
            if name in self.effects:
                raise ValueError(f"effect {name!r} is registered twice in {self.name}")
            self.effects[name] = Entry(name, params, fn)
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

    def run_effect(self, ctx: EffectContext, name: str, raw: dict[str, Any]) -> Procedure:
        entry = self.effects[name]
        return entry.fn(ctx, self._params("e", entry, raw))  # type: ignore[no-any-return]

    def cost_entry(self, name: str, raw: dict[str, Any]) -> tuple[Any, Any]:
        """A cost's registered object and its typed parameters."""
        entry = self.costs[name]
        return entry.fn, self._params("k", entry, raw)

    def check(self, ctx: EffectContext, name: str, raw: dict[str, Any]) -> bool:
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
