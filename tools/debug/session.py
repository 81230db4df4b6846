"""One debugging session: the log being debugged (a store or an export, or the log a scenario run kept), the
what-if branches made from it, and the questions the page and the JSON API ask of them.

Every answer is read from the logs (the source and the forks store) through the same time-travel reader the
command line uses (``tools.travel.points``: snapshots, then records); the only state a restart loses is the list of
decisions refused in the page (below).
Forks are ordinary games in an ordinary store: ``kifu audit`` reads them like any other.

A decision the rules refuse appends nothing, so no log holds it; the session keeps the refusals it knows of — a
scenario run's (``statemachine.scenario.Refusal``), and the decisions tried in the page (``attempt``) — and the
condition ``refused`` stops at the points where they were tried. They last as long as the session.
"""

from __future__ import annotations

import dataclasses
import shlex
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from projections.characteristics import view
from projections.diff import diff_states
from projections.state import GameState
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.scenario import Refusal, run_file
from tools.debug import provenance
from tools.debug.expressions import Names, QueryError, parse_condition, parse_value
from tools.debug.indices import warm
from tools.debug.search import Direction, Match, Progress, Unit, changes, searching, step
from tools.errors import BadInput
from tools.logs.stores import open_store
from tools.travel.board import board_data
from tools.travel.decide import choose_decision
from tools.travel.difftext import diff_lines
from tools.travel.explain import why, why_not
from tools.travel.points import open_at_points
from tools.travel.streamed import PointLog
from tools.travel.trace import Memory, names

PAGE: Final = 200  # records listed at most per request of the timeline


@dataclass
class Failure:
    """A scenario's first failing expectation: where it failed and what it says (expected against actual)."""

    step: int
    seq: int
    message: str


@dataclass
class Source:
    """Where the session's main log is, and (for a scenario) how it was made."""

    location: str
    game: str | None
    scenario: Path | None = None
    failure: Failure | None = None
    mtime: float = 0.0
    runs: int = 0
    refusals: tuple[Refusal, ...] = ()  # the decisions the scenario's steps tried and the rules refused


