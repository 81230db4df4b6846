"""The audit: a judge's report on one game's log, as a list of checks run in order.

The checks, in order: ``integrity`` (the hash chain and each body's canonical bytes,
``eventsource.integrity.walk``, plus the line-level checks of an export), ``head`` (only with the published head:
the log ends there, neither short of it nor past it), ``fork`` (only for a what-if fork: its branch point, and
whether its copied part is its source's; ``tools.audit.fork``), ``fold`` (the log folds into a consistent game
state), ``rules`` (re-adjudication: the rules, run again on the recorded set-up, seed and decisions, give exactly
the recorded consequences) and ``legality`` (every recorded decision was legal at its point; each one that was not
is a finding naming the SPEC rule it breaks). Each check returns a :class:`CheckResult` and the text and JSON
renderings pick it up unchanged. A check runs only if every check before it was clean: a later check on a log that
failed an earlier one would only restate the first problem (``rules`` and ``legality`` are one walk, reported
twice; a ``head``, ``fork`` or ``rules`` finding does not stop the checks after it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

import msgspec
from msgspec import Struct

from eventsource import integrity
from eventsource.records import RawRecord
from eventsource.signing import PublicKey
from projections.invariants import ImpossibleBoard
from projections.state import GameState
from tools.audit.findings import AuditFinding, CheckResult
from tools.logs.folding import CheckedFold, Inconsistent, located
from tools.logs.sources import LineProblem, LogSource
from tools.progress import Counter


class AuditReport(Struct, frozen=True):
    source: str
    format: str
    game: str
    records: int  # records that passed the integrity check (all of them when it is clean)
    head: str | None  # hash of the last record, hex, when the integrity check is clean
    checks: list[CheckResult]
    anchored: bool = False  # the log ends at the head the judge gave (--head): its end is proven

    @property
    def findings(self) -> list[AuditFinding]:
        return [f for c in self.checks if c.finding is not None for f in (c.finding, *c.more)]

    @property
    def clean(self) -> bool:
        return all(c.status == "ok" for c in self.checks)


def _counted(records: Iterator[RawRecord], counter: Counter | None) -> Iterator[RawRecord]:
    if counter is None:
        yield from records
        return
    for raw in records:
        counter.tick()
        yield raw
    counter.flush()


def check_integrity(
    source: LogSource,
    counter: Counter | None = None,
    keep: list[RawRecord] | None = None,
    head: bytes | None = None,
) -> tuple[CheckResult, integrity.Verified, CheckResult | None]:
    """The hash chain in the order read, and for an export the first line that is not a sound record; then,
    with ``head``, the ``head`` check: the log ends at it.

    ``head`` is the game's last hash as published (``kifu games`` prints it), if the caller holds it: without
    it, a log cut short at its end, or played on past it, still chains. The head check is None without a head,
    and skipped when the chain does not hold. ``keep`` collects the records read, so that ``kifu import`` reads
    its file once.
    """
    problems: list[LineProblem] = []
    read = 0

    def records() -> Iterator[RawRecord]:
        nonlocal read
        for item in source.scan():
            if isinstance(item, LineProblem):
                problems.append(item)
                return
            if keep is not None:
                keep.append(item)
            read += 1
            yield item

    result, seen = integrity.walk(_counted(records(), counter), source.game)
    skipped = None if head is None else CheckResult("head", "skipped", "not run: the log did not pass integrity")
    if isinstance(result, integrity.Finding):
        found = AuditFinding("integrity", result.problem, result.seq, result.position, result.message)
        return _found(found), integrity.Verified(result.seq - 1, b""), skipped
    if problems:
        p, seq = problems[0], read + 1
        claim = f" (it claims to be record {p.claimed_seq})" if p.claimed_seq not in (None, seq) else ""
        found = AuditFinding("integrity", p.kind, seq, p.line - 1, f"line {p.line}{claim}: {p.message}",
                             field=_field_named(p.message))
        return _found(found), integrity.Verified(read, b""), skipped
    ok = CheckResult("integrity", "ok", f"{result.records} records, head {result.head.hex()}")
    return ok, result, None if head is None else check_head(result, seen, head)


def check_head(verified: integrity.Verified, seen: integrity.Seen, head: bytes) -> CheckResult:
    """The ``head`` check: the log ends at the head the judge holds (neither short of it nor past it). A
    finding here does not stop the checks after it: they judge the log as it is."""
    off = integrity.ends_at(verified, seen, head)
    if off is None:
        return CheckResult("head", "ok", f"the log ends at the head you hold, record {verified.records}")
    return _found(AuditFinding("head", off.problem, off.seq, off.position, off.message))


def _field_named(message: str) -> str:
    """The field a line's problem names (``... - at `$.event.old``` -> ``event.old``), "" when none."""
    _, at, path = message.rpartition(" - at `$")
    return path.rstrip("`").lstrip(".") if at else ""


def _found(finding: AuditFinding) -> CheckResult:
    return CheckResult(finding.check, "finding", str(finding), finding)


