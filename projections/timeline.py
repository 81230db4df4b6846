"""Time travel: the state at any sequence number, from the nearest snapshot plus a short fold.

Snapshots are taken every ``every`` records as the log is folded and kept in the store, so ``state_at(n)``
costs one snapshot decode and at most ``every - 1`` evolves, whatever the log's length.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable

from eventsource.store import EventStore
from eventsource.upcast import decode_body
from projections.state import GameState, evolve, restore, snapshot

SNAPSHOT_EVERY = 256


def fold_bodies(state: GameState, rows: Iterable[tuple[int, int, int, bytes]]) -> GameState:
    """Fold ``(seq, decision, v, body)`` rows as :meth:`EventStore.read_bodies` streams them."""
    for seq, decision, v, body in rows:
        evolve(state, seq, decode_body(v, body), decision)
    return state


def replay(store: EventStore, game: str, stop: int | None = None) -> GameState:
    """The state after record ``stop`` (the whole log when None), folded from the first record: no snapshot
    is read or written. What a rebuild costs, and the reference that snapshots must agree with."""
    return fold_bodies(GameState(), store.read_bodies(game, 1, stop))


def pack(state: GameState) -> bytes:
    return zlib.compress(snapshot(state), 1)


def unpack(blob: bytes) -> GameState:
    return restore(zlib.decompress(blob))


class Timeline:
    """State at sequence N of one game in one store."""

    def __init__(self, store: EventStore, game: str, every: int = SNAPSHOT_EVERY) -> None:
        self.store, self.game, self.every = store, game, every

    def state_at(self, n: int | None = None) -> GameState:
        """The state after record ``n`` (the whole log when None); ``state_at(0)`` is the empty game."""
        head = self.store.head(self.game)
        n = head if n is None else max(0, min(n, head))
        snap = self.store.load_snapshot(self.game, n)
        state = unpack(snap[1]) if snap else GameState()
        start = state.seq + 1
        next_snap = (state.seq // self.every + 1) * self.every
        for seq, decision, v, body in self.store.read_bodies(self.game, start, n):
            evolve(state, seq, decode_body(v, body), decision)
            if seq == next_snap:
                # Leave a snapshot behind on the way, so the next query here is short.
                self.store.save_snapshot(self.game, seq, pack(state))
                next_snap += self.every
        return state

    def state_before(self, n: int) -> GameState:
        """The state just before record ``n`` was applied."""
        return self.state_at(n - 1)

    def warm(self) -> None:
        """Fold the whole log once, leaving snapshots every ``every`` records."""
        self.state_at(None)
