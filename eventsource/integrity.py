"""The integrity check: walks a log and names the first altered, missing, duplicated, reordered or inserted
record, one whose body cannot be read, or one whose body is not the engine's encoding of its event
(``eventsource.canonical``).

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

from eventsource.canonical import non_canonical
from eventsource.records import GENESIS, HASH_SIZE, RawRecord, record_hash
from eventsource.upcast import UnknownEventKind, decode_body

Problem = Literal["altered", "missing", "duplicated", "reordered", "inserted", "undecodable", "non-canonical",
                  "foreign", "unmatched", "extended"]
# (the last two are the held head's: ``ends_at``)


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


class Seen:
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


Break = Literal["foreign", "sequence", "hash"]


class ChainCheck:
    """The hash chain checked as it is read, one record at a time, keeping only the last hash: whether each
    record belongs to the game, is the next one, and chains onto the one before. ``walk`` names what a break is;
    a reader that needs only to know where the chain breaks (a trace, the page, time travel) feeds it as it
    reads. ``prev`` and ``expected`` start it mid-log, on a record already trusted."""

    def __init__(self, game: str | None = None, *, prev: bytes = GENESIS, expected: int = 1) -> None:
        self.game, self.prev, self.expected = game, prev, expected

    def feed(self, r: RawRecord) -> Break | None:
        """What breaks the chain at ``r`` (None: it goes on); the check then goes on from ``r``. Without a game
        given, the first record's is the game."""
        if self.game is None:
            self.game = r.game
        problem: Break | None = ("foreign" if r.game != self.game else "sequence" if r.seq != self.expected
                                 else None if chains(self.prev, r) else "hash")
        self.prev, self.expected = r.hash, r.seq + 1
        return problem


def verify(
    records: Iterable[RawRecord], game: str | None = None, *, head: bytes | None = None
) -> Finding | Verified:
    """Check one game's records in the order read. Streams: memory grows only with the hashes seen, 16 bytes a
    record.

    ``head``, if given, is the last hash the caller holds for this game (``kifu games`` prints it): the log must
    end there (``ends_at``). Without it a log cut short at its end, or played on past it, still chains.
    """
    result, seen = walk(records, game)
    if isinstance(result, Finding) or head is None:
        return result
    return ends_at(result, seen, head) or result


def walk(records: Iterable[RawRecord], game: str | None = None) -> tuple[Finding | Verified, Seen]:
    """The chain check alone, with the hashes of the records it accepted (for ``ends_at``)."""
    it: Iterator[RawRecord] = iter(records)
    check, seen = ChainCheck(game), Seen()
    for position, r in enumerate(it):
        prev, expected = check.prev, check.expected
        problem = check.feed(r)
        if problem == "foreign":
            why = f"record belongs to game {r.game!r}, not {check.game!r}"
            return Finding("foreign", expected, position, why), seen
        if problem is not None:
            # (a record that chains on here cannot repeat an earlier one: the hash covers the seq)
            repeated = seen.seq_of(r.hash)
            if repeated is not None:
                return Finding("duplicated", expected, position, f"repeats record {repeated}"), seen
            return _classify(prev, expected, position, r, it), seen
        try:
            event = decode_body(r.v, r.body)
        except (msgspec.DecodeError, msgspec.ValidationError, UnknownEventKind) as exc:
            return Finding("undecodable", expected, position, f"its event cannot be read: {exc}"), seen
        odd = non_canonical(r.v, r.body, event)
        if odd is not None:
            return Finding("non-canonical", expected, position, odd), seen
        seen.add(r.hash)
    return Verified(check.expected - 1, check.prev), seen


def ends_at(verified: Verified, seen: Seen, head: bytes) -> Finding | None:
    """Whether a chained log ends at ``head``, the last hash the caller holds: None if it does; ``extended``
    when the head is an earlier record's (the log goes on past the end that was published); ``unmatched`` when
    no record has it (records at its end are missing, or records were changed and every hash re-sealed)."""
    last = verified.records
    if head == verified.head and last:
        return None
    at = seen.seq_of(head)
    if at is not None:
        more = last - at
        return Finding("extended", at + 1, at,
                       f"the head hash {head.hex()} you hold is record {at}'s, but the log goes on for {more} "
                       f"record{'s' if more > 1 else ''} past it, to record {last}: they are not part of the game "
                       "whose head was published")
    where = f"record {last}, the last, has hash {verified.head.hex()}" if last else "the log has no records"
    return Finding("unmatched", max(last, 1), max(last - 1, 0),
                   f"the head hash {head.hex()} you hold is no record's: {where}: records at its end are missing, "
                   "or records were changed and every hash after them re-sealed")


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
