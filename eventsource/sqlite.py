"""The embedded default store: one SQLite file in WAL mode, one transaction per append.

Games are interned to small integers and events live in a ``WITHOUT ROWID`` table keyed by (game, seq), so a
record costs its body, its 16-byte hash and a few bytes of envelope. ``BEGIN IMMEDIATE`` takes the write lock
before the head is re-read, so two writers can never both append after the same sequence number.

Signatures over heads (``eventsource.signing``) live in their own table, written in the append's transaction.
A store written before signatures existed has no such table; it is created when the store is next opened for
writing, and reads as "no signatures" until then.

A damaged file is reported, never answered with a wrong type or a traceback: a value of the wrong type in a
record's column (SQLite lets any column hold any type) raises :class:`CorruptLog` naming the record, and
:meth:`SQLiteStore.integrity_problems` runs SQLite's own ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from eventsource.errors import ConcurrencyConflict, CorruptLog, regular_file
from eventsource.records import GENESIS, RawRecord
from eventsource.signing import Signature
from eventsource.store import EventStore, GameInfo

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS events (
    game     INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    decision INTEGER NOT NULL,
    cause    INTEGER NOT NULL,
    v        INTEGER NOT NULL,
    body     BLOB NOT NULL,
    hash     BLOB NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    game  INTEGER NOT NULL,
    seq   INTEGER NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS receipts (
    game    INTEGER NOT NULL,
    after   INTEGER NOT NULL,
    receipt BLOB NOT NULL,
    PRIMARY KEY (game, after)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS signatures (
    game INTEGER NOT NULL,
    seq  INTEGER NOT NULL,
    head BLOB NOT NULL,
    key  BLOB NOT NULL,
    ends INTEGER NOT NULL,
    sig  BLOB NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

RECEIPT = "INSERT INTO receipts(game, after, receipt) VALUES (?, ?, ?)"

# A record whose columns do not all hold the type kifu writes (the first one found, for a game).
_MISTYPED = """
SELECT seq, typeof(seq), typeof(decision), typeof(cause), typeof(v), typeof(body), typeof(hash) FROM events
WHERE game = ? AND NOT (typeof(seq) = 'integer' AND typeof(decision) = 'integer' AND typeof(cause) = 'integer'
    AND typeof(v) = 'integer' AND typeof(body) = 'blob' AND typeof(hash) = 'blob') {where}
ORDER BY seq LIMIT 1
"""
_TYPES = ("integer", "integer", "integer", "integer", "blob", "blob")
_NAMES = ("seq", "decision", "cause", "v", "body", "hash")

_COLUMNS = {
    "games": ["id", "name"],
    "events": ["game", "seq", "decision", "cause", "v", "body", "hash"],
    "snapshots": ["game", "seq", "state"],
    "signatures": ["game", "seq", "head", "key", "ends", "sig"],
    "receipts": ["game", "after", "receipt"],
}
_OPTIONAL = frozenset({"snapshots", "signatures", "receipts"})  # created if missing (added after 1.0)

# One lock per database file for the writers of this process. SQLite lets one writer in at a time and has the
# others sleep and try again (1, 2, 5 … 100 ms: sqlite3_busy_timeout), so a thread waiting for another's commit
# of a few milliseconds slept for up to a hundred; on this lock it is woken as soon as that commit is done.
# Writers in other processes still wait through SQLite's own timeout.
_WRITERS: dict[str, threading.Lock] = {}
_WRITERS_GUARD = threading.Lock()


def writer_lock(path: str) -> threading.Lock:
    """The lock this process's writers to the database file ``path`` take turns on."""
    if path == ":memory:":  # (every connection to :memory: is a database of its own)
        return threading.Lock()
    key = os.path.realpath(path)
    with _WRITERS_GUARD:
        return _WRITERS.setdefault(key, threading.Lock())


