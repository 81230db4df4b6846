"""The store interface every backend implements, and the shared append logic.

A store keeps, per game, an append-only run of records numbered 1, 2, ... with a hash chain. ``append`` takes
the sequence number the caller believes is last (optimistic concurrency): if another writer got there first it
raises :class:`ConcurrencyConflict` and stores nothing. One call is one transaction, so a decision's events
are stored whole or not at all.

A store also keeps the signatures over heads (``eventsource.signing``): ``append(..., signer=...)`` signs the
head the batch ends in and stores the signature in the same transaction as the records, so a committed head
is never left unsigned by a crash; ``append_raw`` (an import) keeps the signatures the file carried.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Self

import msgspec
from msgspec import Struct

from eventsource.errors import ConcurrencyConflict, CorruptLog
from eventsource.records import NewEvent, RawRecord, Record, decode, record_hash, seal
from eventsource.signing import Signature, Signer
from eventsource.upcast import UnknownEventKind, decode_body


class GameInfo(Struct, frozen=True):
    game: str
    length: int
    head: bytes


class EventStore(ABC):
    """An append-only log of many games."""

    # How often a writer that holds the state (``Engine``) leaves a snapshot of it in the store, in records
    # (``projections.timeline``); 0: never (a store in memory gains nothing from them).
    snapshot_every: int = 0
    # Whether this store's snapshots were made by this very process from the records it holds (a walk's window
    # in memory), so that they need no key: a stored snapshot is used only if keyed to its record's hash.
    snapshots_trusted: bool = False

    # -- what a backend provides ----------------------------------------------------------------------

    @abstractmethod
    def _head(self, game: str) -> tuple[int, bytes]:
        """(last sequence number, its hash), or (0, GENESIS) for a game with no records."""

    @abstractmethod
    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,
    ) -> None:
        """Store ``records`` and ``signatures`` (over heads among them), and ``receipt`` (see ``append``),
        atomically if the game still ends at ``expected``, else raise a conflict."""

    def receipt(self, game: str, after: int) -> bytes | None:
        """The receipt appended with the batch that followed record ``after`` (None: none was given, or this
        store keeps none)."""
        return None

    @abstractmethod
    def signatures(self, game: str) -> list[Signature]:
        """The signatures over the game's heads, ordered by sequence number."""

    @abstractmethod
    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        """Records with ``start <= seq <= stop`` in order, exactly as stored."""

    @abstractmethod
    def games(self) -> list[GameInfo]:
        """Every game in the store, ordered by id."""

    @abstractmethod
    def save_snapshot(self, game: str, seq: int, state: bytes) -> None: ...

    @abstractmethod
    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        """The newest snapshot taken at a sequence number ``<= at_most``."""

    def save_snapshots(self, game: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        """Several ``(seq, state)`` snapshots at once (a backend may store them in one transaction)."""
        for seq, state in snapshots:
            self.save_snapshot(game, seq, state)

    def stray_rows(self) -> list[str]:
        """Rows no game's log can hold (a sequence number below 1, a game that is not listed): each says which.
        None in a store that cannot hold them."""
        return []

    def close(self) -> None:  # noqa: B027 - optional for backends without resources
        pass

    # -- shared behaviour -----------------------------------------------------------------------------

    def head(self, game: str) -> int:
        return self._head(game)[0]

    def append(
        self, game: str, batch: Sequence[NewEvent], expected: int | None = None, *,
        signer: Signer | None = None, end: bool = False, receipt: bytes | None = None,
    ) -> list[RawRecord]:
        """Append ``batch`` after sequence ``expected`` (the current end when None) in one transaction.

        With ``signer``, the head the batch ends in is signed (as the game's end when ``end``) in the same
        transaction. With ``receipt``, the appender's own note of what it appended (a server's copy of the
        submission it judged) is kept for ``receipt(game, expected)`` in that transaction too: a client retrying
        after a crash finds its submission either applied and noted, or neither."""
        if not batch:
            return []
        last, prev = self._head_for_append(game, expected)
        if expected is None:
            expected = last
        elif expected != last:
            # Refuse now: sealing after a head we do not hold would chain from the wrong hash, and a writer
            # that moved the head to ``expected`` in the meantime would let that broken chain be stored.
            raise ConcurrencyConflict(game, expected, last)
        records = seal(game, expected + 1, prev, batch)
        last_record = records[-1]
        signed = () if signer is None else (signer.sign(game, last_record.seq, last_record.hash, end=end),)
        # The backend re-checks ``expected`` inside its transaction; the log is append-only, so if the head
        # is still ``expected`` there, ``prev`` is still its hash.
        self._write(game, expected, records, signed, receipt)
        return records

    def _head_for_append(self, game: str, expected: int | None) -> tuple[int, bytes]:
        """The head ``append`` seals a batch after (a backend may know it without asking: see PostgresStore)."""
        return self._head(game)

    def append_raw(
        self, game: str, records: Sequence[RawRecord], expected: int, signatures: Sequence[Signature] = ()
    ) -> None:
        """Store records sealed elsewhere (an import) after checking that they continue this log, with the
        signatures over their heads (each must name a record of the batch and carry its hash; whether it was
        made by the key it names is for ``kifu audit --key`` to say)."""
        if not records:
            return
        last, prev = self._head(game)
        if expected != last:
            raise ConcurrencyConflict(game, expected, last)
        seq = expected + 1
        for r in records:
            if r.game != game:
                raise CorruptLog(f"belongs to game {r.game!r}, not {game!r}", seq=r.seq)
            if r.seq != seq:
                raise CorruptLog(f"expected record {seq} here", seq=r.seq)
            if record_hash(prev, r.game, r.seq, r.decision, r.cause, r.v, r.body) != r.hash:
                raise CorruptLog("does not chain onto the log: its hash does not match", seq=r.seq)
            try:
                decode_body(r.v, r.body)
            except (msgspec.DecodeError, UnknownEventKind) as exc:
                raise CorruptLog(f"its event cannot be read: {exc}", seq=r.seq) from exc
            prev, seq = r.hash, seq + 1
        heads = {r.seq: r.hash for r in records}
        for s in signatures:
            if s.game != game or heads.get(s.seq) != s.head:
                raise CorruptLog("a signature names a head that is not this record's", seq=s.seq)
        if len({s.seq for s in signatures}) != len(signatures):
            raise CorruptLog("a head carries two signatures", seq=signatures[0].seq)
        self._write(game, expected, records, signatures)

    def read_span(self, game: str, start: int, stop: int) -> Iterator[RawRecord]:
        """Records ``start..stop`` exactly as stored, for a reader of a few records of a long log (time travel):
        a backend that checks a whole game's rows before a read (SQLite's types) checks only these here."""
        return self.read_raw(game, start, stop)

    def read_bodies_starting(
        self, game: str, prefix: bytes, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[int, int, int, bytes]]:
        """``read_bodies``, only the records whose body begins with ``prefix`` (an event kind's msgpack header and
        tag: the records of one kind). A backend may filter where the rows are, reading no other body."""
        for row in self.read_bodies(game, start, stop):
            if row[3].startswith(prefix):
                yield row

    def read_bodies(
        self, game: str, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[int, int, int, bytes]]:
        """``(seq, decision, v, body)`` of the records with ``start <= seq <= stop``, in order: all that a
        fold needs. A backend may stream these without building records (the fast path of a rebuild)."""
        for raw in self.read_raw(game, start, stop):
            yield raw.seq, raw.decision, raw.v, raw.body

    def read(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[Record]:
        for raw in self.read_raw(game, start, stop):
            yield decode(raw)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