@dataclass
class Session:
    source: Source
    forks_db: str
    _stack: ExitStack = field(default_factory=ExitStack)
    _logs: dict[str, PointLog] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _tried: dict[str, list[Refusal]] = field(default_factory=dict)  # game -> decisions refused in the page
    warm: bool = False  # fill the main log's provenance indices in the background when it is opened (the server)
    warming: threading.Thread | None = None

    # -- logs ---------------------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._stack.close()
            self._logs.clear()

    @property
    def main(self) -> str:
        """The id of the log being debugged."""
        return self.log(None).game

    def log(self, game: str | None) -> PointLog:
        """The main log (``game`` None or its id) or a fork from the forks store."""
        key = game or ""
        with self._lock:
            if key not in self._logs:
                if game is None or (self._logs.get("") is not None and self._logs[""].game == game):
                    self._logs[key] = self._stack.enter_context(open_at_points(self.source.location,
                                                                               self.source.game))
                    if self.warm and key == "":
                        self.warming = warm(self._logs[key])
                else:
                    if game not in self.branches():
                        raise BadInput(f"no game {game!r}: the games are {', '.join([self.main, *self.branches()])}")
                    self._logs[key] = self._stack.enter_context(open_at_points(self.forks_db, game))
            return self._logs[key]

    def branches(self) -> list[str]:
        if not Path(self.forks_db).exists():
            return []
        with open_store(self.forks_db, write=False) as store:
            return [g.game for g in store.games()]

    @staticmethod
    def seat(log: PointLog, who: str | None) -> int | None:
        """A seat by number or name (None or "judge": the omniscient judge)."""
        if who in (None, "", "judge"):
            return None
        return names_of(log).player(str(who))

    # -- points -------------------------------------------------------------------------------------------

    def info(self, game: str | None = None) -> dict[str, Any]:
        log = self.log(game)
        started = log.started
        out: dict[str, Any] = {
            "game": log.game, "main": self.main, "location": log.location, "last": log.last,
            "players": list(started.players) if started is not None else [],
            "rules": f"{started.profile} {started.profile_version}" if started is not None else "",
            "branches": self.branches(), "forks_db": self.forks_db,
            "refusals": [{"point": r.seq, "player": r.player, "decision": r.decision, "rule": r.rule,
                          "reason": r.reason, "step": r.step} for r in self.refusals(game)],
        }
        if self.source.scenario is not None:
            out["scenario"] = {"path": str(self.source.scenario), "runs": self.source.runs,
                               "failure": None if self.source.failure is None else self.source.failure.__dict__}
        return out

    def point(self, n: int, game: str | None, seat: str | None) -> dict[str, Any]:
        with self._lock:
            log = self.log(game)
            n = log.check_point(n)
            viewer = self.seat(log, seat)
            log.state_at(n - 1)  # (the record's line reads the state before it: fold that first, then one record)
            state = log.state_at(n)
            after = log.get(n + 1)  # whether the rules wait here or go on by themselves (as kifu at says)
            data = board_data(state, viewer, log.memory if viewer is None else None,
                              next_decision=after.decision if after is not None else None)
            _with_toughness(data, state)
            lines = provenance.Lines(log, viewer)
            data["record"] = lines.entry(n) if n >= 1 else None
            data["last"] = log.last
            data["game"] = log.game
            return data

    def records(self, start: int, count: int, game: str | None, seat: str | None) -> list[dict[str, Any]]:
        with self._lock:
            log = self.log(game)
            lines = provenance.Lines(log, self.seat(log, seat))
            stop = min(log.last, start + min(count, PAGE) - 1)
            return lines.entries(max(1, start), stop)

    def step(self, at: int, unit: Unit, direction: Direction, game: str | None) -> int:
        with self._lock:
            log = self.log(game)
            return step(log, log.check_point(at), unit, direction)

    def origin(self, n: int, path: dict[str, Any], game: str | None, seat: str | None) -> dict[str, Any]:
        with self._lock:
            log = self.log(game)
            return provenance.explain(log, log.check_point(n), provenance.parse_path(path), self.seat(log, seat))

    def why(self, n: int, game: str | None) -> list[str]:
        with self._lock:
            log = self.log(game)
            return why(log, log.check_point(n))

    def why_not(self, n: int, card: str, ability: str | None, game: str | None) -> list[str]:
        with self._lock:
            log = self.log(game)
            return why_not(log, log.check_point(n), card, ability)

    # -- searches -----------------------------------------------------------------------------------------

    def search(self, condition: str, at: int, direction: Direction, game: str | None, seat: str | None
               ) -> Iterator[Match | Progress]:
        """The record where ``condition`` holds next (or last) from point ``at``, with progress on the way."""
        with self._lock:
            log = self.log(game)
            viewer = self.seat(log, seat)
            known = frozenset((r.seq, r.player) for r in self.refusals(log.game) if viewer in (None, r.player))
            cond = parse_condition(condition, dataclasses.replace(names_of(log), refusals=known))
            at = log.check_point(at)
        yield from searching(log, cond, at, direction, viewer)

    def query(self, expression: str, game: str | None, seat: str | None) -> Iterator[tuple[int, Any] | Progress]:
        """``expression`` at every record where it changed, with progress on the way."""
        with self._lock:
            log = self.log(game)
            try:
                words = shlex.split(expression)
            except ValueError as exc:
                raise QueryError(f"cannot read the value {expression!r}: {exc}") from None
            value = parse_value(words, names_of(log))
            viewer = self.seat(log, seat)
        yield from changes(log, value, viewer)

    def refusals(self, game: str | None) -> list[Refusal]:
        """The refused decisions the session knows of in ``game``, in the order they were tried."""
        with self._lock:
            log = self.log(game)
            scenario = list(self.source.refusals) if log.game == self.main else []
            return scenario + self._tried.get(log.game, [])

    # -- what if ------------------------------------------------------------------------------------------

    def legal(self, n: int, game: str | None) -> dict[str, Any]:
        """The decisions the rules would have accepted at point ``n`` (a point where they wait for one)."""
        with self._lock:
            log = self.log(game)
            engine = _engine_at(log, log.check_point(n))
            legal = engine.legal()
            return {"point": n, "player": legal.player,
                    "decisions": [_decision_line(engine, d, log.memory) for d in legal.decisions]}

    def fork(self, n: int, choice: int, game: str | None) -> dict[str, Any]:
        """A new branch from point ``n`` of ``game`` (``kifu fork``), with decision number ``choice`` of the
        legal ones played in it."""
        with self._lock:
            log = self.log(game)
            n = log.check_point(n)
            _engine_at(log, n)  # (refuses a point in the middle of the rules' work before the store is touched)
            return self._branch(log, n, game, lambda engine: _play(engine, choice))

    def attempt(self, n: int, decision: str, game: str | None) -> dict[str, Any]:
        """Try ``decision`` (typed as for ``kifu decide``: a number of the listing, or ACTION ARGS...) at point
        ``n``. Refused: nothing is appended anywhere, and the refusal is kept for the ``refused`` breakpoint;
        accepted: a new branch with it played, as ``fork`` makes."""
        try:
            words = tuple(shlex.split(decision))
        except ValueError as exc:
            raise BadInput(f"cannot read the decision {decision!r}: {exc}") from None
        if not words:
            raise BadInput("the decision is empty: type ACTION ARGS... or a number of the legal decisions")
        with self._lock:
            log = self.log(game)
            n = log.check_point(n)
            trial = _engine_at(log, n)  # (in memory: a refusal leaves no trace in any store)
            chosen = choose_decision(trial, trial.legal(), words, None)
            named = _decision_line(trial, chosen, log.memory)
            try:
                trial.decide(chosen)
            except IllegalDecision as refused:
                kept = Refusal(0, n, chosen.player, named, refused.rule, refused.reason)
                self._tried.setdefault(log.game, []).append(kept)
                return {"refused": {"point": n, "player": chosen.player, "decision": named, "rule": refused.rule,
                                    "reason": refused.reason}}
            return self._branch(log, n, game, lambda engine: engine.decide(chosen))

    def _branch(self, log: PointLog, n: int, game: str | None, play: Callable[[Engine], object]) -> dict[str, Any]:
        name = _free_name(f"{self.main}-fork-{n}", self.branches())
        with open_store(self.forks_db, write=True) as store:
            engine = Engine.fork(log.profile(), _store_of(log), log.game, n, store=store, game=name)
            play(engine)
        self._logs.pop(name, None)
        return {"game": name, "at": n, **self.compare(game, name)}

    def decide(self, game: str, choice: int) -> dict[str, Any]:
        """Play decision number ``choice`` of the legal ones at the end of branch ``game``."""
        with self._lock:
            if game not in self.branches():
                raise BadInput(f"only a branch can be played on; {game!r} is not one of {self.branches()}")
            with open_store(self.forks_db, write=True) as store:
                engine = Engine.load(self.log(game).profile(), store, game)
                _play(engine, choice)
            self._forget(game)
            return {"game": game, "last": self.log(game).last}

    def compare(self, a: str | None, b: str) -> dict[str, Any]:
        """Two games side by side: the first record where they differ, each game's line there, and the
        difference of the states just after it."""
        with self._lock:
            la, lb = self.log(a), self.log(b)
            first = _first_difference(la, lb)
            out: dict[str, Any] = {"a": la.game, "b": lb.game, "first_difference": first}
            if first is not None:
                ia, ib = first["a"], first["b"]
                out["a_line"] = la.line(ia) if ia <= la.last else "(the game ends before it)"
                out["b_line"] = lb.line(ib) if ib <= lb.last else "(the game ends before it)"
                before, after = la.state_at(min(ia, la.last)), lb.state_at(min(ib, lb.last))
                out["diff"] = diff_lines(diff_states(before, after), before, after)
            return out

    # -- a scenario ---------------------------------------------------------------------------------------

    def refresh(self) -> dict[str, Any]:
        """Run the scenario again if its file changed since it last ran (the page asks every second or so)."""
        src = self.source
        if src.scenario is None:
            raise BadInput("this session debugs a log, not a scenario")
        with self._lock:
            try:
                changed = src.scenario.stat().st_mtime_ns != src.mtime
            except OSError as exc:
                raise BadInput(f"{src.scenario}: cannot read: {exc.strerror}") from None
            if changed:
                self.close()
                self._tried.clear()  # (tried against the old run's log)
                self.source = run_scenario(src.scenario, Path(self.forks_db).parent, src.runs + 1)
        return self.info()

    def _forget(self, game: str) -> None:
        log = self._logs.pop(game, None)
        if log is not None:
            self._stack.close()  # reopen what remains lazily (a store's reader caches its length)
            self._stack = ExitStack()
            self._logs.clear()


