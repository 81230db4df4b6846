"""The peer: the same game on the ``eventsourcing`` library, with its SQLite module and its snapshots.

The game is modelled the way eventsourcing documents it: an ``Aggregate`` whose state changes only in the
``apply`` of its own event classes; one event class per kifu event kind, with the same fields plus the
decision and cause that kifu keeps in its envelope; custom value types registered as ``Transcoding``s on
the application's JSON transcoder; ``Snapshot.take`` for snapshots. ``apply`` calls kifu's own ``evolve``
on a kifu ``GameState``, so both sides fold with the same code and the figures compare the storage and the
event machinery, not two different folds. The event classes are made from kifu's event Structs the way
eventsourcing's own ``_define_event_class`` makes event classes, rather than written out 26 times.

What each measure times, on both sides alike: appending a decision's events already built (the store call
only); the rebuild of the current state from the first event, with no snapshot; the state at a version with
snapshots already taken every ``SNAPSHOT_EVERY`` events.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from eventsourcing.application import Application, Repository
from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.persistence import JSONTranscoder, Transcoding

from bench.log import Log, Took, Travel, compact, query_times, table_bytes, timed
from eventsource import events as ev
from eventsource.records import NewEvent
from projections.state import GameState, evolve, snapshot
from projections.timeline import SNAPSHOT_EVERY


class Game(Aggregate):
    """A kifu game as an eventsourcing aggregate; version ``n + 1`` holds kifu's record ``n``."""

    def __init__(self) -> None:
        self.state = GameState()


def _event_class(kind: type[Any]) -> type[Aggregate.Event]:
    fields: tuple[str, ...] = kind.__struct_fields__

    def apply(self: Any, aggregate: Game) -> None:
        values = self.__dict__
        evolve(aggregate.state, self.originator_version - 1, kind(*[values[f] for f in fields]),
               values["record_decision"])

    namespace = {
        "__annotations__": {name: Any for name in (*fields, "record_decision", "record_cause")},
        "__module__": __name__,
        "__qualname__": f"Game.{kind.__name__}",
        "apply": apply,
    }
    return type(kind.__name__, (Game.Event,), namespace)


EVENT_CLASSES: dict[type[Any], type[Aggregate.Event]] = {}
for _kind in ev.EVENT_TYPES:
    EVENT_CLASSES[_kind] = _event_class(_kind)
    setattr(Game, _kind.__name__, EVENT_CLASSES[_kind])


class CharacteristicsAsDict(Transcoding):
    type = ev.Characteristics
    name = "kifu_characteristics"

    def encode(self, obj: Any) -> Any:
        return msgspec.to_builtins(obj)

    def decode(self, data: Any) -> Any:
        return msgspec.convert(data, ev.Characteristics)


class GameStateAsDict(Transcoding):
    type = GameState
    name = "kifu_game_state"

    def encode(self, obj: Any) -> Any:
        return msgspec.to_builtins(obj)

    def decode(self, data: Any) -> Any:
        return msgspec.convert(data, GameState, strict=False)  # JSON object keys come back as strings


class Games(Application):  # type: ignore[type-arg]
    is_snapshotting_enabled = True

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(CharacteristicsAsDict())
        transcoder.register(GameStateAsDict())


def open_app(path: str) -> Games:
    return Games(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})


def to_peer(game: uuid.UUID, seq: int, item: NewEvent) -> Aggregate.Event:
    event = item.event
    values = {name: getattr(event, name) for name in event.__struct_fields__}
    return EVENT_CLASSES[type(event)](  # type: ignore[call-arg]
        originator_id=game, originator_version=seq + 1, timestamp=Game.Event.create_timestamp(),
        record_decision=item.decision, record_cause=item.cause, **values,
    )


@dataclass
class Peer:
    events: int = 0  # how long a prefix of the log the peer ran on
    rebuild_seconds: float = 0.0  # CPU seconds, best of the repeats
    rebuild_wall: float = 0.0
    warm_seconds: float = 0.0
    synchronous: int = -1  # PRAGMA synchronous on the library's connection (2 = FULL)
    journal_mode: str = ""
    bytes_events: int = 0
    bytes_events_table: int = 0
    bytes_with_snapshots: int = 0
    travel: dict[int, Travel] = field(default_factory=dict)

    @property
    def rebuild_events_per_s(self) -> float:
        return self.events / self.rebuild_seconds

    def median(self, length: int) -> float:
        return self.travel[length].median

    def p95(self, length: int) -> float:
        return self.travel[length].p95


