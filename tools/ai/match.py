"""One game for a game-playing program: an engine, the action numbering, and what each player has seen.

A ``Match`` is what an OpenSpiel state or a PettingZoo environment holds. Besides the engine it keeps, for each
player, a ``Sight``: a running digest of the log *as that player sees it* (each event through
``projections.views.redact_event``, with the identity of each card that comes into their sight, and the game's
seed left out: the seed decides every shuffle), the objects whose identity they know though they cannot see them
now (a card they saw go into a hand or a deck), and, for each hidden zone, which of its objects lie in an order
nobody has seen (those shuffled there). Information states are built from this and from ``player_view``, never
from the hidden state.

The engine's store is the match's log. A determinized match (``tools.ai.resample``) holds its re-drawn hidden
cards as a snapshot in that store at the point where it parts from the real game: every later state, a clone,
and a serialized match are the fold of the log from there, so they all see the same re-drawn world.
"""

from __future__ import annotations

import hashlib
import importlib
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgspec

from eventsource import events as ev
from eventsource.branching import BranchLog
from eventsource.errors import KifuError
from eventsource.exchange import parse_line, to_line
from eventsource.memory import MemoryStore
from eventsource.store import EventStore
from projections.state import GameState, copy
from projections.timeline import Timeline, pack
from projections.views import can_see, player_view, redact_event
from statemachine.cloning import clone
from statemachine.decisions import Decision, Legal
from statemachine.decks import refuse_illegal
from statemachine.engine import SETUP_OPTION, Engine, Rules
from statemachine.games import PROFILES, profile
from statemachine.profile import RulesProfile
from tools.ai.actions import Numbering, numbering

GAME = "g"  # the id of the one game a match's store holds
_encode = msgspec.msgpack.encode


class Sight:
    """What each player has seen of one game (see the module's docstring). Copied with the match it belongs to."""

    __slots__ = ("digests", "hidden", "known", "option_kinds", "unordered")

    def __init__(self, hidden: frozenset[str], option_kinds: Mapping[str, str] | None = None) -> None:
        self.hidden = hidden
        self.option_kinds = option_kinds or {}
        self.digests: list[bytes] = []
        self.known: list[set[int]] = []  # per player: objects they cannot see now whose identity they know
        self.unordered: dict[str, set[int]] = {}  # per zone: the objects shuffled there, in an order none saw

    def copy(self) -> Sight:
        out = Sight(self.hidden, self.option_kinds)
        out.digests = list(self.digests)
        out.known = [set(k) for k in self.known]
        out.unordered = {z: set(s) for z, s in self.unordered.items()}
        return out

    def before(self, state: GameState, event: ev.Event) -> list[ev.Event | None] | None:
        """The event as each player sees it, judged in the state before it (as ``kifu replay --player``); None
        when everyone sees it whole (only these kinds are ever redacted: ``projections.views.redact_event``)."""
        if type(event) not in _REDACTED:
            return None
        if isinstance(event, ev.Shuffled):
            self.unordered[event.zone] = set(state.zone(event.zone))
        return [redact_event(event, p, state, hidden=self.hidden, option_kinds=self.option_kinds)
                for p in range(len(self.digests))]

    def after(self, state: GameState, event: ev.Event, seen: list[ev.Event | None] | None) -> None:
        if seen is None:
            if isinstance(event, ev.GameStarted):
                n = len(event.players)
                self.digests, self.known = [b""] * n, [set() for _ in range(n)]
                event = msgspec.structs.replace(event, seed=0)  # the seed is every future shuffle: nobody's
            body = _encode(event)
            self.digests = [hashlib.blake2b(d + body, digest_size=16).digest() for d in self.digests]
            return
        for p, shown in enumerate(seen):
            if shown is None:
                continue
            body = _encode(shown)
            if isinstance(shown, ev.ZoneChanged) and shown.old != -1 and shown.new in state.objects:
                if can_see(state, p, shown.new, hidden=self.hidden):
                    body += state.facts(shown.new).definition.encode()
                else:
                    self.known[p].add(shown.new)  # followed into a hand or a deck: they know what it is
            self.digests[p] = hashlib.blake2b(self.digests[p] + body, digest_size=16).digest()


_REDACTED: Final = (ev.ObjectCreated, ev.Shuffled, ev.ZoneChanged, ev.Revealed, ev.ChoiceRequested)


class TrackedEngine(Engine):
    """An engine that shows every event it appends to a ``Sight`` (when it has one)."""

    sight: Sight | None = None

    def _append(self, event: ev.Event, *, decision_start: bool = False, cause: int | None = None) -> None:
        sight = self.sight
        if sight is None:
            super()._append(event, decision_start=decision_start, cause=cause)
            return
        seen = sight.before(self.state, event)
        super()._append(event, decision_start=decision_start, cause=cause)
        sight.after(self.state, event, seen)


