"""The integrity check: walks a log and names the first altered, missing, duplicated, reordered or inserted
record, or one whose body cannot be read.

The chain is unkeyed: it proves a log is the one whose last hash you hold (``kifu games`` prints it), and it
catches every accidental or partial change, but a forger who rewrites every hash from the change onwards makes a
new, self-consistent log. Publish or countersign the head hash to anchor a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

import msgspec
from msgspec import Struct

from eventsource.records import GENESIS, RawRecord, record_hash
from eventsource.upcast import UnknownEventKind, decode_body

Problem = Literal["altered", "missing", "duplicated", "reordered", "inserted", "undecodable", "foreign"]


class Finding(Struct, frozen=True):
    problem: Problem
    seq: int  # the sequence number where the log stops being trustworthy
    position: int  # 0-based position of the offending record in the log as read
    message: str

    def __str__(self) -> str:
        return f"{self.problem} at record {self.seq} (position {self.position}): {self.message}"


class Verified(Struct, frozen=True):
    records: int
    head: bytes


def _chains(prev: bytes, r: RawRecord, seq: int | None = None) -> bool:
    s = r.seq if seq is None else seq
    return record_hash(prev, r.game, s, r.decision, r.cause, r.v, r.body) == r.hash


def verify(records: Iterable[RawRecord], game: str | None = None) -> Finding | Verified:
    """Check one game's records in the order read. Streams: memory grows only with the set of hashes seen."""
    it: Iterator[RawRecord] = iter(records)
    buffered: list[RawRecord] = []

    def peek() -> RawRecord | None:
        if not buffered:
            nxt = next(it, None)
            if nxt is None:
                return None
            buffered.append(nxt)
        return buffered[0]

    def take() -> RawRecord | None:
        return buffered.pop(0) if buffered else next(it, None)

    prev, expected, position = GENESIS, 1, 0
    seen: dict[bytes, int] = {}
    while (r := take()) is not None:
        if game is None:
            game = r.game
        if r.game != game:
            return Finding("foreign", expected, position, f"record belongs to game {r.game!r}, not {game!r}")
        if r.hash in seen:
            return Finding("duplicated", expected, position, f"repeats record {seen[r.hash]}")
        if r.seq != expected:
            nxt = peek()
            if r.seq < expected:
                return Finding("reordered", expected, position, f"record {r.seq} comes after record {expected - 1}")
            if nxt is not None and nxt.seq == expected:
                return Finding("reordered", expected, position, f"record {r.seq} comes before record {expected}")
            if _chains(prev, r, expected):
                return Finding("altered", expected, position, f"sequence number changed from {expected} to {r.seq}")
            return Finding("missing", expected, position, f"records {expected}..{r.seq - 1} are missing")
        if not _chains(prev, r):
            nxt = peek()
            if nxt is not None and (_chains(prev, nxt, expected) or (nxt.seq == expected and _chains(prev, nxt))):
                return Finding("inserted", expected, position, "a record that is not part of the chain was inserted")
            return Finding("altered", expected, position, "its content does not match its hash")
        try:
            decode_body(r.v, r.body)
        except (msgspec.DecodeError, msgspec.ValidationError, UnknownEventKind) as exc:
            return Finding("undecodable", expected, position, f"its event cannot be read: {exc}")
        seen[r.hash] = r.seq
        prev, expected, position = r.hash, expected + 1, position + 1
    return Verified(expected - 1, prev)
