"""The embedded default store: one SQLite file in WAL mode, one transaction per append.

Games are interned to small integers and events live in a ``WITHOUT ROWID`` table keyed by (game, seq), so a
record costs its body, its 16-byte hash and a few bytes of envelope. ``BEGIN IMMEDIATE`` takes the write lock
before the head is re-read, so two writers can never both append after the same sequence number.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from eventsource.errors import ConcurrencyConflict, CorruptLog
from eventsource.records import GENESIS, RawRecord
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
"""

_COLUMNS = {
    "games": ["id", "name"],
    "events": ["game", "seq", "decision", "cause", "v", "body", "hash"],
    "snapshots": ["game", "seq", "state"],
}


class SQLiteStore(EventStore):
    def __init__(self, path: str | Path = "kifu.db", *, timeout: float = 30.0) -> None:
        self.path = str(path)
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
                if table == "snapshots":
                    continue  # a cache; created if missing
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

    def _head_of(self, gid: int | None) -> tuple[int, bytes]:
        if gid is None:
            return 0, GENESIS
        row = self._db.execute(
            "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", (gid,)
        ).fetchone()
        return (int(row[0]), bytes(row[1])) if row else (0, GENESIS)

    def _head(self, game: str) -> tuple[int, bytes]:
        return self._head_of(self._game_id(game))

    def _write(self, game: str, expected: int, records: Sequence[RawRecord]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            gid = self._game_id(game, create=True)
            actual, _ = self._head_of(gid)
            if actual != expected:
                raise ConcurrencyConflict(game, expected, actual)
            db.executemany(
                "INSERT INTO events(game, seq, decision, cause, v, body, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(gid, r.seq, r.decision, r.cause, r.v, r.body, r.hash) for r in records],
            )
        except BaseException:
            db.execute("ROLLBACK")
            self._ids.pop(game, None)  # the game row may have been rolled back with the rest
            raise
        db.execute("COMMIT")

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        gid = self._game_id(game)
        if gid is None:
            return
        cur = self._db.execute(
            "SELECT seq, decision, cause, v, body, hash FROM events WHERE game = ? AND seq >= ? AND seq <= ? "
            "ORDER BY seq",
            (gid, start, stop if stop is not None else 2**62),
        )
        for seq, decision, cause, v, body, h in cur:
            yield RawRecord(game, seq, decision, cause, v, body, h)

    def read_bodies(
        self, game: str, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[int, int, int, bytes]]:
        # The cursor itself: SQLite's row tuples go straight to the fold, with no record built per row.
        gid = self._game_id(game)
        if gid is None:
            return iter(())
        return self._db.execute(
            "SELECT seq, decision, v, body FROM events WHERE game = ? AND seq >= ? AND seq <= ? ORDER BY seq",
            (gid, start, stop if stop is not None else 2**62),
        )

    def games(self) -> list[GameInfo]:
        out = []
        for name, gid in self._db.execute("SELECT name, id FROM games ORDER BY name").fetchall():
            length, head = self._head_of(gid)
            out.append(GameInfo(name, length, head))
        return out

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        gid = self._game_id(game)
        if gid is None:
            return
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots(game, seq, state) VALUES (?, ?, ?)", (gid, seq, state)
        )

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        gid = self._game_id(game)
        if gid is None:
            return None
        row = self._db.execute(
            "SELECT seq, state FROM snapshots WHERE game = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (gid, at_most),
        ).fetchone()
        return (int(row[0]), bytes(row[1])) if row else None
