"""Property: any one field of any record edited, the log re-sealed, ``kifu audit`` says clean only if the edited
log is byte for byte the log the rules produce.

"The log the rules produce" is found without re-adjudication: a fresh engine records a game from the edited
log's own inputs (its players, deck lists, seed, options and rules version) and plays its decisions
(``Engine.new`` and ``Engine.decide``, as a game is recorded); the two exports are compared byte for byte. An
edit of an input the rules cannot derive (a player's name) gives such a log, and the audit may call it clean;
every other edit must be a finding. Short games of all four games keep the run modest.
"""

from __future__ import annotations

import tempfile
import typing
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from eventsource import exchange
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from eventsource.records import Record
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import profile
from tests.properties import examples
from tests.registry import NAMES as GAMES
from tests.tools.forgeries import played
from tests.tools.tamper import reseal
from tools.audit import checks as auditing
from tools.errors import BAD_INPUT_ERRORS
from tools.logs.sources import open_log

EXAMPLES = 200
DECISIONS = 12


@cache
def short_log(game: str) -> tuple[Record, ...]:
    return tuple(played(game, 7, DECISIONS))


def leaves(value: msgspec.Struct, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every field of an event as a path, Characteristics opened up."""
    out: list[tuple[str, ...]] = []
    for f in msgspec.structs.fields(value):
        v = getattr(value, f.name)
        out += leaves(v, (*path, f.name)) if isinstance(v, msgspec.Struct) else [(*path, f.name)]
    return out


def get(value: Any, path: tuple[str, ...]) -> Any:
    for name in path:
        value = getattr(value, name)
    return value


def put(value: Any, path: tuple[str, ...], new: Any) -> Any:
    if not path:
        return new
    return msgspec.structs.replace(value, **{path[0]: put(getattr(value, path[0]), path[1:], new)})


OPTIONS = [("setup", "3"), ("deck_out", "off"), ("mulligan", "off"), ("hand_limit", "2"), ("x", "y")]


def element(value: Any, path: tuple[str, ...]) -> Any:
    """A value of the element type of the tuple field at ``path`` (for an empty tuple: what may go in it)."""
    for name in path[:-1]:
        value = getattr(value, name)
    kind = next(f.type for f in msgspec.structs.fields(value) if f.name == path[-1])
    inner = typing.get_args(kind)[0]
    return 1 if int in (inner, *typing.get_args(inner)) else "x"


def another(old: Any, started_options: bool, empty: Any = 1) -> st.SearchStrategy[Any]:
    """Values a forger might put in place of ``old`` (of the same type, or None's neighbours)."""
    if isinstance(old, bool):
        return st.just(not old)
    if isinstance(old, int):
        return st.one_of(st.integers(-2, 2).map(lambda d: old + d), st.integers(0, 300))
    if isinstance(old, str):
        return st.one_of(st.sampled_from(["", "x", old + "x", "0.hand", "1.deck", "off", "1.0", "1.1", "Alice"]),
                         st.text(max_size=4))
    if old is None:
        return st.integers(0, 9)
    if isinstance(old, tuple):
        items = list(old)
        if started_options:
            return st.sampled_from(OPTIONS).map(lambda pair: tuple(sorted({**dict(old), **dict([pair])}.items())))
        options = [st.just(old[1:]), st.just((*old, *old[:1])), st.permutations(items).map(tuple)] if old else []
        return st.one_of(*options) if options else st.just((empty,))
    raise AssertionError(f"no edits for {old!r}")


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, list[Record], str]:
    game = draw(st.sampled_from(GAMES))
    records = list(short_log(game))
    i = draw(st.integers(0, len(records) - 1))
    r = records[i]
    paths = [("decision",), ("cause",), *[("event", *p) for p in leaves(r.event)]]
    path = draw(st.sampled_from(paths))
    old = get(r, path)
    empty = element(r, path) if old == () else None
    new = draw(another(old, isinstance(r.event, ev.GameStarted) and path == ("event", "options"), empty))
    records[i] = put(r, path, new)
    return game, records, ".".join(path)


def what_the_rules_produce(records: list[Record]) -> bytes | None:
    """The export of the game the rules record from these records' inputs and decisions (None: they cannot)."""
    started = records[0].event
    if not isinstance(started, ev.GameStarted):
        return None
    cards = []
    for r in records[1:]:
        if not isinstance(r.event, ev.ObjectCreated):
            break
        cards.append(r.event)
    decks = [[c.definition for c in cards if c.owner == p] for p in range(len(started.players))]
    try:
        rules = profile(started.profile, started.profile_version)
        store, game = MemoryStore(), records[0].game
        engine = Engine.new(rules, started.players, decks, started.seed, store=store, game=game,
                            options=dict(started.options))
        for r in records:
            if isinstance(r.event, ev.ChoiceMade):
                engine.decide(Decision(r.event.player, r.event.action, tuple(r.event.args)))
    except (KifuError, IllegalDecision):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.jsonl"
        exchange.write(store.read_raw(game), path)
        return path.read_bytes()


def audited_clean(path: Path) -> bool:
    try:
        with open_log(str(path)) as source:
            return auditing.run(source).clean
    except BAD_INPUT_ERRORS:  # a rules version not installed, a value of the wrong type: exit 2, not clean
        return False


def test_the_short_logs_are_what_the_rules_produce() -> None:
    for game in GAMES:
        records = list(short_log(game))
        with tempfile.TemporaryDirectory() as tmp:
            path = reseal(records, Path(tmp) / "log.jsonl")
            assert what_the_rules_produce(records) == path.read_bytes()
            assert audited_clean(path)


@settings(max_examples=examples(EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits())
def test_an_edited_re_sealed_log_is_clean_only_if_the_rules_produce_it(edit: tuple[str, list[Record], str]) -> None:
    game, records, field = edit
    with tempfile.TemporaryDirectory() as tmp:
        path = reseal(records, Path(tmp) / "edited.jsonl")
        if audited_clean(path):
            assert path.read_bytes() == what_the_rules_produce(records), f"{game}: {field} edited, audit clean"
