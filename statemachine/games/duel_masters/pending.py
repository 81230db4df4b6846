"""The pending pool (待機), seed 000: Duel Masters' resolution policy.

Processes happen one at a time; whatever has arisen and is not being carried out waits (DM-W-01, DM-W-02 (1)).
Each triggering — two abilities of one card on one event included — is its own pending entry (DM-W-04), added
as it arises (「〜した時」, DM-W-24). Triggered abilities wait, unordered, in one pool; each belongs to the side
of its source's player (DM-W-08). The turn player resolves all of theirs before the non-turn player may begin
(DM-W-13, DM-W-14), and regains the right the moment a new one of theirs arrives (DM-W-15). The owner picks
which of their own resolves next (DM-W-09, DM-W-16), regardless of the order they arrived in (DM-W-10); one
never interrupts another (DM-W-11). Conditions are checked at resolution (DM-W-17) and an unmet one fizzles
the effect (DM-W-18).
"""

from __future__ import annotations

from eventsource import events as ev
from projections.state import Pending
from statemachine.context import Body, context_of, resolve_effect, run_steps
from statemachine.decisions import Decision, Legal, Request
from statemachine.engine import Engine
from statemachine.policy import ResolutionPolicy
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure

POOL = "pool"
END_STEP = "end_step"  # the turn player's decision to end the current step


class PendingPool(ResolutionPolicy):
    holder = POOL

    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        for inst in instances:
            if inst.hidden:
                # DM-W-27..29: an ability triggered in a hidden zone counts only once declared.
                engine.declarable.append(inst)
                continue
            # DM-W-03: pending from the moment it triggers. DM-W-22: modes/icons captured now.
            engine.trigger(inst, holder=POOL, label=inst.listener.ability.label,
                           captured=_captured(engine, inst))

    def waiting(self, engine: Engine) -> list[Pending]:
        return [p for p in engine.state.pending.values() if p.holder == POOL and not p.resolving]

    def side_to_resolve(self, engine: Engine, only: set[int] | None = None) -> tuple[int, list[Pending]]:
        """The side whose abilities may resolve now: the turn player's while they have any (DM-W-13..15)."""
        pool = [p for p in self.waiting(engine) if only is None or p.effect in only]
        active = engine.state.active
        tp = [p for p in pool if p.controller == active]
        if tp:
            return active, tp
        return engine.opponent(active), [p for p in pool if p.controller != active]

    def next(self, engine: Engine) -> Procedure | None:
        return self.settle(engine) if self.waiting(engine) else None

    def settle(self, engine: Engine, only: set[int] | None = None) -> Procedure:
        """Resolve everything pending, one at a time, the owner choosing each next one; with ``only``, just those
        (abilities that trigger at a moment within a resolution and resolve before it goes on: 「バトルする時」)."""
        while True:
            player, candidates = self.side_to_resolve(engine, only)
            if not candidates:
                return
            if engine.profile.rules.state_checked_between_abilities:
                # DM-GAME-STATE: the state check comes before each resolution (a player whose deck an ability
                # emptied loses before the next one resolves or asks anything).
                engine.profile.check_state(engine)
                if engine.state.ended:
                    return
            if len(candidates) == 1:
                # DM-W-05: with nothing else of theirs waiting there is no order to choose.
                chosen = candidates[0].effect
            else:
                answer = yield Request(
                    player, "resolve_next", "choose which of your pending abilities resolves next",
                    tuple(p.effect for p in candidates), rule="DM-W-09", action="resolve",
                )
                chosen = int(answer[0])
            yield from self.resolve(engine, chosen)

    def resolve(self, engine: Engine, eid: int) -> Procedure:
        pend = engine.state.pending[eid]
        yield from resolve_effect(engine, eid, lambda: _carry_out(engine, pend))

    def vanish_all(self, engine: Engine, reason: str) -> None:
        """DM-W-20: when the rest of the turn is skipped every pending effect vanishes unresolved."""
        for p in list(engine.state.pending.values()):
            if not p.resolving:
                engine.emit(ev.EffectFizzled(p.effect, reason))

    def legal(self, engine: Engine) -> Legal | None:
        return None  # picking the next effect is always asked for as a request (resolve_next)

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        if decision.action == "resolve":
            # Nothing is being asked: no pool to choose from, or not now.
            raise_illegal(decision, "DM-W-03", "there is no pending ability to resolve now")
        return None

    def misplaced(self, engine: Engine, decision: Decision, request: Request) -> tuple[str, str]:
        step_end = ending_step(engine, decision)
        if step_end is not None:
            return step_end
        if decision.action == "resolve":
            active = engine.state.active
            tp_pending = any(p.controller == active for p in engine.state.pending.values())
            if decision.player != active and tp_pending:
                return "DM-W-14", "the non-turn player may not resolve while the turn player has pending abilities"
            if request.kind != "resolve_next":
                return "DM-W-11", "a pending ability cannot interrupt the resolution of another"
            if decision.player != request.player:
                return "DM-W-16", "the other player orders their own pending abilities"
        return super().misplaced(engine, decision, request)

    def refused(self, engine: Engine, decision: Decision, request: Request, why: str) -> tuple[str, str]:
        if request.kind == "resolve_next" and decision.args:
            eid = decision.args[0]
            pend = engine.state.pending.get(eid) if isinstance(eid, int) else None
            if pend is not None and pend.controller != request.player:
                if request.player == engine.state.active:
                    return "DM-W-13", "every turn-player pending ability resolves before any of the non-turn player's"
                return "DM-W-16", "each player orders only their own pending abilities"
            return "DM-W-03", f"effect {eid} is not pending"
        return super().refused(engine, decision, request, why)


