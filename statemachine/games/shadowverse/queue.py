"""The ordered processing queue (処理順), seed 004: Shadowverse's resolution policy.

Every effect triggers, then resolves (SV-O-01); effects resolve first in, first out (SV-O-02) and nothing
interrupts a resolution (SV-O-03): whatever triggers meanwhile joins the back of the queue (SPEC Part 4 #28).
Effects that trigger at one moment (one simultaneous group of events) are sorted once, when they trigger, and
the sort key is recorded in ``EffectPending.key``:

    (group, tier, category, side, position, printed order, granted order, instance)

- group: the sequence number of the group's last event — later groups resolve later (FIFO);
- tier: the timing tier of the trigger (SV-O-15..24, ``triggers.TIERS``);
- category: 0 hand, 1 leader and field, 2 direct summons from the deck (SV-O-10);
- side: 0 turn player, 1 non-turn player (SV-O-11);
- position: 0 the leader, else the card's order of entry — left to right on the field (SV-O-12), oldest
  first in the hand (SV-O-13);
- printed then granted order within one card (SV-O-14).

Conditions are judged when the effect triggers (SV-O-05): an effect whose condition does not hold does not
trigger. What an effect must judge at trigger time (a branch, a target) is captured in ``Triggered.captured``;
random picks, maxima and (provisionally, SV-O-08) counts are left to the resolution. An effect whose card left
the field before it resolves is not resolved (SV-O-29, SV-O-31), except the card's own leaving effects (Last
Words, "when this leaves", "when this is discarded") and effects held by the leader (SV-O-33); losing abilities
does not stop it (SV-O-32).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from eventsource import events as ev
from projections.state import GameState, Pending
from statemachine.cards import AbilityDef, CardDef
from statemachine.context import Body, EffectContext, context_of, resolve_effect, run_steps
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.engine import Engine
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import CASTING, CEMETERY, FIELD, HAND
from statemachine.games.shadowverse.triggers import tier
from statemachine.policy import ResolutionPolicy
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure

QUEUE = "queue"
STOP = "stop"  # ``EffectContext.bound`` key: a step ended the effect here (its EP cost could not be paid)
BUNDLED = "bundled="  # captured: how many instances of a bundling ability one simultaneous group made (SV-O-100)
GRANTED = "/"  # a granted ability's id is "<granting card>/<ability>" (SV-O-14, SV-O-31)

Capture = Callable[[EffectContext, dict[str, Any]], str | None]  # None: nothing judged now
CAPTURES: dict[str, Capture] = {}  # effect step name -> what it judges at trigger time (SV-O-05)


def captures(name: str) -> Callable[[Capture], Capture]:
    def register(fn: Capture) -> Capture:
        CAPTURES[name] = fn
        return fn

    return register


def ability_of(engine: Engine, definition: str, ability: str) -> tuple[CardDef, AbilityDef]:
    """The card and ability an effect comes from; a granted ability names the card that granted it."""
    if GRANTED in ability:
        granter, _, aid = ability.partition(GRANTED)
        card = engine.profile.pool[granter]
        return card, card.ability(aid)
    card = engine.profile.pool[definition]
    return card, card.ability(ability)


def held_by_leader(ability: AbilityDef) -> bool:
    """An ability a card gives its leader ("your leader has 'when you play a card, ...'", SV-O-33)."""
    return ability.trigger is not None and bool(ability.trigger.filter.get("leader"))


def category(zone_kind: str, leader: bool) -> int:
    """SV-O-10: hand, then leader and field, then direct summons (cards acting from the deck)."""
    if leader:
        return 1
    return {HAND: 0, FIELD: 1, CASTING: 1}.get(zone_kind, 2)


def sort_key(engine: Engine, inst: Instance, group: int, n: int, granted: int = 0, *,
             played: bool = True) -> tuple[int, ...]:
    """``played``: the holder came into play by being played now (not summoned, reanimated), for the
    switch ``enter_timing`` (SV-O-17, SV-O-116)."""
    st = engine.state
    ability = inst.listener.ability
    assert ability.trigger is not None
    leader = held_by_leader(ability)
    where = board.kind_of(inst.holder.zone)
    abilities = inst.listener.card.abilities
    printed = next((i for i, a in enumerate(abilities) if a.id == ability.id), len(abilities))
    if GRANTED in ability.id:  # SV-O-14: granted abilities after the printed ones, in the order granted
        printed, granted = len(abilities), inst.holder.since if leader else granted
    return (
        group,
        tier(ability.trigger.on, ability.trigger.subject, engine.options, where=where, played=played),
        category(where, leader),
        0 if inst.controller == st.active else 1,
        0 if leader else inst.holder.since + 1,
        printed,
        granted,
        n,
    )


_CATEGORIES = ("hand", "leader and field", "direct summon")


def describe_key(key: tuple[int, ...]) -> str:
    """A recorded sort key in words, as a judge reads the queue's order (SV-O-10..14)."""
    if len(key) != 8:
        return ", ".join(map(str, key))
    group, tier_, cat, side, position, printed, granted, n = key
    where = _CATEGORIES[cat] if 0 <= cat < len(_CATEGORIES) else f"category {cat}"
    parts = [f"triggered at record {group}", f"timing tier {tier_}", where,
             "turn player" if side == 0 else "non-turn player",
             "the leader" if position == 0 else f"card entered at record {position - 1}",
             f"{_ordinal(printed + 1)} printed ability"]
    if granted:
        parts.append(f"granted {_ordinal(granted)}")
    if n:
        parts.append(f"instance {n + 1}")
    return ", ".join(parts)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class OrderedQueue(ResolutionPolicy):
    holder = QUEUE
    rows_keep_resolving = False  # the queue lists what waits; the effect resolving has left it
    rows_order = "in order"

    def __init__(self) -> None:
        super().__init__()
        # Targets declared when a card was played (SV-O-35), by card id; consumed by its own triggers.
        self.declared: dict[int, tuple[str, ...]] = {}
        # Granted abilities (SV-O-14): the game adds instances for them to the group the kernel matched.
        self.extra: Callable[[Engine, list[Instance]], list[tuple[Instance, int]]] | None = None
        # The state and sequence number at which the state check last found nothing to do (``check_state``).
        self.checked: tuple[GameState, int] | None = None

    def clone(self) -> Self:
        out = super().clone()
        out.declared = dict(self.declared)
        out.checked = None  # (a memo of this policy's state, not the clone's)
        return out

    # -- triggering ---------------------------------------------------------------------------------------

    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        st = engine.state
        if not instances:
            return
        group = max(i.by for i in instances)
        found: list[tuple[Instance, int]] = [(i, 0) for i in instances]
        if self.extra is not None:
            found += self.extra(engine, instances)
        rows: list[tuple[tuple[int, ...], Instance, tuple[str, ...]]] = []
        from_card = engine.profile.rules.bundle_from_card
        found, bundled = _bundle(found, from_card)
        for n, (inst, granted) in enumerate(found):
            ctx = self.context(engine, inst)
            ability = inst.listener.ability
            vocab = engine.profile.vocabulary
            if not all(vocab.check(ctx, c.name, c.params) for c in ability.conditions):
                continue  # SV-O-05: judged now; an unmet condition means the effect does not trigger
            captured = list(self.declared.get(inst.holder.card, ())) if _own_play(ability) else []
            count = bundled.get((inst.holder.obj, ability.id), 1)
            if from_card and ability.bundle:
                captured.append(f"{BUNDLED}{count}")
            for i, step in enumerate(ability.effects):
                judge = CAPTURES.get(step.name)
                if not from_card and step.name in LEGACY_BUNDLED:
                    captured.append(f"{i}:{count}")
                elif judge is not None and (value := judge(ctx, step.params)) is not None:
                    captured.append(f"{i}:{value}")  # None: the step judges nothing now
            played = inst.holder.card in self.declared  # play() declares for the card being played
            rows.append((sort_key(engine, inst, group, n, granted, played=played), inst, tuple(captured)))
        rows = _direct_summons_at_random(engine, rows)
        for key, inst, judged in sorted(rows, key=lambda r: r[0]):
            engine.trigger(inst, holder=QUEUE, label=inst.listener.ability.label, key=key, captured=judged)
        del st

    def context(self, engine: Engine, inst: Instance, effect: int | None = None) -> EffectContext:
        return EffectContext(engine, controller=inst.controller, source=inst.holder.obj,
                             source_card=inst.holder.card, effect=effect, ability=inst.listener.ability.id,
                             subject=inst.subject.obj if inst.subject is not None else None)

    # -- resolving ----------------------------------------------------------------------------------------

    def waiting(self, engine: Engine) -> list[Pending]:
        return sorted((p for p in engine.state.pending.values() if p.holder == QUEUE and not p.resolving),
                      key=lambda p: p.key)

    def next(self, engine: Engine) -> Procedure | None:
        return self.settle(engine) if self.waiting(engine) else None

    def settle(self, engine: Engine) -> Procedure:
        """Resolve the queue to the end, one effect at a time; the state is checked before each (SV-O-27)."""
        while not engine.state.ended:
            engine.profile.check_state(engine)
            queue = self.waiting(engine)
            if engine.state.ended or not queue:
                return
            yield from self.resolve(engine, queue[0].effect)

    def stops(self, engine: Engine, pend: Pending, ability: AbilityDef) -> bool:
        """SV-O-29/31/33: whether the effect is not resolved because its card left where it was."""
        if pend.source in engine.state.objects or held_by_leader(ability):
            return False
        return not (pend.checked == ev.BEFORE and ability.trigger is not None and ability.trigger.subject == "self")

    def resolve(self, engine: Engine, eid: int) -> Procedure:
        st = engine.state
        pend = st.pending[eid]
        _, ability = ability_of(engine, st.cards[pend.source_card].definition, pend.ability)
        if self.stops(engine, pend, ability):
            engine.emit(ev.EffectFizzled(eid, "its card left the field before it resolved (SV-O-29)"))
            return
        if not (yield from resolve_effect(engine, eid, lambda: _carry_out(engine, pend, ability))):
            return
        src = st.objects.get(pend.source)
        if src is not None and board.kind_of(src.zone) == CASTING:
            # SV-O-83: a spell reaches the cemetery only once its effect is done.
            engine.emit(board.move(engine, pend.source, board.zone(src.owner, CEMETERY), "resolved"))

    # -- decisions ----------------------------------------------------------------------------------------

    def legal(self, engine: Engine) -> Legal | None:
        return None  # nobody chooses the order (SV-O-02)

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        if decision.action == "resolve":
            raise IllegalDecision(decision, "SV-O-02", "effects resolve in the order they triggered; nobody picks")
        return None


