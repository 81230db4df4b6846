"""Re-adjudication across rules versions: would this game have gone differently under another release?

``under_version(log, version)`` re-runs the log's recorded set-up, seed and decisions under the rules and card
pool of another installed release of its game and stops at the first record where the two differ (a different
consequence, or a decision the other rules refuse). It then names the change responsible, from the game's
changelog (``releases.toml``, ``Releases.changes_since``): each switch that differs between the two releases is
tried alone on the log's own rules (and a different card pool alone, if the pools differ); a change that alone
gives the same divergence is the one the changelog gives for it. ``kifu verify LOG --rules VERSION`` prints it
with the state just before, as ``kifu verify`` does for a log and its own rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from eventsource import events as ev
from eventsource.records import decode
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Divergence, Engine
from statemachine.rederive import LOG_DISAGREES
from statemachine.releases import Change
from tools.audit.adjudication import DivergenceFinding, decision_spans
from tools.travel.loaded import LoadedLog, LogStore


@dataclass(frozen=True)
class Culprit:
    """One change between the two releases: what it is, and whether alone it gives the divergence."""

    what: str  # "switch NAME" or "card pool A -> B"
    changes: tuple[tuple[str, Change], ...]  # its changelog entries (release, change)
    alone: bool  # on the log's own rules, this change alone gives the same divergence


@dataclass
class CrossVersion:
    game: str  # the rules profile
    log_version: str
    version: str
    log_pool: str
    pool: str
    changes: list[tuple[str, Change]]  # the changelog between the two releases
    decisions: int = 0
    divergence: DivergenceFinding | None = None
    culprits: list[Culprit] = field(default_factory=list)
    instead: list[str] = field(default_factory=list)  # that decision under the other rules, from the divergence

    @property
    def same(self) -> bool:
        return self.divergence is None

    @property
    def responsible(self) -> list[Culprit]:
        return [c for c in self.culprits if c.alone]


def _finding(log: LoadedLog, exc: Divergence) -> DivergenceFinding:
    made = log.decision_record(exc.decision) if exc.decision else None
    # The rules went on where the log's decision had ended: what the log has there is its next decision.
    there = log.by_seq.get(exc.seq)
    expected = exc.expected if exc.expected is not None or there is None else there.event
    return DivergenceFinding(exc.seq, expected, exc.actual, exc.decision, made.seq if made else None, str(exc))


def first_divergence(log: LoadedLog, profile: Any, stop: int | None = None) -> DivergenceFinding | None:
    """The first record where ``profile`` and the log disagree (looking no further than record ``stop``)."""
    opening, spans = decision_spans(log.records)
    try:
        engine = Engine.replay(profile, opening, game=log.game, as_logged=True)
    except Divergence as exc:
        return _finding(log, exc)
    except LOG_DISAGREES as exc:  # rules that cannot even run the set-up of this log
        first = log.records[0]
        return DivergenceFinding(first.seq, first.event, None, 0, None,
                                 f"the rules cannot re-run the opening: {type(exc).__name__}: {exc}")
    for span in spans:
        made = span[0]
        if stop is not None and made.seq > stop:
            return None
        try:
            engine.rerun(span)
        except IllegalDecision as exc:
            return DivergenceFinding(made.seq, made.event, None, made.decision, made.seq,
                                     f"record {made.seq} (decision {made.decision}): the rules refuse this "
                                     f"decision: {exc.reason} [{exc.rule}]")
        except Divergence as exc:
            return _finding(log, exc)
        except LOG_DISAGREES as exc:
            return DivergenceFinding(made.seq, made.event, None, made.decision, made.seq,
                                     f"the rules cannot re-run this decision: {type(exc).__name__}: {exc}")
    return None


def played_instead(log: LoadedLog, profile: Any, f: DivergenceFinding, limit: int = 8) -> list[str]:
    """What ``profile`` gives for the decision where it parts from the log, from the divergence on: the
    decision played again under those rules (nothing for a decision they refuse, or for the opening)."""
    if f.decision_seq is None or (f.seq == f.decision_seq and f.actual is None):
        return []
    made = log.record(f.decision_seq).event
    assert isinstance(made, ev.ChoiceMade)
    store = LogStore()
    store.load(log.game, log.raws[:f.decision_seq - 1])
    try:
        engine = Engine.load(profile, store, log.game)
        engine.decide(Decision(made.player, made.action, tuple(made.args)))
    except LOG_DISAGREES:  # the other rules cannot take the game up there: the divergence itself says why
        return []
    raws = list(store.read_raw(log.game))
    other = LoadedLog(log.location, log.format, log.game, raws, [decode(r) for r in raws], store)
    shown = [other.line(seq) for seq in range(f.seq, min(other.last, f.seq + limit - 1) + 1)]
    if other.last >= f.seq + limit:
        shown.append(f"... ({other.last - f.seq - limit + 1} more, up to record {other.last})")
    return shown


def _variant(name: str, version: str, rules: Any = None, pool: Any = None) -> Any:
    """The profile of release ``version`` with other switches or another card pool."""
    from statemachine.games import profile

    made = profile(name, version)
    if rules is not None:
        made.rules = rules
    if pool is not None:
        made.pool = pool
    return made


def _candidates(name: str, base: Any, target: Any, changes: list[tuple[str, Change]]) -> list[tuple[Culprit, Any]]:
    """Each difference between two releases alone on the older one's rules: (what it is, that profile)."""
    out: list[tuple[Culprit, Any]] = []
    for f in msgspec.structs.fields(type(base.rules)):
        theirs = getattr(target.rules, f.name)
        if getattr(base.rules, f.name) == theirs:
            continue
        entries = tuple((v, c) for v, c in changes if c.switch == f.name)
        rules = msgspec.structs.replace(base.rules, **{f.name: theirs})
        out.append((Culprit(f"switch {f.name} = {theirs!r}", entries, False),
                    _variant(name, base.version, rules=rules)))
    if base.pool.digest != target.pool.digest:
        entries = tuple((v, c) for v, c in changes if not c.switch)
        out.append((Culprit(f"card pool {base.pool.version} -> {target.pool.version}", entries, False),
                    _variant(name, base.version, pool=target.pool)))
    return out


