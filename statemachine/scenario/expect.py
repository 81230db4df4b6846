"""What a scenario step may expect: each key a small check with the shape its value must have, checked when the
file is read (``check_file``) and run after the step's decision (``EXPECTATIONS``).

Rows (of pending effects, the stack, the chain, the queue, resolutions, events) are compared on the keys each
row names; an event row names ``kind`` (a kind of ``eventsource.events``) and that kind's fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from eventsource import events as ev
from eventsource.records import Record
from projections.characteristics import view
from projections.state import GameState
from projections.timeline import Timeline
from statemachine.decisions import Arg
from statemachine.engine import Engine
from statemachine.naming import Names
from statemachine.scenario.model import Scenario, ScenarioError


class Run(Protocol):
    """What an expectation reads of a scenario being run (``statemachine.scenario.run.Run``, which runs the
    expectations: named here by what it offers, so the two modules do not import each other)."""

    sc: Scenario
    engine: Engine
    all_events: list[Record]

    def obj(self, handle: str) -> int: ...

    def arg(self, raw: Any) -> Arg: ...

    def handle_of_card(self, cid: int) -> str: ...

    def pending_rows(self, state: GameState | None = None) -> list[dict[str, str]]: ...

    def ordered_rows(self, holder: str, want: list[dict[str, Any]], keys: tuple[str, ...]) -> str | None: ...

    def resolved_rows(self, new: list[Record]) -> list[dict[str, Any]]: ...

    def event_row(self, r: Record) -> dict[str, Any]: ...

    def names(self) -> Names: ...


Check = Callable[[Run, Any, list[Record]], "str | None"]

# The keys a row of each table may name (what the scenario runner can read of an effect).
PENDING_ROW = ("label", "source", "side", "ability", "subject")
QUEUE_ROW = ("label", "source", "side", "ability", "subject")
STACK_ROW = ("label", "source", "controller", "targets", "resolving", "subject")
CHAIN_ROW = ("label", "source", "ability", "controller", "targets", "resolving", "subject")
RESOLVED_ROW = ("label", "source", "ability", "subject", "outcome", "reason")
REQUEST_KEYS = ("player", "kind", "options", "minimum", "maximum", "rule", "action", "prompt")
EFFECT_EVENTS = ("EffectPending", "EffectResolving", "EffectResolved", "EffectFizzled")
ROW_EXTRAS = ("count", "reason_contains")  # event rows: an exact number of matches; a part of the reason


def event_fields() -> dict[str, tuple[str, ...]]:
    """Each event kind and the fields an event row may name for it."""
    out = {}
    for cls in ev.EVENT_TYPES:
        names = ("kind", *cls.__struct_encode_fields__, *ROW_EXTRAS)
        out[cls.__name__] = names + (("source", "ability", "subject", "label") if cls.__name__ in EFFECT_EVENTS else ())
    return out


EVENT_FIELDS = event_fields()


class Expectation(NamedTuple):
    name: str
    shape: str  # what the value must be, as docs/vocabulary.md shows it
    doc: str
    validate: Callable[[Any], str | None]  # why the value cannot be used (None: it can)
    check: Check


EXPECTATIONS: dict[str, Expectation] = {}


def expectation(name: str, shape: str, validate: Callable[[Any], str | None]) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        EXPECTATIONS[name] = Expectation(name, shape, " ".join((fn.__doc__ or "").replace("``", "`").split()), validate,
                                         fn)
        return fn

    return register


# -- shapes -------------------------------------------------------------------------------------------------


def rows(keys: tuple[str, ...], *, empty_ok: bool = True) -> Callable[[Any], str | None]:
    """A list of tables, each naming some of ``keys`` (an empty list: nothing there, when ``empty_ok``)."""

    def validate(value: Any) -> str | None:
        if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
            return "expected a list of tables"
        if not value and not empty_ok:
            return "an empty list checks nothing"
        for r in value:
            if not r:
                return "an empty row checks nothing"
            bad = sorted(set(r) - set(keys))
            if bad:
                return f"unknown key(s) {', '.join(bad)} in a row (known: {', '.join(keys)})"
        return None

    return validate


def event_rows(value: Any) -> str | None:
    """A non-empty list of event rows: a known ``kind`` and that kind's fields."""
    if not isinstance(value, list) or not value or not all(isinstance(r, dict) and r for r in value):
        return "expected a non-empty list of non-empty tables (event rows)"
    every = sorted({f for names in EVENT_FIELDS.values() for f in names})
    for r in value:
        kind = r.get("kind")
        if kind is None:
            bad = sorted(set(r) - set(every))
            if bad:
                return f"no event kind has the field(s) {', '.join(bad)}"
            continue
        if not isinstance(kind, str) or kind not in EVENT_FIELDS:
            return f"unknown event kind {kind!r} (known: {', '.join(sorted(EVENT_FIELDS))})"
        bad = sorted(set(r) - set(EVENT_FIELDS[kind]))
        if bad:
            return f"event kind {kind} has no field(s) {', '.join(bad)} (fields: {', '.join(EVENT_FIELDS[kind])})"
    return None