Row = tuple[tuple[int, ...], Instance, tuple[str, ...]]
DIRECT = 2  # the category of direct summons (SV-O-10)


def _direct_summons_at_random(engine: Engine, rows: list[Row]) -> list[Row]:
    """SV-O-59: several direct summons that trigger together happen in random order (within one timing and
    one side, SV-O-11). The order is drawn when they are queued, one ``RandomDrawn`` per place but the last
    (the game's seed and ``state.random_draws``), and recorded in their sort keys as their position."""
    out = [r for r in rows if r[0][2] != DIRECT]
    sets: dict[tuple[int, ...], list[Row]] = {}
    for r in sorted((r for r in rows if r[0][2] == DIRECT), key=lambda r: r[0]):
        sets.setdefault(r[0][:4], []).append(r)
    for direct in sets.values():
        place = 0
        while direct:
            pick = 0
            if len(direct) > 1:
                pick = engine.random_below(len(direct), "direct summon order")
            key, inst, captured = direct.pop(pick)
            place += 1
            out.append(((*key[:4], place, *key[5:]), inst, captured))
    return out


# Rules 1.0 only (switch bundle_from_card off): the effect ids whose abilities bundled. From 1.1 the card data
# says it, ``AbilityDef.bundle``.
LEGACY_BUNDLED = frozenset({"piercing_bundle"})


