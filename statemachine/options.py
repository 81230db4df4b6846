"""Game options: the choices a game is started with (``GameStarted.options``), typed per game and rules version.

A log records its options as text pairs (``(key, value)``, sorted by key), and so it always will: the encoding of
``GameStarted`` is part of every recorded log's hashes. What a pair may say is typed here. Each game declares
its options as a frozen msgspec Struct (``statemachine/games/<game>/versions.py``, beside the ``Rules``
switches) whose fields are the keys any of its rules versions reads, each with the values it reads (a
``Literal`` of words, or a whole number). A profile picks the struct its rules version reads
(``RulesProfile.options_type``), so an option retired in a release is refused under it and still read under the
releases before.

``parse`` turns the recorded pairs into that struct, or raises ``BadOption`` naming the key, the value and what
is valid: an unknown key, a value no rules version reads (``deck_out = "OFF"``), a number written otherwise
than as plain digits. It is called wherever a game's options come in: ``Engine.new`` and ``Engine.from_setup``,
a scenario's set-up, and re-adjudication (``statemachine.rederive``), so an audit reports such an option as a
finding naming it.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from functools import cache
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

from eventsource.errors import KifuError

__all__ = ["SETUP", "BadOption", "GameOptions", "Switch", "choices", "describe", "parse", "setup_count",
           "with_scenario_label"]

SETUP: Final = "setup"  # how many records a given set-up has (Engine.from_setup): the kernel's own option
Switch = Literal["on", "off"]  # an option that turns a rule on or off (its default: on)


class BadOption(KifuError):
    """A game option no rules version of the game reads, or a value it does not read."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class GameOptions(Struct, frozen=True, forbid_unknown_fields=True):
    """The options every game knows: ``setup``, which ``Engine.from_setup`` sets for a given board."""

    setup: Annotated[int, Meta(ge=1)] | None = None  # records of the given set-up (its board), GameStarted first


Opts = TypeVar("Opts", bound=GameOptions)


@cache
def with_scenario_label(options: type[Opts]) -> type[Opts]:
    """``options`` and the label ``scenario`` (any text): the scenario runner wrote it into every scenario's
    options until each game's release that retired it (no option exists only for tests); logs recorded before
    carry it, and Shadowverse 1.0 reads it (switch ``scenario_evolves_early``)."""
    made = msgspec.defstruct(f"{options.__name__}WithScenario", [("scenario", str | None, None)], bases=(options,),
                             frozen=True, forbid_unknown_fields=True, module=options.__module__)
    return typing.cast(type[Opts], made)


def setup_count(value: str | None) -> int | None:
    """The ``setup`` option's record count, if ``value`` is one written as the engine writes it (plain ASCII
    digits, at least 1): None otherwise (``"²"`` is a digit to ``str.isdigit`` but no count)."""
    if value is None or not (value.isascii() and value.isdecimal()) or str(int(value)) != value or int(value) < 1:
        return None
    return int(value)


def choices(options: type[GameOptions]) -> dict[str, str]:
    """Each option of ``options`` with the values it takes, in words (``"on", "off"``; ``a whole number``)."""
    hints = typing.get_type_hints(options, include_extras=True)
    return {f.name: _values(hints[f.name]) for f in msgspec.structs.fields(options)}


def _values(kind: Any) -> str:
    words: list[str] = []
    for arm in typing.get_args(kind) or (kind,):
        if arm is type(None):
            continue
        if typing.get_origin(arm) is Literal:
            words += [f'"{v}"' for v in typing.get_args(arm)]
        elif typing.get_origin(arm) is Annotated:
            _base, *metas = typing.get_args(arm)
            low = next((m.ge for m in metas if isinstance(m, Meta) and m.ge is not None), None)
            words.append("a whole number" + (f" from {low}" if low is not None else ""))
        elif arm is int:
            words.append("a whole number")
        else:
            words.append("any text")
    return ", ".join(words)


def describe(options: type[GameOptions]) -> str:
    """The valid options in one line: ``deck_out ("on", "off"), setup (a whole number from 1)``."""
    return "; ".join(f"{k} ({v})" for k, v in sorted(choices(options).items()))


def parse(options: type[Opts], pairs: Iterable[tuple[str, str]], where: str) -> Opts:
    """The typed options of recorded ``pairs`` under ``options``; ``where`` names the game and rules version in
    the error (``duel_masters rules 1.2``). Raises ``BadOption`` for the first key or value it does not read."""
    hints = typing.get_type_hints(options, include_extras=True)
    fields = {f.name for f in msgspec.structs.fields(options)}
    typed: dict[str, Any] = {}
    for key, value in pairs:
        if key not in fields:
            raise BadOption(key, f"option {key!r}: {where} has no such option (its options: {describe(options)})")
        try:
            converted = msgspec.convert(value, hints[key], strict=False)
        except msgspec.ValidationError:
            converted = None
        if converted is None or (isinstance(converted, int) and str(converted) != value):
            raise BadOption(key, f"option {key} = {value!r}: {where} reads {_values(hints[key])} for {key}")
        typed[key] = converted
    return msgspec.convert(typed, options)
