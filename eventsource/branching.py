"""A log kept in memory for search: one game's records, shared with the logs it branched from.

A search clone (``Engine.clone``) begins with the whole log of the engine it came from. Copying it would cost as
much as the game is long, so a branch shares the records before its branch point with the log it came from (a
log is append-only: what it holds up to a point never changes) and keeps only its own records after it.

Search appends far more than it reads, so the events an engine appends through ``keep`` are held as given and
sealed (encoded and chained, ``eventsource.records.seal``) only when something reads them. Read, a branch log's
records are exactly those a ``MemoryStore`` holds after the same appends: same bodies, same hash chain.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict, KifuError
from eventsource.records import GENESIS, NewEvent, RawRecord, Record, decode, seal
from eventsource.signing import Signature
from eventsource.store import EventStore, GameInfo

Entry = RawRecord | NewEvent  # a record as stored, or an event kept as appended, sealed when read
MAX_PARTS = 32  # a branch of a branch of ... shares this many lists at most; then its prefix is gathered in one


class BranchLog(EventStore):
    """One game's log in memory, sharing its first records with the log it was branched from."""

    def __init__(self, game: str | None = None) -> None:
        self.game = game  # the game it holds (set by the first append when None)
        self._parts: tuple[tuple[list[Entry], int], ...] = ()  # shared: (a list, how much of it is this log's)
        self._own: list[Entry] = []
        self._length = 0
        self._snapshots: list[tuple[int, bytes]] = []
        self._signatures: dict[int, Signature] = {}

    @classmethod
    def of(cls, store: EventStore, game: str) -> BranchLog:
        """A branch log holding a copy of ``game``'s records in ``store`` (any store)."""
        out = cls(game)
        out._own = list(store.read_raw(game))
        out._length = len(out._own)
        out._signatures = {s.seq: s for s in store.signatures(game)}
        return out

    def branch(self) -> BranchLog:
        """A log holding this one's records, shared, that goes on apart from it."""
        out = BranchLog(self.game)
        parts = (*self._parts, (self._own, len(self._own))) if self._own else self._parts
        if len(parts) > MAX_PARTS:
            parts = (([e for lst, n in parts for e in lst[:n]], self._length),)
        out._parts, out._length = parts, self._length
        out._snapshots = list(self._snapshots)
        out._signatures = dict(self._signatures)
        return out

    def keep(self, game: str, batch: Sequence[NewEvent], expected: int) -> None:
        """Append ``batch`` after record ``expected`` as it is, to be sealed when read (``append`` seals now)."""
        self._check(game, expected)
        self._own.extend(batch)
        self._length += len(batch)

    def tail(self, start: int) -> list[Record]:
        """Records ``start`` to the end as re-running the rules compares them (envelope and event), read without
        sealing anything: a record not sealed yet has no hash (``b""``)."""
        out: list[Record] = []
        first = 1  # the sequence number of each list's first entry
        for lst, n in (*self._parts, (self._own, len(self._own))):
            for i in range(max(start - first, 0), n):
                entry = lst[i]
                if isinstance(entry, RawRecord):
                    out.append(decode(entry))
                else:
                    assert self.game is not None
                    out.append(Record(self.game, first + i, entry.decision, entry.cause, entry.event, b"",
                                      ev.schema_version(type(entry.event).__name__)))
            first += n
        return out

    # -- the store interface ----------------------------------------------------------------------------

    def head(self, game: str) -> int:
        return self._length if game == self.game else 0

    def _head(self, game: str) -> tuple[int, bytes]:
        if game != self.game or not self._length:
            return 0, GENESIS
        last = self._sealed(self._length, self._length)[-1]
        return last.seq, last.hash

    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,  # (a search's branch keeps none)
    ) -> None:
        self._check(game, expected)
        self._own.extend(records)
        self._length += len(records)
        for s in signatures:
            self._signatures[s.seq] = s

    def _check(self, game: str, expected: int) -> None:
        if self.game is None:
            self.game = game
        elif game != self.game:
            raise KifuError(f"a branch log holds one game, {self.game!r}, not {game!r}")
        if expected != self._length:
            raise ConcurrencyConflict(game, expected, self._length)

    def signatures(self, game: str) -> list[Signature]:
        return [self._signatures[s] for s in sorted(self._signatures)] if game == self.game else []

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        if game != self.game:
            return
        end = self._length if stop is None else max(0, min(stop, self._length))
        if max(start, 1) <= end:
            yield from self._sealed(max(start, 1), end)

    def games(self) -> list[GameInfo]:
        if self.game is None or not self._length:
            return []
        seq, head = self._head(self.game)
        return [GameInfo(self.game, seq, head)]

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        i = bisect.bisect_left(self._snapshots, seq, key=lambda s: s[0])
        if i < len(self._snapshots) and self._snapshots[i][0] == seq:
            self._snapshots[i] = (seq, state)
        else:
            self._snapshots.insert(i, (seq, state))

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        i = bisect.bisect_right(self._snapshots, at_most, key=lambda s: s[0])
        return self._snapshots[i - 1] if i and game == self.game else None

    # -- sealing ------------------------------------------------------------------------------------------

    def _sealed(self, start: int, stop: int) -> list[RawRecord]:
        """Records ``start`` to ``stop``, sealing every kept event up to ``stop`` (once: a sealed record takes its
        event's place in the list that holds it, where every log sharing that list reads it)."""
        assert self.game is not None
        out: list[RawRecord] = []
        seq, prev = 1, GENESIS
        for lst, n in (*self._parts, (self._own, len(self._own))):
            i = 0
            while i < n and seq <= stop:
                entry = lst[i]
                if isinstance(entry, NewEvent):
                    j = i
                    while j < n and seq + (j - i) <= stop and isinstance(lst[j], NewEvent):
                        j += 1
                    sealed = seal(self.game, seq, prev, lst[i:j])  # type: ignore[arg-type]
                    lst[i:j] = sealed
                    entry = sealed[0]
                if seq >= start:
                    out.append(entry)
                prev, seq, i = entry.hash, seq + 1, i + 1
        return out
