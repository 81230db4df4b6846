"""Board invariants: what every board a game can be in satisfies, and the checker that refuses one that does not.

An event log can describe a board no game can reach — an object in two zones, a stack item for an effect that
never was, a negative life total, an evolution creature with nothing under it — and every event in it may
still apply to the state before it. The invariants say what a possible board is. The kernel's own hold in
every game (``KERNEL``); each game declares the rest as a :class:`Board` (``statemachine/games/<game>/
invariants.py``): its zones, where its effects wait, its steps, the ranges of its numbers, where each status
may be, and checks of its own, each citing the SPEC rule (or kifu's rule id) that makes the board possible.

They hold when the rules wait for a decision (a *settled* board): inside one decision a board passes through
states no rule lets anyone see (an evolution creature enters, then the card it evolves from goes under it).
A broken invariant is a :class:`Breach` naming the invariant, its rule and the objects involved; a fold that
checks raises :class:`ImpossibleBoard` (a ``ProjectionError``) naming the record too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from projections.state import EVERY_OBJECT, UNDER, GameState, ProjectionError

# One item per breach: (the objects involved, what is wrong), or a Breach when it names a rule of its own.
Found = Iterable["tuple[tuple[int, ...], str] | Breach"]


@dataclass(frozen=True, slots=True)
class Breach:
    """One invariant broken on one board."""

    invariant: str  # the invariant's name: one-zone, pending-live, stat-range, ...
    rule: str  # the rule that makes the board impossible: a SPEC id, or kifu's (KIFU-...) for the kernel's
    objects: tuple[int, ...]  # the objects involved (effect ids for a pending effect, players as -1 - p)
    message: str

    def __str__(self) -> str:
        return f"invariant {self.invariant} [{self.rule}]: {self.message}"

    @property
    def key(self) -> tuple[str, tuple[int, ...]]:
        return self.invariant, self.objects


@dataclass(frozen=True, slots=True)
class Invariant:
    name: str
    rule: str
    says: str  # what holds, in one sentence
    check: Callable[[GameState], Found]
    # The fold itself keeps it: every event that could break it is refused as it is folded (ProjectionError).
    # A fold's own bug could still break it, so audits and the property tests check it; the engine need not.
    fold_keeps: bool = False

    def breaches(self, state: GameState) -> Iterator[Breach]:
        for item in self.check(state):
            yield item if isinstance(item, Breach) else Breach(self.name, self.rule, *item)


@dataclass(frozen=True, slots=True)
class Range:
    """A player's number (``PlayerState.stats``) lies in ``low..high``; ``high`` may name another of the
    player's numbers (``pp`` up to ``max_pp``). None: no bound."""

    rule: str
    low: int | None = 0
    high: int | str | None = None


@dataclass(frozen=True, slots=True)
class Marked:
    """A status an object may carry only in the zone kinds ``zones``, with a value in ``low..high``."""

    rule: str
    zones: tuple[str, ...]
    low: int = 0
    high: int | None = None


@dataclass(frozen=True)
class Board:
    """One game's declaration of a possible board (read by :func:`invariants`)."""

    game: str
    zones: dict[str, str]  # every zone kind an object may lie in ("battle" for "0.battle", "stack") -> rule
    holders: dict[str, str]  # where a pending effect may wait ("" = triggered, not yet put anywhere) -> rule
    steps: dict[str, str]  # the steps of a turn ("" = between steps) -> rule; a profile adds its own steps
    limits: dict[str, tuple[int, str]] = field(default_factory=dict)  # zone kind -> (most objects, rule)
    stats: dict[str, Range] = field(default_factory=dict)  # a player's numbers not named here are not bounded
    statuses: dict[str, Marked] = field(default_factory=dict)  # statuses not named here may be anywhere
    extra: tuple[Invariant, ...] = ()  # the game's own checks


class ImpossibleBoard(ProjectionError):
    """The state after record ``seq`` is no board the game can be in."""

    def __init__(self, seq: int, breach: Breach) -> None:
        super().__init__(seq, f"the board after it is impossible: {breach}")
        self.breach = breach


@cache
def zone_kind(name: str) -> str:
    """``0.battle`` -> ``battle``; a shared zone (``stack``, ``chain``) is its own kind."""
    head, dot, rest = name.partition(".")
    return rest if dot and head.isdecimal() else name


