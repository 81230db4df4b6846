"""One game's log read as a stream, for the tools that walk a whole log once (``kifu verify`` and the rules
checks of ``kifu audit``): memory does not grow with the log.

A :class:`StreamedLog` holds only what the verdicts name about the whole log (its ``GameStarted``, its last
record, whether it ends the game, the deck sizes), gathered as the walk reads it. What a finding needs to be
shown — a record's line as the trace prints it, the state just before a record, a record's position, the record
that began a decision — is looked up afterwards in one more pass (:meth:`StreamedLog.look_up`), and only when
there is a finding: a clean log is read once.

:class:`Window` keeps, as the walk reads, what ``Engine.load`` needs to take the game up at the point reached:
the log's own state just before the procedure in flight began (a snapshot) and the records since. A resumed
re-adjudication (after a finding) therefore never reads the log again from its start.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.memory import MemoryStore
from eventsource.records import RawRecord, Record, decode
from eventsource.store import EventStore, GameInfo
from projections.state import GameState, ProjectionError, copy, evolve
from projections.timeline import SNAPSHOT_EVERY, pack
from tools.errors import BadInput
from tools.logs.folding import Inconsistent, apply
from tools.logs.sources import LogSource
from tools.travel.trace import Memory, render


def decoded(location: str, raw: RawRecord) -> Record:
    """A record's event, or bad input naming the record (as ``tools.travel.loaded.load_log`` says it)."""
    try:
        return decode(raw)
    except KifuError as exc:
        raise BadInput(f"{location}: {exc}") from exc


def named_profile(location: str, started: ev.GameStarted | None, version: str | None = None) -> Any:
    """The rules profile a log names, at the rules version it names (or ``version``): a ``RulesProfile``,
    imported lazily. A version not installed is bad input naming the versions that are."""
    from statemachine.games import profile as make_profile
    from statemachine.releases import UnknownVersion

    if started is None:
        raise BadInput(f"{location}: the log does not begin with GameStarted, so it names no rules")
    wanted = version if version is not None else started.profile_version
    try:
        return make_profile(started.profile, wanted)
    except UnknownVersion as exc:
        raise BadInput(f"{location}: {exc}") from exc


class PointLog(ABC):
    """The one log reader of the time-travel commands: what they ask of a log, read at points from a store
    (:class:`tools.travel.points.StoreLog`) or held whole from a file (:class:`tools.travel.loaded.LoadedLog`), and the
    bookkeeping both share (a point or record asked for that the log lacks, the rules the log names)."""

    location: str
    format: str
    game: str

    @property
    @abstractmethod
    def last(self) -> int: ...
    @property
    @abstractmethod
    def started(self) -> ev.GameStarted | None: ...
    @property
    @abstractmethod
    def memory(self) -> Memory: ...
    @abstractmethod
    def get(self, seq: int) -> Record | None: ...
    @abstractmethod
    def state_at(self, n: int) -> GameState: ...
    @abstractmethod
    def line(self, seq: int) -> str: ...
    @abstractmethod
    def decision_record(self, decision: int, near: int | None = None) -> Record | None: ...
    @abstractmethod
    def effect_records(self, eid: int, n: int) -> Iterable[Record]: ...
    @abstractmethod
    def triggered_by(self, n: int) -> list[Record]: ...
    @abstractmethod
    def raws_from(self, start: int) -> Iterator[RawRecord]: ...

    def span(self, start: int, stop: int) -> list[Record]:
        """Records ``start..stop`` that the log has, in order (a store reads them in one query, not one each)."""
        found = (self.get(seq) for seq in range(max(1, start), min(self.last, stop) + 1))
        return [rec for rec in found if rec is not None]

    def forward(self, start: int, stop: int | None = None, first: int = SNAPSHOT_EVERY) -> Iterator[Record]:
        """Records from ``start`` (to ``stop``), read a span at a time: ``first`` records (a step, which stops
        within a few records, asks for few), then twice as many each time, up to ``SNAPSHOT_EVERY``."""
        end = self.last if stop is None else min(stop, self.last)
        seq, size = max(1, start), first
        while seq <= end:
            yield from self.span(seq, min(end, seq + size - 1))
            seq, size = seq + size, min(2 * size, SNAPSHOT_EVERY)

    def backward(self, start: int, first: int = SNAPSHOT_EVERY) -> Iterator[Record]:
        """Records from ``start`` down to the first, read a span at a time (as ``forward`` reads them)."""
        seq, size = min(start, self.last), first
        while seq >= 1:
            yield from reversed(self.span(max(1, seq - size + 1), seq))
            seq, size = seq - size, min(2 * size, SNAPSHOT_EVERY)

    def record(self, seq: int) -> Record:
        rec = self.get(seq)
        if rec is None:
            raise BadInput(f"no record {seq} in {self.location} (it has records 1 to {self.last})")
        return rec

    def check_point(self, n: int) -> int:
        if not 0 <= n <= self.last:
            raise BadInput(f"{self.location} has records 1 to {self.last}; there is no point {n}")
        return n

    def profile_name(self) -> str:
        started = self.started
        if started is None:
            raise BadInput(f"{self.location}: the log does not begin with GameStarted, so it names no rules")
        return started.profile

    def profile(self, version: str | None = None) -> Any:
        """The rules profile the log names, at the rules version it names (or ``version``): a ``RulesProfile``,
        imported lazily. A version not installed is bad input naming the versions that are."""
        return named_profile(self.location, self.started, version)


