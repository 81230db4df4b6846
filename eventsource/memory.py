"""The in-memory store: for tests, simulations and bots that need no durability."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence

from eventsource.errors import ConcurrencyConflict
from eventsource.records import GENESIS, RawRecord
from eventsource.signing import Signature
from eventsource.store import EventStore, GameInfo


class MemoryStore(EventStore):
    def __init__(self) -> None:
        self._logs: dict[str, list[RawRecord]] = {}
        self._snapshots: dict[str, list[tuple[int, bytes]]] = {}
        self._signatures: dict[str, dict[int, Signature]] = {}
        self._receipts: dict[tuple[str, int], bytes] = {}

    def _head(self, game: str) -> tuple[int, bytes]:
        log = self._logs.get(game)
        return (log[-1].seq, log[-1].hash) if log else (0, GENESIS)

    def _write(
        self, game: str, expected: int, records: Sequence[RawRecord], signatures: Sequence[Signature] = (),
        receipt: bytes | None = None,
    ) -> None:
        log = self._logs.get(game, [])
        actual = log[-1].seq if log else 0
        if actual != expected:
            raise ConcurrencyConflict(game, expected, actual)  # before creating the game: nothing is stored
        self._logs[game] = log
        log.extend(records)
        if signatures:
            signed = self._signatures.setdefault(game, {})
            for s in signatures:
                signed[s.seq] = s
        if receipt is not None:
            self._receipts[game, expected] = receipt

    def receipt(self, game: str, after: int) -> bytes | None:
        return self._receipts.get((game, after))

    def signatures(self, game: str) -> list[Signature]:
        signed = self._signatures.get(game, {})
        return [signed[seq] for seq in sorted(signed)]

    def read_raw(self, game: str, start: int = 1, stop: int | None = None) -> Iterator[RawRecord]:
        log = self._logs.get(game, [])
        end = len(log) if stop is None else max(0, min(stop, len(log)))
        yield from log[max(start, 1) - 1 : end]

    def games(self) -> list[GameInfo]:
        return [
            GameInfo(g, len(log), log[-1].hash if log else GENESIS)
            for g, log in sorted(self._logs.items())
        ]

    def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        snaps = self._snapshots.setdefault(game, [])
        i = bisect.bisect_left(snaps, seq, key=lambda s: s[0])
        if i < len(snaps) and snaps[i][0] == seq:
            snaps[i] = (seq, state)
        else:
            snaps.insert(i, (seq, state))

    def load_snapshot(self, game: str, at_most: int) -> tuple[int, bytes] | None:
        snaps = self._snapshots.get(game, [])
        i = bisect.bisect_right(snaps, at_most, key=lambda s: s[0])
        return snaps[i - 1] if i else None
