"""Re-adjudication results for people (text) and machines (JSON): what ``kifu verify`` prints and the
re-adjudication and legality checks of ``kifu audit`` summarise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from eventsource import events as ev
from projections.state import GameState
from tools.audit.adjudication import Adjudication, DivergenceFinding, IllegalFinding
from tools.travel.board import board_data, board_lines
from tools.travel.trace import Memory, render


class Judged(Protocol):
    """A log as the verdicts read it: a ``LoadedLog`` (all in memory) or a ``StreamedLog`` (read as a stream,
    with what its findings show looked up after the walk)."""

    @property
    def location(self) -> str: ...

    @property
    def game(self) -> str: ...

    @property
    def last(self) -> int: ...

    @property
    def started(self) -> ev.GameStarted | None: ...

    @property
    def ends_game(self) -> bool: ...

    @property
    def lines(self) -> Mapping[int, str]: ...

    @property
    def memory(self) -> Memory: ...

    def state_at(self, n: int) -> GameState: ...

    def line(self, seq: int) -> str: ...

    def deck_sizes(self, seats: int) -> list[int]: ...


def rules_line(log: Judged) -> str:
    s = log.started
    assert s is not None
    return (f"rules: {s.profile} {s.profile_version}, card pool {s.card_pool} {s.card_pool_version} "
            f"(digest {s.card_pool_digest})")


def event_line(log: Judged, seq: int, event: ev.Event | None) -> str:
    if event is None:
        return "nothing (no record here)"
    state = log.state_at(min(seq - 1, log.last))
    return f"record {seq}: {render(state, event, log.memory)}"


def decision_text(log: Judged, f: DivergenceFinding) -> str:
    if f.decision_seq is None:
        return "the set-up and opening (before any decision)"
    return f"decision {f.decision} ({log.line(f.decision_seq)})"


def illegal_text(log: Judged, i: IllegalFinding) -> str:
    return f"{log.line(i.seq)} · decision {i.decision} · breaks {i.rule}: {i.reason}"


def given_text(given: int) -> str:
    return f"the board at record {given} was given, not dealt"


def inputs_note(log: Judged, decks_said: str = "") -> str:
    """What re-adjudication takes as given: the inputs no rules can derive, which only a signature vouches for;
    then what was checked of the deck lists (``statemachine.decks.said``)."""
    s = log.started
    assert s is not None
    decks = log.deck_sizes(len(s.players))
    return (f"taken as given, as no rules can derive them: the players ({', '.join(s.players)}), their deck "
            f"lists ({' and '.join(map(str, decks))} cards), the seed and the options; only a signature proves "
            f"who recorded them" + (f"; {decks_said}" if decks_said else ""))


def verify_lines(log: Judged, result: Adjudication, *, full: bool = False) -> list[str]:
    lines = [f"verify of {log.location}, game {log.game}", rules_line(log)]
    f = result.divergence
    if f is not None and f.kind == "version":
        lines.append(f"NOTE: the log's {f.field} is not the one its rules version plays with (below)")
    else:
        lines.append("the installed rules and card pool are the ones the log names")
    if result.given is not None:
        lines.append(f"GIVEN: {given_text(result.given)} (a scenario's or a reconstruction's board, not a deal "
                     f"from the seed)")
    lines.append(inputs_note(log, result.decks))
    lines.append(f"{result.decisions} decisions re-run from the recorded set-up and seed "
                 f"({result.checked} judged, {len(result.unchecked)} not)")
    if f is None:
        after = f" after the given board (records 1 to {result.given})" if result.given is not None else ""
        lines.append(f"SAME: all {log.last} records{after} are what the rules give")
        if not log.ends_game:
            lines.append("its completeness is unproven: it does not end in GameEnded, and a log cut at a decision "
                         "boundary is re-adjudicated as well as a whole one (kifu audit --head proves its end)")
        return lines
    lines.append(f"DIVERGENT at record {f.seq}, in {decision_text(log, f)}")
    refused = f.actual is None and f.expected is not None and f.seq == f.decision_seq
    if f.field and f.field not in ("record", "kind") and not refused:
        what = f.field if f.kind == "envelope" or f.expected is None else f"{type(f.expected).__name__}.{f.field}"
        lines.append(f"  {f.kind}: {what} differs: {f.message.split(': ', 1)[-1]}")
    if refused:
        lines.append(f"  the log has:    {event_line(log, f.seq, f.expected)}")
        lines.append(f"  the rules say:  {f.message.split('this decision: ', 1)[-1]}")
    else:
        lines.append(f"  the log has:    {event_line(log, f.seq, f.expected)}")
        lines.append(f"  the rules give: {event_line(log, f.seq, f.actual)}")
    if result.illegal:
        lines.append(f"illegal decisions ({len(result.illegal)}):")
        lines += [f"  {illegal_text(log, i)}" for i in result.illegal]
    if result.unchecked:
        lines.append(f"not judged ({len(result.unchecked)}; their procedure began at a disputed decision): "
                     f"records {', '.join(map(str, result.unchecked[:20]))}"
                     + (" ..." if len(result.unchecked) > 20 else ""))
    before = min(f.seq - 1, log.last)
    lines.append(f"the state just before record {f.seq} (kifu at {log.location} {before}):")
    # The record after that point is the divergent one, of decision f.decision: whether the rules waited there or
    # were in the middle of a procedure, as kifu at says it.
    board = board_data(log.state_at(before), None, log.memory,
                       next_decision=f.decision if before == f.seq - 1 else None)
    lines += [f"  {line}" for line in board_lines(board, full=full)]
    return lines


def _event_json(event: ev.Event | None) -> dict[str, object] | None:
    return ev.to_builtins(event) if event is not None else None


def divergence_json(log: Judged, f: DivergenceFinding | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "seq": f.seq, "decision": f.decision, "decision_seq": f.decision_seq, "message": f.message,
        "kind": f.kind, "field": f.field,
        "expected": _event_json(f.expected), "actual": _event_json(f.actual),
        "expected_text": event_line(log, f.seq, f.expected), "actual_text": event_line(log, f.seq, f.actual),
    }


def illegal_json(log: Judged, i: IllegalFinding) -> dict[str, Any]:
    return {"seq": i.seq, "decision": i.decision, "player": i.player, "action": i.action, "args": list(i.args),
            "rule": i.rule, "reason": i.reason, "text": log.lines.get(i.seq, "")}


def verify_json(log: Judged, result: Adjudication) -> dict[str, Any]:
    s = log.started
    assert s is not None
    return {
        "source": log.location, "game": log.game, "same": result.same, "profile": s.profile,
        "profile_version": s.profile_version, "card_pool": s.card_pool, "card_pool_version": s.card_pool_version,
        "card_pool_digest": s.card_pool_digest, "given": result.given, "decisions": result.decisions,
        "checked": result.checked, "unchecked": result.unchecked,
        "divergence": divergence_json(log, result.divergence),
        "illegal": [illegal_json(log, i) for i in result.illegal],
    }
