"""What the rules derive of a log's opening from its inputs alone, and how a record differs from it.

Re-adjudication (``Engine.replay``) takes from a log only what no rules can derive: the players, the seed, the
options, the rules version and each deck list (the ``ObjectCreated`` definitions, in order, by owner). From
these the rules build the ``GameStarted`` record (with the card-pool name, version and digest that rules
version plays with) and every card's ``ObjectCreated`` (its printed characteristics as the card pool defines
them), and from there on every event and every envelope field (``decision``, ``cause``) of the game.

A log that declares a given set-up (the ``setup`` option: a scenario's board, a judge's reconstruction) has no
dealt opening to derive: its first N records are a board. They are still held to the card pool (each card's
printed characteristics) and to the rules version, and they may hold only what a board is made of; a shuffle,
a random result, a move or a request is the rules' to give, never a given board's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, Protocol

import msgspec

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.records import Record
from projections.state import ProjectionError
from statemachine import decks as deck_rules
from statemachine.cards import CardPool, UnknownAbility
from statemachine.decisions import IllegalDecision
from statemachine.decks import DeckRule
from statemachine.options import BadOption, setup_count


class Rules(Protocol):
    """What the opening is derived from: one rules version of one game (``statemachine.engine.Rules``, named
    here by what it is asked so this module sits below the engine, which uses it)."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def pool(self) -> CardPool: ...

    @property
    def rules(self) -> Any: ...

    @property
    def deck_rule(self) -> DeckRule | None: ...

    def setup_events(self, players: Sequence[str], decks: Sequence[Sequence[str]], seed: int,
                     options: dict[str, str]) -> list[ev.Event]: ...

    def parse_options(self, pairs: Iterable[tuple[str, str]]) -> Any: ...

# What a given set-up may hold (``Engine.from_setup``, ``statemachine.scenario.setup``): a board — cards, their
# statuses and effects, the players' counters, the turn, and effects placed waiting (with their targets and who
# may answer first) — not a history: no shuffle, random result, move, request or decision.
BOARD_EVENTS: Final = (ev.GameStarted, ev.ObjectCreated, ev.StatusSet, ev.ContinuousEffectStarted, ev.PlayerStat,
                       ev.Stacked, ev.TurnBegan, ev.StepBegan, ev.Triggered, ev.EffectPending, ev.Chosen,
                       ev.PriorityGiven)


ENVELOPE: Final = "envelope"  # a Divergence's kind when the record's envelope differs, not its event


class Divergence(KifuError):
    """Re-running the rules on a log's inputs and decisions did not give one of its records.

    ``field`` names what differs: ``record`` (the log has a record where the rules give none, or none where
    they give one), ``kind`` (another kind of event), an event field as a dotted path (``printed.cost``,
    ``players``, a ``ZoneChanged``'s own ``cause``), or, with ``kind="envelope"``, an envelope field
    (``decision``, ``cause``). ``log_value`` and ``rules_value`` are that field's value in the log and as the
    rules give it.
    """

    def __init__(self, seq: int, expected: ev.Event | None, actual: ev.Event | None, decision: int, *,
                 field: str | None = None, log_value: object = None, rules_value: object = None,
                 reason: str = "", kind: str = "") -> None:
        if field is None:
            field, log_value, rules_value = difference(expected, actual)
        self.seq, self.expected, self.actual, self.decision = seq, expected, actual, decision
        self.field, self.log_value, self.rules_value = field, log_value, rules_value
        self.kind = kind  # what a judge calls it, when the field alone does not say (given-setup)
        self.explained = bool(reason)  # a reason of its own, not just the two records and the field
        self.reason = reason or describe(expected, actual, field, log_value, rules_value,
                                         envelope=kind == ENVELOPE)
        super().__init__(f"record {seq} (decision {decision}): {self.reason}")


# What re-running a log raises when the log is not one the rules give (a tampered or divergent log): the rules give
# other records (Divergence), refuse one of its decisions (IllegalDecision), a record does not fold, or folds to a
# board the game cannot be in (ProjectionError), or the log's own board names what its cards do not have
# (UnknownAbility). Whoever falls back to the log's own fold catches only these: any other exception is a bug in
# the rules, and propagates. An option no rules version reads (BadOption) is the log's, found where it is read.
LOG_DISAGREES: Final = (Divergence, IllegalDecision, ProjectionError, UnknownAbility, BadOption)


def show(event: ev.Event | None) -> str:
    return "nothing" if event is None else f"{type(event).__name__}{ev.to_builtins(event)}"


def difference(log: ev.Event | None, rules: ev.Event | None) -> tuple[str, object, object]:
    """The first field where two events differ, as a dotted path, with both values."""
    if log is None or rules is None:
        return "record", show(log), show(rules)
    if type(log) is not type(rules):
        return "kind", type(log).__name__, type(rules).__name__
    path = _first_difference(log, rules)
    if path is None:
        return "", None, None
    value_log: Any = log
    value_rules: Any = rules
    for name in path:
        value_log, value_rules = getattr(value_log, name), getattr(value_rules, name)
    return ".".join(path), value_log, value_rules


def _first_difference(a: msgspec.Struct, b: msgspec.Struct) -> list[str] | None:
    for f in msgspec.structs.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if x == y:
            continue
        if isinstance(x, msgspec.Struct) and type(x) is type(y):
            inner = _first_difference(x, y)
            return [f.name, *(inner or [])]
        return [f.name]
    return None


