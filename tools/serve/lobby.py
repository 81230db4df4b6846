"""Matches and seats: what the server keeps beside each game's log, in the same database (SQLite or PostgreSQL).

A match is created with its game, rules version, players and decks; its seed is not chosen by anyone. The server
draws a secret and publishes only its hash (the *commitment*) when the match is created; each seat, on joining,
contributes a nonce of its own; the seed is the first eight bytes of ``sha256(secret || nonce0 || nonce1)``. Nobody
can choose the deal: the server fixed its secret before it saw a nonce, and no seat sees the other's nonce or the
secret until the game ends, when all three are revealed so that anyone can recompute the seed the log's
``GameStarted`` names and check it against the commitment.

A seat's credential is random (``secrets``), handed to the seat once, and kept only as its SHA-256: the database
does not hold what would let a reader of it play a seat.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from eventsource.errors import StoreUnavailable
from eventsource.sqlite import writer_lock
from tools.errors import BadInput
from tools.logs.stores import scheme_of, sqlite_path

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS kifu_matches (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,          -- game, rules, players, decks, options, spectator delay (JSON)
    secret BLOB NOT NULL,        -- the server's share of the seed; revealed when the game ends
    commitment TEXT NOT NULL,    -- sha256(secret), published at creation
    nonce0 BLOB, nonce1 BLOB,    -- each seat's share, given when it joins
    cred0 TEXT, cred1 TEXT       -- sha256 of each seat's credential
);
"""
NONCE_BYTES: Final = 32


class MatchSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a match is created with (the body of ``POST /api/matches``)."""

    game: str
    players: list[str]
    decks: list[list[str]]
    rules: str = ""  # empty: the newest installed release
    options: dict[str, str] = {}
    spectator_delay: int = 0  # records a spectator's view lags behind (0: none; -1: no spectators)
    spectator_view: str = "public"  # "public": what neither seat holds; "judge": everything (delayed, see Service)


@dataclass(frozen=True)
class Match:
    id: str
    spec: MatchSpec
    commitment: str
    joined: tuple[bool, bool]


def digest(credential: str) -> str:
    return hashlib.sha256(credential.encode()).hexdigest()


def seed_of(secret: bytes, nonce0: bytes, nonce1: bytes) -> int:
    """The deal's seed from the three shares (``kifu audit`` users recompute it from the revealed values)."""
    return int.from_bytes(hashlib.sha256(secret + nonce0 + nonce1).digest()[:8], "big")