def append(path: str, log: Log, n: int) -> uuid.UUID:
    """Store the first ``n`` events, untimed, in large transactions (a shorter log for time travel)."""
    app = open_app(path)
    try:
        game = Game()
        app.save(game)
        seq = 0
        for batch in log.chunks(n):
            built = []
            for item in batch:
                seq += 1
                built.append(to_peer(game.id, seq, item))
            app.save(*built)
        return game.id
    finally:
        app.close()


def pragmas(path: str) -> tuple[int, str]:
    """``synchronous`` and ``journal_mode`` as the library's own connection has them."""
    app = open_app(path)
    try:
        with app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute("PRAGMA synchronous")
            synchronous = int(cursor.fetchone()[0])
            cursor.execute("PRAGMA journal_mode")
            return synchronous, str(cursor.fetchone()[0])
    finally:
        app.close()


def rebuild(path: str, game: uuid.UUID) -> tuple[Took, GameState]:
    app = open_app(path)
    try:
        repository: Repository[uuid.UUID] = Repository(app.events)  # no snapshot store: from the first event
        with timed() as took:
            aggregate: Game = repository.get(game)
        return took, aggregate.state
    finally:
        app.close()


def warm(path: str, game: uuid.UUID) -> float:
    """Snapshots every ``SNAPSHOT_EVERY`` records, taken with ``Snapshot.take`` in one pass over the log."""
    app = open_app(path)
    assert app.snapshots is not None
    try:
        start = time.perf_counter()
        aggregate: Any = None
        for event in app.events.get(game):
            aggregate = event.mutate(aggregate)  # type: ignore[attr-defined]
            if (aggregate.version - 1) % SNAPSHOT_EVERY == 0 and aggregate.version > 1:
                app.snapshots.put([Snapshot.take(aggregate)])
        return time.perf_counter() - start
    finally:
        app.close()


def travel(path: str, game: uuid.UUID, length: int, queries: list[int]) -> Travel:
    """The state just before record ``n`` is the aggregate at version ``n`` (record ``n - 1``, plus one)."""
    app = open_app(path)
    try:
        return query_times(length, lambda n: app.repository.get(game, version=n), queries)
    finally:
        app.close()


def measure(log: Log, tmp: str, path: str, game: uuid.UUID, events: int, lengths: list[int],
            queries: dict[int, list[int]], repeat: int, report: Callable[[str], None],
            expected: GameState | None = None) -> Peer:
    """The peer's figures but append, on ``path`` that holds the first ``events`` events of the log; time
    travel at each of ``lengths`` (shorter logs are appended to their own databases first, untimed)."""
    out = Peer(events=events)
    out.synchronous, out.journal_mode = pragmas(path)
    out.bytes_events = compact(path)
    out.bytes_events_table = table_bytes(path, "stored_events")
    report("eventsourcing: the rebuild")
    times = []
    for _ in range(min(repeat, 2)):
        took, state = rebuild(path, game)
        times.append(took)
        if took.wall > 60:
            break  # one slow rebuild is figure enough
    out.rebuild_seconds, out.rebuild_wall = min(t.cpu for t in times), min(t.wall for t in times)
    if expected is not None and snapshot(state) != snapshot(expected):
        raise AssertionError("eventsourcing's rebuild differs from kifu's")
    report("eventsourcing: taking snapshots")
    out.warm_seconds = warm(path, game)
    out.bytes_with_snapshots = compact(path)
    for n in lengths:
        if n == events:
            where, g = path, game
        else:
            where = os.path.join(tmp, f"eventsourcing-{n}.db")
            g = append(where, log, n)
            warm(where, g)
        report(f"eventsourcing: time travel in a log of {n:,} events")
        out.travel[n] = travel(where, g, n, queries[n])
    return out


def sqlite_version() -> str:
    return sqlite3.sqlite_version
