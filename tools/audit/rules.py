"""The audit's rules checks: re-adjudication (``rules``) and the legality of each decision (``legality``).

Both come from one walk of the log (``tools.audit.adjudication.readjudicate``), done once per audited source and
reported as two checks.
"""

from __future__ import annotations

from eventsource.errors import KifuError
from tools.audit.adjudication import Adjudication, readjudicate
from tools.audit.findings import AuditFinding, CheckResult
from tools.audit.verdict import decision_text, event_line, given_text, inputs_note
from tools.errors import BadInput
from tools.logs.sources import LogSource
from tools.progress import Counter
from tools.travel.streamed import StreamedLog

_done: dict[int, tuple[LogSource, StreamedLog, Adjudication | str]] = {}


def _walk(source: LogSource, counter: Counter | None) -> tuple[StreamedLog, Adjudication | str]:
    """One streamed walk per audited source (its chain held: its records are numbered 1, 2, ... in order)."""
    hit = _done.get(id(source))
    if hit is not None and hit[0] is source:
        return hit[1], hit[2]
    log = StreamedLog.open(source)
    result: Adjudication | str
    try:
        result = readjudicate(log, log.profile(), counter)
    except BadInput:
        raise  # a rules version that is not installed: the log cannot be audited here (exit 2)
    except KifuError as exc:  # no rules for this game installed
        result = str(exc)
    _done.clear()
    _done[id(source)] = (source, log, result)
    return log, result


GIVEN_OK = "--given-setup-ok"


def check_rules(source: LogSource, counter: Counter | None = None) -> CheckResult:
    log, result = _walk(source, counter)
    if isinstance(result, str):
        finding = AuditFinding("rules", "no-rules", 1, 0, f"the log cannot be re-adjudicated: {result}")
        return CheckResult("rules", "finding", str(finding), finding)
    notes = [inputs_note(log, result.decks)]
    if result.given is not None:
        notes.insert(0, f"{given_text(result.given)}: it is not re-derived from deck lists and a shuffle")
    f = result.divergence
    if f is None:
        if result.given is not None:
            summary = (f"the rules give every one of its {log.last} records after the given board (records 1 "
                       f"to {result.given}) from its {result.decisions} decisions")
            finding = AuditFinding("rules", "given-setup", result.given, log.position(result.given),
                                   f"{given_text(result.given)}: its cards, zones and order are the recorder's, "
                                   f"not a deal from the seed (a judge may accept it with {GIVEN_OK})",
                                   field="options.setup")
            return CheckResult("rules", "finding", summary, finding, notes=notes)
        summary = (f"the rules give every one of its {log.last} records from its set-up, seed and "
                   f"{result.decisions} decisions")
        return CheckResult("rules", "ok", summary, notes=notes)
    if f.actual is None and f.seq == f.decision_seq:
        message = f"{decision_text(log, f)}: {f.message.split(': ', 1)[-1]}"
    elif f.explained:
        message = f"in {decision_text(log, f)}, {f.message.split(': ', 1)[-1]}"
    else:
        message = (f"in {decision_text(log, f)}, the log has {event_line(log, f.seq, f.expected)} "
                   f"where the rules give {event_line(log, f.seq, f.actual)}"
                   + (f" (the event field {type(f.expected).__name__}.{f.field} differs)"
                      if f.field not in ("record", "kind", "") else ""))
    finding = AuditFinding("rules", f.kind, f.seq, log.position(f.seq), message, decision=f.decision,
                           field=f.field)
    return CheckResult("rules", "finding", f"diverges at {f.label} (decision {f.decision})", finding,
                       notes=notes)


def given_accepted(result: CheckResult) -> CheckResult:
    """The rules check when the judge accepts a given set-up (``--given-setup-ok``): the board stays said."""
    if result.status != "finding" or result.finding is None or result.finding.kind != "given-setup":
        return result
    notes = [*result.notes, f"the given set-up was accepted ({GIVEN_OK})"]
    return CheckResult("rules", "ok", result.summary, notes=notes)


def check_legality(source: LogSource, counter: Counter | None = None) -> CheckResult:
    log, result = _walk(source, counter)
    if isinstance(result, str):
        return CheckResult("legality", "skipped", "not run: no rules to judge the decisions by")
    found = [
        AuditFinding("legality", "illegal", i.seq, log.position(i.seq),
                     f"{log.lines.get(i.seq, '')}: {i.reason}", rule=i.rule, decision=i.decision)
        for i in result.illegal
    ]
    judged = f"{result.checked} of {result.decisions} decisions judged at their point"
    if result.unchecked:
        judged += f" ({len(result.unchecked)} answer a procedure begun at a disputed decision)"
    if not found:
        return CheckResult("legality", "ok", f"{judged}, all legal")
    return CheckResult("legality", "finding", f"{judged}, {len(found)} not legal", found[0], found[1:])
