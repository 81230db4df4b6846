"""The record envelope: where an event sits in its game's log, what caused it, and the hash chain.

A stored record is ``(game, seq, decision, cause, v, body, hash)``. ``body`` is the event's canonical bytes as
written (never re-encoded, so an old record keeps its hash after upcasting). ``hash`` is
``blake2b(prev_hash || header || body)`` with a 16-byte digest; the first record's ``prev_hash`` is
``GENESIS``. The previous hash is not stored twice: it is the hash of the record before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import Final

import msgspec
from msgspec import Struct

from eventsource import events as ev
from eventsource.upcast import decode_body

HASH_SIZE: Final = 16
GENESIS: Final = bytes(HASH_SIZE)

_header_encoder = msgspec.msgpack.Encoder()


class NewEvent(Struct, frozen=True):
    """An event about to be appended: the decision it belongs to and the sequence number it reacted to."""

    event: ev.Event
    decision: int = 0
    cause: int = 0


class RawRecord(Struct, frozen=True, array_like=True):
    """A record exactly as stored."""

    game: str
    seq: int
    decision: int
    cause: int
    v: int
    body: bytes
    hash: bytes


class Record(Struct, frozen=True):
    """A decoded record: the envelope and its (upcast) event."""

    game: str
    seq: int
    decision: int
    cause: int
    event: ev.Event
    hash: bytes
    v: int = 1


def record_hash(prev: bytes, game: str, seq: int, decision: int, cause: int, v: int, body: bytes) -> bytes:
    header = _header_encoder.encode((game, seq, decision, cause, v))
    return hashlib.blake2b(prev + header + body, digest_size=HASH_SIZE).digest()


def seal(game: str, first_seq: int, prev: bytes, batch: Iterable[NewEvent]) -> list[RawRecord]:
    """Number, encode and chain a batch of new events after a log whose last hash is ``prev``."""
    out: list[RawRecord] = []
    seq = first_seq
    for item in batch:
        body = ev.encode(item.event)
        v = ev.schema_version(type(item.event).__name__)
        h = record_hash(prev, game, seq, item.decision, item.cause, v, body)
        out.append(RawRecord(game, seq, item.decision, item.cause, v, body, h))
        prev = h
        seq += 1
    return out


def decode(raw: RawRecord) -> Record:
    return Record(raw.game, raw.seq, raw.decision, raw.cause, decode_body(raw.v, raw.body), raw.hash, raw.v)


def decode_all(raws: Iterable[RawRecord]) -> Iterator[Record]:
    for raw in raws:
        yield decode(raw)
