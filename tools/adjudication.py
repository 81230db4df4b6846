"""Re-adjudication and legality: run the rules again on a log's inputs and decisions.

``readjudicate`` derives the opening from the log's inputs alone (``Engine.replay``, ``statemachine.rederive``:
the players, deck lists, seed and options, at the rules and card-pool versions the log names), then walks the
log one decision at a time with ``Engine.rerun``, which feeds the recorded decision back through the rules and
compares every record they give, envelope included, with the record the log has there. Two kinds of finding
come out:

- the first **divergence**: the first record where the log and the rules disagree (``Divergence``), with the
  decision it belongs to, the field that differs and its kind (``kind_of``);
- every **illegal decision**: a recorded decision that the rules refuse at its point (``IllegalDecision``),
  with the SPEC rule it breaks.

After a finding the walk does not stop: it takes up the game again from the log's own state after that
decision (``Engine.load`` on the log up to there), so every later decision is still judged at its point, as
the players saw it. A decision that answers a request whose procedure began at a disputed decision cannot be
judged apart from it and is counted as not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eventsource import events as ev
from eventsource.records import Record
from statemachine.decisions import IllegalDecision
from statemachine.engine import SETUP_OPTION, Divergence, Engine
from tools.loaded import LoadedLog, PrefixStore


@dataclass(frozen=True)
class DivergenceFinding:
    seq: int  # the record where the log and the rules first disagree
    expected: ev.Event | None  # what the log has there
    actual: ev.Event | None  # what the rules give there
    decision: int  # the decision number it belongs to (0: the set-up and opening)
    decision_seq: int | None  # the record of that decision (a ChoiceMade), None for the opening
    message: str
    field: str = ""  # what differs: record, kind, an event field (printed.cost), or decision / cause
    kind: str = "divergent"  # divergent, envelope (decision, cause), card (printed, definition), version
    explained: bool = True  # the message says it all; False: it is best shown as the two records

    @property
    def label(self) -> str:
        return f"record {self.seq}, {self.field}" if self.field else f"record {self.seq}"


@dataclass(frozen=True)
class IllegalFinding:
    seq: int  # the ChoiceMade record
    decision: int
    player: int
    action: str
    args: tuple[int | str, ...]
    rule: str
    reason: str


@dataclass
class Adjudication:
    profile: str
    given: int | None = None  # a given set-up: how many records the board the game began from has
    decisions: int = 0  # decisions in the log
    checked: int = 0  # decisions judged
    divergence: DivergenceFinding | None = None
    illegal: list[IllegalFinding] = field(default_factory=list)
    unchecked: list[int] = field(default_factory=list)  # ChoiceMade records that could not be judged

    @property
    def same(self) -> bool:
        return self.divergence is None and not self.illegal


def decision_spans(records: list[Record]) -> tuple[list[Record], list[list[Record]]]:
    """The records before the first decision, then each decision's records (its ChoiceMade first)."""
    opening: list[Record] = []
    spans: list[list[Record]] = []
    for r in records:
        if isinstance(r.event, ev.ChoiceMade):
            spans.append([r])
        elif spans:
            spans[-1].append(r)
        else:
            opening.append(r)
    return opening, spans


VERSION_FIELDS = frozenset({"profile", "profile_version", "card_pool", "card_pool_version", "card_pool_digest"})


def kind_of(exc: Divergence) -> str:
    """What a judge calls the difference: the rules or pool version, a card's printing, the envelope, or a
    consequence."""
    if exc.kind:
        return exc.kind
    if isinstance(exc.expected, ev.GameStarted) and exc.field in VERSION_FIELDS:
        return "version"
    if isinstance(exc.expected, ev.ObjectCreated) and exc.field.startswith("printed"):
        return "card"
    if exc.field in ("decision", "cause"):
        return "envelope"
    return "divergent"


def _divergence(log: LoadedLog, exc: Divergence) -> DivergenceFinding:
    made = log.decision_record(exc.decision) if exc.decision else None
    kind = kind_of(exc)
    return DivergenceFinding(exc.seq, exc.expected, exc.actual, exc.decision, made.seq if made else None, str(exc),
                             exc.field, kind, exc.explained or kind != "divergent")


def _broken(log: LoadedLog, span: list[Record], exc: BaseException) -> DivergenceFinding:
    """The rules could not even run the decision on this state (an inconsistent, tampered log)."""
    first = span[0]
    return DivergenceFinding(first.seq, first.event, None, first.decision, first.seq,
                             f"the rules cannot re-run this decision: {type(exc).__name__}: {exc}", "record")


def readjudicate(log: LoadedLog, profile: Any) -> Adjudication:
    """Judge every decision of ``log`` under ``profile`` (a ``RulesProfile``)."""
    result = Adjudication(log.profile_name(), given_setup(log))
    opening, spans = decision_spans(log.records)
    result.decisions = len(spans)
    engine: Engine | None = None
    try:
        engine = Engine.replay(profile, opening, game=log.game)
    except Divergence as exc:
        result.divergence = _divergence(log, exc)
    except Exception as exc:
        first = opening[0] if opening else log.records[0]
        result.divergence = DivergenceFinding(first.seq, first.event, None, 0, None,
                                              f"the rules cannot re-run the opening: {type(exc).__name__}: {exc}",
                                              "record")
    position = len(opening)
    for span in spans:
        if engine is None:
            engine = _resume(log, profile, position)
        position += len(span)
        if engine is None:
            result.unchecked.append(span[0].seq)
            continue
        try:
            engine.rerun(span)
            result.checked += 1
        except IllegalDecision as exc:
            result.checked += 1
            made = span[0]
            assert isinstance(made.event, ev.ChoiceMade)
            result.illegal.append(IllegalFinding(made.seq, made.decision, made.event.player, made.event.action,
                                                 tuple(made.event.args), exc.rule, exc.reason))
            if result.divergence is None:
                result.divergence = DivergenceFinding(
                    made.seq, made.event, None, made.decision, made.seq,
                    f"record {made.seq} (decision {made.decision}): the rules refuse this decision: "
                    f"{exc.reason} [{exc.rule}]", "event",
                )
            engine = None
        except Divergence as exc:
            result.checked += 1
            if result.divergence is None:
                result.divergence = _divergence(log, exc)
            engine = None
        except Exception as exc:
            result.checked += 1
            if result.divergence is None:
                result.divergence = _broken(log, span, exc)
            engine = None
        if engine is None and not log.contiguous:
            # Records are missing or out of order: the log cannot be taken up again at a later point.
            result.unchecked += [s[0].seq for s in spans if s[0].seq > span[0].seq]
            break
    return result


def given_setup(log: LoadedLog) -> int | None:
    """For a log that declares a given set-up (``SETUP_OPTION``), the record its given board ends at."""
    started = log.started
    count = dict(started.options).get(SETUP_OPTION) if started is not None else None
    if count is None:
        return None
    return int(count) if count.isdigit() else 0


def _resume(log: LoadedLog, profile: Any, position: int) -> Engine | None:
    """An engine at the log's own state after its first ``position`` records, or None if the rules cannot
    take the game up there (its procedure in flight began at a disputed decision). Only legality is judged
    from there on, so the next decision's envelope is taken from the log (``Engine.load`` keeps no cause)."""
    try:
        engine = Engine.load(profile, PrefixStore(log.store, log.game, position), log.game)
    except Exception:
        return None
    if position < len(log.records):
        engine.cause = log.records[position].cause
    return engine

