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

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from eventsource import events as ev
from eventsource.records import RawRecord, Record
from statemachine.decisions import IllegalDecision
from statemachine.decks import said
from statemachine.engine import SETUP_OPTION, Divergence, Engine
from statemachine.options import setup_count
from statemachine.rederive import LOG_DISAGREES
from tools.progress import Counter
from tools.travel.streamed import StreamedLog, Window, decoded

if TYPE_CHECKING:
    from tools.travel.loaded import LoadedLog


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
    decks: str = ""  # what was checked of the deck lists, in words (statemachine.decks.said)

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
    return "divergent"  # (an envelope's difference says so itself: its kind is envelope)


def _divergence(exc: Divergence) -> DivergenceFinding:
    """(The record that began the decision, ``decision_seq``, is looked up after the walk: ``locate``.)"""
    kind = kind_of(exc)
    return DivergenceFinding(exc.seq, exc.expected, exc.actual, exc.decision, None, str(exc), exc.field, kind,
                             exc.explained or kind != "divergent")


def _broken(span: list[Record], exc: BaseException) -> DivergenceFinding:
    """The rules could not even run the decision on this state (an inconsistent, tampered log)."""
    first = span[0]
    return DivergenceFinding(first.seq, first.event, None, first.decision, first.seq,
                             f"the rules cannot re-run this decision: {type(exc).__name__}: {exc}", "record")


def readjudicate(log: StreamedLog, profile: Any, counter: Counter | None = None) -> Adjudication:
    """Judge every decision of ``log`` under ``profile`` (a ``RulesProfile``), reading the log once: one
    decision's records at a time, with the log's own state kept beside (``Window``) to take the game up again
    after a finding. Then what the findings show is looked up (``locate``)."""
    given = given_setup(log)
    decks = said(profile, given_board=given is not None)
    walk = _Walk(log, profile, Adjudication(log.profile_name(), given, decks=decks))
    for raw in log.raws():
        walk.feed(raw)
        if counter is not None:
            counter.tick()
    if counter is not None:
        counter.flush()
    walk.finish()
    locate(log, walk.result)
    return walk.result


class _Walk:
    """``readjudicate``'s state between two records: the decision being read, the engine re-running the rules
    (None after a finding, until the game is taken up again) and the window to take it up from."""

    def __init__(self, log: StreamedLog, profile: Any, result: Adjudication) -> None:
        self.log, self.profile, self.result = log, profile, result
        self.opening: list[Record] | None = []  # None once the opening was re-derived
        self.span: list[Record] = []
        self.engine: Engine | None = None
        self.window = Window(log.game)
        self.stopped: int | None = None  # a non-contiguous log: the decision after which judging stopped

    def feed(self, raw: RawRecord) -> None:
        rec = decoded(self.log.location, raw)
        self.log.note(rec)
        if isinstance(rec.event, ev.ChoiceMade):
            self._close()
            if self.engine is None and self.stopped is None:
                self.engine = self._resume(rec)
            self.span = [rec]
        elif self.opening is not None:
            self.opening.append(rec)
        else:
            self.span.append(rec)
        self.window.feed(raw, rec)

    def finish(self) -> None:
        self._close()

    def _close(self) -> None:
        if self.opening is not None:
            self._open(self.opening)
            self.opening = None
        elif self.span:
            self._judge(self.span)
            self.span = []

    def _open(self, opening: list[Record]) -> None:
        result = self.result
        try:
            self.engine = Engine.replay(self.profile, opening, game=self.log.game)
        except Divergence as exc:
            result.divergence = _divergence(exc)
        except LOG_DISAGREES as exc:  # (a bug in the rules is no finding about the log: it propagates)
            first = opening[0] if opening else self.log.first
            result.divergence = DivergenceFinding(
                first.seq, first.event, None, 0, None,
                f"the rules cannot re-run the opening: {type(exc).__name__}: {exc}", "record")

    def _judge(self, span: list[Record]) -> None:
        result = self.result
        result.decisions += 1
        if self.stopped is not None:
            if span[0].seq > self.stopped:
                result.unchecked.append(span[0].seq)
            return
        engine = self.engine
        if engine is None:
            result.unchecked.append(span[0].seq)
            return
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
            self.engine = None
        except Divergence as exc:
            result.checked += 1
            if result.divergence is None:
                result.divergence = _divergence(exc)
            self.engine = None
        except LOG_DISAGREES as exc:
            result.checked += 1
            if result.divergence is None:
                result.divergence = _broken(span, exc)
            self.engine = None
        if self.engine is None and not self.log.contiguous:
            # Records are missing or out of order: the log cannot be taken up again at a later point.
            self.stopped = span[0].seq

    def _resume(self, following: Record) -> Engine | None:
        """An engine at the log's own state just before ``following`` (the next decision's ChoiceMade), or None
        if the rules cannot take the game up there (its procedure in flight began at a disputed decision).
        Only legality is judged from there on, so the next decision's envelope is taken from the log
        (``Engine.load`` keeps no cause)."""
        store = self.window.store()
        if store is None:
            return None
        try:
            engine = Engine.load(self.profile, store, self.log.game)
        except LOG_DISAGREES:
            return None
        engine.cause = following.cause
        return engine


def locate(log: StreamedLog, result: Adjudication) -> None:
    """Look up, in one more pass and only if there is a finding, what the verdicts show of it: the record that
    began the divergent decision, the lines of the records named, the state just before the divergence."""
    f = result.divergence
    lines = {i.seq for i in result.illegal}
    if f is None and not lines:
        return
    states = {f.seq - 1} if f is not None else set()
    decisions = {f.decision} if f is not None and f.decision_seq is None and f.decision else set()
    if f is not None and f.decision_seq is not None:
        lines.add(f.decision_seq)
    positions = {*lines, *([f.seq] if f is not None else [])}
    log.look_up(lines=lines, states=states, positions=positions, decisions=decisions)
    if f is not None and decisions:
        result.divergence = replace(f, decision_seq=log.choices.get(f.decision))


def given_setup(log: StreamedLog | LoadedLog) -> int | None:
    """For a log that declares a given set-up (``SETUP_OPTION``), the record its given board ends at."""
    started = log.started
    count = dict(started.options).get(SETUP_OPTION) if started is not None else None
    return setup_count(count)  # (a count the engine would not write is an options finding, not a board)
