"""The authoritative master: matches are created, seats join, decisions are judged by the rules and appended —
everything through the store, nothing held that a restart would lose.

An engine kept for a match is a cache: before every decision the store's head is compared with the engine's, and
a match another worker moved on is caught up by running the decisions appended since through the rules again
(loaded afresh from its snapshots and records only when that fails). A decision names the head it was
made against: against the head now, it is judged; against an older head whose next decision was this very
decision from this seat, it was already applied (a client retrying after a dropped connection) and is
acknowledged again, not applied twice; against any other head, it is stale and refused.
"""

from __future__ import annotations

import contextlib
import importlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from eventsource import signing
from eventsource.errors import ConcurrencyConflict, KifuError
from eventsource.records import Record
from eventsource.store import EventStore
from projections.state import GameState, evolve
from projections.timeline import Timeline
from statemachine.decisions import Decision, IllegalDecision, Legal, Request
from statemachine.engine import Engine
from statemachine.games import PROFILES
from statemachine.games import profile as load_profile
from statemachine.rederive import LOG_DISAGREES
from tools.errors import BadInput
from tools.serve.catchup import JUDGE, SPECTATOR, SPECTATORS, Catchup
from tools.serve.lobby import Lobby, Match, MatchSpec
from tools.travel.board import board_data
from tools.travel.trace import names

MAX_RECORDS: Final = 500  # records sent in one catch-up message at most (a client asks again from the last)
# Matches whose engine, folds and frames a service (one match thread) keeps, the most recently used: a server
# that runs for days has served more matches than it can hold, and a match dropped is loaded again from the
# store when it is next asked for.
MAX_CACHED_MATCHES: Final = 256
MAX_HEARD: Final = 16_384  # heads heard from the store's notifications kept at most (then checked again)
SPECTATOR_VIEWS: Final = ("public", "judge")  # what a match's spectators see: what neither seat holds, or every card


class Refused(BadInput):
    """A decision the rules refuse: names the rule; nothing was appended."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"{reason} [{rule}]")
        self.reason, self.rule = reason, rule


class Stale(BadInput):
    """A decision made against a head that is no longer the game's and was not this decision."""


@dataclass
class Outcome:
    head: int
    applied: bool  # False: the same decision was already applied at that head (a retry)


