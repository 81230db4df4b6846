"""Opening a store from ``--db``: a SQLite path, or a ``postgresql://`` (``postgres://``) URL.

``open_store(location, write=False)`` is how every command that only reads a store opens it: the database must
already exist and is opened read-only, so listing, exporting, replaying or auditing a game never changes the
file a judge was given (opening it with ``SQLiteStore`` would switch it to WAL and create kifu's tables).
``write=True`` opens, or creates, a store to append to.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from eventsource.errors import UnknownGame, regular_file
from eventsource.records import RawRecord
from eventsource.signing import Signature
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore, GameInfo
from tools.errors import BadInput, note_damage

SQLITE_HEADER: Final = b"SQLite format 3\x00"
SQLITE_SUFFIXES: Final = frozenset({".db", ".sqlite", ".sqlite3"})
DEFAULT_DB: Final = "kifu.db"


def scheme_of(location: str) -> str:
    """``postgresql`` for ``postgresql://...``; ``sqlite`` for ``sqlite:PATH`` and for a plain path."""
    head, sep, _ = location.partition(":")
    if sep and head.isalpha() and len(head) > 1:  # a drive letter ("C:") is not a scheme
        return head.lower()
    return "sqlite"


def sqlite_path(location: str) -> Path:
    if scheme_of(location) == "sqlite" and location.lower().startswith("sqlite:"):
        location = location[len("sqlite:") :]
        if location.startswith("///"):
            location = location[2:]
    return Path(location)


def looks_like_sqlite(path: Path) -> bool:
    """SQLite by its header bytes, or by its name when the file is still empty (a pipe or a device is refused
    at once: reading it could wait forever)."""
    regular_file(path, "a log or a store")
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError:
        return False
    return header == SQLITE_HEADER or (not header and path.suffix.lower() in SQLITE_SUFFIXES)


def is_store_location(location: str) -> bool:
    """Whether ``location`` names a store (a URL, or a SQLite file by header or extension), not an export."""
    scheme = scheme_of(location)
    if scheme != "sqlite":
        return scheme in OPENERS
    if location.lower().startswith("sqlite:"):
        return True
    path = sqlite_path(location)
    return looks_like_sqlite(path) or path.suffix.lower() in SQLITE_SUFFIXES


class ReadOnlySQLiteStore(SQLiteStore):
    """A kifu SQLite store opened with ``mode=ro``: reads work as usual, writes are refused.

    It reuses ``SQLiteStore``'s queries and replaces only the connection (``SQLiteStore.__init__`` would set
    WAL mode and create the schema, both writes).
    """

    def __init__(self, path: str | Path, *, timeout: float = 30.0) -> None:
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        self.path = str(path)
        self._db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        self._ids: dict[str, int] = {}
        self._typed: set[int] = set()
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"games", "events"} <= tables:
            self._db.close()
            raise BadInput(f"{path} is a SQLite database but not a kifu store (no games and events tables)")

    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,
    ) -> None:
        raise BadInput(f"{self.path} is open read-only; nothing was appended")

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        pass  # snapshots are a cache; a read-only session simply does not keep them

    def save_snapshots(self, game: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        pass


def _open_sqlite(location: str, write: bool) -> EventStore:
    path = sqlite_path(location)
    if path.is_dir():
        raise BadInput(f"{path} is a directory, not a kifu database")
    regular_file(path, "a kifu database")  # (a pipe or a device: SQLite would wait on it forever)
    if write:
        return SQLiteStore(path)
    if not path.exists():
        raise BadInput(f"no database at {path} (kifu demo or kifu import create one)")
    if not looks_like_sqlite(path):
        raise BadInput(f"{path} is not a SQLite database")
    return ReadOnlySQLiteStore(path)


def _open_postgresql(location: str, write: bool) -> EventStore:
    """A PostgreSQL store: read-only sessions create nothing and refuse writes (as for SQLite)."""
    try:
        from eventsource.postgres import PostgresStore
    except ImportError as exc:  # psycopg is the optional extra ``kifu[postgres]``
        raise BadInput(f"PostgreSQL stores need psycopg: pip install 'kifu[postgres]' ({exc})") from exc
    return PostgresStore(location, read_only=not write)


# scheme -> opener
OPENERS: Final[dict[str, Callable[[str, bool], EventStore]]] = {
    "sqlite": _open_sqlite,
    "postgresql": _open_postgresql,
    "postgres": _open_postgresql,
}


def open_store(location: str, *, write: bool = False) -> EventStore:
    """The store at ``location``: read-only unless ``write`` (then it is created if missing)."""
    scheme = scheme_of(location)
    opener = OPENERS.get(scheme)
    if opener is None:
        raise BadInput(f"unknown store {location!r}: give a SQLite path or a postgresql:// URL")
    return opener(location, write)


def describe_games(games: Sequence[GameInfo], limit: int = 10) -> str:
    names = [g.game for g in games[:limit]]
    more = f", ... ({len(games) - limit} more)" if len(games) > limit else ""
    return ", ".join(names) + more


def pick_game(store: EventStore, game: str | None, where: str) -> GameInfo:
    """The game named ``game``, or the only game in the store; a clear error if there are none or several.
    Rows no game's log can hold are damage the command warns of (``tools.errors.note_damage``): it answers from
    the game's own records, then exits 1."""
    for problem in store.stray_rows():
        note_damage(f"{where} is damaged: {problem}")
    games = [g for g in store.games() if g.length > 0]
    if game is not None:
        for info in games:
            if info.game == game:
                return info
        raise UnknownGame(game)
    if not games:
        raise BadInput(f"no games in {where}")
    if len(games) > 1:
        raise BadInput(f"{where} holds {len(games)} games; name one: {describe_games(games)}")
    return games[0]