@dataclass
class StreamedLog:
    """What the verdicts say about a log read as a stream (``tools.audit.verdict`` reads a ``LoadedLog`` alike)."""

    source: LogSource
    first: Record
    contiguous: bool = True  # records numbered 1, 2, ... in order (the caller knows: an audit's chain held)
    # Gathered by the walk (``note``):
    count: int = 0
    last: int = 0
    ends_game: bool = False
    decks: dict[int, int] = field(default_factory=dict)  # cards per owner among the leading ObjectCreated
    _leading: bool = True
    # Looked up after the walk (``look_up``), only what a finding shows:
    lines: dict[int, str] = field(default_factory=dict)
    memory: Memory = field(default_factory=Memory)
    choices: dict[int, int] = field(default_factory=dict)  # decision -> the seq of its first ChoiceMade
    _states: dict[int, GameState] = field(default_factory=dict)
    _positions: dict[int, int] = field(default_factory=dict)

    @classmethod
    def open(cls, source: LogSource, *, contiguous: bool = True) -> StreamedLog:
        """The log of ``source``, its first record read (a log with none is bad input)."""
        first = next(iter(source.records()), None)
        if first is None:
            raise BadInput(f"{source.location}: game {source.game!r} has no records")
        return cls(source, decoded(source.location, first), contiguous)

    @property
    def location(self) -> str:
        return self.source.location

    @property
    def format(self) -> str:
        return self.source.format

    @property
    def game(self) -> str:
        return self.source.game

    @property
    def started(self) -> ev.GameStarted | None:
        return self.first.event if isinstance(self.first.event, ev.GameStarted) else None

    def profile(self, version: str | None = None) -> Any:
        return named_profile(self.location, self.started, version)

    def profile_name(self) -> str:
        started = self.started
        if started is None:
            raise BadInput(f"{self.location}: the log does not begin with GameStarted, so it names no rules")
        return started.profile

    def raws(self) -> Iterator[RawRecord]:
        return self.source.records()

    def note(self, rec: Record) -> None:
        """The walk read ``rec`` (the next record)."""
        self.count += 1
        self.last = rec.seq
        self.ends_game = isinstance(rec.event, ev.GameEnded)
        if self.count > 1 and self._leading:
            if isinstance(rec.event, ev.ObjectCreated):
                self.decks[rec.event.owner] = self.decks.get(rec.event.owner, 0) + 1
            else:
                self._leading = False

    def deck_sizes(self, seats: int) -> list[int]:
        return [self.decks.get(p, 0) for p in range(seats)]

    # -- what a finding shows, looked up in one more pass ------------------------------------------------

    def look_up(self, *, lines: Collection[int] = (), states: Collection[int] = (), positions: Collection[int] = (),
                decisions: Collection[int] = ()) -> None:
        """One pass over the log: the line of each record in ``lines`` (read against the state just before
        it), the state after each point in ``states``, the position of each seq in ``positions``, the first
        ChoiceMade of each decision in ``decisions`` (and its line), and the memory of the whole log."""
        state, mem = GameState(), Memory()
        folding = True
        wanted_states = {min(n, self.last) for n in states}
        if 0 in wanted_states:
            self._states[0] = GameState()
        for position, raw in enumerate(self.raws()):
            rec = decoded(self.location, raw)
            event = rec.event
            if raw.seq in positions:
                self._positions.setdefault(raw.seq, position)
            first_of = (isinstance(event, ev.ChoiceMade) and rec.decision in decisions
                        and rec.decision not in self.choices)
            if first_of:
                self.choices[rec.decision] = rec.seq
            if raw.seq in lines or first_of:
                self.lines[raw.seq] = render(state, event, mem)
            mem.note(rec.seq, event)
            if folding:
                try:
                    apply(state, rec.seq, event, rec.decision)
                except Inconsistent:
                    folding = False  # (the lines after it are read against the last state that holds)
            if position + 1 in wanted_states and folding:
                self._states[position + 1] = copy(state)
        self.memory = mem

    def state_at(self, n: int) -> GameState:
        """The state after the first ``n`` records (``look_up`` keeps those asked for; another costs a pass)."""
        n = max(0, min(n, self.last))
        if n not in self._states:
            state = GameState()
            for position, raw in enumerate(self.raws()):
                if position >= n:
                    break
                rec = decoded(self.location, raw)
                evolve(state, rec.seq, rec.event, rec.decision)
            self._states[n] = state
        return copy(self._states[n])

    def line(self, seq: int) -> str:
        return f"record {seq}: {self.lines.get(seq, '(no such record)')}"

    def position(self, seq: int) -> int:
        """The 0-based position of record ``seq`` as read (the number of records when it has none)."""
        if self.contiguous:
            return seq - 1 if 1 <= seq <= self.last else self.count
        if seq not in self._positions:
            self.look_up(positions=(seq,))
        return self._positions.get(seq, self.count)


