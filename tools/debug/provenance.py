"""Where a value came from: the record that set it, the rule behind that record, and the chain of causes back to
the player's decision that started it (or to the set-up).

A value is named by a small path (``Path``): a field of an object (its zone, power, toughness, controller, a
status), a player's counter, a pending effect, the open request or one of its options, or an amount an effect
computed (an ``AmountComputed`` record). Its origin is the last record at or before the point after which the
value became what it is: found by folding the log forward over windows of ``SPAN`` records, from the window that
holds the point back towards the record that made the object (an object's values begin when it came to be: each
zone change makes a new object). So the answer is the fold's own, record by record. Two values are looked up in
the session's indices (``tools.debug.indices``) instead, since on a long log their last change may lie any distance
back: a player's counter (in the records that set counters) and an object's power or toughness (where the
continuous effects on it began, and where those that ended did so); an object's zone and controller are what it
came to be with.

Values a continuous effect changes also name each effect in force on the object and its source; a value read
from the card as it was just before it left its zone (look-back) is answered from the state just before it left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from eventsource import events as ev
from projections.characteristics import view
from projections.state import EACH, GameState, Modifier, evolve, fork, selected
from projections.views import can_see, redact_event
from statemachine.games import hidden_zones
from tools.debug.indices import effect_index, stat_index
from tools.debug.rules import rule_of
from tools.errors import BadInput
from tools.travel.board import request_data
from tools.travel.points import SPAN
from tools.travel.streamed import PointLog
from tools.travel.trace import names, render

FIELDS: Final = ("zone", "power", "toughness", "controller", "status", "under")
MAX_CAUSES: Final = 64  # a cause chain longer than this is cut (a log's chains are a few records long)


@dataclass(frozen=True)
class Path:
    """A value at a point: ``kind`` object (``obj``, ``field``, ``key``), player (``player``, ``key``), pending
    (``effect``), request, option (``index`` of the open request's options) or amount (the record ``seq`` that
    computed it)."""

    kind: str
    obj: int = 0
    field: str = ""
    key: str = ""
    player: int = 0
    effect: int = 0
    index: int = 0
    seq: int = 0

    def read(self, state: GameState) -> Any:
        match self.kind:
            case "object":
                if self.obj not in state.objects:
                    return None
                v = view(state, self.obj)
                match self.field:
                    case "zone":
                        return v.zone
                    case "power":
                        return v.chars.power
                    case "toughness":
                        return v.chars.toughness
                    case "controller":
                        return v.controller
                    case "status":
                        return v.status.get(self.key, 0)
                    case "under":
                        return tuple(v.under_cards)
            case "player":
                if self.player >= len(state.players):
                    return None
                return state.players[self.player].stats.get(self.key)
            case "pending":
                p = state.pending.get(self.effect)
                return None if p is None else (p.holder, p.resolving, p.targets)
            case "request":
                r = state.request
                return None if r is None else (r.player, r.kind, r.options)
        raise BadInput(f"no value of kind {self.kind!r} (object, player, pending, request, option or amount)")


def parse_path(raw: dict[str, Any]) -> Path:
    """A path from a client (the page, a notebook), checked: every field typed and known."""
    kind = raw.get("kind")
    try:
        match kind:
            case "object":
                fld = str(raw["field"])
                if fld not in FIELDS:
                    raise BadInput(f"no object field {fld!r}: the fields are {', '.join(FIELDS)}")
                return Path("object", obj=int(raw["obj"]), field=fld, key=str(raw.get("key", "")))
            case "player":
                return Path("player", player=int(raw["player"]), key=str(raw["key"]))
            case "pending":
                return Path("pending", effect=int(raw["effect"]))
            case "request":
                return Path("request")
            case "option":
                return Path("option", index=int(raw["index"]))
            case "amount":
                return Path("amount", seq=int(raw["seq"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"a value path of kind {kind!r} is missing or mistypes a field: {exc}") from None
    raise BadInput(f"no value of kind {kind!r} (object, player, pending, request, option or amount)")


class Lines:
    """Records as one viewer may read them: the judge reads every record; a seat reads each as
    ``projections.views.redact_event`` leaves it, and a record it did not see as not seen."""

    def __init__(self, log: PointLog, viewer: int | None) -> None:
        self.log, self.viewer = log, viewer

    def line(self, seq: int) -> str:
        if self.viewer is None:
            return self.log.line(seq)
        rec = self.log.record(seq)
        before = self.log.state_at(seq - 1)
        seen = redact_event(rec.event, self.viewer, before, hidden=hidden_zones(before.profile))
        if seen is None:
            return f"record {seq}: (a record {before.players[self.viewer].name} did not see)"
        return f"record {seq}: {render(before, seen, None)}"

    def entry(self, seq: int) -> dict[str, Any]:
        rec = self.log.record(seq)
        return {"seq": seq, "line": self.line(seq), "kind": ev.kind_of(rec.event), "decision": rec.decision,
                "cause": rec.cause, "rule": rule_of(self.log, rec)}

    def entries(self, start: int, stop: int) -> list[dict[str, Any]]:
        """Records ``start..stop`` as entries, folding once from the state before ``start`` (a page of the
        timeline: one ``state_at`` however long the page)."""
        state = fork(self.log.state_at(start - 1))
        hidden = hidden_zones(state.profile)
        mem = self.log.memory if self.viewer is None else None
        out = []
        for rec in self.log.span(start, stop):
            seq = rec.seq
            seen = rec.event if self.viewer is None else redact_event(rec.event, self.viewer, state, hidden=hidden)
            if seen is None:
                line = f"record {seq}: (a record {state.players[self.viewer or 0].name} did not see)"
            else:
                line = f"record {seq}: {render(state, seen, mem)}"
            out.append({"seq": seq, "line": line, "kind": ev.kind_of(rec.event), "decision": rec.decision,
                        "cause": rec.cause, "rule": rule_of(self.log, rec)})
            evolve(state, rec.seq, rec.event, rec.decision)
        return out


def causes(log: PointLog, seq: int, lines: Lines) -> list[dict[str, Any]]:
    """Record ``seq`` and the records that caused it (the envelope's ``cause``), back to the player's decision
    that began them (its ``ChoiceMade``; a decision's own cause is only the point it was made at, so the chain
    stops there) or to the set-up: each as an entry (its line, kind, rule)."""
    chain = [seq]
    rec = log.record(seq)
    while (not isinstance(rec.event, ev.ChoiceMade) and rec.cause and rec.cause not in chain
           and len(chain) < MAX_CAUSES):
        rec = log.record(rec.cause)
        chain.append(rec.seq)
    if not isinstance(rec.event, ev.ChoiceMade) and rec.decision:
        decision = log.decision_record(rec.decision, near=rec.seq)
        if decision is not None and decision.seq not in chain:
            chain.append(decision.seq)
    for s in sorted(chain):  # each line reads the state before its record: folded oldest first, each from the last
        log.state_at(s - 1)
    return [lines.entry(s) for s in chain]


def _lower_bound(state: GameState, path: Path) -> int:
    """The first record a value can have been set at: an object's values begin when it came to be."""
    if path.kind == "object" and path.obj in state.objects:
        return max(1, state.objects[path.obj].since)
    if path.kind == "pending" and path.effect in state.pending:
        return max(1, state.pending[path.effect].since)
    return 1


def touches(path: Path, event: ev.Event) -> bool:
    """Whether ``event`` may change the value at ``path`` (a cheap test on the event alone, true whenever it can:
    a window of records none of which touches the value is passed over without folding it). What each fold
    changes: ``projections.state.FOLDS``; an object's characteristics: ``projections.characteristics``."""
    match path.kind, path.field, event:
        case "object", "status", ev.StatusSet(obj=oid) | ev.Revealed(obj=oid):
            return oid == path.obj  # (only these folds change an object's statuses, and a shuffle its seen marks)
        case "object", "status", ev.Shuffled(order=order):
            return path.obj in order
        case "object", "under", ev.Stacked() | ev.ZoneChanged():
            return True
        case "object", "power" | "toughness", (ev.ContinuousEffectStarted() | ev.ContinuousEffectEnded()
                                                | ev.ZoneChanged()):
            return True  # a modifier starts or ends, or its source leaves
        case "player", _, ev.PlayerStat(player=p) | ev.PlayerLost(player=p):
            return p == path.player
        case "pending", _, (ev.Triggered() | ev.EffectPending() | ev.EffectResolving() | ev.EffectResolved()
                            | ev.EffectFizzled() | ev.Chosen()):
            return True
        case "request", _, ev.ChoiceRequested() | ev.ChoiceMade():
            return True
    return isinstance(event, ev.GameStarted)


def origin(log: PointLog, n: int, path: Path) -> int | None:
    """The last record at or before point ``n`` after which ``path`` read as it reads at ``n`` (None: it has read
    so since before the first record).

    An object's zone and controller are what it came to be with (every zone change makes a new object, and no
    fold changes an object's controller), so their origin is that record. A player's counter is looked up in the
    session's index. Otherwise the log is folded forward over windows of at most ``SPAN`` records ending at
    snapshot boundaries (so the state a window folds from is a snapshot, not a fold of its own), from the window
    holding the point back, each window passed over unfolded when none of its records ``touches`` the value."""
    state_n = log.state_at(n)
    want = path.read(state_n)
    low = _lower_bound(state_n, path)
    if path.kind == "object" and path.field in ("zone", "controller") and want is not None:
        return low
    if path.kind == "player":  # (a counter is set only by PlayerStat records: the index knows which)
        return stat_index(log).last_change(path.player, path.key, n)
    if path.kind == "object" and path.field in ("power", "toughness") and path.obj in state_n.objects:
        return _characteristic_origin(log, n, path, low)
    stop = n
    while stop >= low:
        start = max(low, (stop - 1) // SPAN * SPAN + 1)
        window = log.span(start, stop)
        if any(touches(path, rec.event) for rec in window):
            state = fork(log.state_at(start - 1))
            last_change = None
            prev = path.read(state)
            for rec in window:
                evolve(state, rec.seq, rec.event, rec.decision)
                now = path.read(state)
                if now != prev:
                    last_change = rec.seq
                prev = now
            if last_change is not None:
                return last_change
        stop = start - 1
    return low if low > 1 and want is not None else None


def _characteristic_origin(log: PointLog, n: int, path: Path, low: int) -> int:
    """``origin`` of an object's power or toughness, which only its continuous effects change (printed values
    stay; ``projections.characteristics.compute``): so it can change only where such an effect that applies to
    the object began (a ``ContinuousEffectStarted``, found in the session's index) or ended (the first point
    after its start where the state no longer holds it: a binary search over points, snapshots first). Of those
    records, latest first, the first where the value read differs from the value just before is the answer; none:
    it has read so since the object came to be."""
    state_n = log.state_at(n)
    candidates = set()
    for seq, started in effect_index(log).started(path.obj, low, n):
        m = Modifier(started.effect, started.source, started.kind, started.target, started.amount, started.value,
                     started.until, seq)
        applies = selected(state_n, m, path.obj) if m.kind.startswith(EACH) else m.target == path.obj
        if not applies or m.kind.removeprefix(EACH) != path.field:
            continue
        candidates.add(seq)
        if m.effect not in state_n.modifiers:  # it ended between its start and the point
            candidates.add(_first_point_without(log, m.effect, seq, n))
    for seq in sorted(candidates, reverse=True):
        if path.read(log.state_at(seq - 1)) != path.read(log.state_at(seq)):
            return seq
    return low


def _first_point_without(log: PointLog, effect: int, start: int, stop: int) -> int:
    """The first point after ``start`` (where ``effect`` began) at which the state no longer holds it (it does
    not at ``stop``); an effect id is never used again, so the points holding it are one run. Searched first over
    the snapshots' points (each read from its snapshot alone), then record by record within the last span."""
    low, high = start, stop  # holds at low, not at high
    while high - low > SPAN:
        mid = (low + high) // 2
        if mid // SPAN * SPAN > low:
            mid = mid // SPAN * SPAN  # (a point a snapshot is taken at, when the store keeps them)
        if effect in log.state_at(mid).modifiers:
            low = mid
        else:
            high = mid
    state = fork(log.state_at(low))
    for rec in log.span(low + 1, high):
        evolve(state, rec.seq, rec.event, rec.decision)
        if effect not in state.modifiers:
            return rec.seq
    return high


def explain(log: PointLog, n: int, path: Path, viewer: int | None = None) -> dict[str, Any]:
    """The answer to "where did this come from?" for ``path`` at point ``n``, as ``viewer`` may know it."""
    state = log.state_at(n)
    hidden = hidden_zones(state.profile)
    if path.kind == "object" and viewer is not None and not can_see(state, viewer, path.obj, hidden=hidden):
        raise BadInput(f"object #{path.obj} is hidden from {state.players[viewer].name} at record {n}")
    lines = Lines(log, viewer)
    if path.kind == "amount":
        return _amount(log, n, path, viewer, lines)
    if path.kind == "option":
        return _option(log, n, path, viewer, lines, state)
    value = path.read(state)
    answer: dict[str, Any] = {"point": n, "path": path.__dict__, "value": _plain(value)}
    if value is None and path.kind == "object" and path.obj in state.last_known:
        left = state.last_known[path.obj].left_at  # the card left: the value just before, then what moved it
        answer["look_back"] = {"left_at": left, "point_before": left - 1,
                               "value": _plain(path.read(log.state_at(left - 1)))}
        answer["set_by"] = causes(log, left, lines)
        return answer
    seq = origin(log, n, path)
    answer["set_by"] = causes(log, seq, lines) if seq is not None else []
    if seq is None:
        answer["note"] = "it has been so since before the first record"
    if path.kind == "object" and path.field in ("power", "toughness") and path.obj in state.objects:
        nm = names(state, log.memory if viewer is None else None, viewer)
        answer["continuous"] = [
            {"effect": m.effect, "kind": m.kind, "amount": m.amount, "until": m.until, "since": m.since,
             "source": m.source, "source_name": nm.obj(m.source) if m.source >= 0 else None}
            for m in sorted(state.modifiers.values(), key=lambda m: (m.since, m.effect)) if m.target == path.obj]
    return answer


def _amount(log: PointLog, n: int, path: Path, viewer: int | None, lines: Lines) -> dict[str, Any]:
    """An amount an effect computed: the record that computed it (its expression, the rule, the causes back to
    the decision), and each card it read as that card was just before it left its zone (look-back)."""
    if not 1 <= path.seq <= n:
        raise BadInput(f"record {path.seq} is not at or before record {n}: ask about an amount computed by then")
    rec = log.record(path.seq)
    if not isinstance(rec.event, ev.AmountComputed):
        raise BadInput(f"record {path.seq} is {ev.kind_of(rec.event)}, not a computed amount (AmountComputed)")
    before = log.state_at(path.seq - 1)
    seen = rec.event if viewer is None else redact_event(rec.event, viewer, before,
                                                          hidden=hidden_zones(before.profile))
    if not isinstance(seen, ev.AmountComputed):
        raise BadInput(f"record {path.seq} is hidden from {before.players[viewer or 0].name}")
    hidden_value = isinstance(seen, ev.SecretAmountComputed) and seen.redacted
    after = log.state_at(path.seq)
    looked = []
    for oid in seen.looked_back:
        known = after.last_known.get(oid)
        if known is not None:
            looked.append({"obj": oid, "left_at": known.left_at, "point_before": known.left_at - 1})
    return {"point": n, "path": path.__dict__, "value": "hidden" if hidden_value else seen.value,
            "expression": seen.expression, "ability": seen.ability, "param": seen.param, "effect": seen.effect,
            "looked_back": looked, "set_by": causes(log, path.seq, lines)}


def _option(log: PointLog, n: int, path: Path, viewer: int | None, lines: Lines, state: GameState
            ) -> dict[str, Any]:
    """An option of the open request, numbered as the board lists them for ``viewer`` (another player's options
    among cards hidden from the viewer are not listed): the record that asked (its rule, the causes back to the
    decision), the effect it asks for, and for an object offered, how that object got where it is."""
    request = state.request
    shown = (request_data(state, None, viewer) or {}).get("options", [])
    if request is None or not 0 <= path.index < len(shown):
        raise BadInput(f"no option {path.index} of a request open at record {n}")
    value = shown[path.index]
    asked = origin(log, n, Path("request"))
    answer: dict[str, Any] = {"point": n, "path": path.__dict__, "value": _plain(value), "effect": request.effect,
                              "set_by": causes(log, asked, lines) if asked is not None else []}
    hidden = hidden_zones(state.profile)
    if isinstance(value, int) and value in state.objects and (
            viewer is None or can_see(state, viewer, value, hidden=hidden)):
        answer["object"] = explain(log, n, Path("object", obj=value, field="zone"), viewer)
    return answer


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value