class SQLiteStore(EventStore):
    snapshot_every = 256  # projections.timeline.SNAPSHOT_EVERY

    def __init__(self, path: str | Path = "kifu.db", *, timeout: float = 30.0) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            regular_file(self.path, "a kifu database")  # (a pipe or a device: SQLite would wait on it forever)
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise CorruptLog(f"cannot open {self.path} as a kifu SQLite store: {exc}") from exc
        try:
            self._prepare(timeout)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise CorruptLog(f"{self.path} is not a kifu SQLite store: {exc}") from exc
        except CorruptLog:
            self._db.close()
            raise
        self._ids: dict[str, int] = {}
        self._typed: set[int] = set()
        self._writing = writer_lock(self.path)

    def _prepare(self, timeout: float) -> None:
        """Check the schema and create the tables in one write transaction, so that processes opening a new
        file at once never see it half made; then switch to WAL. SQLite does not wait for the lock a journal-mode
        switch needs, so a busy switch is tried again until ``timeout``."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            self._check_schema()
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        deadline = time.monotonic() + timeout
        while True:
            try:
                db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        db.execute("PRAGMA synchronous=FULL")

    def _check_schema(self) -> None:
        """Refuse a database that some other program owns, before writing anything into it."""
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return  # a new, empty database: kifu's tables are created next
        for table, columns in _COLUMNS.items():
            if table not in tables:
                if table in _OPTIONAL:
                    continue
                raise CorruptLog(f"{self.path} is a SQLite database but not a kifu store (no {table} table)")
            found = [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise CorruptLog(
                    f"{self.path} is a SQLite database but not a kifu store: table {table} has columns "
                    f"{', '.join(found)}, not {', '.join(columns)}"
                )

    def close(self) -> None:
        self._db.close()

    def _game_id(self, game: str, *, create: bool = False) -> int | None:
        gid = self._ids.get(game)
        if gid is not None:
            return gid
        row = self._db.execute("SELECT id FROM games WHERE name = ?", (game,)).fetchone()
        if row is None:
            if not create:
                return None
            gid = self._db.execute("INSERT INTO games(name) VALUES (?)", (game,)).lastrowid
            assert gid is not None
        else:
            gid = int(row[0])
        self._ids[game] = gid
        return gid

    def _head_of(self, gid: int | None, game: str = "") -> tuple[int, bytes]:
        if gid is None:
            return 0, GENESIS
        row = self._db.execute(
            "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", (gid,)
        ).fetchone()
        if row is None:
            return 0, GENESIS
        seq, h = row
        if type(seq) is not int or type(h) is not bytes:
            self._check_types(gid, game)  # names the first mistyped record
            raise CorruptLog(f"game {game!r}: its last record is damaged (seq {seq!r})")
        return seq, h

    def _head(self, game: str) -> tuple[int, bytes]:
        return self._head_of(self._game_id(game), game)

    def _check_types(self, gid: int, game: str) -> None:
        """CorruptLog naming the first record of the game whose columns are not of the types kifu writes (once
        per game and connection: one pass in SQLite, none per row in Python)."""
        if gid in self._typed:
            return
        self._first_mistyped(gid, game)
        self._typed.add(gid)

    def _first_mistyped(self, gid: int, game: str, seq: int | None = None) -> None:
        """CorruptLog naming the first mistyped record of the game (or record ``seq``, if it is mistyped)."""
        if seq is None:
            row = self._db.execute(_MISTYPED.format(where=""), (gid,)).fetchone()
        else:
            row = self._db.execute(_MISTYPED.format(where="AND seq = ?"), (gid, seq)).fetchone()
        if row is not None:
            seq, *types = row
            wrong = [f"its {name} is {t}, not {want}"
                     for name, t, want in zip(_NAMES, types, _TYPES, strict=True) if t != want]
            if type(seq) is int:
                raise CorruptLog(f"game {game!r}: the store is damaged: {', '.join(wrong)}", seq=seq)
            raise CorruptLog(f"game {game!r}: the store is damaged: a record's seq is {seq!r}: {', '.join(wrong)}")

    def stray_rows(self) -> list[str]:
        out = [f"game {name!r}: {n} record(s) at sequence numbers {low} to {high}, below record 1: no log holds them"
               for name, n, low, high in self._db.execute(
                   "SELECT g.name, count(*), min(e.seq), max(e.seq) FROM events e JOIN games g ON g.id = e.game "
                   "WHERE e.seq <= 0 GROUP BY g.name ORDER BY g.name")]
        out += [f"{n} record(s) of game number {gid} (records {low} to {high}), which no games row names: "
                "no listed game holds them"
                for gid, n, low, high in self._db.execute(
                    "SELECT game, count(*), min(seq), max(seq) FROM events "
                    "WHERE game NOT IN (SELECT id FROM games) GROUP BY game ORDER BY game")]
        return out

    def integrity_problems(self, limit: int = 10, *, quick: bool = False) -> list[str]:
        """What SQLite's own ``PRAGMA integrity_check`` (``quick_check`` when ``quick``) finds wrong with the
        file, one line each (nothing: an empty list)."""
        pragma = "quick_check" if quick else "integrity_check"
        try:
            rows = [str(r[0]) for r in self._db.execute(f"PRAGMA {pragma}({int(limit)})")]
        except sqlite3.DatabaseError as exc:
            return [str(exc)]
        if rows == ["ok"]:
            return []
        lines = [" ".join(line.split()) for row in rows for line in row.splitlines()]
        return [line for line in lines if line and not line.startswith("*** in database")]

    def check_game(self, game: str) -> None:
        """CorruptLog naming the first record of ``game`` stored with a value of the wrong type."""
        gid = self._game_id(game)
        if gid is not None:
            self._check_types(gid, game)

    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,
    ) -> None:
        db = self._db
        with self._writing:
            self._write_locked(db, game, expected, records, signatures, receipt)

    def _write_locked(
        self, db: sqlite3.Connection, game: str, expected: int, records: Sequence[RawRecord],
        signatures: Sequence[Signature], receipt: bytes | None,
    ) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            gid = self._game_id(game, create=True)
            actual, _ = self._head_of(gid, game)
            if actual != expected:
                raise ConcurrencyConflict(game, expected, actual)
            db.executemany(
                "INSERT INTO events(game, seq, decision, cause, v, body, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(gid, r.seq, r.decision, r.cause, r.v, r.body, r.hash) for r in records],
            )
            if signatures:
                db.executemany(
                    "INSERT INTO signatures(game, seq, head, key, ends, sig) VALUES (?, ?, ?, ?, ?, ?)",
                    [(gid, x.seq, x.head, x.key, int(x.end), x.sig) for x in signatures],
                )
            if receipt is not None:
                db.execute(RECEIPT, (gid, expected, receipt))
        except BaseException:
            db.execute("ROLLBACK")
            self._ids.pop(game, None)  # the game row may have been rolled back with the rest
            raise
        db.execute("COMMIT")

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        gid = self._game_id(game)
        if gid is None:
            return
        self._check_types(gid, game)
        cur = self._db.execute(
            "SELECT seq, decision, cause, v, body, hash FROM events WHERE game = ? AND seq >= ? AND seq <= ? "
            "ORDER BY seq",
            (gid, start, stop if stop is not None else 2**62),
        )
        last = start - 1
        try:
            for seq, decision, cause, v, body, h in cur:
                yield RawRecord(game, seq, decision, cause, v, body, h)
                last = seq
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"game {game!r}: the store is damaged after record {last}: {exc}", seq=last + 1) from exc

    def read_span(self, game: str, start: int, stop: int) -> Iterator[RawRecord]:
        # Each row's types checked as it is read, not the whole game's in one pass (which costs a long log more
        # than the few records a time-travel question reads).
        gid = self._game_id(game)
        if gid is None:
            return
        rows = self._db.execute(
            "SELECT seq, decision, cause, v, body, hash FROM events WHERE game = ? AND seq >= ? AND seq <= ? "
            "ORDER BY seq", (gid, start, stop),
        )
        last = start - 1
        try:
            for seq, decision, cause, v, body, h in rows:
                if not (type(seq) is int and type(decision) is int and type(cause) is int and type(v) is int
                        and type(body) is bytes and type(h) is bytes):
                    self._check_types(gid, game)  # names the column(s)
                    raise CorruptLog(f"game {game!r}: the store is damaged after record {last}", seq=last + 1)
                yield RawRecord(game, seq, decision, cause, v, body, h)
                last = seq
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"game {game!r}: the store is damaged after record {last}: {exc}", seq=last + 1) from exc

    def read_bodies_starting(
        self, game: str, prefix: bytes, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[int, int, int, bytes]]:
        # The filter runs in SQLite: a long game's other rows are passed over without reaching Python. (The rows
        # read are not contiguous, so only their types are checked: a reader checks the records it then uses.)
        return self._bodies(game, start, stop, prefix)

    def read_bodies(
        self, game: str, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[int, int, int, bytes]]:
        # No record is built per row: the fold gets (seq, decision, v, body). Only the rows read are checked, in
        # the same query (SQLite says whether the columns not read hold their types) and by a type test per
        # value: a range read from a snapshot does not pay for a pass over the whole game.
        return self._bodies(game, start, stop, None)

    def _bodies(self, game: str, start: int, stop: int | None, prefix: bytes | None
                ) -> Iterator[tuple[int, int, int, bytes]]:
        gid = self._game_id(game)
        if gid is None:
            return
        only = "" if prefix is None else "AND substr(body, 1, ?) = ? "
        cur = self._db.execute(
            "SELECT seq, decision, v, body, typeof(cause) = 'integer' AND typeof(hash) = 'blob' FROM events "
            f"WHERE game = ? AND seq >= ? AND seq <= ? {only}ORDER BY seq",
            (gid, start, stop if stop is not None else 2**62, *(() if prefix is None else (len(prefix), prefix))),
        )
        last = max(start, 1) - 1
        try:
            for seq, decision, v, body, typed in cur:
                if not ((prefix is not None or seq == last + 1) and typed and type(body) is bytes
                        and type(seq) is int and type(decision) is int and type(v) is int):
                    self._bad_row(gid, game, last, seq)
                yield seq, decision, v, body
                last = seq
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"game {game!r}: the store is damaged after record {last}: {exc}", seq=last + 1) from exc

    def _bad_row(self, gid: int, game: str, last: int, seq: object) -> None:
        """CorruptLog naming what is wrong where ``read_bodies`` read ``seq`` after record ``last``: a value of
        the wrong type in that record, or the record after ``last`` missing (its seq itself mistyped, or gone)."""
        if type(seq) is int and seq == last + 1:
            self._first_mistyped(gid, game, seq)
        self._first_mistyped(gid, game)
        raise CorruptLog(f"game {game!r}: record {last + 1} cannot be read (the next one read is {seq!r}): the store "
                         "is damaged (kifu audit runs SQLite's integrity check)", seq=last + 1)

    def games(self) -> list[GameInfo]:
        out = []
        for name, gid in self._db.execute("SELECT name, id FROM games ORDER BY name").fetchall():
            length, head = self._head_of(gid, name)
            out.append(GameInfo(name, length, head))
        return out

    def signatures(self, game: str) -> list[Signature]:
        gid = self._game_id(game)
        if gid is None or not self._has_table("signatures"):
            return []
        out = []
        for seq, head, key, ends, sig in self._db.execute(
            "SELECT seq, head, key, ends, sig FROM signatures WHERE game = ? ORDER BY seq", (gid,)
        ):
            if not (type(seq) is int and type(ends) is int and all(type(b) is bytes for b in (head, key, sig))):
                raise CorruptLog(f"game {game!r}: the signature over record {seq!r} is damaged (a wrong type)")
            out.append(Signature(game, seq, head, key, bool(ends), sig))
        return out

    def receipt(self, game: str, after: int) -> bytes | None:
        gid = self._game_id(game)
        if gid is None or not self._has_table("receipts"):  # (a store older than receipts, opened read-only)
            return None
        row = self._db.execute("SELECT receipt FROM receipts WHERE game = ? AND after = ?", (gid, after)).fetchone()
        return None if row is None else bytes(row[0])

    def _has_table(self, table: str) -> bool:
        row = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        return row is not None

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        gid = self._game_id(game)
        if gid is None:
            return
        with self._writing:
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots(game, seq, state) VALUES (?, ?, ?)", (gid, seq, state)
            )

    def save_snapshots(self, game: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        gid = self._game_id(game)
        if gid is None or not snapshots:
            return
        db = self._db
        with self._writing:
            db.execute("BEGIN IMMEDIATE")  # one flush for them all
            try:
                db.executemany("INSERT OR REPLACE INTO snapshots(game, seq, state) VALUES (?, ?, ?)",
                               [(gid, seq, state) for seq, state in snapshots])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        gid = self._game_id(game)
        if gid is None or not self._has_table("snapshots"):  # (a cache: a store without one folds from record 1)
            return None
        row = self._db.execute(
            "SELECT seq, state FROM snapshots WHERE game = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (gid, at_most),
        ).fetchone()
        if row is None:
            return None
        # A state that is not a BLOB (a row edited to TEXT or a number) is no snapshot: an empty one, passed over.
        return int(row[0]), bytes(row[1]) if isinstance(row[1], (bytes, memoryview)) else b""