# -- taking a game up at the point reached ----------------------------------------------------------------


class Window:
    """The log's own state as a walk reads it, and what ``Engine.load`` needs at the point reached.

    ``Engine.load`` folds to the point reached, then again to just before the procedure in flight began, and
    re-runs the records since. So the window holds a snapshot taken just before some decision that began a
    procedure (a ``ChoiceMade`` with no request open), never after the one in flight began, and every record
    since. A new snapshot replaces it before such a decision once ``EVERY`` records were kept (a snapshot of a
    large board costs milliseconds; a resume folds at most that many records more). Until a decision has begun
    a procedure (an opening that awaits choices) every record is kept: ``Engine.load`` derives that opening
    again.
    """

    EVERY = 256

    def __init__(self, game: str) -> None:
        self.game = game
        self.state = GameState()
        self.base: tuple[int, bytes] | None = None
        self.raws: list[RawRecord] = []
        self.broken = False  # a record did not fold: the game cannot be taken up after it

    def feed(self, raw: RawRecord, rec: Record) -> None:
        if self.broken:
            return
        if (len(self.raws) >= self.EVERY and isinstance(rec.event, ev.ChoiceMade) and self.state.request is None
                and self.state.seq):
            self.base, self.raws = (self.state.seq, pack(self.state)), []
        self.raws.append(raw)
        try:
            evolve(self.state, rec.seq, rec.event, rec.decision)
        except ProjectionError:  # (a record that does not fold; any other exception is a bug, and propagates)
            self.broken = True

    def store(self) -> EventStore | None:
        """A store holding the log up to the point reached, as ``Engine.load`` reads it (None: it does not fold)."""
        return None if self.broken else WindowStore(self.game, self.base, list(self.raws))


class WindowStore(MemoryStore):
    """A log up to some point, holding only a snapshot and the records after it (read-only)."""

    snapshots_trusted = True  # its one snapshot is the walk's own fold (it holds no record to key it to)

    def __init__(self, game: str, base: tuple[int, bytes] | None, raws: list[RawRecord]) -> None:
        super().__init__()
        self.game, self.base, self.kept = game, base, raws

    def _head(self, game: str) -> tuple[int, bytes]:
        if game == self.game and self.kept:
            return self.kept[-1].seq, self.kept[-1].hash
        if game == self.game and self.base is not None:
            return self.base[0], b""
        return super()._head(game)

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        if game != self.game:
            return
        for raw in self.kept:
            if raw.seq >= start and (stop is None or raw.seq <= stop):
                yield raw

    def games(self) -> list[GameInfo]:
        return [GameInfo(self.game, *self._head(self.game))]

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        pass  # (a window is thrown away after one use)

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        if game == self.game and self.base is not None and self.base[0] <= at_most:
            return self.base
        return None
