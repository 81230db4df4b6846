"""Scenario files: set up any board, script the decisions, assert what must hold — a judge's reproduction
of a situation and a test, in one TOML file (format documented in docs/scenarios.md).

``chain`` compares the effects with holder ``chain`` (an interference, Vision) in order, bottom (the
originating action) first, resolving ones included, as rows of label, source, ability, controller, targets
(``@h``, or ``player0``/``player1``) and resolving — only the keys the rows name. ``priority`` is the player who
holds priority (``"none"`` while nobody does).

``stack`` compares the effects with holder ``stack`` (Magic) in order, bottom first (the top, which resolves
next, last), as rows of label, source, controller, targets and resolving — only the keys each row names; the
source of an effect that did not trigger (a spell, an activated ability) is the one the policy names
(``ResolutionPolicy.source_of``). ``step`` is the current step's name. ``events_exact`` compares the events of
this step whose kinds the rows name, exactly and in order (nothing of those kinds may come between).

Names in a scenario: ``@h`` is the object that card handle ``h`` is now (a card made during the game, which has
no handle, is ``@card<id>``, as it is shown); ``!h`` is the effect pending from the
card ``h`` (``!h/label`` picks by label when it has several, ``!h#2`` the second); any other string is a
literal (``yes``, ``no``, ``player``); integers are integers.

Expectations are game-neutral. ``queue`` compares the effects waiting in the holder ``queue`` (an ordered
queue, Shadowverse) in the order of their recorded sort keys, as an ordered list of rows (label, source, side,
ability — only the keys the rows name). A setup card may carry ``status`` (object statuses: damage, evolved,
countdown, ...) and ``toughness`` (a defense modification in force).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct, field

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from eventsource.records import Record
from projections.characteristics import view
from projections.state import GameState, ProjectionError
from projections.timeline import Timeline
from statemachine.cards import CardPool
from statemachine.decisions import Arg, Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import profile as load_profile
from statemachine.loader import CardFileError, parse_cards
from statemachine.profile import RulesProfile

SCENARIO_OPTION = "scenario"


class ScenarioError(KifuError):
    """A scenario file that cannot be read or set up (not a failed expectation)."""


class CardSpec(Struct, forbid_unknown_fields=True):
    card: str
    handle: str = ""
    owner: int = 0
    zone: str = "battle"
    tapped: bool = False
    sick: bool = False
    under: list[str] = field(default_factory=list)
    ignored: bool = False  # its abilities are being ignored (a continuous effect)
    power: int = 0  # a power modification in force
    face_down: bool | None = None
    toughness: int = 0  # a toughness (defense) modification in force
    status: dict[str, int] = field(default_factory=dict)  # statuses set on it: damage, evolved, countdown...


class Setup(Struct, forbid_unknown_fields=True):
    players: list[str] = field(default_factory=lambda: ["you", "opponent"])
    turn: int = 1
    active: int = 0
    step: str = "main"
    cards: list[CardSpec] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)  # "0.life" = 20


class Do(Struct, forbid_unknown_fields=True):
    player: int
    action: str
    args: list[Any] = field(default_factory=list)


class Step(Struct, forbid_unknown_fields=True):
    note: str = ""
    do: Do | None = None
    reject: str = ""  # the decision must be refused, naming this rule id
    expect: dict[str, Any] = field(default_factory=dict)


class Scenario(Struct, forbid_unknown_fields=True):
    id: str
    game: str
    title: str = ""
    checks: list[str] = field(default_factory=list)
    note: str = ""
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)
    setup: Setup = field(default_factory=Setup)
    card: list[dict[str, Any]] = field(default_factory=list)  # inline cards, as in a card file
    steps: list[Step] = field(default_factory=list)


class Failure(Exception):
    def __init__(self, step: int, message: str, context: str) -> None:
        super().__init__(f"step {step}: {message}\n{context}")
        self.step, self.message, self.context = step, message, context


class Result(Struct, frozen=True):
    id: str
    path: str
    ok: bool
    message: str = ""


def load(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
        return msgspec.convert(data, Scenario, strict=True)
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{p}: not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{p}: not valid TOML: {exc}") from exc
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{p}: {exc}") from exc


class Run:
    """One scenario being run: the engine, the handles, and the events seen so far."""

    def __init__(self, sc: Scenario, path: str) -> None:
        self.sc, self.path = sc, path
        try:
            base = load_profile(sc.game)
            pool = base.pool
            if sc.card:
                extra = parse_cards({"card": sc.card}, path, base.vocabulary, base.trigger_kinds)
                pool = pool.with_cards({c.id: c for c in extra})
            self.profile: RulesProfile = type(base)(pool)
        except CardFileError as exc:
            raise ScenarioError(str(exc)) from exc
        self.handles: dict[str, int] = {}  # handle -> card id
        self.card_of: dict[int, int] = {}  # object id -> card id, for every object ever
        try:
            self.engine = Engine.from_setup(self.profile, self._setup_events(pool), MemoryStore(), sc.id)
        except ProjectionError as exc:
            raise ScenarioError(f"{path}: the setup is not a consistent board: {exc}") from exc
        self.seen = 0
        self.all_events: list[Record] = []
        self._collect()

    # -- setup ----------------------------------------------------------------------------------------------

    def _setup_events(self, pool: CardPool) -> list[ev.Event]:
        sc, st = self.sc, self.sc.setup
        players = range(len(st.players))
        if st.active not in players:
            raise ScenarioError(f"{self.path}: setup.active: there is no player {st.active}")
        for n, spec in enumerate(st.cards, start=1):
            if spec.owner not in players:
                raise ScenarioError(f"{self.path}: setup card {n}: there is no player {spec.owner} to own it")
        for key in st.stats:
            who = key.partition(".")[0]
            if not who.isdigit() or int(who) not in players:
                raise ScenarioError(f"{self.path}: setup.stats: {key!r} does not name a player (\"0.life\")")
        options = {"deck_out": "off", **sc.options, SCENARIO_OPTION: sc.id}
        out: list[ev.Event] = [ev.GameStarted(sc.game, self.profile.version, tuple(st.players), sc.seed, pool.name,
                                              pool.version, pool.digest, tuple(sorted(options.items())))]
        positions: dict[str, int] = {}
        later: list[ev.Event] = []
        effect = 1
        for n, spec in enumerate(st.cards, start=1):
            if spec.card not in pool:
                raise ScenarioError(f"{self.path}: setup card {n}: no card {spec.card!r} in the pool")
            handle = spec.handle or f"{spec.card}#{n}"
            if handle in self.handles:
                raise ScenarioError(f"{self.path}: setup card {n}: handle {handle!r} is used twice")
            self.handles[handle] = n
            z = f"{spec.owner}.{spec.zone}"
            pos = positions.get(z, 0)
            positions[z] = pos + 1
            kind = spec.zone
            face_down = spec.face_down if spec.face_down is not None else kind in ("deck", "shields")
            out.append(ev.ObjectCreated(n, n, spec.card, spec.owner, z, pos, pool[spec.card].printed(), face_down))
            if spec.tapped:
                later.append(ev.StatusSet(n, "tapped", 1))
            if spec.sick:
                later.append(ev.StatusSet(n, "sick", 1))
            if spec.ignored:
                later.append(ev.ContinuousEffectStarted(effect, n, "ignore_abilities", n))
                effect += 1
            if spec.power:
                later.append(ev.ContinuousEffectStarted(effect, n, "power", n, amount=spec.power))
                effect += 1
            if spec.toughness:
                later.append(ev.ContinuousEffectStarted(effect, n, "toughness", n, amount=spec.toughness))
                effect += 1
            later += [ev.StatusSet(n, k, v) for k, v in sorted(spec.status.items())]
        for n, spec in enumerate(st.cards, start=1):
            for h in spec.under:
                if h not in self.handles:
                    raise ScenarioError(f"{self.path}: setup card {n}: unknown handle {h!r} in under")
                out.append(ev.Stacked(n, self.handles[h]))
        for key, value in st.stats.items():
            player, _, stat = key.partition(".")
            later.append(ev.PlayerStat(int(player), stat, value))
        step = next((s for s in self.profile.steps if s.name == st.step), None)
        if step is None:
            raise ScenarioError(f"{self.path}: setup: no step {st.step!r} in {sc.game}")
        out += later
        out += [ev.TurnBegan(st.turn, st.active), ev.StepBegan(step.phase, step.name)]
        return out

    # -- names ----------------------------------------------------------------------------------------------

    def card(self, handle: str) -> int:
        if handle in self.handles:
            return self.handles[handle]
        # A card made during the game has no handle; it is shown, and may be named, as "card<id>".
        cid = handle.removeprefix("card")
        if handle.startswith("card") and cid.isdigit() and int(cid) in self.engine.state.cards \
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
        return raw

    # -- running --------------------------------------------------------------------------------------------

    def _collect(self) -> list[Record]:
        new = list(self.engine.store.read(self.sc.id, self.seen + 1))
        for r in new:
            match r.event:
                case ev.ObjectCreated(obj=o, card=c) | ev.ZoneChanged(new=o, card=c):
                    self.card_of[o] = c
                case _:
                    pass
        self.all_events += new
        if new:
            self.seen = new[-1].seq
        return new

    def run(self) -> None:
        for n, step in enumerate(self.sc.steps, start=1):
            if step.do is not None:
                d = Decision(step.do.player, step.do.action, tuple(self.arg(a) for a in step.do.args))
                try:
                    self.engine.decide(d)
                except IllegalDecision as exc:
                    if not step.reject:
                        raise Failure(n, f"decision {d} was rejected: {exc}", self.context()) from exc
                    if exc.rule != step.reject:
                        raise Failure(n, f"rejected naming {exc.rule}, expected {step.reject}: {exc}",
                                      self.context()) from exc
                else:
                    if step.reject:
                        raise Failure(n, f"decision {d} was accepted; expected a rejection naming {step.reject}",
                                      self.context())
            new = self._collect()
            for key, want in step.expect.items():
                try:
                    problem = self.check(key, want, new)
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                    # ``expect`` is free-form in the file: a value of the wrong shape is the file's error.
                    raise ScenarioError(f"step {n}: expect.{key} cannot be read as an expectation: {exc!r}") from exc
                if problem:
                    raise Failure(n, f"{key}: {problem}", self.context())

    # -- expectations ---------------------------------------------------------------------------------------

    def handle_of_card(self, cid: int) -> str:
        for h, c in self.handles.items():
            if c == cid:
                return h
        return f"card{cid}"

    def pending_rows(self, state: GameState | None = None) -> list[dict[str, str]]:
        st = state if state is not None else self.engine.state
        return [{"label": p.label, "source": "@" + self.handle_of_card(p.source_card),
                 "side": "A" if p.controller == st.active else "a"}
                for p in st.pending.values() if not p.resolving]

    def check(self, key: str, want: Any, new: list[Record]) -> str | None:
        st = self.engine.state
        match key:
            case "pending":
                return _same_rows(self.pending_rows(), want)
            case "queue":
                return self._queue(want)
            case "pending_after_resolution" | "pending_after":
                # The pool just after an effect finished resolving in this step (the last one, or the n-th
                # with {resolution = n, pool = [...]}), read by time travel.
                nth, rows = (-1, want) if key == "pending_after_resolution" else (want["resolution"], want["pool"])
                done = [r.seq for r in new if isinstance(r.event, ev.EffectResolved | ev.EffectFizzled)]
                if not done or (nth > 0 and nth > len(done)):
                    return f"only {len(done)} effect(s) finished resolving in this step"
                then = Timeline(self.engine.store, self.sc.id).state_at(done[nth - 1 if nth > 0 else nth])
                return _same_rows(self.pending_rows(then), rows)
            case "decider":
                legal = self.engine.legal()
                return None if legal.player == want else f"player {legal.player} decides, expected {want}"
            case "request":
                req = self.engine.request
                if req is None:
                    return "no request is open" if want else None
                for k, v in want.items():
                    got: Any = getattr(req, k)
                    if k == "options":
                        got, v = sorted(map(str, got)), sorted(str(self.arg(x)) for x in v)
                    if got != v:
                        return f"request {k} is {got!r}, expected {v!r}"
                return None
            case "zones":
                for z, handles in want.items():
                    got_h = sorted(self.handle_of_card(st.objects[o].card) for o in st.zone(z))
                    exp = sorted(h.removeprefix("@") for h in handles)
                    if got_h != exp:
                        return f"{z} holds {got_h}, expected {exp}"
                return None
            case "counts":
                for z, n in want.items():
                    if len(st.zone(z)) != n:
                        return f"{z} holds {len(st.zone(z))} cards, expected {n}"
                return None
            case "stats":
                for k, v in want.items():
                    p, _, stat = k.partition(".")
                    if st.stat(int(p), stat) != v:
                        return f"{k} is {st.stat(int(p), stat)}, expected {v}"
                return None
            case "power":
                for h, v in want.items():
                    got_p = view(st, self.obj(h.removeprefix("@"))).power
                    if got_p != v:
                        return f"@{h} has power {got_p}, expected {v}"
                return None
            case "tapped":
                for h, v in want.items():
                    got_t = bool(st.objects[self.obj(h.removeprefix("@"))].status.get("tapped"))
                    if got_t != v:
                        return f"@{h} tapped is {got_t}, expected {v}"
                return None
            case "fizzled":
                rows = [self._event_row(r) for r in self.all_events if isinstance(r.event, ev.EffectFizzled)]
                return _contains_all(rows, want, "fizzle")
            case "events":
                return self._subsequence([self._event_row(r) for r in new], want, ordered=True)
            case "events_unordered":
                return self._subsequence([self._event_row(r) for r in new], want, ordered=False)
            case "no_events":
                rows = [self._event_row(r) for r in new]
                hits = [w for w in want if any(_matches(r, w) for r in rows)]
                return f"unexpected events {hits}" if hits else None
            case "ended":
                return None if st.ended == want else f"ended is {st.ended}, expected {want}"
            case "winner":
                return None if st.winner == want else f"winner is {st.winner}, expected {want}"
            case "chain":
                return self._chain(want)
            case "stack":
                return self._stack(want)
            case "step":
                return None if st.step == want else f"the step is {st.step!r}, expected {want!r}"
            case "events_exact":
                kinds = {w.get("kind") for w in want}
                rows = [self._event_row(r) for r in new if type(r.event).__name__ in kinds]
                if len(rows) == len(want) and all(_matches(r, w) for r, w in zip(rows, want, strict=True)):
                    return None
                return f"the events of kinds {sorted(map(str, kinds))} are, in order:\n{_rows(rows)}\nexpected {want}"
            case "priority":
                holder: int | str = "none" if st.priority is None else st.priority
                return None if holder == want else f"player {holder} holds priority, expected {want}"
            case _:
                raise ScenarioError(f"{self.path}: unknown expectation {key!r}")

    def _queue(self, want: list[dict[str, Any]]) -> str | None:
        """The effects waiting in an ordered queue, in key order, compared row by row."""
        st = self.engine.state
        waiting = sorted((p for p in st.pending.values() if p.holder == "queue" and not p.resolving),
                         key=lambda p: p.key)
        got = [{"label": p.label, "source": "@" + self.handle_of_card(p.source_card), "ability": p.ability,
                "side": "A" if p.controller == st.active else "a"} for p in waiting]
        keys = sorted({k for w in want for k in w}) or ["label", "source"]
        g = [tuple(r.get(k, "") for k in keys) for r in got]
        w = [tuple(str(r.get(k, "")) for k in keys) for r in want]
        return None if g == w else f"queue is {g}, expected {w} (in order, compared on {keys})"

    def _event_row(self, r: Record) -> dict[str, Any]:
        row: dict[str, Any] = ev.to_builtins(r.event)
        e = r.event
        for fld in ("source", "obj", "old", "new", "attacker", "subject", "target", "top", "below"):
            v = row.get(fld)
            if isinstance(v, int) and v in self.card_of:
                row[fld] = "@" + self.handle_of_card(self.card_of[v])
        if isinstance(e, ev.EffectFizzled | ev.EffectResolved | ev.EffectResolving | ev.EffectPending):
            src = next((x.event for x in self.all_events if isinstance(x.event, ev.Triggered)
                        and x.event.effect == e.effect), None)
            if src is not None:
                row["source"] = "@" + self.handle_of_card(src.source_card)
                row["ability"] = src.ability
        return row

    def _subsequence(self, rows: list[dict[str, Any]], want: list[dict[str, Any]], *, ordered: bool) -> str | None:
        if ordered:
            i = 0
            for w in want:
                while i < len(rows) and not _matches(rows[i], w):
                    i += 1
                if i == len(rows):
                    return f"no event matching {w} in order among:\n" + _rows(rows)
                i += 1
            return None
        return _contains_all(rows, want, "event")

    def _chain(self, want: list[dict[str, Any]]) -> str | None:
        """The effects in an interference chain, bottom first, compared row by row on the keys named."""
        st = self.engine.state
        entries = sorted((p for p in st.pending.values() if p.holder == "chain"), key=lambda p: (p.key, p.effect))

        def name(o: int) -> str:
            return f"player{-1 - o}" if o < 0 else "@" + self.handle_of_card(self.card_of.get(o, -1))

        got = [{"label": p.label, "source": "@" + self.handle_of_card(p.source_card), "ability": p.ability,
                "controller": p.controller, "targets": [name(t) for t in p.targets], "resolving": p.resolving}
               for p in entries]
        # Each row is compared on the keys it names; the chain must hold exactly as many entries.
        w = [{k: str(v) for k, v in r.items()} for r in want]
        g = [{k: str(r.get(k, "")) for k in x} for r, x in zip(got, w, strict=False)]
        if len(got) == len(want) and g == w:
            return None
        return f"chain is {[{k: str(v) for k, v in r.items()} for r in got]}, expected {w} (bottom first)"

    def _stack(self, want: list[dict[str, Any]]) -> str | None:
        """The stack, bottom first (the top last), compared row by row on the keys each row names."""
        st = self.engine.state
        entries = sorted((p for p in st.pending.values() if p.holder == "stack"), key=lambda p: (p.key, p.effect))

        def name(o: int | None) -> str:
            if o is None:
                return ""
            return f"player{-1 - o}" if o < 0 else "@" + self.handle_of_card(self.card_of.get(o, -1))

        got = [{"label": p.label, "source": name(self.engine.policy.source_of(st, p)), "controller": p.controller,
                "targets": [name(t) for t in p.targets], "resolving": p.resolving} for p in entries]
        w = [{k: str(v) for k, v in r.items()} for r in want]
        g = [{k: str(r.get(k, "")) for k in x} for r, x in zip(got, w, strict=False)]
        if len(got) == len(want) and g == w:
            return None
        return f"stack is {[{k: str(v) for k, v in r.items()} for r in got]}, expected {w} (bottom first)"

    def context(self) -> str:
        st = self.engine.state
        lines = [f"  turn {st.turn}, player {st.active}'s {st.step} step; seq {st.seq}"]
        lines.append("  pending: " + (", ".join(f"{r['label']} ({r['source']}, {r['side']})"
                                                for r in self.pending_rows()) or "none"))
        req = self.engine.request
        lines.append(f"  waiting for: {req.player} to {req.kind} among {list(req.options)}" if req else
                     f"  waiting for: {self.engine.legal().player} to act")
        for z in sorted(st.zones):
            if st.zones[z]:
                lines.append(f"  {z}: " + ", ".join("@" + self.handle_of_card(st.objects[o].card)
                                                    for o in st.zones[z]))
        return "\n".join(lines)


def _matches(row: dict[str, Any], want: dict[str, Any]) -> bool:
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
            if not _matches(got, v):  # a nested table (printed characteristics): the keys it names
                return False
        elif got != v:
            return False
    return True


def _contains_all(rows: list[dict[str, Any]], want: list[dict[str, Any]], what: str) -> str | None:
    for w in want:
        n = sum(1 for r in rows if _matches(r, w))
        if "count" in w and n != w["count"]:
            return f"{n} {what}(s) match {w}, expected {w['count']}:\n" + _rows(rows)
        if "count" not in w and n == 0:
            return f"no {what} matching {w} among:\n" + _rows(rows)
    return None


def _same_rows(got: list[dict[str, str]], want: list[dict[str, str]]) -> str | None:
    """A pending pool is a set: compare as multisets over the keys the expectation names."""
    keys = sorted({k for w in want for k in w}) or ["label", "source", "side"]
    g = sorted(tuple(r.get(k, "") for k in keys) for r in got)
    w = sorted(tuple(str(r.get(k, "")) for k in keys) for r in want)
    return None if g == w else f"pending is {g}, expected {w} (compared on {keys})"


def _rows(rows: list[dict[str, Any]]) -> str:
    return "\n".join("    " + str(r) for r in rows)


def run_file(path: str | Path) -> Result:
    sc = load(path)
    run = Run(sc, str(path))  # a scenario that cannot be set up is bad input: ScenarioError propagates
    try:
        run.run()
    except Failure as f:
        return Result(sc.id, str(path), False, str(f))
    except ScenarioError as exc:
        return Result(sc.id, str(path), False, str(exc))
    return Result(sc.id, str(path), True)


def files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Scenario files named by ``paths``: files as given, folders searched for ``*.toml``, sorted."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("*.toml"))
        else:
            yield p
