"""The integrity check: walks a log and names the first altered, missing, duplicated, reordered or inserted
record, or one whose body cannot be read.

The chain is unkeyed: it proves a log is the one whose last hash you hold (``kifu games`` prints it), and it
catches every accidental or partial change, but a forger who rewrites every hash from the change onwards makes
a new, self-consistent log. Publish or countersign the head hash to anchor a game (and pass it as ``head``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Literal

import msgspec
from msgspec import Struct

from eventsource.records import GENESIS, HASH_SIZE, RawRecord, record_hash
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


_NOT_IN_CHAIN = "a record that is not part of the chain was inserted"


class _Seen:
    """The hashes of the records accepted so far, packed end to end (16 bytes a record, not a set's hundred):
    asked only where the chain breaks and at the end, so a search through them is paid at most twice."""

    def __init__(self) -> None:
        self._hashes = bytearray()

    def add(self, h: bytes) -> None:
        self._hashes += h

    def seq_of(self, h: bytes) -> int | None:
        """The sequence number of the accepted record with hash ``h`` (records are accepted as 1, 2, ...)."""
        if len(h) != HASH_SIZE:
            return None
        at = self._hashes.find(h)
        while at != -1 and at % HASH_SIZE:
            at = self._hashes.find(h, at + 1)
        return None if at == -1 else at // HASH_SIZE + 1


def chains(prev: bytes, r: RawRecord, seq: int | None = None) -> bool:
    """Whether record ``r`` (numbered ``seq`` if given) chains on a record whose hash is ``prev``."""
    s = r.seq if seq is None else seq
    try:
        return record_hash(prev, r.game, s, r.decision, r.cause, r.v, r.body) == r.hash
    except OverflowError:  # an envelope integer no log of ours can hold
        return False


def verify(
    records: Iterable[RawRecord], game: str | None = None, *, head: bytes | None = None
) -> Finding | Verified:
    """Check one game's records in the order read. Streams: memory grows only with the hashes seen, 16 bytes a
    record.

    ``head``, if given, is the last hash the caller holds for this game (``kifu games`` prints it): a log that
    chains but does not contain it has lost records at its end, which no unkeyed chain can see on its own.
    """
    it: Iterator[RawRecord] = iter(records)
    prev, expected, position = GENESIS, 1, 0
    seen = _Seen()
    for r in it:
        if game is None:
            game = r.game
        if r.game != game:
            return Finding("foreign", expected, position, f"record belongs to game {r.game!r}, not {game!r}")
        if r.seq != expected or not chains(prev, r):
            # (a record that chains on here cannot repeat an earlier one: the hash covers the seq)
            repeated = seen.seq_of(r.hash)
            if repeated is not None:
                return Finding("duplicated", expected, position, f"repeats record {repeated}")
            return _classify(prev, expected, position, r, it)
        try:
            decode_body(r.v, r.body)
        except (msgspec.DecodeError, msgspec.ValidationError, UnknownEventKind) as exc:
            return Finding("undecodable", expected, position, f"its event cannot be read: {exc}")
        seen.add(r.hash)
        prev, expected, position = r.hash, expected + 1, position + 1
    if head is not None and head != prev and seen.seq_of(head) is None:
        return Finding(
            "missing", expected, position,
            f"the log ends at record {expected - 1}, but the head hash {head.hex()} is not in it: "
            "records at its end are missing",
        )
    return Verified(expected - 1, prev)


def _classify(prev: bytes, expected: int, position: int, r: RawRecord, rest: Iterator[RawRecord]) -> Finding:
    """Name what is wrong with ``r``, the first record that does not continue the chain ending in ``prev``.

    The rest of the log is read (one record at a time, nothing kept) to tell a record that is missing from one
    that only comes later, and a genuine record out of place from one that was made up.
    """
    nxt = next(rest, None)
    if r.seq == expected:
        if nxt is not None and nxt.game == r.game and nxt.seq == expected and chains(prev, nxt):
            return Finding("inserted", expected, position, _NOT_IN_CHAIN)
        return Finding("altered", expected, position, "its content does not match its hash")
    if chains(prev, r, expected):
        return Finding("altered", expected, position, f"sequence number changed from {expected} to {r.seq}")
    if r.seq < expected:
        return Finding("inserted", expected, position, f"a second record {r.seq} was inserted")
    # Records expected..r.seq-1 are not here. Do they come later (a reordering), or not at all?
    found_expected = genuine = False
    later = rest if nxt is None else itertools.chain((nxt,), rest)
    for x in later:
        if x.hash == r.hash:
            return Finding("duplicated", expected, position, f"record {r.seq} appears here and again later")
        if x.game != r.game:
            continue
        if x.seq == expected and not found_expected and chains(prev, x):
            found_expected = True
        if x.seq == r.seq - 1 and not genuine and chains(x.hash, r):
            genuine = True
    if found_expected:
        if genuine:
            return Finding("reordered", expected, position, f"record {r.seq} comes before record {expected}")
        return Finding("inserted", expected, position, _NOT_IN_CHAIN)
    if r.seq == expected + 1:
        return Finding("missing", expected, position, f"record {expected} is missing")
    return Finding("missing", expected, position, f"records {expected}..{r.seq - 1} are missing")