def _player_ref(state: GameState, ref: int) -> bool:
    """A negative object id names a player (-1 - p), the kernel's convention for targets and leaders."""
    return ref < 0 and -1 - ref < len(state.players)


# -- the kernel's invariants: they hold in every game ----------------------------------------------------------


def _one_zone(state: GameState) -> Found:
    """Every object lies in exactly one zone: listed once, in the list of the zone it says it is in."""
    objects = state.objects
    listed: set[int] = set()
    count = 0
    sound = True
    for name, ids in state.zones.items():
        count += len(ids)
        listed.update(ids)
        for oid in ids:
            obj = objects.get(oid)
            if obj is None or obj.zone != name:
                sound = False
    placed = len(objects) - sum(len(o.under) for o in objects.values() if o.under)
    if sound and count == len(listed) == placed:
        return  # each listed object says it lies there, none is listed twice, and none is left out
    yield from _one_zone_breaches(state)


def _one_zone_breaches(state: GameState) -> Found:
    objects = state.objects
    for name, ids in state.zones.items():
        if len(set(ids)) != len(ids):
            twice = sorted({o for o in ids if ids.count(o) > 1})
            yield tuple(twice), f"{name} lists object(s) {', '.join(map(str, twice))} more than once"
        for oid in ids:
            obj = objects.get(oid)
            if obj is None:
                yield (oid,), f"{name} lists object {oid}, which is not in the game"
            elif obj.zone != name:
                yield (oid,), f"object {oid} is listed in {name} but lies in {obj.zone}: it is in two zones"
    for o in objects.values():
        if o.zone != UNDER and o.id not in state.zones.get(o.zone, ()):
            yield (o.id,), f"object {o.id} says it lies in {o.zone}, whose list does not hold it: it is in no zone"


def _under(state: GameState) -> Found:
    """A card under another lies under exactly one object in a zone, which lists it once; and every card an
    object lists as under it lies there and nowhere else."""
    objects = state.objects
    for obj in objects.values():
        if obj.under:
            if len(set(obj.under)) != len(obj.under):
                yield (obj.id,), f"object {obj.id} lists a card under it twice"
            for u in obj.under:
                below = objects.get(u)
                if below is None:
                    yield (obj.id, u), f"object {u}, listed under object {obj.id}, is not in the game"
                elif below.zone != UNDER or below.on != obj.id:
                    where = below.zone if below.zone != UNDER else f"under object {below.on}"
                    yield (obj.id, u), f"object {u} is listed under object {obj.id} but lies in {where}"
        if obj.zone == UNDER:
            top = objects.get(obj.on) if obj.on is not None else None
            if top is None:
                yield (obj.id,), f"object {obj.id} lies under object {obj.on}, which is not in the game"
            elif obj.id not in top.under:
                yield (obj.id, top.id), f"object {obj.id} says it lies under object {top.id}, which does not hold it"


def _pending_live(state: GameState) -> Found:
    """Every waiting effect is the effect it is filed as, numbered before the next, held by a player, and
    from a source that exists, existed this turn (its look-back) or is a player."""
    players = len(state.players)
    for eid, pend in state.pending.items():
        if pend.effect != eid or eid >= state.next_effect or eid < 1:
            yield (eid,), f"effect {eid} is filed as effect {pend.effect} (next effect number {state.next_effect})"
        if not 0 <= pend.controller < players:
            yield (eid,), f"effect {eid} is controlled by player {pend.controller}, who is not in this game"
        src = pend.source
        if src >= 0:
            if src not in state.objects and src not in state.last_known:
                yield (eid, src), (f"effect {eid} ({pend.label or pend.ability}) comes from object {src}, which is "
                                   "neither in the game nor a card that left it this turn")
            elif pend.source_card not in state.cards or (
                    src in state.objects and state.objects[src].card != pend.source_card):
                yield (eid, src), f"effect {eid} names card {pend.source_card} for object {src}, which is not it"
        elif src != -1 and not _player_ref(state, src):
            yield (eid,), f"effect {eid} comes from {src}, which is neither an object nor a player"
        if pend.subject is not None and pend.subject >= 0 and pend.subject >= state.next_object:
            yield (eid, pend.subject), f"effect {eid} is about object {pend.subject}, which never existed"