def _with_toughness(board: dict[str, Any], state: GameState) -> None:
    """Each card the board shows with its power (a card the viewer sees) shows its toughness too, where it has one,
    so both can be asked where they came from (the shared board lists power only)."""
    for cards in board["zones"].values():
        for card in cards if isinstance(cards, list) else ():
            if isinstance(card, dict) and "power" in card and card.get("obj") in state.objects:
                toughness = view(state, card["obj"]).chars.toughness
                if toughness is not None:
                    card["toughness"] = toughness


def names_of(log: PointLog) -> Names:
    """What a query may name in ``log``: its players, its cards by id and name, its objects."""
    started = log.started
    players = tuple(started.players) if started is not None else ()
    final = log.state_at(log.last)
    cards = {cid: facts.printed.name for cid, facts in final.cards.items()}
    return Names(players, cards, lambda oid: card_of_object(log, oid))


def card_of_object(log: PointLog, oid: int) -> int | None:
    """The card object ``oid`` was, found from the log alone: object ids are handed out in order, so the record
    that made it is the first after which the next free id passes it (a binary search over points)."""
    known = log.memory.card_of.get(oid)
    if known is not None:
        return known
    if oid < 1 or log.state_at(log.last).next_object <= oid:
        return None
    low, high = 1, log.last
    while low < high:
        mid = (low + high) // 2
        if log.state_at(mid).next_object > oid:
            high = mid
        else:
            low = mid + 1
    match log.record(low).event:
        case ev.ObjectCreated(obj=o, card=c) | ev.ZoneChanged(new=o, card=c) if o == oid:
            return c
    return None


