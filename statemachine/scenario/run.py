"""Running a scenario: the engine built from its set-up, the names it uses, its decisions and expectations.

Names in a scenario: ``@h`` is the object that card handle ``h`` is now (a card made during the game, which has
no handle, is ``@card<id>``, as it is shown); ``!h`` is the effect pending from the card ``h`` (``!h/label``
picks by label when it has several, ``!h#2`` the second); any other string is a literal (``yes``, ``no``,
``player``); integers are integers.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from eventsource import events as ev
from eventsource.errors import regular_file
from eventsource.memory import MemoryStore
from eventsource.records import Record
from eventsource.store import EventStore
from projections.invariants import ImpossibleBoard
from projections.state import GameState, Pending, ProjectionError
from statemachine.decisions import Arg, Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import UnknownProfile
from statemachine.games import profile as load_profile
from statemachine.loader import CardFileError, parse_cards
from statemachine.naming import Names
from statemachine.profile import RulesProfile
from statemachine.releases import UnknownVersion
from statemachine.scenario.expect import EXPECTATIONS, check_file
from statemachine.scenario.model import Failure, Refusal, Result, Scenario, ScenarioError, SetupRefused, Step
from statemachine.scenario.setup import Board, player_ref

EVENT_OBJECT_FIELDS = ("source", "obj", "old", "new", "attacker", "subject", "target", "top", "below", "to")


def load(path: str | Path) -> Scenario:
    """A scenario file, decoded and checked (its id, its expectations); ``ScenarioError`` naming the problem."""
    p = Path(path)
    regular_file(p, "a scenario file")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
        sc = msgspec.convert(data, Scenario, strict=True)
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{p}: not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{p}: not valid TOML: {exc}") from exc
    except RecursionError:  # (tomllib reads arrays and tables by recursion)
        raise ScenarioError(f"{p}: nested too deeply to read") from None
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{p}: {exc}") from exc
    if sc.id != p.stem:
        raise ScenarioError(f"{p}: id {sc.id!r} must equal the file name ({p.stem!r})")
    check_file(sc, str(p))
    return sc


class Run:
    """One scenario being run: the engine, the handles, and the events seen so far."""

    def __init__(self, sc: Scenario, path: str, *, version: str | None = None, store: EventStore | None = None
                 ) -> None:
        """``version``: the rules version to run under; None: the one the file names (``rules``), else the
        newest. ``store``: where its log is kept (under the scenario's id); None: in memory, then gone."""
        self.sc, self.path = sc, path
        try:
            base = load_profile(sc.game, version or sc.rules or None)
            pool = base.pool
            if sc.card:
                extra = parse_cards({"card": sc.card}, path, base.vocabulary, base.trigger_kinds)
                pool = pool.with_cards({c.id: c for c in extra})
            self.profile: RulesProfile = type(base)(pool, version=base.version)
        except CardFileError as exc:
            raise ScenarioError(str(exc)) from exc
        except (UnknownProfile, UnknownVersion) as exc:
            raise ScenarioError(f"{path}: {exc}") from exc
        board = Board(sc, path, self.profile, pool)
        self.handles: dict[str, int] = board.handles  # handle -> card id
        self.card_of: dict[int, int] = {}  # object id -> card id, for every object ever
        self.source_of: dict[int, str] = {}  # effect -> its source as named while it waited (a spell has no trigger)
        try:
            self.engine: Engine = Engine.from_setup(self.profile, board.events, store or MemoryStore(), sc.id)
        except ImpossibleBoard as exc:  # a board the game cannot be in, refused naming the rule (invariants)
            raise SetupRefused(exc.breach.rule, f"{path}: the setup is not a consistent board: {exc}") from exc
        except ProjectionError as exc:
            raise ScenarioError(f"{path}: the setup is not a consistent board: {exc}") from exc
        self.seen = 0
        self.refusals: list[Refusal] = []  # decisions refused on the way (the log keeps none: kifu debug shows them)
        self.all_events: list[Record] = []
        # Each effect's Triggered and first EffectPending, as collected (an event row names its source and label).
        self.triggered: dict[int, ev.Triggered] = {}
        self.pended: dict[int, ev.EffectPending] = {}
        # What the rules did from the given board before the first decision (a Shadowverse queue placed by the
        # set-up settles at once): a first step without a decision checks these as its events.
        self.startup = [r for r in self._collect() if r.seq > len(board.events)]

    # -- names ----------------------------------------------------------------------------------------------

    def card(self, handle: str) -> int:
        if handle in self.handles:
            return self.handles[handle]
        # A card made during the game has no handle; it is shown, and may be named, as "card<id>".
        cid = handle.removeprefix("card")
        if handle.startswith("card") and cid.isdecimal() and int(cid) in self.engine.state.cards \
                and int(cid) not in self.handles.values():
            return int(cid)
        raise ScenarioError(f"{self.path}: unknown handle {handle!r}")

    def obj(self, handle: str) -> int:
        cid = self.card(handle)
        for oid, o in self.engine.state.objects.items():
            if o.card == cid:
                return oid
        raise ScenarioError(f"{self.path}: card @{handle} is not in the game now")

    def pending_of(self, ref: str) -> int:
        handle, _, label = ref.partition("/")
        handle, _, nth = handle.partition("#")
        cid = self.card(handle)
        found = [p for p in self.engine.state.pending.values()
                 if p.source_card == cid and not p.resolving and (not label or p.label == label)]
        index = int(nth) - 1 if nth else 0
        if not found or (len(found) > 1 and not nth and len({p.label for p in found}) > 1 and not label):
            raise ScenarioError(f"{self.path}: no single pending effect from !{ref} (found {len(found)})")
        if index >= len(found):
            raise ScenarioError(f"{self.path}: only {len(found)} pending effect(s) from !{ref}")
        return found[index].effect

    def arg(self, raw: Any) -> Arg:
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise ScenarioError(f"{self.path}: an argument must be an integer or a string, not {raw!r}")
        if isinstance(raw, str) and raw.startswith("@"):
            return self.obj(raw[1:])
        if isinstance(raw, str) and raw.startswith("!"):
            return self.pending_of(raw[1:])
        if isinstance(raw, str):
            try:
                ref = player_ref(raw, self.sc.setup.players)
            except ScenarioError as exc:
                raise ScenarioError(f"{self.path}: {exc}") from exc
            return ref if ref is not None else raw
        return raw

    def handle_of_card(self, cid: int) -> str:
        for h, c in self.handles.items():
            if c == cid:
                return h
        return f"card{cid}"

    def name(self, oid: int | None) -> str:
        """An object as a scenario names it (``@handle``), or a player (``player0``); "" for none."""
        if oid is None:
            return ""
        return f"player{-1 - oid}" if oid < 0 else "@" + self.handle_of_card(self.card_of.get(oid, -1))

    # -- running --------------------------------------------------------------------------------------------

    def _collect(self) -> list[Record]:
        new = list(self.engine.store.read(self.sc.id, self.seen + 1))
        for r in new:
            match r.event:
                case ev.ObjectCreated(obj=o, card=c) | ev.ZoneChanged(new=o, card=c):
                    self.card_of[o] = c
                case ev.EffectPending(effect=e):
                    self.pended.setdefault(e, r.event)
                    if e in self.engine.state.pending:
                        self.source_of[e] = self.effect_row(self.engine.state.pending[e], self.engine.state)["source"]
                case ev.Triggered(effect=e):
                    self.triggered.setdefault(e, r.event)
                case _:
                    pass
        self.all_events += new
        if new:
            self.seen = new[-1].seq
        return new

    def run(self) -> None:
        for n, step in enumerate(self.sc.steps, start=1):
            self._decide(n, step)
            new = self._collect()
            if n == 1 and step.do is None:
                new = self.startup + new
            for key, want in step.expect.items():
                try:
                    problem = EXPECTATIONS[key].check(self, want, new)
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                    # ``expect`` is free-form in the file: a value of the wrong shape is the file's error.
                    raise ScenarioError(f"step {n}: expect.{key} cannot be read as an expectation: {exc!r}") from exc
                if problem:
                    raise Failure(n, f"{key}: {problem}", self.context())

    def _decide(self, n: int, step: Step) -> None:
        if step.do is None:
            return
        d = Decision(step.do.player, step.do.action, tuple(self.arg(a) for a in step.do.args))
        named = self.names().decision(d)
        try:
            self.engine.decide(d)
        except IllegalDecision as exc:
            self.refusals.append(Refusal(n, self.engine.state.seq, d.player, named, exc.rule, exc.reason))
            refusal = f"{exc.reason} [{exc.rule}]"
            if not step.reject:
                raise Failure(n, f"decision {named} was rejected: {refusal}", self.context()) from exc
            if exc.rule != step.reject:
                raise Failure(n, f"decision {named} was rejected naming {exc.rule}, expected {step.reject}: "
                                 f"{refusal}", self.context()) from exc
        else:
            if step.reject:
                raise Failure(n, f"decision {named} was accepted; expected a rejection naming {step.reject}",
                              self.context())

    def names(self) -> Names:
        """Names for ids in messages: the scenario's handles (``@rias (#12)``), read in the state now."""
        return Names(self.engine.state, game=self.engine.profile, pool=self.engine.profile.pool,
                     card_of=self.card_of, handle=lambda c: "@" + self.handle_of_card(c))

    # -- what expectations read -----------------------------------------------------------------------------

    def effect_row(self, p: Pending, st: GameState) -> dict[str, Any]:
        """A waiting effect as the rows of ``pending``, ``queue``, ``stack`` and ``chain`` name it."""
        policy = self.profile.policy
        by_object = policy.rows_by_source_object and p.holder == policy.holder
        source = self.engine.policy.source_of(st, p) if by_object else None
        return {"label": p.label, "ability": p.ability, "controller": p.controller, "resolving": p.resolving,
                "source": self.name(source) if by_object else "@" + self.handle_of_card(p.source_card),
                "side": "A" if p.controller == st.active else "a", "subject": self.name(p.subject),
                "targets": [self.name(t) for t in p.targets]}

    def pending_rows(self, state: GameState | None = None) -> list[dict[str, str]]:
        st = state if state is not None else self.engine.state
        return [{k: str(v) for k, v in self.effect_row(p, st).items() if k in ("label", "source", "side", "ability",
                                                                              "subject")}
                for p in st.pending.values() if not p.resolving]

    def ordered_rows(self, holder: str, want: list[dict[str, Any]], keys: tuple[str, ...]) -> str | None:
        """The effects in ``holder`` in their order (the queue's waiting ones; the stack and chain bottom first,
        resolving ones included), compared row by row on the keys each row names, exactly as many."""
        st, policy = self.engine.state, self.profile.policy
        keep_resolving = policy.rows_keep_resolving or holder != policy.holder
        entries = sorted((p for p in st.pending.values() if p.holder == holder
                          and (keep_resolving or not p.resolving)), key=lambda p: (p.key, p.effect))
        got = [{k: v for k, v in self.effect_row(p, st).items() if k in keys} for p in entries]
        w = [{k: str(v) for k, v in r.items()} for r in want]
        g = [{k: str(r.get(k, "")) for k in x} for r, x in zip(got, w, strict=False)]
        if len(got) == len(want) and g == w:
            return None
        order = policy.rows_order if holder == policy.holder else "bottom first"
        return f"{holder} is {[{k: str(v) for k, v in r.items()} for r in got]}, expected {w} ({order})"

    def resolved_rows(self, new: list[Record]) -> list[dict[str, Any]]:
        """The effects that finished resolving among ``new``, in order."""
        out = []
        for r in new:
            if isinstance(r.event, ev.EffectResolved | ev.EffectFizzled):
                row = self.event_row(r)
                row["outcome"] = "resolved" if isinstance(r.event, ev.EffectResolved) else "fizzled"
                out.append(row)
        return out

    def event_row(self, r: Record) -> dict[str, Any]:
        row: dict[str, Any] = ev.to_builtins(r.event)
        e = r.event
        for fld in EVENT_OBJECT_FIELDS:
            v = row.get(fld)
            if isinstance(v, int) and v in self.card_of:
                row[fld] = "@" + self.handle_of_card(self.card_of[v])
        if isinstance(e, ev.AmountComputed):  # the objects read in their look-back state, by handle
            row["looked_back"] = ["@" + self.handle_of_card(self.card_of[o]) if o in self.card_of else o
                                  for o in e.looked_back]
        if isinstance(e, ev.EffectFizzled | ev.EffectResolved | ev.EffectResolving | ev.EffectPending):
            src = self.triggered.get(e.effect)
            if src is not None:
                row["source"] = "@" + self.handle_of_card(src.source_card)
                row["ability"] = src.ability
                row["subject"] = self.name(src.subject)
            elif e.effect in self.source_of:
                row["source"] = self.source_of[e.effect]
            pend = self.engine.state.pending.get(e.effect)
            pended = self.pended.get(e.effect)
            label = pended.label if pended is not None else pend.label if pend is not None else ""
            row.setdefault("label", label)
        return row

    def context(self) -> str:
        st = self.engine.state
        lines = [f"  turn {st.turn}, player {st.active}'s {st.step} step; seq {st.seq}"]
        lines.append("  pending: " + (", ".join(f"{r['label']} ({r['source']}, {r['side']})"
                                                for r in self.pending_rows()) or "none"))
        req = self.engine.request
        options = ", ".join(self.names().options(req.kind, req.options)) if req else ""
        lines.append(f"  waiting for: {req.player} to {req.kind} among [{options}]" if req else
                     f"  waiting for: {self.engine.legal().player} to act")
        for z in sorted(st.zones):
            if st.zones[z]:
                lines.append(f"  {z}: " + ", ".join("@" + self.handle_of_card(st.objects[o].card)
                                                    for o in st.zones[z]))
        return "\n".join(lines)


def run_file(path: str | Path, store: EventStore | None = None) -> Result:
    """Run one scenario file; with ``store``, its log is kept there under the scenario's id (``kifu scenario run
    --db``, ``kifu debug SCENARIO``), and a failure names the record its state was at."""
    sc = load(path)
    if sc.refused:
        return _refused(sc, str(path))
    run = Run(sc, str(path), store=store)  # a scenario that cannot be set up is bad input: ScenarioError propagates
    try:
        run.run()
    except Failure as f:
        return Result(sc.id, str(path), False, str(f), step=f.step, seq=run.engine.state.seq,
                      refusals=tuple(run.refusals))
    except ScenarioError as exc:
        return Result(sc.id, str(path), False, str(exc), seq=run.engine.state.seq, refusals=tuple(run.refusals))
    return Result(sc.id, str(path), True, seq=run.engine.state.seq, refusals=tuple(run.refusals))


def _refused(sc: Scenario, path: str) -> Result:
    """A scenario whose set-up must be refused (``refused``): it passes when the set-up is refused naming that
    rule; a set-up that is not refused, or refused for another rule, fails it."""
    try:
        Run(sc, path)
    except SetupRefused as exc:
        if exc.rule == sc.refused:
            return Result(sc.id, path, True)
        return Result(sc.id, path, False, f"setup: refused naming {exc.rule}, not {sc.refused}: {exc}")
    return Result(sc.id, path, False, f"setup: the board was set up, but refused = {sc.refused!r} says it cannot be")


def files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Scenario files named by ``paths``: files as given, folders searched for ``*.toml``, sorted."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("*.toml"))
        else:
            yield p