def under_version(log: LoadedLog, version: str) -> CrossVersion:
    """Re-run ``log`` under rules ``version`` of its game; the first divergence and the change behind it."""
    from statemachine.games import profile_class

    started = log.started
    assert started is not None
    base, target = log.profile(), log.profile(version)
    changes = profile_class(started.profile).releases.changes_since(base.version, target.version)
    result = CrossVersion(started.profile, base.version, target.version, base.pool.version, target.pool.version,
                          changes, decisions=sum(isinstance(r.event, ev.ChoiceMade) for r in log.records))
    result.divergence = first_divergence(log, target)
    if result.divergence is None:
        return result
    seq = result.divergence.seq
    result.instead = played_instead(log, target, result.divergence)
    for culprit, candidate in _candidates(started.profile, base, target, changes):
        found = first_divergence(log, candidate, stop=seq)
        alone = found is not None and found.seq == seq
        result.culprits.append(Culprit(culprit.what, culprit.changes, alone))
    return result


# -- for people and machines ----------------------------------------------------------------------------------


def change_line(release: str, change: Change) -> str:
    switch = f" [{change.switch} = {change.value!r}]" if change.switch else ""
    return f"{release}  {change.rule}: {change.why}{switch}"


def cross_lines(log: LoadedLog, result: CrossVersion, *, full: bool = False) -> list[str]:
    from tools.audit.verdict import decision_text, event_line, rules_line
    from tools.travel.board import board_data, board_lines

    lines = [f"verify of {log.location}, game {log.game}, under {result.game} rules {result.version}",
             f"the log's {rules_line(log)}",
             f"re-run under: {result.game} rules {result.version}, card pool {result.pool}"]
    if result.changes:
        lines.append(f"changes between {result.log_version} and {result.version} (the {result.game} changelog):")
        lines += [f"  {change_line(v, c)}" for v, c in result.changes]
    else:
        lines.append(f"the changelog lists no change between {result.log_version} and {result.version}")
    lines.append(f"{result.decisions} decisions re-run under {result.version} from the recorded set-up and seed")
    f = result.divergence
    if f is None:
        lines.append(f"SAME: under {result.version} the rules give all {log.last} records; this game would have "
                     "gone the same way")
        return lines
    lines.append(f"DIVERGENT at record {f.seq}, in {decision_text(log, f)}")
    lines.append(f"  the log has ({result.log_version}):  {event_line(log, f.seq, f.expected)}")
    if f.actual is None and f.expected is not None and f.seq == f.decision_seq:
        lines.append(f"  {result.version} says:  {f.message.split('this decision: ', 1)[-1]}")
    else:
        lines.append(f"  {result.version} gives:  {event_line(log, f.seq, f.actual)}")
    if result.instead:
        lines.append(f"  under {result.version}, that decision goes on:")
        lines += [f"    {line}" for line in result.instead]
    responsible = result.responsible
    if responsible:
        for c in responsible:
            named = ", ".join(f"{v} {ch.rule}" for v, ch in c.changes) or "a change the changelog does not list"
            lines.append(f"  because of: {named} ({c.what}): on {result.log_version}'s rules this change alone "
                         "gives the same divergence")
    else:
        tried = ", ".join(c.what for c in result.culprits) or "none"
        lines.append(f"  no single change alone gives this divergence (tried: {tried}); it comes from the changes "
                     "above together")
    before = min(f.seq - 1, log.last)
    lines.append(f"the state just before record {f.seq} (kifu at {log.location} {before}):")
    # The record after that point is the divergent one, of decision f.decision: whether the rules waited there or
    # were in the middle of a procedure, as kifu at says it.
    board = board_data(log.state_at(before), None, log.memory,
                       next_decision=f.decision if before == f.seq - 1 else None)
    lines += [f"  {line}" for line in board_lines(board, full=full)]
    return lines


def _change_json(release: str, change: Change) -> dict[str, Any]:
    return {"release": release, **msgspec.to_builtins(change)}


def cross_json(log: LoadedLog, result: CrossVersion) -> dict[str, Any]:
    from tools.audit.verdict import divergence_json

    return {
        "source": log.location, "game": log.game, "profile": result.game, "log_version": result.log_version,
        "version": result.version, "log_pool": result.log_pool, "pool": result.pool, "same": result.same,
        "decisions": result.decisions, "changes": [_change_json(v, c) for v, c in result.changes],
        "divergence": divergence_json(log, result.divergence), "instead": result.instead,
        "culprits": [{"what": c.what, "alone": c.alone, "changes": [_change_json(v, ch) for v, ch in c.changes]}
                     for c in result.culprits],
    }
