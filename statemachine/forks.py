"""What-if forks: a new game that starts from the state after record N of another game's log.

A fork holds the source's records 1 to N unchanged — the same events, decisions, causes and bodies — each
re-chained under the fork's own game id (the game id is part of every hash), then one ``Forked`` record, the
branch point, naming the source, N and the hash of the source's record N. Everything after it is played in the
fork only, by the same rules (``Engine.legal`` / ``Engine.decide``).

Because the copied records keep their bodies, re-chaining them under the source's game id must give back the
source's hash at N: ``branches`` checks that from the fork alone, so an audit knows the first part is the
source's game without holding the source. Re-adjudication runs both parts as one game: the engine takes the
branch point as the log has it (``Engine._take_branch_point``) and judges every decision before and after.

A fork starts where the rules wait for a decision (the records of one decision are one transaction): N is the
last record of the set-up and opening, of a decision, or of the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from eventsource import events as ev
from eventsource import integrity
from eventsource.errors import KifuError
from eventsource.records import GENESIS, NewEvent, RawRecord, decode, record_hash, seal
from eventsource.store import EventStore


class ForkRefused(KifuError):
    """A fork cannot start at this point of this log, or under this name."""


def decision_points(raws: list[RawRecord]) -> list[int]:
    """The records after which the rules wait for a decision: a fork may start after any of them."""
    points = [r.seq - 1 for r in raws if r.seq > 1 and isinstance(decode(r).event, ev.ChoiceMade)]
    if raws:
        points.append(raws[-1].seq)
    return points


def _check_point(raws: list[RawRecord], source_game: str, at: int) -> None:
    last = raws[-1].seq if raws else 0
    if not 1 <= at <= last:
        raise ForkRefused(f"game {source_game!r} has records 1 to {last}; there is no record {at} to fork after")
    if at < last and not isinstance(decode(raws[at]).event, ev.ChoiceMade):
        points = decision_points(raws)
        before = max((p for p in points if p < at), default=None)
        after = min(p for p in points if p > at)  # (the log's end is a point)
        which = f"{before} or {after}" if before is not None else str(after)
        raise ForkRefused(f"record {at} of {source_game!r} is in the middle of the rules' work (record {at + 1} "
                          f"is not a decision); a fork starts where the rules wait for a decision: after record "
                          f"{which}")


def copy_prefix(raws: list[RawRecord], source_game: str, at: int, game: str) -> list[RawRecord]:
    """Records 1 to ``at`` re-chained under ``game``, then the branch point."""
    prefix = raws[:at]
    found = integrity.verify(prefix, source_game)
    if isinstance(found, integrity.Finding):
        raise ForkRefused(f"game {source_game!r} is not intact before the branch point: {found}")
    prev, out = GENESIS, []
    for r in prefix:
        h = record_hash(prev, game, r.seq, r.decision, r.cause, r.v, r.body)
        out.append(RawRecord(game, r.seq, r.decision, r.cause, r.v, r.body, h))
        prev = h
    mark = ev.Forked(source_game, at, prefix[-1].hash.hex())
    return out + seal(game, at + 1, prev, [NewEvent(mark, prefix[-1].decision, 0)])


def forked_records(source: EventStore, source_game: str, at: int, *, store: EventStore, game: str) -> list[RawRecord]:
    """The records that start ``game`` in ``store`` from the state after record ``at`` of ``source_game``: its
    records 1 to ``at`` re-chained, then the branch point (``Engine.fork`` checks the rules take it up)."""
    if store.head(game):
        raise ForkRefused(f"game {game!r} already exists in this store; name the fork otherwise")
    raws = list(source.read_raw(source_game))
    _check_point(raws, source_game, at)
    return copy_prefix(raws, source_game, at, game)


@dataclass(frozen=True)
class Branch:
    """One branch point of a fork's log, as its records show it."""

    seq: int  # the Forked record
    source: str
    at: int
    head: str  # the source's hash at ``at``, as the fork names it
    problem: str  # "" when the records before it re-chain, under the source's id, to ``head``


def branches(raws: Iterable[RawRecord]) -> list[Branch]:
    """Every branch point in a log (a fork of a fork has several), each checked against its copied part.

    ``raws`` is read once to find the branch points and, if there are any, once more to re-chain the records
    before each under its source's id (a list, or anything that reads the log again): nothing is kept but the
    branch points and one running hash per source."""
    marks = [(i, r.seq, e) for i, r in enumerate(raws) if isinstance(e := decode(r).event, ev.Forked)]
    if not marks:
        return []
    wanted = {(i, e.source) for i, seq, e in marks if e.at == seq - 1 and i == e.at}
    chains = {source: GENESIS for _, source in wanted}
    ends: dict[tuple[int, str], bytes] = {}
    last = max((i for i, _ in wanted), default=-1)
    for i, c in enumerate(raws if wanted else ()):
        for source in chains:
            if (i, source) in wanted:
                ends[i, source] = chains[source]
        if i >= last:
            break
        for source, prev in chains.items():
            chains[source] = record_hash(prev, source, c.seq, c.decision, c.cause, c.v, c.body)
    out: list[Branch] = []
    for i, seq, event in marks:
        problem = ""
        if event.at != seq - 1 or i != event.at:
            problem = f"it says it follows record {event.at}, but it is record {seq}"
        elif ends[i, event.source].hex() != event.head:
            problem = (f"records 1 to {event.at} are not those of {event.source!r}: re-chained under that "
                       f"game they end at {ends[i, event.source].hex()}, not at the head {event.head} the branch "
                       "point names")
        out.append(Branch(seq, event.source, event.at, event.head, problem))
    return out