def table(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "expected a table"
    return "an empty table checks nothing" if not value else None


def keys_of(keys: tuple[str, ...]) -> Callable[[Any], str | None]:
    def validate(value: Any) -> str | None:
        bad = table(value)
        if bad is None and (unknown := sorted(set(value) - set(keys))):
            bad = f"unknown key(s) {', '.join(unknown)} (known: {', '.join(keys)})"
        return bad

    return validate


def after_nth(value: Any) -> str | None:
    if not isinstance(value, dict) or set(value) != {"resolution", "pool"}:
        return "expected { resolution = n, pool = [rows] }"
    if isinstance(value["resolution"], bool) or not isinstance(value["resolution"], int):
        return "resolution must be an integer (the n-th effect to finish resolving in this step)"
    return rows(PENDING_ROW)(value["pool"])


def player_stats(value: Any) -> str | None:
    bad = table(value)
    if bad is None:
        wrong = [k for k in value if not (k.partition(".")[0].isdecimal() and k.partition(".")[2])]
        bad = f"{', '.join(map(repr, wrong))} do(es) not name a player's counter (\"0.life\")" if wrong else None
    return bad


def scalar(value: Any) -> str | None:
    return None if isinstance(value, int | str | bool) else "expected a number, a string or a boolean"


def check_file(sc: Scenario, path: str) -> None:
    """Refuse what the file says that kifu cannot check: an unknown expectation key, or a value of a shape that
    key cannot use (an unknown event kind or field, an empty expectation)."""
    if sc.refused and sc.steps:
        raise ScenarioError(f"{path}: refused says the set-up cannot be a board, so no step can follow it")
    for n, step in enumerate(sc.steps, start=1):
        if step.reject and step.do is None:
            raise ScenarioError(f"{path}: step {n}: reject names a rule, but the step has no decision (do)")
        for key, want in step.expect.items():
            entry = EXPECTATIONS.get(key)
            if entry is None:
                raise ScenarioError(f"{path}: step {n}: unknown expectation {key!r} "
                                    f"(known: {', '.join(sorted(EXPECTATIONS))})")
            problem = entry.validate(want)
            if problem:
                raise ScenarioError(f"{path}: step {n}: expect.{key}: {problem}")


# -- the expectations -------------------------------------------------------------------------------------------


@expectation("pending", "[{label, source, side, ability, subject}]", rows(PENDING_ROW))
def _pending(run: Run, want: Any, new: list[Record]) -> str | None:
    """The effects waiting now (not the one resolving), as a multiset of rows; ``side`` is ``A`` for the turn
    player's, ``a`` for the other's; ``subject`` is the card the trigger is about."""
    return same_rows(run.pending_rows(), want)


@expectation("pending_after_resolution", "[{label, source, side, ability, subject}]", rows(PENDING_ROW))
def _pending_after_resolution(run: Run, want: Any, new: list[Record]) -> str | None:
    """The same, for the pool just after the last effect that finished resolving in this step (time travel)."""
    return pending_after(run, -1, want, new)


@expectation("pending_after", "{resolution = n, pool = [rows]}", after_nth)
def _pending_after(run: Run, want: Any, new: list[Record]) -> str | None:
    """The pool just after the n-th effect that finished resolving in this step."""
    return pending_after(run, want["resolution"], want["pool"], new)


def pending_after(run: Run, nth: int, want: Any, new: list[Record]) -> str | None:
    done = [r.seq for r in new if isinstance(r.event, ev.EffectResolved | ev.EffectFizzled)]
    if not done or (nth > 0 and nth > len(done)):
        return f"only {len(done)} effect(s) finished resolving in this step"
    then = Timeline(run.engine.store, run.sc.id).state_at(done[nth - 1 if nth > 0 else nth])
    return same_rows(run.pending_rows(then), want)


@expectation("resolved", "[{label, source, ability, subject, outcome, reason}]", rows(RESOLVED_ROW))
def _resolved(run: Run, want: Any, new: list[Record]) -> str | None:
    """The effects that finished resolving in this step, in the order they finished (each row compared on the
    keys it names; exactly as many): ``outcome`` is ``resolved`` or ``fizzled``. Shadowverse's queue settles
    inside one decision; this is the order it settled in."""
    got = run.resolved_rows(new)
    w = [{k: str(v) for k, v in r.items()} for r in want]
    g = [{k: str(r.get(k, "")) for k in x} for r, x in zip(got, w, strict=False)]
    if len(got) == len(want) and g == w:
        return None
    return f"resolved, in order: {[{k: str(v) for k, v in r.items()} for r in got]}, expected {w}"


@expectation("queue", "[{label, source, side, ability, subject}]", rows(QUEUE_ROW))
def _queue(run: Run, want: Any, new: list[Record]) -> str | None:
    """The effects waiting in an ordered queue (Shadowverse), in the order of their sort keys."""
    return run.ordered_rows("queue", want, QUEUE_ROW)


@expectation("stack", "[{label, source, controller, targets, resolving, subject}]", rows(STACK_ROW))
def _stack(run: Run, want: Any, new: list[Record]) -> str | None:
    """The Magic stack, bottom first (the top, which resolves next, last); the source of a spell or activated
    ability is the one the policy names."""
    return run.ordered_rows("stack", want, STACK_ROW)


@expectation("chain", "[{label, source, ability, controller, targets, resolving, subject}]", rows(CHAIN_ROW))
def _chain(run: Run, want: Any, new: list[Record]) -> str | None:
    """The Vision interference chain, bottom (the originating action) first, resolving entries included;
    targets are handles or ``player0``/``player1``."""
    return run.ordered_rows("chain", want, CHAIN_ROW)


@expectation("request", "{" + ", ".join(REQUEST_KEYS) + "}", keys_of(REQUEST_KEYS))
def _request(run: Run, want: Any, new: list[Record]) -> str | None:
    """The open request: the keys named (``options`` as names, in any order)."""
    req = run.engine.request
    if req is None:
        return "no request is open"
    for k, v in want.items():
        got: Any = getattr(req, k)
        if k == "options":
            wanted = [run.arg(x) for x in v]
            if sorted(map(str, got)) != sorted(map(str, wanted)):
                nm = run.names()
                return (f"request options are [{', '.join(nm.options(req.kind, got))}], expected "
                        f"[{', '.join(nm.options(req.kind, wanted))}]")
        elif got != v:
            return f"request {k} is {got!r}, expected {v!r}"
    return None


@expectation("decider", "player", scalar)
def _decider(run: Run, want: Any, new: list[Record]) -> str | None:
    """The player who must decide now."""
    legal = run.engine.legal()
    return None if legal.player == want else f"player {legal.player} decides, expected {want}"


@expectation("zones", '{"0.hand" = ["@h", ...]}', table)
def _zones(run: Run, want: Any, new: list[Record]) -> str | None:
    """Exactly these cards in each zone named, in any order."""
    st = run.engine.state
    for z, handles in want.items():
        got = sorted(run.handle_of_card(st.objects[o].card) for o in st.zone(z))
        exp = sorted(h.removeprefix("@") for h in handles)
        if got != exp:
            return f"{z} holds {got}, expected {exp}"
    return None


@expectation("counts", '{"1.hand" = n}', table)
def _counts(run: Run, want: Any, new: list[Record]) -> str | None:
    """How many cards each zone named holds."""
    st = run.engine.state
    for z, n in want.items():
        if len(st.zone(z)) != n:
            return f"{z} holds {len(st.zone(z))} cards, expected {n}"
    return None


@expectation("stats", '{"0.life" = n}', player_stats)
def _stats(run: Run, want: Any, new: list[Record]) -> str | None:
    """Player counters (life, extra turns, PP, ...)."""
    st = run.engine.state
    for k, v in want.items():
        p, _, stat = k.partition(".")
        if st.stat(int(p), stat) != v:
            return f"{k} is {st.stat(int(p), stat)}, expected {v}"
    return None


def per_card(what: str, read: Callable[[Run, int], Any]) -> Check:
    def check(run: Run, want: Any, new: list[Record]) -> str | None:
        for h, v in want.items():
            got = read(run, run.obj(h.removeprefix("@")))
            if got != v:
                return f"@{h.removeprefix('@')} {what} is {got}, expected {v}"
        return None

    return check


def _damage(run: Run, oid: int) -> int:
    return run.engine.state.objects[oid].status.get("damage", 0)


CARD_VALUES: dict[str, tuple[str, Callable[[Run, int], Any]]] = {
    "power": ("the computed power (attack, in Shadowverse)", lambda run, o: view(run.engine.state, o).power),
    "toughness": ("the computed toughness (printed defense with modifications, in Shadowverse)",
                  lambda run, o: view(run.engine.state, o).chars.toughness),
    "damage": ("the damage marked on it", _damage),
    "defense": ("toughness minus damage marked (Shadowverse's defense now)",
                lambda run, o: (view(run.engine.state, o).chars.toughness or 0) - _damage(run, o)),
    "tapped": ("whether it is tapped (rested)", lambda run, o: bool(run.engine.state.objects[o].status.get("tapped"))),
    "keywords": ("the computed keywords, printed then granted, as a list",
                 lambda run, o: list(view(run.engine.state, o).chars.keywords)),
    "controller": ("the player who controls it now", lambda run, o: run.engine.state.objects[o].controller),
    "types": ("the computed card types, as a list", lambda run, o: list(view(run.engine.state, o).chars.types)),
    "subtypes": ("the computed subtypes, as a list", lambda run, o: list(view(run.engine.state, o).chars.subtypes)),
    "colors": ("the computed colours, as a list", lambda run, o: list(view(run.engine.state, o).chars.colors)),
}
for _name, (_doc, _read) in CARD_VALUES.items():
    EXPECTATIONS[_name] = Expectation(_name, '{"@h" = value}', f"Per card: {_doc}.", table, per_card(_name, _read))


@expectation("fizzled", "[{source, ability, reason_contains, count}]", event_rows)
def _fizzled(run: Run, want: Any, new: list[Record]) -> str | None:
    """Over the whole game: effects that fizzled, with their source, ability and reason."""
    got = [run.event_row(r) for r in run.all_events if isinstance(r.event, ev.EffectFizzled)]
    return contains_all(got, want, "fizzle")


@expectation("events", "[{kind, field = value, count}]", event_rows)
def _events(run: Run, want: Any, new: list[Record]) -> str | None:
    """Rows that must occur, in this order, among the events of this step; ``count = n`` for an exact number; a
    nested table (``printed = { cost = 0 }``) matches on the keys it names."""
    return subsequence([run.event_row(r) for r in new], want)


@expectation("events_unordered", "[{kind, field = value, count}]", event_rows)
def _events_unordered(run: Run, want: Any, new: list[Record]) -> str | None:
    """The same, in any order."""
    return contains_all([run.event_row(r) for r in new], want, "event")


@expectation("no_events", "[{kind, field = value}]", event_rows)
def _no_events(run: Run, want: Any, new: list[Record]) -> str | None:
    """Rows that must not occur in this step."""
    got = [run.event_row(r) for r in new]
    hits = [w for w in want if any(matches(r, w) for r in got)]
    return f"unexpected events {hits}" if hits else None


@expectation("events_exact", "[{kind, field = value}]", event_rows)
def _events_exact(run: Run, want: Any, new: list[Record]) -> str | None:
    """The events of this step whose kinds the rows name, exactly and in order (nothing of those kinds between)."""
    kinds = {w.get("kind") for w in want}
    got = [run.event_row(r) for r in new if type(r.event).__name__ in kinds]
    if len(got) == len(want) and all(matches(r, w) for r, w in zip(got, want, strict=True)):
        return None
    return f"the events of kinds {sorted(map(str, kinds))} are, in order:\n{show(got)}\nexpected {want}"


def state_value(name: str, doc: str, read: Callable[[Run], Any]) -> None:
    def check(run: Run, want: Any, new: list[Record]) -> str | None:
        got = read(run)
        return None if got == want else f"{name} is {got!r}, expected {want!r}"

    EXPECTATIONS[name] = Expectation(name, "value", doc, scalar, check)


state_value("ended", "Whether the game has ended.", lambda run: run.engine.state.ended)
state_value("winner", "The winner (a player number).", lambda run: run.engine.state.winner)
state_value("step", "The current step's name.", lambda run: run.engine.state.step)
state_value("priority", 'The player who holds priority ("none" while nobody does).',
            lambda run: "none" if run.engine.state.priority is None else run.engine.state.priority)


# -- comparing rows ---------------------------------------------------------------------------------------------


def matches(row: dict[str, Any], want: dict[str, Any]) -> bool:
    for k, v in want.items():
        if k == "count":
            continue
        got = row.get(k)
        if k == "reason_contains":
            if v not in str(row.get("reason", "")):
                return False
        elif isinstance(got, list | tuple) and isinstance(v, list):
            if [str(x) for x in got] != [str(x) for x in v]:
                return False
        elif isinstance(got, dict) and isinstance(v, dict):
            if not matches(got, v):  # a nested table (printed characteristics): the keys it names
                return False
        elif got != v:
            return False
    return True


def subsequence(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str | None:
    i = 0
    for w in want:
        while i < len(got) and not matches(got[i], w):
            i += 1
        if i == len(got):
            return f"no event matching {w} in order among:\n" + show(got)
        i += 1
    return None


def contains_all(got: list[dict[str, Any]], want: list[dict[str, Any]], what: str) -> str | None:
    for w in want:
        n = sum(1 for r in got if matches(r, w))
        if "count" in w and n != w["count"]:
            return f"{n} {what}(s) match {w}, expected {w['count']}:\n" + show(got)
        if "count" not in w and n == 0:
            return f"no {what} matching {w} among:\n" + show(got)
    return None


def same_rows(got: list[dict[str, str]], want: list[dict[str, str]]) -> str | None:
    """A pending pool is a set: compare as multisets over the keys the expectation names."""
    keys = sorted({k for w in want for k in w}) or ["label", "source", "side"]
    g = sorted(tuple(r.get(k, "") for k in keys) for r in got)
    w = sorted(tuple(str(r.get(k, "")) for k in keys) for r in want)
    return None if g == w else f"pending is {g}, expected {w} (compared on {keys})"


def show(got: list[dict[str, Any]]) -> str:
    return "\n".join("    " + str(r) for r in got)