class Lobby:
    """The matches and submissions tables, in the store's own database: a SQLite file (one worker), or a
    PostgreSQL database every worker shares. Used from one thread at a time per worker."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.postgres = scheme_of(location) in ("postgresql", "postgres")
        self.lock = threading.Lock()  # (the connection is shared by the worker's threads)
        # On SQLite, a write also takes its turn with the store's writers in this process (eventsource.sqlite):
        # left to SQLite's busy sleep it would wait behind every match's commits, and a join with it.
        self.writing: Any = contextlib.nullcontext() if self.postgres else writer_lock(
            str(sqlite_path(location)))
        self.db: Any = None
        with self.lock:
            self._connect()

    def _connect(self) -> None:
        if self.postgres:
            import psycopg


            try:
                self.db = psycopg.connect(self.location, autocommit=True, connect_timeout=10)
                self.db.execute(SCHEMA.replace("BLOB", "BYTEA"))
            except psycopg.Error as exc:
                self.db = None
                raise StoreUnavailable(f"the lobby's PostgreSQL database cannot be reached: {exc}") from exc
        else:
            self.db = sqlite3.connect(str(sqlite_path(self.location)), isolation_level=None,
                                      check_same_thread=False, timeout=30)
            self.db.executescript(SCHEMA)

    def _execute(self, sql: str, params: tuple[Any, ...]) -> Any:
        """A cursor for ``sql`` (written with ``?``); a PostgreSQL connection lost (a restart) is opened again
        on the next call, and this one fails as the store's would (StoreUnavailable)."""
        if not self.postgres:
            return self.db.execute(sql, params)
        import psycopg


        if self.db is None or self.db.closed:
            self._connect()
        try:
            return self.db.execute(sql.replace("?", "%s"), params or None)
        except psycopg.OperationalError as exc:
            self.db.close()
            raise StoreUnavailable(f"the lobby's PostgreSQL database failed: {exc}") from exc

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def create(self, spec: MatchSpec) -> Match:
        match_id = "m-" + secrets.token_hex(8)
        secret = secrets.token_bytes(NONCE_BYTES)
        commitment = hashlib.sha256(secret).hexdigest()
        with self.writing, self.lock:
            self._execute("INSERT INTO kifu_matches (id, spec, secret, commitment) VALUES (?, ?, ?, ?)",
                          (match_id, msgspec.json.encode(spec).decode(), secret, commitment))
        return Match(match_id, spec, commitment, (False, False))

    def get(self, match_id: str) -> Match:
        row = self._row(match_id)
        return Match(match_id, msgspec.json.decode(row["spec"], type=MatchSpec), row["commitment"],
                     (row["cred0"] is not None, row["cred1"] is not None))

    def join(self, match_id: str, seat: int, nonce: bytes, again: bool = True) -> tuple[str, bytes | None]:
        """Seat ``seat`` joins with its share of the seed: its credential, and the seed's secret part once both
        seats are in (the caller starts the game then, unless it has started).

        With ``again``, a seat joined with this very nonce may join again: a client whose answer was lost (a
        connection reset, a worker killed after the commit) asks again and gets a new credential, which replaces
        the one it never received. The nonce is the seat's own secret until the game ends and it is revealed: the
        caller passes ``again=False`` then."""
        if seat not in (0, 1):
            raise BadInput(f"no seat {seat}: the seats are 0 and 1")
        if len(nonce) != NONCE_BYTES:
            raise BadInput(f"a seat's share of the seed is {NONCE_BYTES} random bytes (64 hex digits)")
        credential = secrets.token_urlsafe(32)
        same = f" OR nonce{seat} = ?" if again else ""
        with self.writing, self.lock:
            cur = self._execute(f"UPDATE kifu_matches SET cred{seat} = ?, nonce{seat} = ? "
                                f"WHERE id = ? AND (cred{seat} IS NULL{same})",
                                (digest(credential), nonce, match_id, *((nonce,) if again else ())))
            taken = cur.rowcount != 1
        if taken:
            self._row(match_id)  # (an unknown match is named as such)
            raise BadInput(f"seat {seat} of match {match_id} is taken")
        row = self._row(match_id)
        both = row["cred0"] is not None and row["cred1"] is not None
        return credential, (seed_of(row["secret"], row["nonce0"], row["nonce1"]).to_bytes(8, "big") if both
                            else None)

    def seat_of(self, match_id: str, credential: str) -> int | None:
        """The seat ``credential`` is for (None: it is no seat's), compared in constant time."""
        row = self._row(match_id)
        given = digest(credential)
        found = None
        for seat in (0, 1):
            kept = row[f"cred{seat}"]
            if kept is not None and secrets.compare_digest(kept, given):
                found = seat
        return found

    def reveal(self, match_id: str) -> dict[str, Any]:
        """The three shares of the seed (only once the game has ended: the caller checks)."""
        row = self._row(match_id)
        return {"commitment": row["commitment"], "secret": row["secret"].hex(),
                "nonces": [row["nonce0"].hex() if row["nonce0"] else None,
                           row["nonce1"].hex() if row["nonce1"] else None],
                "seed": seed_of(row["secret"], row["nonce0"], row["nonce1"]) if row["nonce1"] and row["nonce0"]
                else None}

    def _row(self, match_id: str) -> dict[str, Any]:
        with self.lock:
            cur = self._execute("SELECT * FROM kifu_matches WHERE id = ?", (match_id,))
            row = cur.fetchone()
            names = [d[0] for d in cur.description]
        if row is None:
            raise BadInput(f"no match {match_id!r}")
        return dict(zip(names, row, strict=True))
