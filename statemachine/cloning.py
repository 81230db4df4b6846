"""Search clones: ``clone(engine)`` is an engine that goes on from exactly where ``engine`` is, apart from it.

Deciding on one changes nothing of the other (state, log, legal decisions, random draws), and both give the
same records for the same decisions. Search clones far more often than it reads a log, so a clone shares all
it can. What an engine holds, and how a clone gets it:

- the state: a fork (``projections.state.fork``) sharing every object until one of the two changes it;
- the trigger index: a copy of its tables (``TriggerIndex.copy``), sharing each object's listeners;
- the turn flow and the resolution policy: clones of their own (one turn machine serves every flow);
- the log: a ``BranchLog`` sharing the records so far, which seals what the clone appends only when read;
- the profile (rules, cards, vocabulary), the board invariants it checks and the typed options: shared, nothing
  changes them;
- the procedure in flight, when a choice is awaited: a Python generator cannot be copied, so the clone runs it
  again from where it began, with the decisions recorded since, as restoring from a log does
  (``Engine._load``). Where it began is the engine's ``anchor``: the engine as it was just before, made from the
  log the first time a clone needs it and shared by every clone taken on the same procedure after that.
"""

from __future__ import annotations

from collections import deque

from eventsource import events as ev
from eventsource.branching import BranchLog
from eventsource.records import Record
from eventsource.store import EventStore
from projections.state import fork
from projections.timeline import Timeline
from statemachine.engine import SETUP_OPTION, Engine


def clone(engine: Engine, store: EventStore | None = None) -> Engine:
    """An engine that goes on from where ``engine`` is, apart from it. Its log is ``store`` if given (which must
    hold exactly ``engine``'s records), else a ``BranchLog`` sharing them (its ``decide`` returns no records: they
    are sealed when read); it signs nothing. It is of ``engine``'s class; what a subclass adds to an engine is left
    at its class's defaults for the caller."""
    log = _branch(engine) if store is None else store
    if engine.flight is None:
        return _quiet(engine, log, engine.anchor)
    game, flight = engine.game, engine.state.flight
    if flight:
        anchor = _anchor(engine, flight - 1)
        out = _quiet(anchor, log, anchor)
        out.rerun(_tail(log, game, flight))
        return out
    # A choice in the opening: the opening runs again from the set-up, as re-adjudication runs it (Engine.replay).
    given = SETUP_OPTION in engine.state.options
    if engine.anchor is not None:  # (taken at the set-up: an engine in its opening has had no other anchor)
        setup = engine.anchor.state.seq
    else:
        setup = int(engine.state.options[SETUP_OPTION]) if given else _dealt(log, game)
    anchor = _anchor(engine, setup)
    out = _quiet(anchor, log, anchor)
    records = _tail(log, game, setup + 1)
    out._expect = deque(records)
    out.flight = None if given else out.profile.begin(out)
    out._drive(None)
    out.batch.clear()
    out.rerun(records, already_expected=True)
    return out


def _quiet(engine: Engine, log: EventStore, anchor: Engine | None) -> Engine:
    """A clone of an engine waiting for no procedure: between decisions, or an anchor."""
    kind = type(engine)
    out = kind.__new__(kind)  # an engine of the same class: a subclass's own attributes are its class defaults
    out.profile, out.signer, out.store, out.game = engine.profile, None, log, engine.game
    out.state = fork(engine.state)
    out.policy, out.flow, out.index = engine.policy.clone(), engine.flow.clone(), engine.index.copy()
    out.batch, out.flight, out.request = [], None, engine.request
    out.declarable, out.cause = list(engine.declarable), engine.cause
    out._expect, out.anchor, out.checks = None, anchor, engine.checks
    out._options = engine._options  # (the options never change after GameStarted; the fork shares them)
    return out


def _tail(log: EventStore, game: str, start: int) -> list[Record]:
    return log.tail(start) if isinstance(log, BranchLog) else list(log.read(game, start))


def _dealt(log: EventStore, game: str) -> int:
    """How many records a dealt set-up has: ``GameStarted`` and each card's ``ObjectCreated``."""
    n = 0
    for r in log.read(game):
        if n and not isinstance(r.event, ev.ObjectCreated):
            break
        n += 1
    return n


def _branch(engine: Engine) -> BranchLog:
    store = engine.store
    return store.branch() if isinstance(store, BranchLog) else BranchLog.of(store, engine.game)


def _anchor(engine: Engine, seq: int) -> Engine:
    """The engine after record ``seq``, where the procedure in flight began: just before the decision that began
    it (``state.flight``), or the set-up. Made from the log once, then shared by the clones taken on it."""
    anchor = engine.anchor
    if anchor is None or anchor.state.seq != seq:
        store = engine.store
        before = Timeline(store, engine.game).state_at(seq)
        anchor = type(engine)(engine.profile, BranchLog(engine.game), engine.game, before)
        if engine.state.flight:  # the decision's record is caused as the log says (as ``Engine._load`` takes it up)
            began = store.tail(seq + 1)[0] if isinstance(store, BranchLog) else next(store.read(engine.game, seq + 1))
            anchor.cause = began.cause
        engine.anchor = anchor
    return anchor