class Service:
    def __init__(self, open_store: Callable[[], EventStore], lobby: Lobby, signer: signing.Signer | None = None
                 ) -> None:
        """``open_store`` opens the store on first use: on the thread that then serves every call (a SQLite
        connection belongs to the thread that opened it)."""
        self._open, self.lobby, self.signer = open_store, lobby, signer
        self._store: EventStore | None = None
        self._engines: dict[str, Engine] = {}
        self._legal: dict[str, tuple[Engine, int, Legal]] = {}  # per match: its legal decisions at a head
        self._shown: dict[str, tuple[Engine, int, dict[int, dict[str, Any]]]] = {}  # per match: its objects at a head
        # While the store's notifications are heard (PostgreSQL), the newest head heard per match: a cached
        # engine at it needs no round trip to the store to know it is current.
        self._listening = False
        self._heard: dict[str, int] = {}
        # Bumped each time listening starts again (appends made meanwhile went unheard); per match, the epoch in
        # which its cached engine was last compared with the store's head. Only an engine checked in this epoch
        # is trusted without a round trip; an older one is checked once and, if behind, moved on — not reloaded.
        self._epoch = 0
        self._checked: dict[str, int] = {}
        # Per match, one fold for every viewer's catch-up (without it, one fold from the start per seat per
        # decision: quadratic in the game's length).
        self._catchups: dict[str, Catchup] = {}
        self._specs: dict[str, MatchSpec] = {}  # (a match's spec never changes: read from the lobby once)
        # Per match, the state a delayed spectator's board was last drawn at: the next, a few records on, is folded
        # on from it (from the first record each time, on a store that keeps no snapshots, it grew with the game).
        self._behind: dict[str, GameState] = {}
        self._recent: OrderedDict[str, None] = OrderedDict()  # the matches cached, the least recently used first
        # Per match, kind and audience, the last frame sent and what it was made of (``tools.serve.push``).
        self.frames: dict[tuple[Any, ...], tuple[tuple[Any, ...], str]] = {}

    @property
    def store(self) -> EventStore:
        if self._store is None:
            self._store = self._open()
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def lost(self) -> None:
        """The store's server went away (a PostgreSQL restart): open it again on the next call, and load every
        match again from it (what was cached may be behind what another worker appended meanwhile)."""
        store, self._store = self._store, None
        self._engines.clear()
        self._legal.clear()
        self._shown.clear()
        self._catchups.clear()
        self._behind.clear()
        self.frames.clear()
        if store is not None:
            with contextlib.suppress(Exception):  # (a broken connection may fail to close: it is dropped anyway)
                store.close()

    # -- matches ------------------------------------------------------------------------------------------

    def create(self, spec: MatchSpec) -> Match:
        if spec.game not in PROFILES:
            raise BadInput(f"no game {spec.game!r}: the games are {', '.join(sorted(PROFILES))}")
        profile = load_profile(spec.game, spec.rules or None)
        if len(spec.players) != profile.players_per_game or len(spec.decks) != len(spec.players):
            raise BadInput(f"{spec.game} is played by {profile.players_per_game} players, each with a deck")
        if len(set(spec.players)) != len(spec.players) or any(not p.strip() for p in spec.players):
            raise BadInput("each player needs a name of their own")
        if not -1 <= spec.spectator_delay <= 10_000:
            raise BadInput("spectator_delay is -1 (no spectators) or 0 to 10000 records")
        if spec.spectator_view not in SPECTATOR_VIEWS:
            raise BadInput("spectator_view is 'public' (what neither seat holds) or 'judge' (every card, "
                           "spectator_delay records behind)")
        if spec.spectator_view == "judge" and spec.spectator_delay < 1:
            raise BadInput("spectator_view 'judge' shows both seats' hands: it needs a spectator_delay of at least "
                           "1 record (a seat reading it live would see the other's hand)")
        _check_decks(profile, spec)
        profile.parse_options(sorted(spec.options.items()))  # (refused here, not when the second seat deals)
        return self.lobby.create(spec)

    def join(self, match_id: str, seat: int, nonce: bytes) -> str:
        """The seat's credential; the game started once both seats are in. A join sent again with the same nonce
        (its answer was lost) is answered with a new credential until the game ends, and starts the game if the
        first was cut off before it could."""
        epoch = self._epoch
        started = self.store.head(match_id) > 0
        again = not started or not self.engine(match_id).state.ended  # (an ended game's nonces are public)
        credential, seed = self.lobby.join(match_id, seat, nonce, again)
        if seed is not None and not started:
            spec = self.lobby.get(match_id).spec
            profile = load_profile(spec.game, spec.rules or None)
            engine = Engine.new(profile, spec.players, spec.decks, int.from_bytes(seed, "big"), store=self.store,
                                game=match_id, options=dict(spec.options), signer=self.signer)
            self._touch(match_id)
            self._engines[match_id] = engine
            self._checked[match_id] = epoch
        return credential

    def spec(self, match_id: str) -> MatchSpec:
        spec = self._specs.get(match_id)
        if spec is None:
            spec = self._specs[match_id] = self.lobby.get(match_id).spec
        return spec

    def started(self, match_id: str) -> bool:
        return self.store.head(match_id) > 0

    # -- play ---------------------------------------------------------------------------------------------

    def heard(self, match_id: str, head: int) -> None:
        """A worker appended to ``match_id`` up to ``head`` (told by the store's notifications). Every match any
        worker plays is heard of: past ``MAX_HEARD`` of them what was heard is forgotten, and every cached engine
        is checked against the store's head once more before it is trusted again (as when listening restarts)."""
        if head > self._heard.get(match_id, 0):
            if len(self._heard) >= MAX_HEARD:
                self._heard.clear()
                self._epoch += 1
            self._heard[match_id] = head

    def listening(self, on: bool) -> None:
        """Whether every append is heard (``heard``) now. When it starts again after a pause, what was missed
        meanwhile is unknown: every cached engine is checked against the store's head once more before it is
        trusted again, and moved on over what it missed (kept, not dropped: a reload from the snapshots of every
        match the worker serves, each time its listening connection comes back, is what this saves)."""
        if on:
            self._epoch += 1  # (the event loop's thread alone calls this; the match's thread reads it)
        self._listening = on

    def head(self, match_id: str, at_least: int = 0) -> int:
        """The match's head (0: not started yet)."""
        if self._fresh(match_id, at_least) is None and not self.store.head(match_id):
            return 0
        return self.engine(match_id, at_least).state.seq

    def _fresh(self, match_id: str, at_least: int) -> Engine | None:
        """The cached engine, when it is known to be at the head without asking the store: while every append is
        heard, one at or past the newest head heard and past ``at_least`` (a head the client says it has seen,
        which this worker may not have heard of yet)."""
        cached = self._engines.get(match_id)
        if (cached is not None and self._listening and self._checked.get(match_id) == self._epoch
                and cached.state.seq >= max(at_least, self._heard.get(match_id, 0))):
            return cached
        return None

    def engine(self, match_id: str, at_least: int = 0) -> Engine:
        """The match's engine at the store's head (loaded again when another worker appended)."""
        fresh = self._fresh(match_id, at_least)
        if fresh is not None:  # (a round trip to the store saved: several per decision)
            self._touch(match_id)
            return fresh
        epoch = self._epoch  # (read before the head: listening that starts again after it asks for a new check)
        head = self.store.head(match_id)
        if not head:
            raise BadInput(f"match {match_id} has not started: both seats must join")
        cached = self._engines.get(match_id)
        behind = cached is not None and cached.state.seq < head
        if cached is None or not (cached.state.seq == head or (behind and _caught_up(cached, head))):
            spec = self.spec(match_id)
            cached = Engine.load(load_profile(spec.game, spec.rules or None), self.store, match_id,
                                 signer=self.signer)
            self._engines[match_id] = cached
        self._checked[match_id] = epoch
        self._touch(match_id)  # (only a match that exists and has started is kept: an unknown id is no entry)
        return cached

    def _touch(self, match_id: str) -> None:
        """``match_id`` is in use: kept among the cached, the least recently used match dropped past the bound."""
        self._recent[match_id] = None
        self._recent.move_to_end(match_id)
        while len(self._recent) > MAX_CACHED_MATCHES:
            self._forget(self._recent.popitem(last=False)[0])

    def _forget(self, match_id: str) -> None:
        for kept in (self._engines, self._legal, self._shown, self._catchups, self._specs, self._checked,
                     self._behind):
            kept.pop(match_id, None)
        for key in [k for k in self.frames if k[0] == match_id]:
            del self.frames[key]

    def submitted(self, match_id: str, seat: int, head: int, body: str) -> Outcome | None:
        """A retry: the acknowledgement again if seat ``seat`` already had ``body`` applied at ``head``."""
        now = self.engine(match_id, head).state.seq
        if head < now and self.store.receipt(match_id, head) == _receipt(seat, body):
            return Outcome(now, False)
        return None

    def decide(self, match_id: str, seat: int, head: int, action: str, args: list[Any], body: str = "") -> Outcome:
        """Judge and append seat ``seat``'s decision, made against record ``head``; ``body`` (the submission as
        sent) is kept as the append's receipt, in its transaction, so that a retry of it is acknowledged and not
        applied twice — also after a crash: the decision and its receipt are stored together or not at all."""
        engine = self.engine(match_id, head)
        decision = Decision(seat, action, tuple(args))
        now = engine.state.seq
        if head != now:
            raise Stale(f"the decision was made against record {head}; the game is at record {now}")
        legal = self.legal(match_id)
        if legal.player != seat:
            who = "nobody" if legal.player is None else f"seat {legal.player}"
            raise Refused(f"it is not seat {seat}'s to decide now ({who} decides)", "KIFU-TURN")
        try:
            appended = engine.decide(decision, _receipt(seat, body))
        except IllegalDecision as refused:
            raise Refused(refused.reason, refused.rule) from None
        except ConcurrencyConflict:
            self._engines.pop(match_id, None)
            raise Stale("another worker appended to this match first; decide again at its new head") from None
        kept = self._catchups.get(match_id)
        if kept is not None:
            kept.extend(appended)
        return Outcome(engine.state.seq, True)

    # -- what a seat receives -----------------------------------------------------------------------------

    def records(self, match_id: str, viewer: int, since: int, until: int | None = None) -> list[dict[str, Any]]:
        """Records after ``since`` (up to ``until``), each as ``viewer`` may see it: a line in the game's words,
        or nothing for a record they did not see. The seed is never shown to a seat (``GameStarted`` is
        redacted)."""
        engine = self.engine(match_id)
        last = engine.state.seq if until is None else min(until, engine.state.seq)
        start = since + 1
        stop = min(last, since + MAX_RECORDS)
        if start > stop:
            return []
        kept = self._catchups.get(match_id)
        if kept is not None and kept.covers(start):
            fold = kept
        else:  # (a read from further back than the match's fold is folded on its own)
            fold = Catchup.at(self.store, match_id, start - 1)
            if kept is None or kept.seq < start - 1:
                self._catchups[match_id] = fold
        fold.fold(self.store, match_id, stop)
        return fold.seen(viewer, start, stop)

    def legal(self, match_id: str) -> Legal:
        """The match's legal decisions now, found once per head (judging a decision and showing both seats their
        boards would otherwise each find them again)."""
        engine = self.engine(match_id)
        kept = self._legal.get(match_id)
        if kept is not None and kept[0] is engine and kept[1] == engine.state.seq:
            return kept[2]
        legal = engine.legal()
        self._legal[match_id] = (engine, engine.state.seq, legal)
        return legal

    def _publics(self, match_id: str, engine: Engine) -> dict[int, dict[str, Any]]:
        """What each object of the match's board shows, made once per head for every viewer's board."""
        kept = self._shown.get(match_id)
        if kept is None or kept[0] is not engine or kept[1] != engine.state.seq:
            kept = self._shown[match_id] = (engine, engine.state.seq, {})
        return kept[2]

    def view(self, match_id: str, viewer: int | None, at: int | None = None) -> dict[str, Any]:
        """The board as ``viewer`` sees it now (or after record ``at``), who must act, and — when it is the
        viewer's to answer — the legal decisions."""
        engine = self.engine(match_id)
        if at is None or at >= engine.state.seq:
            state: GameState = engine.state
        else:
            state = self._state_at(match_id, max(0, at))
        seer = None if viewer == JUDGE else viewer  # (None: the judge, who may see every card)
        data = board_data(state, seer, publics=self._publics(match_id, engine) if state is engine.state else None)
        data["viewer"] = seer
        legal = self.legal(match_id) if state is engine.state else None
        data["to_act"] = None if legal is None else legal.player
        if legal is not None and viewer is not None and legal.player == viewer:
            nm = names(state, None, viewer)
            data["legal"] = [{"index": i, "action": d.action, "args": list(d.args),
                              "text": " ".join([d.action, *nm.named_args(d)])} for i, d in enumerate(legal.decisions)]
        else:
            data["legal"] = []
        data["pick"] = _pick(legal.request, names(state, None, viewer)) if (
            legal is not None and legal.request is not None and legal.player == viewer and viewer is not None
            and legal.request.maximum > 1) else None
        data["head"] = state.seq
        return data

    def _state_at(self, match_id: str, at: int) -> GameState:
        """The state after record ``at`` (below the head), moved on from the last one asked for of the match — every
        delayed spectator of a match is the same number of records behind, so each asks a few records past the
        last. The state is the service's: read it before the next call."""
        kept = self._behind.get(match_id)
        if kept is None or kept.seq > at:
            kept = self._behind[match_id] = Timeline(self.store, match_id).state_at(at)
        elif kept.seq < at:
            for rec in self.store.read(match_id, kept.seq + 1, at):
                evolve(kept, rec.seq, rec.event, rec.decision)
        return kept

    def chosen(self, match_id: str, seat: int, choice: Any) -> tuple[str, list[Any]]:
        """The decision ``{"choice": I}`` names: the I-th of the legal decisions ``view`` lists for ``seat``."""
        legal = self.legal(match_id)
        options = legal.decisions if legal.player == seat else ()
        if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(options):
            raise BadInput(f"choice: one of 0 to {len(options) - 1}" if options else "nothing to decide now")
        return options[choice].action, list(options[choice].args)

    def picked(self, match_id: str, seat: int, picked: Any) -> tuple[str, list[Any]]:
        """The decision ``{"pick": [...]}`` names: options of the request open for ``seat``."""
        legal = self.legal(match_id)
        if legal.request is None or legal.player != seat:
            raise BadInput("pick: no request is open for this seat (answer with choice, or action and args)")
        return pick_decision(legal.request, picked)

    def log_records(self, match_id: str) -> list[Record]:
        return list(self.store.read(match_id))