def ending_step(engine: Engine, decision: Decision) -> tuple[str, str] | None:
    """The rule an attempt to end the step breaks while abilities are pending, whatever is being asked:
    only the turn player ends a step (DM-GAME-TURN), and never with anything pending (DM-W-19)."""
    if decision.action != END_STEP:
        return None
    active = engine.state.active
    if decision.player != active:
        return "DM-GAME-TURN", f"only the turn player (player {active}) ends a step"
    if engine.state.pending:
        return "DM-W-19", "the step cannot end while abilities are pending: each resolves within its step"
    return None


def raise_illegal(decision: Decision, rule: str, why: str) -> None:
    from statemachine.decisions import IllegalDecision

    raise IllegalDecision(decision, rule, why)


def _captured(engine: Engine, inst: Instance) -> tuple[str, ...]:
    """DM-W-22: an ability that uses icon abilities waits with the contents of every icon it may use, as
    they are now; which ones are used is chosen when it resolves (DM-W-21)."""
    if not any(e.name == "use_icons" for e in inst.listener.ability.effects):
        return ()
    from statemachine.games.duel_masters.board import creatures

    st = engine.state
    out: list[str] = []
    for oid in creatures(st, inst.controller):
        card = engine.profile.pool.cards.get(st.facts(oid).definition)
        if card is not None and card.id and oid in st.objects:
            out += [f"{card.id}:{a.id}" for a in card.abilities if a.kind == "icon"]
    return tuple(out)


def _carry_out(engine: Engine, pend: Pending) -> Body:
    """What a pending ability does as it resolves: its conditions checked now (DM-W-17), an unmet one fizzling
    it (DM-W-18); then its steps, up to one that says the rest is not done."""
    ability = engine.profile.pool[engine.state.cards[pend.source_card].definition].ability(pend.ability)
    ctx = context_of(engine, pend)
    vocab = engine.profile.vocabulary
    for cond in ability.conditions:
        if not vocab.check(ctx, cond.name, cond.params):
            engine.emit(ev.EffectFizzled(pend.effect, f"condition {cond.name} not met at resolution (DM-W-18)"))
            return False
    yield from run_steps(ctx, ability.effects)
    return True
