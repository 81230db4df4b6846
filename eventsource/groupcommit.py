"""Group commit for SQLite: appends from many games that are ready together share one transaction and one flush.

A server playing many games at once (a tournament, a simulator recording self-play, an archive) has one thread
per game, each appending a decision at a time. With :class:`~eventsource.sqlite.SQLiteStore` every append is
its own transaction, so every decision waits for its own flush of the log. Here each calling thread still
reads its game's head and seals its records itself (``EventStore.append``: numbering, encoding and hashing run
in the caller, in parallel with the disk), then hands them to one writer thread and waits. The writer takes
every append waiting at that moment, stores them in one ``BEGIN IMMEDIATE`` transaction (each in its own
savepoint, so one game's conflict or bad record refuses that append alone), commits — one flush with
``synchronous=FULL`` — and only then acknowledges each. Nothing waits on a timer: appends that arrive while a
flush is under way form the next group.

Durability is the same as one transaction per append: ``append`` returns only after the commit that covers
its records, and a commit holds each append whole or not at all. Optimistic concurrency is per game, as before:
the writer re-checks each append's expected head inside the transaction.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from eventsource.errors import ConcurrencyConflict, KifuError
from eventsource.records import NewEvent, RawRecord
from eventsource.signing import Signature, Signer
from eventsource.sqlite import RECEIPT, SQLiteStore

_INSERT = "INSERT INTO events(game, seq, decision, cause, v, body, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"
_SIGN = "INSERT INTO signatures(game, seq, head, key, ends, sig) VALUES (?, ?, ?, ?, ?, ?)"


class StoreClosed(KifuError):
    """An append was made to a group-commit store that is closed (or whose writer stopped)."""


@dataclass
class _Append:
    game: str
    expected: int
    records: Sequence[RawRecord]
    signatures: Sequence[Signature] = ()
    receipt: bytes | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None


class GroupCommitSQLiteStore(SQLiteStore):
    """A :class:`SQLiteStore` safe to share between threads, committing concurrent appends together.

    Each thread reads through its own connection; one writer thread owns the writes. ``max_group`` bounds how
    many appends one transaction takes (and so the latency of the last of them).
    """

    snapshot_every = 0  # a snapshot would be a write outside the writer thread (kifu snapshot keeps them later)

    def __init__(self, path: str | Path = "kifu.db", *, timeout: float = 30.0, max_group: int = 256) -> None:
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._timeout = timeout
        super().__init__(path, timeout=timeout)
        self.max_group = max_group
        self._queue: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._closed = False
        # Per game, the last record this store committed (the writer sets it after each commit): what the next
        # append of that game is sealed after, without a read of the file (``_head_for_append``).
        self._last: dict[str, tuple[int, bytes]] = {}
        self.groups = 0  # transactions committed, and appends they held: how well the batching works
        self.grouped = 0
        self._writer = threading.Thread(target=self._run, name=f"kifu-group-commit:{self.path}", daemon=True)
        self._writer.start()

    # -- one connection per thread ---------------------------------------------------------------------------

    @property
    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA synchronous=FULL")
            self._db = db
        return db

    @_db.setter
    def _db(self, db: sqlite3.Connection) -> None:
        self._local.db = db
        with self._lock:
            self._connections.append(db)

    # -- appending: the caller seals, the writer commits --------------------------------------------------------

    def append(
        self, game: str, batch: Sequence[NewEvent], expected: int | None = None, *,
        signer: Signer | None = None, end: bool = False, receipt: bytes | None = None,
    ) -> list[RawRecord]:
        if self._closed:
            raise StoreClosed(f"{self.path}: the store is closed")
        return super().append(game, batch, expected, signer=signer, end=end, receipt=receipt)

    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,
    ) -> None:
        if self._closed:
            raise StoreClosed(f"{self.path}: the store is closed")
        item = _Append(game, expected, records, signatures, receipt)
        self._queue.put(item)
        while not item.done.wait(1.0):
            if not self._writer.is_alive():
                raise StoreClosed(f"{self.path}: the writer stopped before this append was committed")
        if item.error is not None:
            raise item.error

    def _head_for_append(self, game: str, expected: int | None) -> tuple[int, bytes]:
        """The head a batch is sealed after: the one this store committed last to ``game``, when the caller
        expects it — a record's hash never changes (the log is append-only) and the writer checks, inside the
        group's transaction, that it is still the head — else read from the file."""
        last = self._last.get(game)
        if last is not None and expected == last[0]:
            return last
        return self._head(game)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                break
            group = [first]
            while len(group) < self.max_group:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                group.append(more)
            self._commit(group)

    def _commit(self, group: list[_Append]) -> None:
        # (the turn of this process's writers to the file: another writer here — a server's lobby — waits on the
        # lock for the group's commit, woken when it is done, not in SQLite's busy sleep)
        with self._writing:
            self._commit_locked(group)

    def _commit_locked(self, group: list[_Append]) -> None:
        db = self._db
        stored: list[_Append] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for n, item in enumerate(group):
                db.execute(f"SAVEPOINT a{n}")
                try:
                    self._store(item)
                except BaseException as exc:  # this append alone is refused
                    db.execute(f"ROLLBACK TO a{n}")
                    self._ids.pop(item.game, None)  # its game row may have gone with it
                    self._last.pop(item.game, None)  # (and its head may not be the one this store knew)
                    item.error = exc
                else:
                    stored.append(item)
                db.execute(f"RELEASE a{n}")
            db.execute("COMMIT")
            self.groups += 1
            self.grouped += len(stored)
            for item in stored:
                self._last[item.game] = (item.records[-1].seq, item.records[-1].hash)
        except BaseException as exc:  # the commit itself failed: nothing of the group is stored
            if db.in_transaction:
                db.execute("ROLLBACK")
            self._ids.clear()
            for item in stored:
                item.error = exc
                self._last.pop(item.game, None)
        finally:
            for item in group:
                item.done.set()

    def _store(self, item: _Append) -> None:
        gid = self._game_id(item.game, create=True)
        actual, _ = self._head_of(gid)
        if actual != item.expected:
            raise ConcurrencyConflict(item.game, item.expected, actual)
        self._db.executemany(_INSERT, [(gid, r.seq, r.decision, r.cause, r.v, r.body, r.hash) for r in item.records])
        if item.signatures:
            self._db.executemany(_SIGN, [(gid, x.seq, x.head, x.key, int(x.end), x.sig) for x in item.signatures])
        if item.receipt is not None:
            self._db.execute(RECEIPT, (gid, item.expected, item.receipt))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._writer.join()
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