def _turn(state: GameState) -> Found:
    """Whose turn, who has priority, who passed, who is asked and who won are players of this game."""
    players = len(state.players)
    if not state.started:
        return
    if not 0 <= state.active < players:
        yield (), f"the turn player {state.active} is not in this game"
    if state.turn < 0:
        yield (), f"turn {state.turn} is before the first"
    if state.priority is not None and not 0 <= state.priority < players:
        yield (), f"priority is held by player {state.priority}, who is not in this game"
    if any(not 0 <= p < players for p in state.passes):
        yield (), f"the passes in succession {state.passes} are not all players of this game"
    if state.request is not None and not 0 <= state.request.player < players:
        yield (), f"player {state.request.player}, who is asked, is not in this game"
    if state.winner is not None and not 0 <= state.winner < players:
        yield (), f"the winner {state.winner} is not in this game"


GAME_OVER_RULE: Final = "KIFU-END"


def _game_over(state: GameState) -> Found:
    """Once the game has ended nothing follows: no rules event after its GameEnded, and no request open."""
    if not state.ended:
        return
    if state.ended_at and state.seq > state.ended_at:
        yield (), (f"record {state.ended_at + 1} follows the end of the game (GameEnded, record {state.ended_at}): "
                   "no event may follow it")
    if state.request is not None:
        yield (), f"player {state.request.player} is asked a choice ({state.request.kind}) in a game that has ended"


def _modifiers(state: GameState) -> Found:
    """A continuous effect in force applies to an object in the game, to a player or to every object."""
    for m in state.modifiers.values():
        if m.target not in state.objects and not _player_ref(state, m.target) and m.target != EVERY_OBJECT:
            yield (m.effect, m.target), f"continuous effect {m.effect} applies to object {m.target}, not in the game"


KERNEL: Final[tuple[Invariant, ...]] = (
    Invariant("one-zone", "KIFU-ZONE", "every object lies in exactly one zone (DESIGN: objects, zones and "
              "identity)", _one_zone, fold_keeps=True),  # (a move names its zone, a new object a new id)
    Invariant("under", "KIFU-UNDER", "a card under another lies under exactly one object, which holds it",
              _under),
    Invariant("pending-live", "KIFU-PENDING", "a waiting effect is a live effect from a source that exists "
              "or left this turn (look-back), or from a player", _pending_live),
    Invariant("turn", "KIFU-TURN", "the turn player, priority, passes, the player asked and the winner are "
              "players of the game", _turn),
    Invariant("modifier-target", "KIFU-MODIFIER", "a continuous effect applies to something in the game",
              _modifiers),
    Invariant("game-over", GAME_OVER_RULE, "once the game has ended no event follows and no request is open",
              _game_over),
)


def passes_in_succession(rule: str) -> Invariant:
    """For a game with priority: players pass in succession each at most once — once all have, the top item
    resolves or the step ends, and either starts the succession again."""

    def check(state: GameState) -> Found:
        if len(set(state.passes)) != len(state.passes):
            yield (), f"the passes in succession {state.passes} name a player twice"

    return Invariant("passes", rule, "no player passes twice in one succession of passes", check)


# -- what a game declares ------------------------------------------------------------------------------------