def _caught_up(engine: Engine, head: int) -> bool:
    """Move a cached engine on to ``head`` over the records another worker appended after it: their decisions
    are run again through the rules, each consequence checked against the log (``Engine.rerun``), as the
    engine that recorded them ran them — the cost of those decisions alone, not of a load from the match's
    snapshot and the records since. A log the rules do not give there leaves it to a load (False)."""
    records = list(engine.store.read(engine.game, engine.state.seq + 1, head))
    if not records or records[-1].seq != head:
        return False
    try:
        engine.rerun(records)
    except LOG_DISAGREES:
        return False
    return True


def _receipt(seat: int, body: str) -> bytes:
    """What a decision's append keeps of its submission: the seat and the submission as sent."""
    return f"{seat} {body}".encode()


def _pick(req: Request, nm: Any) -> dict[str, Any]:
    """A request answered with several options at once (break two shields, discard up to three): what ``legal``
    cannot list one by one. A seat answers ``{"pick": [i, ...]}`` with indices into ``options``; the rules check
    how many and, for a weighted request, their total (DM-W-36)."""
    return {"prompt": req.prompt, "rule": req.rule, "action": req.action, "minimum": req.minimum,
            "maximum": req.maximum, "max_total": req.max_total, "weights": list(req.weights) or None,
            "options": [{"index": i, "arg": o,
                         "text": " ".join(nm.named_args(Decision(req.player, req.action, (o,))))}
                        for i, o in enumerate(req.options)]}


