"""The record envelope: where an event sits in its game's log, what caused it, and the hash chain.

A stored record is ``(game, seq, decision, cause, v, body, hash)``. ``body`` is the event's canonical bytes as
written (never re-encoded, so an old record keeps its hash after upcasting). ``hash`` is
``blake2b(prev_hash || header || body)`` with a 16-byte digest; the first record's ``prev_hash`` is
``GENESIS``. The previous hash is not stored twice: it is the hash of the record before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Final

import msgspec
from msgspec import Struct

from eventsource import events as ev
from eventsource.errors import CorruptLog, InvalidEvent
from eventsource.upcast import UnknownEventKind, decode_body

HASH_SIZE: Final = 16
GENESIS: Final = bytes(HASH_SIZE)
_INT64_MIN: Final = -(2**63)  # the envelope's integers are stored as SQLite INTEGERs
_INT64_MAX: Final = 2**63 - 1

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
        if not (_INT64_MIN <= item.decision <= _INT64_MAX and _INT64_MIN <= item.cause <= _INT64_MAX):
            raise InvalidEvent(f"event {seq - first_seq + 1} of the batch: decision or cause out of range")
        try:
            body = ev.encode(item.event)
        except (OverflowError, TypeError, msgspec.EncodeError) as exc:
            where = f"event {seq - first_seq + 1} of the batch ({type(item.event).__name__})"
            raise InvalidEvent(f"{where} cannot be encoded: {exc}") from exc
        v = ev.schema_version(type(item.event).__name__)
        h = record_hash(prev, game, seq, item.decision, item.cause, v, body)
        out.append(RawRecord(game, seq, item.decision, item.cause, v, body, h))
        prev = h
        seq += 1
    return out


def decode(raw: RawRecord) -> Record:
    try:
        event = decode_body(raw.v, raw.body)
    except (msgspec.DecodeError, UnknownEventKind) as exc:
        raise CorruptLog(f"its event cannot be read: {exc}", seq=raw.seq) from exc
    return Record(raw.game, raw.seq, raw.decision, raw.cause, event, raw.hash, raw.v)