def _declared(board: Board) -> tuple[Invariant, ...]:
    """The checks of a game's :class:`Board`."""

    def known_zone(state: GameState) -> Found:
        for name in state.zones:
            kind = zone_kind(name)
            if kind not in board.zones:
                yield tuple(state.zones[name]), f"{name} is no zone of {board.game}"

    def zone_size(state: GameState) -> Found:
        for name, ids in state.zones.items():
            limit = board.limits.get(zone_kind(name))
            if limit is not None and len(ids) > limit[0]:
                yield Breach("zone-size", limit[1], tuple(ids),
                             f"{name} holds {len(ids)} objects, more than {limit[0]}")

    def holder(state: GameState) -> Found:
        for eid, pend in state.pending.items():
            if pend.holder not in board.holders:  # (the rule: where the game's effects wait)
                yield (eid,), f"effect {eid} waits in {pend.holder!r}, where no effect of {board.game} waits"

    def step(state: GameState) -> Found:
        if state.step not in board.steps:
            yield (), f"the step {state.step!r} is no step of {board.game}"

    def stat_range(state: GameState) -> Found:
        for p, player in enumerate(state.players):
            for key, value in player.stats.items():
                r = board.stats.get(key)
                if r is None:
                    continue
                high = player.stats.get(r.high) if isinstance(r.high, str) else r.high
                if (r.low is not None and value < r.low) or (high is not None and value > high):
                    bound = f"{r.low if r.low is not None else ''}..{high if high is not None else ''}"
                    yield Breach("stat-range", r.rule, (-1 - p,), f"{player.name}'s {key} is {value}, outside {bound}")

    def status_place(state: GameState) -> Found:
        marks = board.statuses
        for obj in state.objects.values():
            if not obj.status:
                continue
            for key, value in obj.status.items():
                m = marks.get(key)
                if m is None:
                    continue
                if zone_kind(obj.zone) not in m.zones:
                    yield Breach("status-place", m.rule, (obj.id,), f"object {obj.id} in {obj.zone} is marked {key} "
                                 f"(only objects in {', '.join(m.zones)} are)")
                elif value < m.low or (m.high is not None and value > m.high):
                    top = "" if m.high is None else m.high
                    yield Breach("status-place", m.rule, (obj.id,),
                                 f"object {obj.id} has {key} {value}, outside {m.low}..{top}")

    zone_rule = next(iter(board.zones.values()), "KIFU-ZONE")
    holder_rule = next((r for h, r in board.holders.items() if h), "KIFU-PENDING")
    out = [
        Invariant("known-zone", zone_rule, f"objects lie only in the zones of {board.game}", known_zone),
        Invariant("holder", holder_rule, f"effects wait only where effects of {board.game} wait", holder),
        Invariant("step", board.steps.get("", "KIFU-STEP"), f"the step is a step of {board.game}", step),
    ]
    # (each of these names its own rule in every breach; the invariant's rule is the first one declared)
    if board.limits:
        out.append(Invariant("zone-size", next(iter(board.limits.values()))[1],
                             "a zone holds no more objects than the game allows", zone_size))
    if board.stats:
        out.append(Invariant("stat-range", next(iter(board.stats.values())).rule,
                             "each player's numbers lie in their ranges", stat_range))
    if board.statuses:
        out.append(Invariant("status-place", next(iter(board.statuses.values())).rule,
                             "a status is only on objects where the game puts it, in its range", status_place))
    return (*out, *board.extra)


def invariants(board: Board | None) -> tuple[Invariant, ...]:
    """The kernel's invariants, then those ``board`` declares (None: a game kifu does not know)."""
    return KERNEL if board is None else (*KERNEL, *_declared(board))


def breaches(state: GameState, checks: Sequence[Invariant] = KERNEL) -> list[Breach]:
    """Every invariant ``state`` breaks (none for a possible board), in the order of ``checks``."""
    return [b for inv in checks for b in inv.breaches(state)]


def not_kept_by_fold(checks: Sequence[Invariant]) -> tuple[Invariant, ...]:
    """The invariants the fold does not keep by itself: what the engine checks each time the rules wait."""
    return tuple(i for i in checks if not i.fold_keeps)


def enforce(state: GameState, checks: Sequence[Invariant]) -> None:
    """Raise :class:`ImpossibleBoard` at ``state.seq`` for the first invariant ``state`` breaks."""
    for inv in checks:
        for b in inv.breaches(state):
            raise ImpossibleBoard(state.seq, b)


class Guard:
    """Checks a fold where the rules waited for a decision: before the first record of each decision (the
    board the decision was made on) and, through :meth:`finish`, at the end of the log.

    ``lookup`` gives a game's invariants by its profile name (``statemachine.games.invariants``), asked once
    the log has said which game it is.
    """

    def __init__(self, lookup: Callable[[str], Sequence[Invariant]]) -> None:
        self.lookup = lookup
        self.checks: Sequence[Invariant] | None = None

    def before(self, state: GameState, decision: int) -> None:
        """Call before folding a record of ``decision`` onto ``state``."""
        if decision != state.decision and state.started:
            self.finish(state)

    def finish(self, state: GameState) -> None:
        if not state.started:
            return
        if self.checks is None:
            self.checks = self.lookup(state.profile)
        enforce(state, self.checks)
