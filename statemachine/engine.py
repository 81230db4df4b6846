"""The kernel's core loop: ``decide(decision)`` runs the rules and appends their consequences as events.

Inside one decision the engine appends each consequence and folds it at once (``emit``), then asks which
abilities it triggered, so every rule check sees the state it must see. A decision's events are stored in one
transaction; an illegal decision raises before anything is appended.

Rules procedures are generators that yield a ``Request`` when they need a player's choice. While one waits,
the request is in the log (``ChoiceRequested``); the engine is restored from the log by re-running the procedure
in flight from the state before it began, with the recorded decisions, checking every event against the log.

An engine given a ``signer`` (``eventsource.signing.Signer``) signs the head of every decision it commits, in
the same transaction, and the head after the game ended as the game's signed end.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec
from msgspec import Struct

from eventsource import events as ev
from eventsource import randomness
from eventsource.branching import BranchLog
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from eventsource.records import NewEvent, Record
from eventsource.signing import Signer, sign_heads
from eventsource.store import EventStore
from projections.invariants import GAME_OVER_RULE, Invariant, enforce, not_kept_by_fold
from projections.state import GameState, Pending
from projections.timeline import Timeline, pack
from statemachine.cards import CardPool
from statemachine.decisions import Decision, IllegalDecision, Legal, Request
from statemachine.decks import DeckRule
from statemachine.forks import forked_records
from statemachine.naming import Names
from statemachine.options import SETUP, setup_count
from statemachine.rederive import ENVELOPE, LOG_DISAGREES, Divergence, dealt_opening, given_board, leading_cards
from statemachine.triggers import Instance, TriggerIndex, TriggerKind, before_listeners, match
from statemachine.vocabulary import Answer, Procedure, Vocabulary

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1  # the integers an event can hold (eventsource.records)
SETUP_OPTION = SETUP  # GameStarted option: how many events a given setup has (scenarios, reconstructions)
__all__ = ["SETUP_OPTION", "Divergence", "Engine", "GameOver"]


def _distinct_names(players: Sequence[str]) -> None:
    """A new game's players have different names: the tools name a seat by its name as well as by its number,
    and two seats of one name could be told apart by neither the text nor a judge (logs recorded before this
    check still replay and verify as they are)."""
    for seat, name in enumerate(players):
        if name in players[:seat]:
            raise KifuError(f"players {players.index(name)} and {seat} are both named {name!r}; "
                            "each player needs a name of their own")


class GameOver(Exception):
    """Raised inside a procedure once the game has ended (KIFU-END): nothing of it runs on, and ``_drive``
    closes it. Only under a release whose ``Rules`` switch ``ends_at_game_end`` says so."""


class EndlessLoop(Exception):
    """Raised by ``emit`` when the rules run past the game's loop bound (``Rules.loop_bound``) since the last act."""


# -- what the loop asks of a game -----------------------------------------------------------------------------
# The engine is the middle of the kernel: the game-facing bases build on it (``flow.TurnFlow``,
# ``policy.ResolutionPolicy``, ``context.EffectContext``, ``profile.Rules``) and it names them only by
# these protocols, so the kernel's imports run one way (docs/architecture.md).


class StepDef(Struct, frozen=True):
    name: str
    phase: str
    automatic: bool  # True: the step ends by itself once its actions and waiting effects are done


class Flow(Protocol):
    """The turn flow (``statemachine.flow.TurnFlow``): the steps of a turn, advanced one at a time."""

    steps: dict[str, StepDef]

    @property
    def current(self) -> StepDef | None: ...

    def restore(self, step: str) -> None: ...

    def next(self, engine: Engine) -> Procedure | None: ...

    def advance(self, engine: Engine, *, skip: bool = False) -> Procedure: ...

    def advance_step(self) -> None: ...

    def clone(self) -> Flow: ...


