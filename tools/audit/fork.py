"""The audit's ``fork`` check, run only on a what-if fork (a log with a branch point, ``statemachine.forks``).

It names each branch point — the source game, the record after which the fork branched and the source's hash there
— and checks from the fork alone that its copied part re-chains, under the source's game id, to that hash. That
alone does not prove the copied part is the source's: a forger who changed it recomputes the hash the branch point
names. When the source game is in the same store, its record there must have that hash, and then the copied part is
the source's; without it the check says that this cannot be proven. The ``rules`` and ``legality`` checks then
re-adjudicate both parts as one game.
"""

from __future__ import annotations

from collections.abc import Iterator

from eventsource import events as ev
from eventsource.records import RawRecord, decode
from statemachine.forks import Branch, branches
from tools.audit.findings import AuditFinding, CheckResult
from tools.logs.sources import LogSource
from tools.progress import Counter


def _source_hash(source: LogSource, branch: Branch) -> str | None:
    """The hash of the source's record at the branch point, when the source game is in the same store."""
    if source.store is None or branch.source == source.game:
        return None
    if source.store.head(branch.source) < branch.at:
        return None
    raws = list(source.store.read_raw(branch.source, branch.at, branch.at))
    return raws[0].hash.hex() if raws else None


def _given_hash(origin: str, branch: Branch) -> str | None:
    """The hash of record ``branch.at`` of the source log the judge gave (``kifu audit --source``), whose chain
    must hold up to there; None when it holds no such record."""
    from itertools import takewhile

    from eventsource import integrity
    from tools.errors import BadInput
    from tools.logs.sources import open_log

    with open_log(origin, branch.source) as given:
        upto = list(takewhile(lambda r: r.seq <= branch.at, given.records()))
    checked = integrity.verify(upto, branch.source)
    if isinstance(checked, integrity.Finding):
        raise BadInput(f"the source given, {origin}, is not intact up to record {branch.at}: {checked}")
    return checked.head.hex() if checked.records == branch.at else None


def _played_after(source: LogSource, seq: int) -> int:
    return sum(1 for r in source.records() if r.seq > seq and isinstance(decode(r).event, ev.ChoiceMade))


class _Reads:
    """The source's records each time they are iterated (``branches`` reads a fork twice); the first read is
    counted for the progress bar."""

    def __init__(self, source: LogSource, counter: Counter | None) -> None:
        self.source, self.counter = source, counter

    def __iter__(self) -> Iterator[RawRecord]:
        counter, self.counter = self.counter, None
        for raw in self.source.records():
            if counter is not None:
                counter.tick()
            yield raw
        if counter is not None:
            counter.flush()


def _decisions(n: int) -> str:
    return f"{n} decision{'' if n == 1 else 's'}"


def check_fork(source: LogSource, counter: Counter | None = None, origin: str | None = None) -> CheckResult | None:
    """None for a log that is no fork (the audit then shows no fork check). ``origin`` is the source's log as
    the judge holds it (an export or a store; ``kifu audit --source``), compared at the last branch point like a
    source in the same store."""
    found = branches(_Reads(source, counter))
    if not found:
        return None
    problems: list[AuditFinding] = []
    notes: list[str] = []
    # (the source given is the last branch point's: a fork of a fork names its earlier sources in its own log)
    held = {b.seq: _given_hash(origin, b) if origin is not None and b is found[-1] else _source_hash(source, b)
            for b in found}
    for b in found:
        there = held[b.seq]
        if b.problem:
            problems.append(AuditFinding("fork", "not-the-source", b.seq, b.seq - 1, b.problem))
        elif there is not None and there != b.head:
            where = "the source given" if origin is not None else "this store"
            problems.append(AuditFinding("fork", "source-differs", b.seq, b.seq - 1,
                                         f"{b.source!r} in {where} has hash {there} at record {b.at}, not the "
                                         f"{b.head} the branch point names: the source changed or is another game"))
        elif there is not None:
            where = "the source given" if origin is not None else "this store"
            notes.append(f"{b.source!r} is in {where} and has the same hash at record {b.at}")
    last = found[-1]
    summary = (f"branched from {last.source!r} after record {last.at} (its head there {last.head}), branch point "
               f"record {last.seq}; {_decisions(_played_after(source, last.seq))} played since")
    if len(found) > 1:
        summary += f" ({len(found) - 1} earlier branch point{'s' if len(found) > 2 else ''})"
    if problems:
        return CheckResult("fork", "finding", summary, problems[0], problems[1:], notes)
    if all(h is not None for h in held.values()):
        return CheckResult("fork", "ok", summary + f"; records 1 to {last.at} are the source's", notes=notes)
    # Re-chaining proves only that the copied records end at the head the branch point names; a forger who
    # changed them recomputes that head too. Only the source (its head at the branch point) can tell.
    notes.append(UNPROVEN.format(at=last.at, source=last.source))
    return CheckResult("fork", "ok", summary + f"; records 1 to {last.at} re-chain to the head it names, but that "
                       "they are the source's cannot be proven without the source", notes=notes)


UNPROVEN = ("records 1 to {at} re-chain, under {source!r}, to the head the branch point names, but whoever changed "
            "them could recompute that head: that they are the source's cannot be proven without it (audit the fork "
            "in a store that also holds {source!r}, or compare that head with the source's published hash at record "
            "{at})")
