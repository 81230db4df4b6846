"""Time travel: the state at any sequence number, from the nearest snapshot plus a short fold.

Snapshots are taken every ``every`` records as the log is folded and kept in the store, so ``state_at(n)``
costs one snapshot decode and at most ``every - 1`` evolves, whatever the log's length.

A snapshot is derived data, and a store file is something anyone can edit. Each one is therefore keyed to the
hash of the record it was taken at (``pack(state, head)``): a snapshot whose key is not the hash the log has at
that record now (the log was rewritten after it was taken, or the snapshot was copied from another log), or
that has no key (taken by an older kifu), or that cannot be read, is ignored and an older one is tried. A
forger who edits a snapshot and keeps its key changes what time travel shows, never a verdict: ``kifu audit``
and ``kifu verify`` fold the log itself and never read a store's snapshots.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence

import msgspec

from eventsource.events import Event
from eventsource.records import HASH_SIZE, RawRecord
from eventsource.store import EventStore
from eventsource.upcast import UnknownEventKind, decode_body
from projections.invariants import KERNEL
from projections.state import GameState, ProjectionError, evolve, restore, snapshot

SNAPSHOT_EVERY = 256
# What a snapshot's state may inflate to: a real game's is tens of kilobytes, and a few megabytes of zlib from a
# store anyone can edit would otherwise inflate to gigabytes before it is read.
MAX_SNAPSHOT = 64 << 20
_KEYED = b"\x01"  # a keyed snapshot: this byte, the record hash it was taken at, then the zlib'd state


def fold_bodies(state: GameState, rows: Iterable[tuple[int, int, int, bytes]]) -> GameState:
    """Fold ``(seq, decision, v, body)`` rows as :meth:`EventStore.read_bodies` streams them."""
    for seq, decision, v, body in rows:
        evolve(state, seq, decode_body(v, body), decision)
    return state


def replay(store: EventStore, game: str, stop: int | None = None) -> GameState:
    """The state after record ``stop`` (the whole log when None), folded from the first record: no snapshot
    is read or written. What a rebuild costs, and the reference that snapshots must agree with."""
    return fold_bodies(GameState(), store.read_bodies(game, 1, stop))


def pack(state: GameState, head: bytes | None = None) -> bytes:
    """A snapshot of ``state``, keyed to ``head``, the hash of record ``state.seq`` (unkeyed when None)."""
    body = zlib.compress(snapshot(state), 1)
    return body if head is None else _KEYED + head + body


def key_of(blob: bytes) -> bytes | None:
    """The record hash a snapshot was taken at (None: an unkeyed snapshot)."""
    return blob[1 : 1 + HASH_SIZE] if blob[:1] == _KEYED and len(blob) > HASH_SIZE else None


def unpack(blob: bytes) -> GameState:
    """The state in a snapshot; ``ValueError`` for one that inflates past ``MAX_SNAPSHOT`` or is cut short."""
    body = blob[1 + HASH_SIZE :] if blob[:1] == _KEYED else blob
    inflater = zlib.decompressobj()
    data = inflater.decompress(body, MAX_SNAPSHOT)
    if inflater.unconsumed_tail or not inflater.eof:
        raise ValueError(f"a snapshot that inflates past {MAX_SNAPSHOT:,} bytes or is cut short")
    return restore(data)


def sound(state: GameState) -> bool:
    """Whether a restored snapshot's objects, zones and cards refer to each other as every fold leaves them (the
    kernel invariants the fold keeps). A snapshot is keyed to a record's hash, which proves where it was taken,
    not what it says: one that names an object no zone could hold is passed over, as a stale one is."""
    if any(obj.card not in state.cards for obj in state.objects.values()):
        return False
    return not any(next(iter(inv.breaches(state)), None) for inv in KERNEL if inv.fold_keeps)


def hash_at(store: EventStore, game: str, seq: int) -> bytes | None:
    """The hash the log has at record ``seq`` (None: no such record)."""
    for raw in store.read_span(game, seq, seq):
        return raw.hash
    return None


def usable(store: EventStore, game: str, at_most: int) -> GameState | None:
    """The state of the newest snapshot at or before ``at_most`` whose key is the log's hash there (None: no
    such snapshot). Snapshots that fail (stale, unkeyed, unreadable) are passed over."""
    while at_most > 0:
        snap = store.load_snapshot(game, at_most)
        if snap is None:
            return None
        seq, blob = snap
        key = key_of(blob)
        if store.snapshots_trusted or (key is not None and key == hash_at(store, game, seq)):
            try:
                state = unpack(blob)
            except (zlib.error, msgspec.MsgspecError, ValueError):
                state = None
            if state is not None and state.seq == seq and sound(state):
                return state
        at_most = seq - 1
    return None


def keep(store: EventStore, game: str, snaps: list[tuple[int, bytes]]) -> None:
    """Store snapshots made while folding (one transaction where the store can)."""
    if snaps:
        store.save_snapshots(game, snaps)
        snaps.clear()


class Keeper:
    """Leaves a keyed snapshot every ``every`` records of a log as it is written (``kifu synth``, ``kifu
    import``): the writer hands over each batch of records it stored, with their events when it has them."""

    def __init__(self, store: EventStore, game: str, every: int = SNAPSHOT_EVERY) -> None:
        self.store, self.game, self.every = store, game, every
        self.state = GameState()
        self.stopped = False
        self._snaps: list[tuple[int, bytes]] = []

    def stored(self, raws: Sequence[RawRecord], events: Sequence[Event] | None = None) -> None:
        if self.stopped:
            return
        try:
            for i, raw in enumerate(raws):
                event = events[i] if events is not None else decode_body(raw.v, raw.body)
                evolve(self.state, raw.seq, event, raw.decision)
                if raw.seq % self.every == 0:
                    self._snaps.append((raw.seq, pack(self.state, raw.hash)))
        except (ProjectionError, UnknownEventKind, msgspec.MsgspecError):
            self.stopped = True  # a log that does not fold has no states to keep past that point
        if len(self._snaps) >= 64:
            keep(self.store, self.game, self._snaps)

    def close(self) -> None:
        keep(self.store, self.game, self._snaps)


class Timeline:
    """State at sequence N of one game in one store."""

    def __init__(self, store: EventStore, game: str, every: int = SNAPSHOT_EVERY) -> None:
        self.store, self.game, self.every = store, game, every

    def state_at(self, n: int | None = None) -> GameState:
        """The state after record ``n`` (the whole log when None); ``state_at(0)`` is the empty game."""
        head = self.store.head(self.game)
        n = head if n is None else max(0, min(n, head))
        state = usable(self.store, self.game, n) or GameState()
        next_snap = (state.seq // self.every + 1) * self.every
        snaps: list[tuple[int, bytes]] = []
        for seq, decision, v, body in self.store.read_bodies(self.game, state.seq + 1, n):
            evolve(state, seq, decode_body(v, body), decision)
            if seq == next_snap:
                # Leave a snapshot behind on the way, so the next query here is short.
                snaps.append((seq, pack(state, hash_at(self.store, self.game, seq))))
                next_snap += self.every
                if len(snaps) >= 64:
                    keep(self.store, self.game, snaps)
        keep(self.store, self.game, snaps)
        return state

    def state_before(self, n: int) -> GameState:
        """The state just before record ``n`` was applied."""
        return self.state_at(n - 1)

    def warm(self) -> None:
        """Fold the whole log once, leaving snapshots every ``every`` records."""
        self.state_at(None)