def describe(log: ev.Event | None, rules: ev.Event | None, field: str, log_value: object,
             rules_value: object, *, envelope: bool = False) -> str:
    if field == "record":
        return f"the log has {show(log)} but the rules give {show(rules)}"
    if field == "kind":
        return f"the log has a {log_value} where the rules give a {rules_value} ({show(rules)})"
    what = type(log).__name__ if log is not None else "the record"
    if envelope:
        return (f"the envelope's {field} is {log_value!r} in the log but the rules give {rules_value!r} "
                f"(the event, {what}, is the rules')")
    if isinstance(log, ev.GameStarted) and isinstance(rules, ev.GameStarted) and field in (
            "profile", "profile_version", "card_pool", "card_pool_version", "card_pool_digest"):
        return (f"the log names {field} {log_value!r}, but {rules.profile} rules {rules.profile_version} play with "
                f"{rules_value!r}: a log that does not name what its rules version plays with cannot be vouched "
                f"for")
    if isinstance(log, ev.ObjectCreated) and isinstance(rules, ev.ObjectCreated) and field == "definition":
        return (f"ObjectCreated of object {log.obj}: the log's deck lists, owner by owner and in order, put "
                f"{rules_value!r} here, but the log has {log_value!r}")
    if isinstance(log, ev.ObjectCreated) and isinstance(rules, ev.ObjectCreated) and field.startswith("printed"):
        return (f"{what} of object {log.obj}: {field} is {log_value!r} in the log but the card pool gives "
                f"{rules_value!r} for {rules.definition!r}")
    return f"{what}'s field {field} is {log_value!r} in the log but the rules give {rules_value!r}"


# -- the opening, derived --------------------------------------------------------------------------------------


def leading_cards(records: list[Record]) -> list[Record]:
    """The ``ObjectCreated`` records right after ``GameStarted``: the decks as the log lists them."""
    out: list[Record] = []
    for r in records[1:]:
        if not isinstance(r.event, ev.ObjectCreated):
            break
        out.append(r)
    return out


def rules_started(profile: Rules, records: list[Record]) -> ev.GameStarted:
    """The ``GameStarted`` the rules give for the log's players, seed and options: the rules version and the
    card pool (name, version, digest) that version plays with. Checked first, before any card."""
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    pool = profile.pool
    derived = ev.GameStarted(profile.name, profile.version, started.players, started.seed, pool.name, pool.version,
                             pool.digest, started.options)
    if derived != started:
        raise Divergence(records[0].seq, started, derived, records[0].decision)
    try:  # options no rules version reads are not the rules' to run (statemachine.options)
        profile.parse_options(started.options)
    except BadOption as exc:
        raise Divergence(records[0].seq, started, None, records[0].decision, field=f"options.{exc.key}",
                         log_value=dict(started.options).get(exc.key), kind="options", reason=str(exc)) from exc
    return derived


def dealt_opening(profile: Rules, records: list[Record]) -> list[ev.Event]:
    """``GameStarted`` and every card's ``ObjectCreated``, as the rules give them from the log's inputs."""
    started = rules_started(profile, records)
    cards = leading_cards(records)
    for r in cards:
        assert isinstance(r.event, ev.ObjectCreated)
        if r.event.definition not in profile.pool:
            raise Divergence(r.seq, r.event, None, r.decision, field="definition", log_value=r.event.definition,
                             kind="card", reason=f"ObjectCreated of object {r.event.obj}: there is no card "
                                    f"{r.event.definition!r} in card pool {profile.pool.name} {profile.pool.version}")
    seats = len(started.players)
    decks = [[c.event.definition for c in cards if isinstance(c.event, ev.ObjectCreated) and c.event.owner == p]
             for p in range(seats)]
    broken = deck_rules.problems(profile, decks)
    if broken:  # a deck its rules version does not allow (statemachine.decks)
        # (the player's first card, or the game's start when the log gives that player no card at all)
        first = next((r for r in cards if isinstance(r.event, ev.ObjectCreated) and r.event.owner == broken[0].player),
                     records[0])
        raise Divergence(first.seq, first.event, None, first.decision, field="deck", kind="deck",
                         log_value=broken[0].player, reason="; ".join(map(str, broken)))
    try:
        return profile.setup_events(started.players, decks, started.seed, dict(started.options))
    except KifuError as exc:
        raise Divergence(records[0].seq, started, None, records[0].decision, field="players",
                         log_value=list(started.players), reason=f"the rules cannot start this game: {exc}") from exc


def given_board(profile: Rules, records: list[Record], count: str) -> list[ev.Event]:
    """A given set-up's first ``count`` records, held to the rules version and the card pool: the rules'
    ``GameStarted`` for those players, seed and options, and each card as the pool prints it."""
    started = rules_started(profile, records)
    n = setup_count(count) or 0
    if not 1 <= n <= len(records):
        raise Divergence(records[0].seq, started, None, records[0].decision, field="options", kind="not-a-board",
                         log_value=count, reason=f"the option setup={count!r} does not count records of this "
                                                 f"log (it has {len(records)} before its first decision)")
    pool = profile.pool
    out: list[ev.Event] = [started]
    for r in records[1:n]:
        e = r.event
        if not isinstance(e, BOARD_EVENTS) or isinstance(e, ev.GameStarted):
            raise Divergence(r.seq, e, None, r.decision, field="kind", log_value=type(e).__name__,
                             kind="not-a-board",
                             reason=f"a given set-up is a board; a {type(e).__name__} in it (record {r.seq}) is "
                                    f"the rules' to give, not the set-up's")
        if isinstance(e, ev.ObjectCreated):
            if e.definition not in pool:
                raise Divergence(r.seq, e, None, r.decision, field="definition", log_value=e.definition,
                                 kind="card", reason=f"ObjectCreated of object {e.obj}: there is no card "
                                                     f"{e.definition!r} in card pool {pool.name} {pool.version}")
            e = msgspec.structs.replace(e, printed=pool[e.definition].printed())
        out.append(e)
    return out