def _store_of(log: PointLog) -> Any:
    store = getattr(log, "store", None)
    if store is None:
        raise BadInput(f"{log.location} cannot be forked from here")
    return store


def _engine_at(log: PointLog, n: int) -> Engine:
    """An engine at point ``n`` of ``log`` (a point where the rules wait for a decision), in memory."""
    try:
        return Engine.fork(log.profile(), _store_of(log), log.game, n, store=MemoryStore(), game="what-if")
    except KifuError as exc:
        raise BadInput(str(exc)) from None


def _play(engine: Engine, choice: int) -> None:
    legal = engine.legal()
    if not 0 <= choice < len(legal.decisions):
        raise BadInput(f"there are {len(legal.decisions)} legal decisions here; no decision {choice}")
    try:
        engine.decide(legal.decisions[choice])
    except IllegalDecision as refused:  # (a legal decision is never refused; a bug would surface here)
        raise BadInput(f"refused: {refused.reason} [{refused.rule}]") from None


def _free_name(base: str, taken: list[str]) -> str:
    name, i = base, 1
    while name in taken:
        i += 1
        name = f"{base}-{i}"
    return name


def _first_difference(a: PointLog, b: PointLog) -> dict[str, int] | None:
    """The first records where two logs' events differ, as a pair of record numbers (a fork's branch point is
    passed over in the log that has it, so a fork and its source line up again after it); None if the same."""
    i = j = 1
    while i <= a.last or j <= b.last:
        ra, rb = a.get(i), b.get(j)
        if ra is not None and isinstance(ra.event, ev.Forked):
            i += 1
            continue
        if rb is not None and isinstance(rb.event, ev.Forked):
            j += 1
            continue
        if ra is None or rb is None or ra.event != rb.event:
            return {"a": i, "b": j}
        i, j = i + 1, j + 1
    return None


def _decision_line(engine: Engine, d: Decision, mem: Memory) -> str:
    """A decision as ``kifu decide`` lists it: the action and its words, then what its ids name for its player."""
    typed = " ".join([d.action, *map(str, d.args)])
    named = names(engine.state, mem, d.player).named_args(d)
    return typed + (f"   ({', '.join(named)})" if named else "")


def scratch_dir() -> Path:
    """A private folder (mode 0700) for a session's scenario runs and forks."""
    return Path(tempfile.mkdtemp(prefix="kifu-debug-"))


def run_scenario(path: Path, folder: Path, run: int, db: str | None = None) -> Source:
    """Run the scenario at ``path`` keeping its log (in ``db``, or a new SQLite store in ``folder``); the source
    names its first failure, if any, at the record its state was at."""
    mtime = path.stat().st_mtime_ns
    location = db or str(folder / f"scenario-run-{run}.db")
    with open_store(location, write=True) as store:
        result = run_file(path, store=store)
    failure = None if result.ok else Failure(result.step, result.seq, result.message)
    return Source(location, result.id, scenario=path, failure=failure, mtime=mtime, runs=run,
                  refusals=result.refusals)


__all__ = ["Failure", "QueryError", "Session", "Source", "scratch_dir"]