def bundles(ability: AbilityDef, from_card: bool) -> bool:
    """Whether the instances of ``ability`` in one simultaneous group are one (SV-O-100)."""
    return ability.bundle if from_card else any(e.name in LEGACY_BUNDLED for e in ability.effects)


def _bundle(found: list[tuple[Instance, int]], from_card: bool
            ) -> tuple[list[tuple[Instance, int]], dict[tuple[int, str], int]]:
    """Instances of a bundling ability in one group become one, remembering how many they were (ピアシィ)."""
    counts: dict[tuple[int, str], int] = {}
    out: list[tuple[Instance, int]] = []
    for inst, granted in found:
        ability = inst.listener.ability
        if bundles(ability, from_card):
            key = (inst.holder.obj, ability.id)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] > 1:
                continue
        out.append((inst, granted))
    return out, counts


def _own_play(ability: AbilityDef) -> bool:
    t = ability.trigger
    return t is not None and t.subject == "self" and t.on in ("fanfare", "cast", "enters")


def _carry_out(engine: Engine, pend: Pending, ability: AbilityDef) -> Body:
    """SV-O-30: one effect is carried out to its end, unless the game ends first; an unpaid EP cost stops the
    rest of it (SV-O-98, switch ``unpaid_ep_stops``)."""
    st = engine.state
    ctx = context_of(engine, pend)
    done = yield from run_steps(ctx, ability.effects, lambda: st.ended or ctx.bound.get(STOP))
    return done or not st.ended


__all__ = ["BUNDLED", "CAPTURES", "GRANTED", "QUEUE", "STOP", "OrderedQueue", "ability_of", "bundles", "captures",
           "sort_key"]