def check_fold(source: LogSource, counter: Counter | None = None) -> CheckResult:
    """Every record applies to the state before it, and every board the rules waited on is one the game can be
    in (``projections.invariants``): the log describes a game that could exist."""
    folding = CheckedFold()
    try:
        for raw in _counted(source.records(), counter):
            folding.apply(raw)
        folding.finish()
    except Inconsistent as exc:
        return _found(AuditFinding("fold", "inconsistent", exc.seq, exc.seq - 1, exc.reason))
    except ImpossibleBoard as exc:
        seq, b = located(source.records(), exc, folding.state.decision), exc.breach
        return _found(AuditFinding("fold", "impossible", seq, seq - 1, f"the board after it is impossible: "
                                   f"invariant {b.invariant}: {b.message}", rule=b.rule, invariant=b.invariant))
    return CheckResult("fold", "ok", _state_summary(folding.state), ended=folding.state.ended)


def _state_summary(state: GameState) -> str:
    parts = [f"folds to turn {state.turn}", f"{len(state.objects)} objects", f"{len(state.pending)} pending"]
    if state.ended:
        if state.winner is not None and 0 <= state.winner < len(state.players):
            parts.append(f"ended, {state.players[state.winner].name} won")
        else:
            parts.append("ended without a winner")
    return ", ".join(parts)


def check_fork(source: LogSource, counter: Counter | None = None, origin: str | None = None) -> CheckResult | None:
    """A what-if fork's branch point and its copied part (None for a log that is no fork); ``origin`` is the
    source's log, when the judge gives it."""
    from tools.audit import fork as auditfork

    return auditfork.check_fork(source, counter, origin)


def check_rules(source: LogSource, counter: Counter | None = None) -> CheckResult:
    """Re-adjudication: the first record where the log and the rules disagree."""
    from tools.audit import rules as auditrules

    return auditrules.check_rules(source, counter)


def check_legality(source: LogSource, counter: Counter | None = None) -> CheckResult:
    """Every decision that was not legal at its point, with the rule it breaks."""
    from tools.audit import rules as auditrules

    return auditrules.check_legality(source, counter)


Check = Callable[[LogSource, Counter | None], CheckResult | None]  # None: the check does not apply to this log

# Checks after integrity, in order.
LATER_CHECKS: Final[list[tuple[str, Check]]] = [
    ("fork", check_fork), ("fold", check_fold), ("rules", check_rules), ("legality", check_legality),
]
NOT_BLOCKING: Final = frozenset({"fork", "rules"})  # later checks still run after a finding of these
RULES_CHECKS: Final = frozenset({"rules", "legality"})


def passes() -> int:
    """How many times the audit reads the log (for sizing a progress bar)."""
    return 1 + len(LATER_CHECKS)


def run(source: LogSource, counter: Counter | None = None, head: bytes | None = None, *,
        rules: bool = True, given_setup_ok: bool = False, key: PublicKey | None = None,
        fork_source: str | None = None) -> AuditReport:
    """Run the checks in order; ``rules=False`` leaves out re-adjudication and legality. A log that declares a
    given set-up is a finding unless ``given_setup_ok`` (the judge accepts the board it began from). A store is
    checked first (``tools.audit.storecheck``); with ``key``, the signatures are checked after integrity
    (``tools.audit.signed``). ``fork_source`` is a fork's source log as the judge holds it (``tools.audit.fork``)."""
    from tools.audit import signed, storecheck

    damage = storecheck.check_store(source) if source.format == "store" else None
    if damage is not None and damage.status != "ok":
        later = [n for n, _ in LATER_CHECKS if n != "fork" and (rules or n not in RULES_CHECKS)]
        skipped = [CheckResult(name, "skipped", f"not run: the log did not pass {damage.check}")
                   for name in ("integrity", *(["head"] if head else []), *(["signatures"] if key else []),
                                *later)]
        return AuditReport(source.location, source.format, source.game, 0, None, [damage, *skipped])
    first, verified, ends = check_integrity(source, counter, head=head)
    checks = [first] if damage is None else [damage, first]
    failed: str | None = None if first.status == "ok" else first.check
    if ends is not None:
        checks.append(ends)  # (a head that is not the log's end stops nothing: every later check still runs)
    if key is not None:
        checks.append(signed.check_signatures(source, key) if failed is None else
                      CheckResult("signatures", "skipped", f"not run: the log did not pass {failed}"))
    for name, check in LATER_CHECKS:
        if not rules and name in RULES_CHECKS:
            continue
        if failed is not None:
            if name != "fork":  # (whether the log is a fork is not known either)
                checks.append(CheckResult(name, "skipped", f"not run: the log did not pass {failed}"))
            continue
        result = check_fork(source, counter, fork_source) if name == "fork" else check(source, counter)
        if result is None:
            continue
        if name == "rules" and given_setup_ok:
            from tools.audit import rules as auditrules

            result = auditrules.given_accepted(result)
        checks.append(result)
        if result.status != "ok" and name not in NOT_BLOCKING:
            failed = name  # (legality is judged decision by decision, whatever re-adjudication found)
    last = verified.head.hex() if first.status == "ok" else None
    anchored = ends is not None and ends.status == "ok"
    return AuditReport(source.location, source.format, source.game, verified.records, last, checks, anchored)


