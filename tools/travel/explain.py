"""Why a trigger fired, resolved or fizzled (``kifu why``), and why an ability did not trigger (``kifu why-not``).

Both read the log and the rules profile it names and reuse the rules' own matching pieces
(``statemachine.triggers``: the game's ``TriggerKind`` table, ``matches_filter``; ``projections.characteristics``:
``view`` and ``last_known``), so an explanation is the check the engine made, step by step, in the state the
engine made it in: just before the causing event for leave and destroy triggers, just after it otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eventsource import events as ev
from eventsource.records import Record
from projections.characteristics import ObjectView, last_known, view
from projections.state import GameState
from projections.views import zone_kind
from statemachine.naming import printed_id
from tools.errors import BadInput
from tools.travel.streamed import PointLog
from tools.travel.trace import names, obj_name, player_name, zone_name


def effect_of(event: ev.Event) -> int | None:
    match event:
        case ev.Triggered() | ev.EffectPending() | ev.EffectResolving() | ev.EffectResolved() | ev.EffectFizzled():
            return event.effect
        case ev.ChoiceRequested() | ev.Chosen() | ev.CostPaid() | ev.AmountComputed():
            return event.effect
        case _:
            return None


@dataclass
class EffectHistory:
    effect: int
    triggered: Record | None = None
    pending: Record | None = None
    resolving: Record | None = None
    ended: Record | None = None  # EffectResolved or EffectFizzled
    choices: list[Record] | None = None


def history(log: PointLog, eid: int, n: int) -> EffectHistory:
    """The records of effect ``eid`` (which record ``n`` names): where it triggered, waited, its choices, its end."""
    h = EffectHistory(eid, choices=[])
    assert h.choices is not None
    for r in log.effect_records(eid, n):
        e = r.event
        if effect_of(e) != eid:
            continue
        match e:
            case ev.Triggered():
                h.triggered = h.triggered or r
            case ev.EffectPending():
                h.pending = h.pending or r
            case ev.EffectResolving():
                h.resolving = r
            case ev.EffectResolved() | ev.EffectFizzled():
                h.ended = r
            case _:
                h.choices.append(r)
    return h


def describe_view(state: GameState, v: ObjectView) -> str:
    c = v.chars
    text = f"{c.name}#{v.obj} in {zone_name(state, v.zone)}"
    if c.power is not None:
        text += f", power {c.power}"
    text += f", abilities: {', '.join(c.abilities) or 'none'}"
    if v.abilities_ignored:
        text += " (its abilities are being ignored)"
    if v.under_cards:
        text += f", {len(v.under_cards)} card(s) under it"
    return text


class _Shim:
    """Just enough of an engine for a condition to be evaluated against a past state (read only)."""

    def __init__(self, state: GameState, profile: Any) -> None:
        self.state, self.profile = state, profile


def condition_values(profile: Any, state: GameState, pend: Any, conditions: Any) -> list[tuple[str, str]]:
    """Each condition of an ability as it evaluates in ``state`` (True/False, or why it cannot be)."""
    from statemachine.context import EffectContext

    out: list[tuple[str, str]] = []
    for cond in conditions:
        ctx = EffectContext(_Shim(state, profile), controller=pend.controller, source=pend.source,  # type: ignore[arg-type]
                            source_card=pend.source_card, effect=pend.effect, ability=pend.ability,
                            subject=pend.subject, captured=pend.captured)
        try:
            value = "true" if profile.vocabulary.check(ctx, cond.name, cond.params) else "false"
        except Exception as exc:  # a condition that needs more than a state: say so, do not guess
            value = f"cannot be evaluated here ({type(exc).__name__})"
        params = ", ".join(f"{k} {v}" for k, v in cond.params.items())
        out.append((f"{cond.name}" + (f" ({params})" if params else ""), value))
    return out


def _ability(profile: Any, state: GameState, source_card: int, ability: str) -> tuple[Any, Any] | None:
    facts = state.cards.get(source_card)
    card = profile.pool.cards.get(facts.definition) if facts is not None and profile is not None else None
    if card is None:
        return None
    for a in card.abilities:
        if a.id == ability:
            return card, a
    return None


def trigger_text(t: Any) -> str:
    parts = [f"on {t.on}", f"subject {t.subject}", f"whose {t.whose}", f"works from {t.where}"]
    if t.filter:
        parts.append("filter " + ", ".join(f"{k} = {v}" for k, v in t.filter.items()))
    return ", ".join(parts)


def why(log: PointLog, n: int) -> list[str]:
    rec = log.record(n)
    eid = effect_of(rec.event)
    if eid is None:
        raise BadInput(f"record {n} is {ev.kind_of(rec.event)}; kifu why explains a trigger, a pending effect, its "
                       "choices, its resolution or its fizzle (records naming an effect)")
    h = history(log, eid, n)
    profile = rules_of(log)
    lines = [log.line(n), ""]
    first = h.triggered or h.pending
    pend_state = log.state_at(h.pending.seq if h.pending else (first.seq if first else n))
    pend = pend_state.pending.get(eid)
    label = names(pend_state, log.memory).label(pend) if pend is not None else f"effect #{eid}"
    lines.append(f"effect #{eid}: {label}")
    if profile is None:
        lines.append(f"(the rules of {log.profile_name()!r} are not installed here: what the log says is shown, "
                     "not the ability's trigger or its conditions)")
    if h.triggered is None:
        put = h.pending or rec
        lines.append(f"it did not trigger: it was put in place by record {put.seq} as part of decision {put.decision}"
                     + (f" ({log.line(dm.seq)})" if (dm := log.decision_record(put.decision, put.seq)) else ""))
    else:
        t = h.triggered.event
        assert isinstance(t, ev.Triggered)
        before = log.state_at(t.by - 1)
        after = log.state_at(t.by)
        checked_state = before if t.checked == ev.BEFORE else after
        found = _ability(profile, after, t.source_card, t.ability)
        owner = player_name(after, t.controller)
        lines.append(f"ability {t.ability} of {obj_name(after, log.memory, t.source)}, controlled by {owner}")
        lines.append(f"caused by {log.line(t.by)}")
        cause_rec = log.record(t.by)
        if cause_rec.decision and (dm := log.decision_record(cause_rec.decision, cause_rec.seq)) is not None:
            lines.append(f"  which belongs to decision {cause_rec.decision}: {log.line(dm.seq)}")
        which = "just before" if t.checked == ev.BEFORE else "just after"
        point = t.by - 1 if t.checked == ev.BEFORE else t.by
        lines.append(f"checked in the state {which} record {t.by} (kifu at {log.location} {point})"
                     + (": a look-back trigger" if t.checked == ev.BEFORE else ""))
        if found is not None:
            ability = found[1]
            lines.append(f"  the trigger: {trigger_text(ability.trigger)}" if ability.trigger else "  (no trigger)")
        holder = (last_known(checked_state, t.source) if t.source not in checked_state.objects else
                  view(checked_state, t.source)) if t.checked == ev.BEFORE else (
            view(checked_state, t.source) if t.source in checked_state.objects else None)
        if holder is None and t.checked == ev.BEFORE:
            holder = last_known(after, t.source)
        if holder is not None:
            lines.append(f"  the source as checked: {describe_view(checked_state, holder)}")
        if t.subject is not None and t.subject != t.source:
            subj = view(checked_state, t.subject) if t.subject in checked_state.objects else last_known(
                after, t.subject)
            if subj is not None:
                lines.append(f"  the subject as checked: {describe_view(checked_state, subj)}")
        if t.captured:
            lines.append(f"  captured when it triggered: {', '.join(t.captured)}")
        if found is not None and found[1].conditions and pend is not None:
            lines.append("conditions (the game says when they count):")
            for name, value in condition_values(profile, log.state_at(h.triggered.seq), pend, found[1].conditions):
                lines.append(f"  {name}: {value} when it triggered (record {h.triggered.seq})")
            if h.resolving is not None:
                at = log.state_at(h.resolving.seq)
                for name, value in condition_values(profile, at, pend, found[1].conditions):
                    lines.append(f"  {name}: {value} at resolution (record {h.resolving.seq})")
    if h.pending is not None:
        p = h.pending.event
        assert isinstance(p, ev.EffectPending)
        lines.append(f"pending from {log.line(h.pending.seq)}")
        if p.key:
            lines.append(f"  its ordering key: {list(p.key)}")
    for c in h.choices or []:
        lines.append(f"choice: {log.line(c.seq)}")
    if h.resolving is not None:
        lines.append(f"resolution began: {log.line(h.resolving.seq)}")
    if h.ended is None:
        lines.append(f"it has not resolved by the end of the log (record {log.last})")
    elif isinstance(h.ended.event, ev.EffectFizzled):
        lines.append(f"it FIZZLED: {log.line(h.ended.seq)}")
        lines.append(f"  reason: {h.ended.event.reason}")
    else:
        lines.append(f"it resolved: {log.line(h.ended.seq)}")
    return lines


# -- why not --------------------------------------------------------------------------------------------------


def find_objects(log: PointLog, states: list[GameState], card: str) -> list[int]:
    """Objects meant by CARD: ``#12`` or ``12`` (an object id), an object as the tools print it
    (``name#12``), or a definition id or a card name."""
    printed = printed_id(card)
    text = card.lstrip("#") if printed is None else str(printed[1])
    if text.isdecimal():
        oid = int(text)
        if not any(oid in s.objects or oid in s.last_known for s in states):
            raise BadInput(f"no object #{oid} around that record")
        if printed is not None and printed[0] and all(names(s, log.memory).obj(oid) != card for s in states):
            raise BadInput(f"{card!r}: object #{oid} is {names(states[0], log.memory).obj(oid)} around that record")
        return [oid]
    found: list[int] = []
    for s in states:
        for oid, obj in sorted(s.objects.items()):
            facts = s.cards[obj.card]
            if card in (facts.definition, facts.printed.name) and oid not in found:
                found.append(oid)
    if not found:
        raise BadInput(f"no card {card!r} in the game around that record (give an object id, a card id or a name)")
    return found


def _group(log: PointLog, n: int) -> list[Record]:
    """The simultaneous events record ``n`` belongs to: the run of moves around it with the same cause."""
    rec = log.record(n)
    group = [rec]
    for step in (-1, 1):
        seq = n + step
        while (r := log.get(seq)) is not None:
            if r.cause != rec.cause or r.decision != rec.decision or isinstance(
                    r.event, ev.Triggered | ev.EffectPending | ev.ChoiceMade | ev.ChoiceRequested):
                break
            group.append(r)
            seq += step
    return sorted(group, key=lambda r: r.seq)


def why_not(log: PointLog, n: int, card: str, ability_id: str | None = None) -> list[str]:
    rec = log.record(n)
    profile = rules_of(log)
    before, after = log.state_at(n - 1), log.state_at(n)
    lines = [log.line(n)]
    oids = find_objects(log, [before, after], card)
    if rec.decision == 0 and len(oids) > 8:
        oids = oids[:8]
    triggered = {(r.event.source, r.event.ability) for r in log.triggered_by(n) if isinstance(r.event, ev.Triggered)}
    if profile is None:
        return lines + _without_rules(log, n, oids, ability_id, before, after, triggered)
    kinds = profile.trigger_kinds
    leavers = {r.event.old for r in _group(log, n) if isinstance(r.event, ev.ZoneChanged)}
    if len(oids) > 1:  # several copies: explain those where an ability could work, count the others
        wheres = {a.trigger.where for d in {_card_of(log, before, after, o) for o in oids} if d is not None
                  for a in _abilities_of(profile, after if d in after.cards else before, d) if a.trigger}
        near = [o for o in oids if _zone_of(before, after, o) in wheres]
        far = [o for o in oids if o not in near]
        if far and near:
            zones = sorted({_zone_of(before, after, o) for o in far})
            lines.append(f"({len(far)} other copies were in {', '.join(zones)}, where none of its abilities work)")
            oids = near
    lacking: list[str] = []  # the cards asked about that lack the ability asked about
    for oid in oids:
        state_for_card = before if oid in before.objects or oid in before.last_known else after
        obj = state_for_card.objects.get(oid)
        facts = state_for_card.cards[obj.card] if obj is not None else state_for_card.cards[
            after.last_known[oid].obj.card if oid in after.last_known else before.last_known[oid].obj.card]
        cdef = profile.pool.cards.get(facts.definition)
        lines.append("")
        lines.append(f"{facts.printed.name}#{oid} ({facts.definition})")
        if cdef is None:
            lines.append("  the installed card pool has no such card: nothing of it can trigger")
            continue
        abilities = [a for a in cdef.abilities if ability_id in (None, a.id)]
        if ability_id is not None and not abilities:
            lacking.append(f"{facts.printed.name} ({facts.definition}) has {', '.join(a.id for a in cdef.abilities)}")
            lines.append(f"  it has no ability {ability_id!r} (it has: {', '.join(a.id for a in cdef.abilities)})")
            continue
        for a in abilities:
            reason = _why_not_one(log, n, rec.event, oid, a, kinds, before, after, leavers, triggered, profile)
            lines.append(f"  {a.id} ({a.label}): {reason}")
    if oids and len(lacking) == len(oids):  # a question about an ability the card does not have
        raise BadInput(f"no ability {ability_id!r} on that card: {'; '.join(sorted(set(lacking)))}")
    return lines


def rules_of(log: PointLog) -> Any:
    """The rules profile the log names, or None when kifu has no such game (a log of another program's game:
    what the log itself says can still be shown)."""
    from statemachine.games import UnknownProfile

    try:
        return log.profile()
    except UnknownProfile:
        return None


def _without_rules(log: PointLog, n: int, oids: list[int], ability_id: str | None, before: GameState,
                   after: GameState, triggered: set[tuple[int, str]]) -> list[str]:
    """why-not for a game whose rules are not installed: which abilities did trigger on record n (the log says),
    and that the others cannot be checked."""
    lines: list[str] = []
    lacking: list[str] = []
    for oid in oids:
        state = before if oid in before.objects or oid in before.last_known else after
        obj = state.objects.get(oid) or (state.last_known[oid].obj if oid in state.last_known else None)
        if obj is None:
            continue
        facts = state.cards[obj.card]
        lines += ["", f"{facts.printed.name}#{oid} ({facts.definition})"]
        abilities = [a for a in facts.printed.abilities if ability_id in (None, a)]
        if not abilities:
            lacking.append(f"{facts.printed.name} ({facts.definition}) has {', '.join(facts.printed.abilities)}")
        for a in abilities:
            if (oid, a) in triggered:
                trig = next(r for r in log.triggered_by(n) if isinstance(r.event, ev.Triggered)
                            and r.event.source == oid and r.event.ability == a)
                lines.append(f"  {a}: it DID trigger: {log.line(trig.seq)} (kifu why {log.location} {trig.seq})")
            else:
                lines.append(f"  {a}: it did not trigger on record {n}; why cannot be checked: the rules of "
                             f"{log.profile_name()!r} are not installed here")
    if ability_id is not None and oids and len(lacking) == len(oids):
        raise BadInput(f"no ability {ability_id!r} on that card: {'; '.join(sorted(set(lacking)))}")
    return lines


def _abilities_of(profile: Any, state: GameState, card: int) -> list[Any]:
    facts = state.cards.get(card)
    cdef = profile.pool.cards.get(facts.definition) if facts is not None else None
    return list(cdef.abilities) if cdef is not None else []


def _card_of(log: PointLog, before: GameState, after: GameState, oid: int) -> int | None:
    """The card object ``oid`` is (or was), from the states around the record, else from the records read."""
    for state in (before, after):
        obj = state.objects.get(oid) or (state.last_known[oid].obj if oid in state.last_known else None)
        if obj is not None:
            return obj.card
    return log.memory.card_of.get(oid)


def _zone_of(before: GameState, after: GameState, oid: int) -> str:
    obj = before.objects.get(oid) or after.objects.get(oid)
    if obj is None:
        lk = before.last_known.get(oid) or after.last_known.get(oid)
        return zone_kind(lk.obj.zone)[1] if lk is not None else ""
    return zone_kind(obj.zone)[1]


def _why_not_one(log: PointLog, n: int, event: ev.Event, oid: int, ability: Any, kinds: dict[str, Any],
                 before: GameState, after: GameState, leavers: set[int], triggered: set[tuple[int, str]],
                 profile: Any) -> str:
    t = ability.trigger
    if t is None:
        return f"it is not a triggered ability (it is {ability.kind}): it never triggers"
    if (oid, ability.id) in triggered:
        trig = next(r for r in log.triggered_by(n) if isinstance(r.event, ev.Triggered)
                    and r.event.source == oid and r.event.ability == ability.id)
        return f"it DID trigger: {log.line(trig.seq)} (kifu why {log.location} {trig.seq})"
    kind = kinds.get(t.on)
    if kind is None:
        return f"the game has no trigger kind {t.on!r}"
    subjects = kind.subjects(event, {})
    if not subjects:
        return (f"record {n} is not an event its trigger ({t.on}) listens for: nothing in a "
                f"{ev.kind_of(event)} like this one is a '{t.on}' event")
    is_before = kind.checked == ev.BEFORE
    state = before if is_before else after
    where = "just before" if is_before else "just after"
    if is_before and oid in leavers and any(s != oid for s in subjects) and oid not in subjects:
        return (f"its card left in the same event; a card that leaves may look back only at its own move "
                f"(DM-LB-02, DM-LB-12), and record {n} is about another card")
    if is_before:
        holder = last_known(after, oid) if oid in leavers else (view(state, oid) if oid in state.objects else None)
    else:
        holder = view(state, oid) if oid in state.objects else None
    if holder is None:
        gone = after.last_known.get(oid) or before.last_known.get(oid)
        where_now = f"; it had left for #{gone.moved_to}" if gone is not None else ""
        return f"the object #{oid} was not in the game in the state checked ({where} record {n}){where_now}"
    zone = zone_kind(holder.zone)[1]
    if zone != t.where:
        return (f"not in the right zone: in the state {where} record {n} it is in {zone_name(state, holder.zone)}; "
                f"this ability works from {t.where}")
    if ability.id not in holder.chars.abilities:
        lifted = is_before and oid in leavers and holder.abilities_ignored and profile.ignoring_lifted_on_leave(state)
        if not lifted:
            looked = "in the looked-back state (DM-LB-11, DM-LB-17)" if is_before else "in the state checked"
            mods = [m for m in (after.last_known[oid].modifiers if oid in after.last_known else
                                [m for m in state.modifiers.values() if m.target == oid])
                    if m.kind == "ignore_abilities"]
            by = f" by effect #{mods[0].effect} from {obj_name(after, log.memory, mods[0].source)}" if mods else ""
            return f"its abilities are ignored {looked}{by}"
    messages = [_why_not_subject(log, n, event, oid, sid, kind, t, holder, state, after, is_before)
                for sid in subjects]
    return "; ".join(messages) if messages else "nothing in the event concerns it"


def _why_not_subject(log: PointLog, n: int, event: ev.Event, oid: int, sid: int, kind: Any, t: Any, holder: Any,
                     state: GameState, after: GameState, is_before: bool) -> str:
    """Why the ability of ``holder`` (object ``oid``) did not trigger on the event's subject ``sid``."""
    name = obj_name(after, log.memory, sid)
    if t.subject == "self" and sid != oid:
        return f"the event is about {name}, and this ability triggers only on its own card (subject self)"
    if t.subject == "other" and sid == oid:
        return "the event is about this card itself, and this ability triggers only on others"
    subject = last_known(after, sid) if is_before else (view(state, sid) if sid in state.objects else None)
    if subject is None:
        return f"the subject #{sid} cannot be seen in the state checked"
    if t.whose == "you" and subject.controller != holder.controller:
        return (f"{name} is controlled by {player_name(after, subject.controller)}, and the ability wants "
                "your own")
    if t.whose == "opponent" and subject.controller == holder.controller:
        return f"{name} is its own controller's, and the ability wants an opponent's"
    from statemachine.triggers import matches_filter

    prof = rules_of(log)
    tests = prof.vocabulary.filter_tests if prof is not None else None
    failed = [f"{k} = {v}" for k, v in t.filter.items() if not matches_filter(subject, {k: v}, tests)]
    if failed:
        c = subject.chars
        return (f"the filter is false for {name}: {'; '.join(failed)} (it has types {list(c.types)}, "
                f"subtypes {list(c.subtypes)}, colors {list(c.colors)}, power {c.power})")
    if kind.accept is not None and not kind.accept(event, holder, subject, t.filter):
        return f"the trigger's own check ({t.on}) is false for this event (filter {dict(t.filter)})"
    if zone_kind(holder.zone)[1] == "hand":
        return ("it matched in a hidden zone: it counts only if its player declared it, and no declaration "
                "was recorded (DM-W-27, DM-W-28)")
    return (f"by the rules' checks it matches {name}, yet the log has no trigger for it: run kifu verify "
            f"{log.location}")