def pick_decision(req: Request, picked: Any) -> tuple[str, list[Any]]:
    """The decision a ``pick`` message names: distinct indices into the open request's options."""
    if not isinstance(picked, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in picked):
        raise BadInput("pick: a list of option indices")
    if len(set(picked)) != len(picked) or not all(0 <= i < len(req.options) for i in picked):
        raise BadInput(f"pick: distinct indices from 0 to {len(req.options) - 1}")
    return req.action, [req.options[i] for i in picked]


def _check_decks(profile: Any, spec: MatchSpec) -> None:
    """Every card of every deck is in the pool; the game's own deck rules, where it declares them."""
    pool = profile.pool
    for seat, deck in enumerate(spec.decks):
        unknown = sorted({c for c in deck if c not in pool.cards})
        if unknown:
            raise BadInput(f"seat {seat}'s deck names cards not in {spec.game}'s pool: {', '.join(unknown[:10])}")
    check = getattr(importlib.import_module(type(profile).__module__), "check_deck", None) or getattr(
        profile, "check_deck", None)
    if check is not None:
        for seat, deck in enumerate(spec.decks):
            problems = check(deck)
            if problems:
                raise BadInput(f"seat {seat}'s deck breaks {spec.game}'s deck rules: {problems}")


__all__ = ["JUDGE", "SPECTATOR", "SPECTATORS", "KifuError", "Outcome", "Refused", "Service", "Stale"]