# -- rendering ----------------------------------------------------------------------------------------------


def render_text(report: AuditReport) -> list[str]:
    what = "exported file" if report.format == "file" else "store"
    lines = [f"audit of {report.source} ({what}), game {report.game}"]
    width = max(len(c.check) for c in report.checks)
    for c in report.checks:
        label = {"ok": "ok", "finding": "FINDING", "skipped": "skipped"}[c.status]
        lines.append(f"  {c.check:<{width}}  {label:<7}  {c.summary}")
    notes = [n for c in report.checks for n in c.notes]
    lines += [f"note: {n}" for n in notes]
    findings = report.findings
    if findings:
        lines += [f"finding: {f}" for f in findings]
    else:
        lines.append(f"clean: {report.records} records, head {report.head}")
    return [*lines, f"summary: {summary(report)}"]


def summary(report: AuditReport) -> str:
    """A few sentences a person can read: what holds, and the first thing that does not; then what the audit
    took as given (a given set-up) and what it cannot prove (a log's end, without the published head)."""
    text = _verdict(report)
    rules = next((c for c in report.checks if c.check == "rules"), None)
    given = [n.split(":")[0] for n in rules.notes if "was given, not dealt" in n] if rules is not None else []
    if given:
        text += f" {given[0][0].upper()}{given[0][1:]}."
    decks = [n.rpartition("; ")[2] for n in rules.notes if "the deck lists were" in n] if rules is not None else []
    if decks:  # (every summary says whether the decks were checked, and under which rules version)
        text += f" {decks[0][0].upper()}{decks[0][1:]}."
    fold = next((c for c in report.checks if c.check == "fold"), None)
    head = next((c for c in report.checks if c.check == "head"), None)
    if (head is None or head.status != "ok") and fold is not None and fold.status == "ok" and not fold.ended:
        how = ("the head you gave is not its end" if head is not None else
               "give --head, the published head, to prove its end")
        text += (" Its completeness is unproven: it does not end in GameEnded, and a log cut at a decision "
                 f"boundary chains as well as a whole one ({how}).")
    return text


def _verdict(report: AuditReport) -> str:
    by = {c.check: c for c in report.checks}
    store = by.get("store")
    if store is not None and store.finding is not None:
        return (f"the store cannot be trusted: {store.finding.message}; nothing was judged (the store is "
                "damaged: recover the game from an export or a backup).")
    integrity = by["integrity"]
    if integrity.status != "ok":
        assert integrity.finding is not None
        return (f"the log cannot be trusted from record {integrity.finding.seq} on: it is not the log that was "
                f"recorded ({integrity.finding.kind}); nothing after that point was judged.")
    text = f"the log is intact ({report.records} records, each chained to the one before)"
    fork = by.get("fork")
    if fork is not None:
        text += (f"; it is a what-if fork, {fork.summary}" if fork.status == "ok" else
                 f"; it is a what-if fork whose copied part is not its source's ({fork.summary})")
    head = by.get("head")
    if head is not None:
        text += ("; it ends at the head you hold" if head.finding is None else
                 f"; but it is not the game whose head you hold: {head.finding.message}")
    signatures = by.get("signatures")
    if signatures is not None:
        text += (f"; signed: {signatures.summary}" if signatures.status == "ok" else
                 f"; but its signatures do not vouch for it: "
                 f"{signatures.finding.message if signatures.finding else signatures.summary}")
    fold = by.get("fold")
    if fold is not None and fold.status != "ok":
        return text + f", but it does not describe a possible game: {fold.summary}."
    rules, legality = by.get("rules"), by.get("legality")
    if rules is None:
        return text + "; the rules were not run (--no-rules)."
    if rules.status == "ok" and legality is not None and legality.status == "ok":
        return text + f"; {rules.summary}; and every decision was legal at its point."
    parts = [text]
    if rules.finding is not None and rules.finding.kind == "given-setup":
        parts.append(f"{rules.summary}, but {rules.finding.message}")
    elif rules.finding is not None:
        field = f" ({rules.finding.field})" if rules.finding.field else ""
        parts.append(f"the rules disagree with it first at record {rules.finding.seq}{field}: "
                     f"{rules.finding.message}")
    if legality is not None and legality.status == "finding":
        illegal = [f for f in (legality.finding, *legality.more) if f is not None]
        listed = "; ".join(f"record {f.seq} breaks {f.rule}" for f in illegal)
        parts.append(f"{len(illegal)} decision{'s' if len(illegal) > 1 else ''} not legal at its point ({listed})")
    elif legality is not None and legality.status == "ok":
        parts.append("every decision was legal at its point")
    return "; ".join(parts) + "."


def to_json(report: AuditReport) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(report)
    data["clean"] = report.clean
    data["findings"] = msgspec.to_builtins(report.findings)
    return data


def error_json(location: str, message: str) -> dict[str, Any]:
    """What ``--json`` prints when the input cannot be audited at all (exit 2)."""
    return {"source": location, "clean": False, "error": message, "findings": []}