class Policy(Protocol):
    """A resolution policy (``statemachine.policy.ResolutionPolicy``): how triggered effects wait and resolve."""

    holder: str

    def triggered(self, engine: Engine, instances: list[Instance]) -> None: ...

    def next(self, engine: Engine) -> Procedure | None: ...

    def legal(self, engine: Engine) -> Legal | None: ...

    def awaits_decision(self, engine: Engine) -> bool: ...

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None: ...

    def misplaced(self, engine: Engine, decision: Decision, request: Request) -> tuple[str, str]: ...

    def refused(self, engine: Engine, decision: Decision, request: Request, why: str) -> tuple[str, str]: ...

    def source_of(self, state: GameState, pend: Pending) -> int | None: ...

    def clone(self) -> Policy: ...


class Rules(Protocol):
    """A rules profile (``statemachine.profile.Rules``): everything one game tells the kernel."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def rules(self) -> Any: ...

    @property
    def pool(self) -> CardPool: ...

    @property
    def vocabulary(self) -> Vocabulary: ...

    @property
    def trigger_kinds(self) -> dict[str, TriggerKind]: ...

    @property
    def steps(self) -> tuple[StepDef, ...]: ...

    @property
    def look_back_own_move_only(self) -> bool: ...

    @property
    def hidden_zones(self) -> frozenset[str]: ...

    @property
    def action_args(self) -> dict[str, tuple[str, ...]]: ...

    @property
    def option_kinds(self) -> dict[str, str]: ...

    @property
    def request_words(self) -> dict[str, str]: ...

    @property
    def deck_rule(self) -> DeckRule | None: ...

    def invariants(self) -> Sequence[Invariant]: ...

    def make_policy(self) -> Policy: ...

    def make_flow(self) -> Flow: ...

    def setup_events(self, players: Sequence[str], decks: Sequence[Sequence[str]], seed: int,
                     options: dict[str, str]) -> list[ev.Event]: ...

    def begin(self, engine: Engine) -> Procedure: ...

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure: ...

    def actions(self, engine: Engine) -> Legal: ...

    def act(self, engine: Engine, decision: Decision) -> Procedure: ...

    def check_state(self, engine: Engine) -> None: ...

    def turn_skipped(self, engine: Engine) -> bool: ...

    def end_skip(self, engine: Engine) -> None: ...

    def ignoring_lifted_on_leave(self, state: GameState) -> bool: ...

    def next_turn_player(self, engine: Engine) -> int: ...

    def turn_player(self, engine: Engine) -> int: ...

    def conditions_checked_on_trigger(self) -> bool: ...

    @property
    def ends_at_game_end(self) -> bool: ...

    @property
    def loop_bound(self) -> int: ...

    @property
    def loop_rule(self) -> str: ...
    def parse_options(self, pairs: Iterable[tuple[str, str]]) -> Any: ...

    def check_inputs(self, decks: Sequence[Sequence[str]], pairs: Iterable[tuple[str, str]]) -> None: ...


class Engine:
    """One game under one rules profile, over one store."""

    def __init__(self, profile: Rules, store: EventStore | None = None, game: str = "game",
                 state: GameState | None = None, *, signer: Signer | None = None) -> None:
        self.profile = profile
        self.signer = signer
        self.store = store if store is not None else MemoryStore()
        self.game = game
        self.state = state if state is not None else GameState()
        self.policy = profile.make_policy()
        self.flow = profile.make_flow()
        self.index = TriggerIndex(profile.pool, profile.trigger_kinds, profile.vocabulary.filter_tests)
        self.batch: list[NewEvent] = []
        self.flight: Procedure | None = None
        self.request: Request | None = None
        self.declarable: list[Instance] = []
        self.cause = 0
        self._expect: deque[Record] | None = None
        # The engine just before the procedure in flight began, kept once a search clone needed it
        # (``statemachine.cloning``, which says how a clone gets each attribute: a new one must be added there).
        self.anchor: Engine | None = None
        # What a possible board is (projections.invariants), checked each time the rules wait for a decision: on
        # every board a decision is made on, not inside one (where a board passes through states no rule lets
        # anyone see), and not what the fold keeps by itself. Measured in bench.playouts (invariant_cost).
        self.checks = not_kept_by_fold(profile.invariants())
        if not profile.ends_at_game_end:  # (a release before KIFU-END: its logs replay as recorded)
            self.checks = tuple(i for i in self.checks if i.rule != GAME_OVER_RULE)
        self._options: tuple[dict[str, str], Any] | None = None
        self._sync()

    @property
    def options(self) -> Any:
        """The game's options, typed by its rules version (``statemachine.options``): read once per game."""
        raw = self.state.options
        if self._options is None or self._options[0] is not raw:
            self._options = (raw, self.profile.parse_options(raw.items()))
        return self._options[1]

    # -- creating and loading -------------------------------------------------------------------------

    @classmethod
    def new(cls, profile: Rules, players: Sequence[str], decks: Sequence[Sequence[str]], seed: int, *,
            store: EventStore | None = None, game: str = "game", options: dict[str, str] | None = None,
            signer: Signer | None = None) -> Engine:
        """Start a game: record the setup, then play on by the rules up to the first decision."""
        _distinct_names(players)
        profile.check_inputs(decks, (options or {}).items())  # options it reads, decks its rules allow
        engine = cls(profile, store, game, signer=signer)
        if engine.store.head(game):
            raise KifuError(f"game {game!r} already exists in this store")
        for event in profile.setup_events(players, decks, seed, options or {}):
            engine._append(event)
        engine.flight = profile.begin(engine)
        engine._drive(None)
        enforce(engine.state, engine.checks)
        engine._commit(0)
        return engine

    @classmethod
    def from_setup(cls, profile: Rules, events: Sequence[ev.Event], store: EventStore | None = None,
                   game: str = "game", *, signer: Signer | None = None) -> Engine:
        """Start a game from any recorded setup (a scenario's board, a judge's reconstruction).

        ``events`` begins with ``GameStarted``; its options gain ``setup`` = the number of setup events, so
        re-adjudication knows where the given board ends and the rules begin.
        """
        first = events[0]
        if not isinstance(first, ev.GameStarted):
            raise KifuError("a setup begins with GameStarted")
        _distinct_names(first.players)
        options = tuple(sorted({**dict(first.options), SETUP_OPTION: str(len(events))}.items()))
        profile.parse_options(options)  # a given board has no decks to check (statemachine.decks)
        engine = cls(profile, store, game, signer=signer)
        if engine.store.head(game):
            raise KifuError(f"game {game!r} already exists in this store")
        for event in (msgspec.structs.replace(first, options=options), *events[1:]):
            engine._append(event)
        engine._sync()
        engine._drive(None)
        enforce(engine.state, engine.checks)  # a given board the game cannot be in is refused, named
        engine._commit(0)
        return engine

    @classmethod
    def load(cls, profile: Rules, store: EventStore, game: str, *, signer: Signer | None = None) -> Engine:
        """Restore a game from its log (to go on signing with ``signer``)."""
        engine = cls._load(profile, store, game)
        engine.signer = signer
        return engine

    @classmethod
    def _load(cls, profile: Rules, store: EventStore, game: str) -> Engine:
        """Restore a game from its log.

        The rules re-run the procedure of the last decision (or the one waiting for a choice) from the state
        before it began, checking every record, so the engine holds what the one that recorded the log held,
        down to the cause its next decision's record carries. A log the rules do not give there (a tampered
        one, whose later decisions an audit still judges) is restored by folding alone.
        """
        timeline = Timeline(store, game)
        state = timeline.state_at()
        if state.flight == 0:  # nothing decided yet: the opening, derived again (a choice in it awaited or not)
            if state.request is not None:
                return cls.replay(profile, store.read(game), store, game)
            try:
                return cls.replay(profile, store.read(game), store, game)
            except LOG_DISAGREES:  # (only a log the rules do not give: a bug in the rules propagates)
                return cls(profile, store, game, state)
        engine = cls(profile, store, game, timeline.state_at(state.flight - 1))
        records = list(store.read(game, state.flight))
        engine.cause = records[0].cause  # the decision that began it was caused as the log says
        if state.request is not None:
            engine.rerun(records)  # (a choice is awaited: the rules must take the procedure up, or fail)
            return engine
        try:
            engine.rerun(records)
        except LOG_DISAGREES:
            return cls(profile, store, game, state)
        return engine

    @classmethod
    def replay(cls, profile: Rules, records: Iterable[Record], store: EventStore | None = None,
               game: str = "game", *, as_logged: bool = False) -> Engine:
        """Re-adjudicate a whole log from its inputs: the players, seed, options and deck lists it names (or,
        for a given set-up, its board), then its decisions; every record the rules give, envelope included,
        is checked against the log (``statemachine.rederive``).

        Raises ``Divergence`` at the first record where the log and the rules disagree. ``as_logged`` takes the
        set-up records as the log has them (a what-if under another release, whose pool and version differ
        from the log's by design) and re-runs the rest.
        """
        recs = list(records)
        started = recs[0].event if recs else None
        if not isinstance(started, ev.GameStarted):
            first = recs[0] if recs else None
            raise Divergence(first.seq if first else 1, first.event if first else None, None, 0, field="kind",
                             reason="a log begins with GameStarted, which names its rules and inputs")
        given = dict(started.options).get(SETUP_OPTION)
        if as_logged:
            count = setup_count(given) or 1 + len(leading_cards(recs))
            opening: list[ev.Event] = [r.event for r in recs[:count]]
        else:
            opening = dealt_opening(profile, recs) if given is None else given_board(profile, recs, given)
        engine = cls(profile, store if store is not None else MemoryStore(), game)
        engine._expect = deque(recs)
        for event in opening:
            engine._append(event)
        engine._sync()
        engine.flight = None if given is not None else profile.begin(engine)
        engine._drive(None)
        engine.batch.clear()
        engine.rerun(recs[len(opening):], already_expected=True)
        return engine

    def rerun(self, records: Sequence[Record] | Iterable[Record], *, already_expected: bool = False) -> None:
        """Feed recorded decisions back through the rules, comparing each consequence with the log."""
        recs = list(records)
        if not already_expected:
            self._expect = deque(recs)
        for r in recs:
            if isinstance(r.event, ev.ChoiceMade):
                self._take_branch_point()
                if not self._expect or self._expect[0].seq != r.seq:
                    got = self._expect[0].event if self._expect else None
                    raise Divergence(r.seq, r.event, got, r.decision)
                d = r.event
                self.decide(Decision(d.player, d.action, tuple(d.args)))
        self._take_branch_point()
        if self._expect:
            extra = self._expect[0]
            raise Divergence(extra.seq, extra.event, None, extra.decision)
        self._expect = None
        self.batch.clear()

    def _take_branch_point(self) -> None:
        """A what-if fork's branch point (``Forked``, statemachine.forks) is no consequence of any decision:
        where the log has one right after the records it copied, while the rules wait for a decision, it is
        taken as the log has it."""
        from projections.state import evolve

        while self._expect:
            r = self._expect[0]
            if not (isinstance(r.event, ev.Forked) and r.seq == self.state.seq + 1 == r.event.at + 1):
                return
            # Its envelope is the rules' like any record's (statemachine.forks.copy_prefix): the decision it
            # follows, and no cause.
            for name, logged, derived in (("decision", r.decision, self.state.decision), ("cause", r.cause, 0)):
                if logged != derived:
                    raise Divergence(r.seq, r.event, r.event, self.state.decision, field=name, log_value=logged,
                                     rules_value=derived, kind=ENVELOPE)
            self._expect.popleft()
            evolve(self.state, r.seq, r.event, r.decision)

    @classmethod
    def fork(cls, profile: Rules, source: EventStore, source_game: str, at: int, *, store: EventStore,
             game: str, signer: Signer | None = None) -> Engine:
        """A what-if branch: a new game ``game`` in ``store`` holding ``source_game``'s records 1 to ``at`` and
        its branch point, ready for other decisions (``statemachine.forks``); ``signer`` signs the copied part's
        heads and, as the engine returned goes on, every later one."""
        records = forked_records(source, source_game, at, store=store, game=game)
        trial = MemoryStore()  # the rules must take the game up at the branch point before anything is stored
        trial.append_raw(game, records, expected=0)
        cls.load(profile, trial, game)
        store.append_raw(game, records, expected=0, signatures=sign_heads(signer, records) if signer else ())
        return cls.load(profile, store, game, signer=signer)

    # -- what may be decided ------------------------------------------------------------------------------

    def legal(self) -> Legal:
        """Who must decide now, and what they may do."""
        if self.state.ended:
            return Legal(None)
        if self.request is not None:
            req = self.request
            # One option at a time is a legal answer only if one is enough (a request for two or more is
            # answered with a whole choice: ``request`` says how many of which).
            # A weighted request (DM-W-36: cards whose total cost is at most ``max_total``) never lists an option
            # that alone weighs more than the whole allowance.
            singles = (
                tuple(Decision(req.player, req.action, (o,)) for i, o in enumerate(req.options)
                      if req.max_total is None or not req.weights or req.weights[i] <= req.max_total)
                if req.minimum <= 1 <= req.maximum else ()
            )
            none = (Decision(req.player, req.action, ()),) if req.minimum == 0 else ()
            return Legal(req.player, none + singles, req)
        waiting = self.policy.legal(self)
        if waiting is not None:
            return waiting
        return self.profile.actions(self)

    def decide(self, decision: Decision, receipt: bytes | None = None) -> list[Record]:
        """Run one decision. Its events are appended in one transaction, or none at all (with ``receipt``, kept
        in that transaction: ``EventStore.append``). A refusal names the ids of the decision as its player knows
        them (``statemachine.naming``).

        Returns the records appended; none on a ``BranchLog`` (a search clone's log), which seals them when
        they are read."""
        try:
            return self._decide(decision, receipt)
        except IllegalDecision as refused:
            refused.name(self.names(decision.player).decision(decision))
            raise

    def names(self, viewer: int | None = None) -> Names:
        """Names for the ids of the state now, as ``viewer`` (None: everyone's cards) may know them."""
        return Names(self.state, viewer=viewer, game=self.profile, pool=self.profile.pool)

    def _decide(self, decision: Decision, receipt: bytes | None = None) -> list[Record]:
        if self.state.ended:
            raise IllegalDecision(decision, "KIFU-END", "the game is over")
        if not 0 <= decision.player < len(self.state.players):
            raise IllegalDecision(decision, "KIFU-PLAYER", f"there is no player {decision.player} in this game")
        if any(isinstance(a, int) and not _INT64_MIN <= a <= _INT64_MAX for a in decision.args):
            # A decision is recorded as it was given (ChoiceMade): an argument no log can hold is no decision.
            raise IllegalDecision(decision, "KIFU-ARGS", "an argument is out of the range a log can record")
        if self.request is not None:
            req = self.request
            if decision.player != req.player:
                rule, why = self.policy.misplaced(self, decision, req)
                raise IllegalDecision(decision, rule, why)
            if decision.action != req.action:
                rule, why = self.policy.misplaced(self, decision, req)
                raise IllegalDecision(decision, rule, why)
            refusal = req.accepts(decision.args, lambda options: "[" + ", ".join(
                self.names(decision.player).options(req.kind, options)) + "]")
            if refusal:
                rule, why = self.policy.refused(self, decision, req, refusal)
                raise IllegalDecision(decision, rule, why)
            proc: Procedure | None = None
        else:
            proc = self.policy.decide(self, decision)
            if proc is None:
                proc = self.profile.act(self, decision)
        start, cause_before = self.state.seq, self.cause
        try:
            self._append(ev.ChoiceMade(decision.player, decision.action, decision.args), decision_start=True)
            self.cause = self.state.seq
            if proc is None:
                self.request = None
                self._drive(decision.args)
            else:
                self.flight = proc
                self._drive(None)
            # The rules wait again: the board must be one the game can be in (projections.invariants). A rule
            # that made an impossible one raises ImpossibleBoard, and the decision appends nothing.
            enforce(self.state, self.checks)
            if self._expect is None:
                return self._commit(start, receipt)
            self.batch.clear()
            return []
        except BaseException:
            if self._expect is None:
                self._rollback()
                self.cause = cause_before  # the next decision's record is caused as if this one never was
            raise

    # -- emitting -----------------------------------------------------------------------------------------

    def emit(self, *events: ev.Event) -> None:
        """Append a group of simultaneous events, fold them, then see what they triggered."""
        if not events:
            return
        over = self.profile.ends_at_game_end
        if over and self.state.ended:
            raise GameOver  # KIFU-END: no rules event follows the end of the game
        before = before_listeners(self.index, events) if any(isinstance(e, ev.ZoneChanged) for e in events) else None
        folded: list[tuple[int, ev.Event]] = []
        for e in events:
            self._append(e)
            folded.append((self.state.seq, e))
        bound = self.profile.loop_bound
        if bound and self.state.seq - self.state.acted_at > bound:  # (counted from the last act: state.acted_at)
            raise EndlessLoop  # the game's loop rule (``Rules.loop_bound``): ``_drive`` ends the game drawn
        if over and self.state.ended:
            raise GameOver  # the game ended with these events: nothing they triggered happens
        if self.state.started:
            instances = match(self.state, self.index, folded, before,
                              ignoring_lifted=self.profile.ignoring_lifted_on_leave(self.state),
                              own_move_only=self.profile.look_back_own_move_only)
            if instances:
                self.policy.triggered(self, instances)

    def _append(self, event: ev.Event, *, decision_start: bool = False, cause: int | None = None) -> None:
        from projections.state import evolve  # local: the hot path reads it once per call

        decision = self.state.decision + 1 if decision_start else self.state.decision
        seq = self.state.seq + 1
        cause = self.cause if cause is None else cause
        if self._expect is not None:
            self._check(seq, event, decision, cause)
        evolve(self.state, seq, event, decision)
        self.batch.append(NewEvent(event, decision, cause))
        self.index.sync(self.state, event)

    def _check(self, seq: int, event: ev.Event, decision: int, cause: int) -> None:
        """Re-adjudication: the record the log has here is the one the rules give, envelope and all."""
        assert self._expect is not None
        expected = self._expect.popleft() if self._expect else None
        if expected is None or expected.event != event or expected.seq != seq:
            raise Divergence(seq, expected.event if expected else None, event, decision)
        for name, logged, derived in (("decision", expected.decision, decision), ("cause", expected.cause, cause)):
            if logged != derived:
                raise Divergence(seq, expected.event, event, decision, field=name, log_value=logged,
                                 rules_value=derived, kind=ENVELOPE)

    def recent_event(self, seq: int) -> ev.Event | None:
        """The event of sequence number ``seq`` if this decision appended it (what a trigger reads of the event
        that caused it, as it triggers), else None."""
        back = self.state.seq - seq
        return self.batch[-1 - back].event if 0 <= back < len(self.batch) else None

    def trigger(self, inst: Instance, *, holder: str, label: str, key: tuple[int, ...] = (),
                captured: tuple[str, ...] = ()) -> int:
        """Record a triggering and, if ``holder`` is given, put the effect where it waits."""
        eid = self.state.next_effect
        subject = inst.subject.obj if inst.subject is not None else None
        self._append(ev.Triggered(eid, inst.listener.ability.id, inst.holder.obj, inst.holder.card, inst.controller,
                                  inst.by, inst.checked, captured, subject), cause=inst.by)
        if holder:
            self._append(ev.EffectPending(eid, holder, inst.controller, label, key), cause=self.state.seq)
        return eid

    # -- randomness: every result drawn from the recorded seed and recorded as an event ---------------------

    def random_below(self, bound: int, purpose: str) -> int:
        """A number in ``range(bound)`` from the game's seed, recorded as ``RandomDrawn``."""
        value = randomness.below(self.state.seed, self.state.random_draws, bound)
        self.emit(ev.RandomDrawn(purpose, bound, value))
        return value

    def shuffle(self, zone: str) -> None:
        """Shuffle a zone from the game's seed; the new order is the recorded ``Shuffled`` event."""
        order = randomness.shuffled(self.state.seed, self.state.random_draws, list(self.state.zone(zone)))
        self.emit(ev.Shuffled(zone, order))

    def new_object_ids(self, n: int) -> list[int]:
        start = self.state.next_object
        return list(range(start, start + n))

    def take_extra_turn(self, counter: str) -> int | None:
        """A player with an extra turn waiting takes it now (turn player first); ``counter`` is the player
        counter in which the game keeps the extra turns waiting (``RulesProfile.extra_turn_counter``)."""
        players = self.state.players
        order = [self.state.active, *[p for p in range(len(players)) if p != self.state.active]]
        for p in order:
            n = self.state.stat(p, counter)
            if n > 0:
                self.emit(ev.PlayerStat(p, counter, n - 1))
                return p
        return None

    # -- the loop -------------------------------------------------------------------------------------------

    def _drive(self, answer: Answer | None) -> None:
        """Run procedures until one asks a player something or a player must act."""
        while not self.state.ended:
            try:
                if self.flight is None:
                    self.flight = self._next()
                    answer = None
                    if self.flight is None:
                        break
                try:
                    req = self.flight.send(answer)  # type: ignore[arg-type]
                except StopIteration:
                    self.flight = None
                    answer = None
                    continue
            except GameOver:  # KIFU-END: the game ended inside the procedure, which stops there
                self.flight = None
                break
            except EndlessLoop:
                self.flight = None
                self._append(ev.GameEnded(None, self._loop_reason()))
                break
            if self.state.ended and self.profile.ends_at_game_end:
                self.flight.close()  # KIFU-END: a game that has ended asks nobody anything
                self.flight = None
                break
            self.request = req
            self._append(ev.ChoiceRequested(req.player, req.kind, req.options, req.minimum, req.maximum,
                                            req.effect))
            return
        self.request = None

    def _loop_reason(self) -> str:
        """Why a game that looped ended drawn: the game's rule, and the bound its rules went past."""
        return (f"{self.profile.loop_rule}: a loop no player can stop (more than {self.profile.loop_bound} "
                "events since the last decision that was not a pass); the game is a draw")

    def _next(self) -> Procedure | None:
        self.profile.check_state(self)
        if self.state.ended:
            return None
        proc = self.policy.next(self)
        if proc is not None:
            return proc
        if self.policy.awaits_decision(self):
            return None
        return self.flow.next(self)

    def _commit(self, expected: int, receipt: bytes | None = None) -> list[Record]:
        if self.signer is None and isinstance(self.store, BranchLog):
            self.store.keep(self.game, self.batch, expected)
            self.batch = []
            return []
        raws = self.store.append(self.game, self.batch, expected=expected, signer=self.signer, end=self.state.ended,
                                 receipt=receipt)
        every = self.store.snapshot_every
        if raws and every and raws[-1].seq // every > expected // every:
            # A snapshot of the state just committed, keyed to its head, every ``every`` records or so: time
            # travel on a long store reads it and the records after it, never the whole log. It is a cache:
            # the decision is committed whether or not it can be kept (a crash, a full disk lose nothing).
            with contextlib.suppress(Exception):  # never fail a committed decision over a cache
                self.store.save_snapshot(self.game, raws[-1].seq, pack(self.state, raws[-1].hash))
        out = [Record(r.game, r.seq, r.decision, r.cause, b.event, r.hash, r.v) for r, b in zip(raws, self.batch,
                                                                                              strict=True)]
        self.batch.clear()
        return out

    def _rollback(self) -> None:
        """Forget everything since the decision began — the state, the batch and the procedure in flight — by
        restoring from the log, which holds nothing of it. Only a failing decision pays for this."""
        self.batch.clear()
        reloaded = Engine.load(self.profile, self.store, self.game)
        self.state, self.flight, self.request = reloaded.state, reloaded.flight, reloaded.request
        self.declarable = []
        self._sync()

    def _sync(self) -> None:
        self.index.rebuild(self.state)
        self.flow.restore(self.state.step)

    # -- reading ------------------------------------------------------------------------------------------

    def opponent(self, player: int) -> int:
        return (player + 1) % len(self.state.players)

    def describe(self) -> dict[str, Any]:
        legal = self.legal()
        return {"seq": self.state.seq, "player": legal.player, "request": legal.request,
                "decisions": [str(d) for d in legal.decisions]}