class SearchStore(MemoryStore):
    """A memory store that copies in one step (a clone's log): records are immutable, lists are copied."""

    # A determinization's re-drawn world is a snapshot this process made on purpose where it parts from the log
    # (the log does not fold to it, so no record hash could key it); it is read back, unpickled ones included.
    snapshots_trusted = True

    def copy(self, upto: int | None = None) -> SearchStore:
        """A copy holding records ``1..upto`` (all when None) and the snapshots up to there."""
        out = SearchStore()
        log = self._logs.get(GAME, [])
        out._logs[GAME] = list(log if upto is None else log[:upto])
        out._snapshots[GAME] = [s for s in self._snapshots.get(GAME, []) if upto is None or s[0] <= upto]
        return out


def sample_setup(game: str, seed: int) -> tuple[RulesProfile, Sequence[str], Sequence[Sequence[str]]]:
    """The profile, players and decks of ``game``'s sample game (``demo.sample_game``)."""
    demo = importlib.import_module(PROFILES[game][0] + ".demo")
    setup: tuple[RulesProfile, Sequence[str], Sequence[Sequence[str]]] = demo.sample_game(seed)
    return setup


def episode_seed(seed: int, episode: int) -> int:
    """The seed of episode ``episode`` (0, 1, 2, ...) of a game loaded with ``seed``: the first is ``seed`` itself
    (a single game plays as it always did), each later one a digest of both, so every episode is another deal
    and another future, and the same ``seed`` gives the same sequence."""
    if episode == 0:
        return seed
    digest = hashlib.blake2b(f"{seed}/{episode}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits: any engine seed


def setup(game: str, seed: int, version: str | None = None, decks: Sequence[Sequence[str]] | None = None,
          ) -> tuple[RulesProfile, Sequence[str], Sequence[Sequence[str]]]:
    """The profile, players and decks of a match of ``game`` dealt from ``seed``: the sample game's, with
    ``decks`` (card ids, one list per seat) instead of the sample decks when given, checked first
    (``check_decks``)."""
    prof, players, sample = sample_setup(game, seed)
    if version is not None:
        prof = profile(game, version)
    if decks is None:
        return prof, players, sample
    chosen = [list(deck) for deck in decks]
    check_decks(prof, chosen)
    return prof, players, chosen


def check_decks(prof: RulesProfile, decks: Sequence[Sequence[str]]) -> None:
    """Refuse deck lists that are not one per seat, name cards not in the pool (``KifuError`` naming them), or
    break the game's deck-construction rule (``statemachine.decks.IllegalDeck`` naming the rule)."""
    seats = prof.players_per_game
    if len(decks) != seats:
        raise KifuError(f"{prof.title} is played by {seats} players: give {seats} deck lists, not {len(decks)}")
    for seat, deck in enumerate(decks):
        unknown = sorted({c for c in deck if c not in prof.pool})
        if unknown:
            names = ", ".join(map(repr, unknown))
            raise KifuError(f"deck {seat + 1}: no card {names} in the card pool {prof.pool.name} {prof.pool.version}")
    refuse_illegal(prof, decks)


class Match:
    """A game in progress, as game-playing programs drive it: integer actions, a request's picks, sight."""

    def __init__(self, engine: TrackedEngine, opening: int, picked: tuple[int, ...] = (), *,
                 drawn: bool = False) -> None:
        self.engine = engine
        self.drawn = drawn  # a determinization: its re-drawn world is a snapshot in its store
        self.opening = opening  # the last record of the set-up (the opening's procedure starts after it)
        self.picked = picked
        self.numbering: Numbering = numbering(engine.profile.name)
        self._legal: Legal | None = None
        self.reseed: int | None = None  # a determinization's seed, taken up when the procedure in flight ends
        self._views: dict[int, str] = {}
        self.memo: dict[object, object] = {}  # what readers derive from this position (reset by every action)

    # -- making and copying -------------------------------------------------------------------------------

    @classmethod
    def new(cls, game: str, seed: int, version: str | None = None,
            decks: Sequence[Sequence[str]] | None = None) -> Match:
        """The sample game of ``game`` (``statemachine.games``) dealt from ``seed``, with ``decks`` (card ids, one
        list per seat) when given (``setup``)."""
        prof, players, decks = setup(game, seed, version, decks)
        events = prof.setup_events(players, decks, seed, {})
        engine = TrackedEngine(prof, BranchLog(GAME), GAME)
        engine.sight = Sight(prof.hidden_zones, prof.option_kinds)
        for event in events:
            engine._append(event)
        begin_opening(engine)
        engine._commit(0)
        return cls(engine, len(events))

    @classmethod
    def from_setup(cls, prof: RulesProfile, events: Sequence[ev.Event]) -> Match:
        """A match from any recorded set-up (a scenario's board: ``statemachine.scenario.setup.Board``), as
        ``Engine.from_setup`` starts one."""
        engine = TrackedEngine(prof, BranchLog(GAME), GAME)
        engine.sight = Sight(prof.hidden_zones, prof.option_kinds)
        first = events[0]
        assert isinstance(first, ev.GameStarted), "a set-up begins with GameStarted"
        options = tuple(sorted({**dict(first.options), SETUP_OPTION: str(len(events))}.items()))
        for event in (msgspec.structs.replace(first, options=options), *events[1:]):
            engine._append(event)
        engine._sync()
        begin_opening(engine)
        engine._commit(0)
        return cls(engine, len(events))

    @property
    def store(self) -> EventStore:
        return self.engine.store

    @property
    def sight(self) -> Sight:
        assert self.engine.sight is not None
        return self.engine.sight

    def clone(self) -> Match:
        """An independent copy: the same state, the same procedure waiting, the same future. The real game is
        cloned by ``statemachine.cloning``; a determinized one from its own log, whose snapshot holds its world."""
        if self.drawn:
            assert isinstance(self.store, SearchStore)
            engine: TrackedEngine = restore(self.engine.profile, self.store.copy(), self.opening, self.engine)
        else:
            fast = clone(self.engine)
            assert isinstance(fast, TrackedEngine)
            engine = fast
        engine.sight = self.sight.copy()
        out = Match(engine, self.opening, self.picked, drawn=self.drawn)
        out.reseed = self.reseed
        return out

    # -- playing --------------------------------------------------------------------------------------------

    def legal(self) -> Legal:
        if self._legal is None:
            self._legal = self.engine.legal()
        return self._legal

    def current_player(self) -> int | None:
        return self.legal().player

    def legal_actions(self) -> list[int]:
        return self.numbering.legal_actions(self.engine, self.picked, self.legal())

    def apply(self, action: int) -> None:
        """Play ``action``: a pick is remembered; a whole decision goes to the engine."""
        out = self.numbering.apply(self.engine, self.picked, action, self.legal())
        self._views, self.memo = {}, {}
        if isinstance(out, tuple):
            self.picked = out
            return
        self.decide(out)

    def decide(self, decision: Decision) -> None:
        self.picked = ()
        self._legal = None
        self._views, self.memo = {}, {}
        self.engine.decide(decision)
        if self.reseed is not None and self.engine.request is None:
            state = self.engine.state
            state.seed, self.reseed = self.reseed, None
            self.engine.store.save_snapshot(GAME, state.seq, pack(state))  # every fold from here draws from it

    @property
    def ended(self) -> bool:
        return self.engine.state.ended

    def returns(self) -> list[float]:
        st = self.engine.state
        n = len(st.players)
        if not st.ended or st.winner is None:
            return [0.0] * n
        return [1.0 if p == st.winner else -1.0 for p in range(n)]

    # -- what a player knows ----------------------------------------------------------------------------------

    def view(self, player: int) -> str:
        """The board as ``player`` sees it now, the open request as they see it, and their picks so far."""
        known = self._views.get(player)
        if known is None:
            known = self._views[player] = self._view(player)
        return known

    def _view(self, player: int) -> str:
        st = self.engine.state
        hidden = self.engine.profile.hidden_zones
        parts: dict[str, Any] = {"view": player_view(st, player, hidden=hidden)}
        req = self.engine.request
        if req is not None:
            asked = ev.ChoiceRequested(req.player, req.kind, req.options, req.minimum, req.maximum, req.effect)
            parts["request"] = redact_event(asked, player, st, hidden=hidden,
                                             option_kinds=self.engine.profile.option_kinds)
            if req.player == player:
                parts["picked"] = self.picked
        return msgspec.json.encode(parts).decode()

    def information_state(self, player: int) -> str:
        """Everything ``player`` has seen, in order (a digest of the log as they saw it), which card each object
        they can see now is, and their picks so far of a request they are answering.

        The log as they saw it already says which card each visible object is; the cards are named again so that
        in a determinized world (``tools.ai.resample``) the *other* player's information state follows the cards
        dealt to them there, and a search tells those worlds apart where that player would."""
        key = ("information", player)
        known = self.memo.get(key)
        if isinstance(known, str):
            return known
        st, hidden = self.engine.state, self.engine.profile.hidden_zones
        cards = [(name, len(ids), [(o, st.facts(o).definition) for o in ids if can_see(st, player, o, name,
                                                                                      hidden=hidden)])
                 for name, ids in sorted(st.zones.items())]
        req = self.engine.request
        picks = list(self.picked) if req is not None and req.player == player else []
        seen = hashlib.blake2b(_encode(cards), digest_size=16).hexdigest()
        out = self.memo[key] = f"p{player} {self.sight.digests[player].hex()} {seen} picked {picks}"
        return out

    # -- through the log -------------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """The match as its log in kifu's exchange format (``kifu export``), the snapshots a determinization left
        in it, and the picks and sight that are not events."""
        lines = b"\n".join(to_line(r) for r in self.store.read_raw(GAME))
        sight = self.sight
        return {
            "game": self.engine.profile.name, "version": self.engine.profile.version, "log": lines,
            "snapshots": list(self.store._snapshots.get(GAME, [])) if isinstance(self.store, SearchStore) else [],
            "drawn": self.drawn, "opening": self.opening,
            "picked": self.picked, "reseed": self.reseed, "digests": sight.digests,
            "known": [sorted(k) for k in sight.known],
            "unordered": {z: sorted(s) for z, s in sight.unordered.items()},
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        prof = profile(data["game"], data["version"])
        store = SearchStore()
        records = [parse_line(line, i) for i, line in enumerate(data["log"].split(b"\n"), start=1)]
        store.append_raw(GAME, records, expected=0)
        for seq, blob in data["snapshots"]:
            store.save_snapshot(GAME, seq, blob)
        engine = restore(prof, store, data["opening"])
        sight = Sight(prof.hidden_zones, prof.option_kinds)
        sight.digests = list(data["digests"])
        sight.known = [set(k) for k in data["known"]]
        sight.unordered = {z: set(s) for z, s in data["unordered"].items()}
        engine.sight = sight
        self.__init__(engine, data["opening"], tuple(data["picked"]), drawn=data["drawn"])  # type: ignore[misc]
        self.reseed = data["reseed"]

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()


def restore(prof: Rules, store: SearchStore, opening: int, live: Engine | None = None) -> TrackedEngine:
    """The engine of the game in ``store``: its state, and the procedure that waits for a choice taken up again
    by re-running it from the state before it began (as ``Engine.load``), from the snapshots the store holds.
    ``live``: an engine of the same game with no procedure in flight, whose state is copied instead."""
    if live is not None and live.request is None:
        engine = TrackedEngine(prof, store, GAME, copy(live.state))
        engine.cause = live.cause
        return engine
    timeline = Timeline(store, GAME)
    state = timeline.state_at()
    if state.request is None:
        engine = TrackedEngine(prof, store, GAME, state)
        engine.cause = _last_cause(store)
        return engine
    start = opening if state.flight == 0 else state.flight - 1
    records = list(store.read(GAME, start + 1))
    engine = TrackedEngine(prof, store, GAME, timeline.state_at(start))
    engine._expect = deque(records)
    if state.flight == 0:  # the opening's own procedure (a mulligan) waits: it starts after the set-up
        begin_opening(engine)
        engine.batch.clear()
        engine.rerun(records, already_expected=True)
    else:
        engine.cause = records[0].cause
        engine.rerun(records, already_expected=True)
    return engine


def begin_opening(engine: Engine) -> None:
    """Run the rules from the end of the set-up up to the first request: the game's opening (``begin``), or,
    after a given board (a scenario's), the turn as the board left it (as ``Engine.from_setup``)."""
    if SETUP_OPTION not in engine.state.options:
        engine.flight = engine.profile.begin(engine)
    engine._drive(None)


def _last_cause(store: SearchStore) -> int:
    """The cause the next decision's record carries: the record that began the last decision (its
    ``ChoiceMade``), as ``Engine.decide`` leaves it; 0 before any."""
    log = list(store.read_raw(GAME))
    if not log or log[-1].decision == 0:
        return 0
    last = log[-1].decision
    i = len(log) - 1
    while i > 0 and log[i - 1].decision == last:
        i -= 1
    return log[i].seq


def determinized(store: EventStore, base: GameState) -> SearchStore:
    """``store`` up to ``base.seq`` with ``base`` (a re-drawn state there) as its snapshot: the log a
    determinization goes on from."""
    out = SearchStore()
    out._logs[GAME] = list(store.read_raw(GAME, 1, base.seq))
    earlier = store._snapshots.get(GAME, []) if isinstance(store, SearchStore) else []
    out._snapshots[GAME] = [s for s in earlier if s[0] < base.seq]
    out.save_snapshot(GAME, base.seq, pack(base))
    return out


__all__ = ["GAME", "Match", "SearchStore", "Sight", "TrackedEngine", "begin_opening", "check_decks", "determinized",
           "episode_seed", "restore", "sample_setup", "setup"]
