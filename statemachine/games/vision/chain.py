"""The interference chain (干渉), seed 003: Vision of Phantasm's resolution policy (holder "chain").

An action is announced, not processed (VOP-I-09); priority goes to the other player, and each player who
receives it interrupts or passes (VOP-I-10), with no limit on interrupts (VOP-I-04). Two passes in succession
close interrupting (VOP-I-11) and the interference resolution runs last in, first out, ending with the
originating action (VOP-I-13), with no new interrupt (VOP-I-12). An automatic effect that arises meanwhile
waits until the current effect has finished, then the resolution is suspended and it is placed on top and
resolved (VOP-I-14, VOP-I-15); it belongs to this interference (VOP-I-17). 決死状態 and 破棄 are processed
before anything else, right after the effect that caused them (VOP-I-16). With nothing announced, two passes
in succession advance the phase (VOP-I-08).

Nothing here is kept outside the log: the chain is the pending effects with holder "chain" ordered by key,
priority and passes are folded from PriorityGiven/PriorityPassed, and the resolution in progress is the
procedure in flight (restored from the log by the engine when it waits for a choice).
"""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.state import Pending
from statemachine.context import resolve_effect
from statemachine.decisions import Decision, IllegalDecision, Legal, Request
from statemachine.engine import Engine
from statemachine.games.vision import actions
from statemachine.games.vision.board import CHAIN
from statemachine.games.vision.effects import END_OF_INTERFERENCE, RETARGET, chain_entries, target_options, target_spec
from statemachine.policy import ResolutionPolicy
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure


class InterferenceChain(ResolutionPolicy):
    holder = CHAIN
    # Announcements a set-up may place on the chain: a card played lies in the chain zone while announced.
    set_up_actions: ClassVar[dict[str, bool]] = {"play": True, "attack": False, "defend": False, "node": False}

    # -- effects that arise --------------------------------------------------------------------------------


    def set_up_done(self, placed: list[ev.EffectPending]) -> list[ev.Event]:
        """An interference placed by a set-up: the non-acting player may interfere first (VOP-I-08)."""
        first = next((e for e in placed if e.holder == CHAIN), None)
        return [] if first is None else [ev.PriorityGiven(1 - first.controller)]
    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        """Automatic effects arise now and are placed when the current effect has finished (VOP-I-15).

        Several at once: the turn player's first, then in the order they were matched (SPEC Part 4 #25).
        """
        active = engine.state.active
        for inst in sorted(instances, key=lambda i: i.controller != active):
            engine.trigger(inst, holder="", label=inst.listener.ability.label)

    def next(self, engine: Engine) -> Procedure | None:
        st = engine.state
        if not st.started or st.ended or engine.flow.current is None or engine.request is not None:
            return None
        if actions.unplaced(engine):
            return self.arise_outside(engine)
        if st.priority is None:
            if chain_entries(engine):
                return self.resolve_interference(engine)
            return self.open_window(engine)
        return None

    def arise_outside(self, engine: Engine) -> Procedure:
        """Automatic effects that arose outside an interference resolution begin (or join) an interference
        like an announced action: the other player receives priority (README)."""
        pends = actions.unplaced(engine)
        yield from actions.place(engine, pends)
        engine.emit(ev.PriorityGiven(engine.opponent(pends[0].controller)))

    def open_window(self, engine: Engine) -> Procedure:
        """VOP-I-08: after a phase's prescribed effects the turn player receives priority."""
        engine.emit(ev.PriorityGiven(engine.state.active))
        return
        yield

    # -- priority ------------------------------------------------------------------------------------------

    def legal(self, engine: Engine) -> Legal | None:
        st = engine.state
        if st.priority is None or st.ended:
            return None
        p = st.priority
        return Legal(p, (Decision(p, actions.PASS), *actions.available(engine, p)))

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        if decision.action != actions.PASS:
            return None
        why = actions.why_not_priority(engine, decision.player)
        if why is not None:
            raise IllegalDecision(decision, why[0], why[1])
        return self.pass_priority(engine, decision.player)

    def pass_priority(self, engine: Engine, player: int) -> Procedure:
        engine.emit(ev.PriorityPassed(player))
        st = engine.state
        if len(st.passes) < len(st.players):
            engine.emit(ev.PriorityGiven(engine.opponent(player)))  # VOP-I-10
            return
        if chain_entries(engine):
            yield from self.resolve_interference(engine)  # VOP-I-11
        else:
            yield from engine.flow.advance(engine)  # VOP-I-08: every player declined; the phase advances

    def misplaced(self, engine: Engine, decision: Decision, request: Request) -> tuple[str, str]:
        if decision.action in (*actions.ANNOUNCEMENTS, actions.PASS) and actions.resolving(engine):
            return "VOP-I-12", "no new interrupt once the interference resolution has begun"
        return super().misplaced(engine, decision, request)

    # -- the interference resolution ----------------------------------------------------------------------

    def resolve_interference(self, engine: Engine) -> Procedure:
        """Last in, first out, to the originating action (VOP-I-13); after each effect, 決死状態 and 破棄 first
        (VOP-I-16), then the effects that arose meanwhile (VOP-I-15); then the interference ends."""
        while not engine.state.ended:
            actions.process_critical(engine)
            new = actions.unplaced(engine)
            if new:
                yield from actions.place(engine, new)
                continue
            entries = chain_entries(engine)
            if not entries:
                break
            yield from self.resolve(engine, entries[-1])
            engine.profile.check_state(engine)
        if engine.state.ended:
            return
        ending = [m.effect for m in engine.state.modifiers.values() if m.until == END_OF_INTERFERENCE]
        if ending:
            engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])
        engine.emit(ev.PriorityGiven(engine.state.active))  # SPEC Part 4 #25: the turn player (README)

    def resolve(self, engine: Engine, pend: Pending) -> Procedure:
        yield from self.offer_retarget(engine, pend)
        yield from resolve_effect(engine, pend.effect, lambda: actions.resolve_entry(engine, pend.effect))

    def offer_retarget(self, engine: Engine, pend: Pending) -> Procedure:
        """VOP-I-23 (Q027): while No.148 少女密室 is in force for a player, a command card or character effect
        that targets a card on that player's field may have that target changed, once, to another proper
        target, as it is about to resolve."""
        st = engine.state
        if not pend.targets:
            return
        flags = sorted((m for m in st.modifiers.values() if m.value == RETARGET), key=lambda m: m.effect)
        if not flags:
            return
        card = engine.profile.pool[st.cards[pend.source_card].definition]
        if pend.ability == actions.PLAY and "command" in card.types:
            ability = actions.text_ability(card)
        elif "character" in card.types and pend.ability not in (actions.ATTACK, actions.DEFEND, actions.PLAY):
            ability = card.ability(pend.ability)
        else:
            return
        spec = target_spec(ability.effects) if ability is not None else None
        if spec is None:
            return
        for flag in flags:
            player = -1 - flag.target
            mine = [t for t in pend.targets if t in st.objects and st.objects[t].zone == f"{player}.field"]
            if not mine:
                continue
            options = [o for o in target_options(engine, pend.controller, spec, itself=pend.effect)
                       if o not in pend.targets]
            if not options:
                continue
            answer = yield Request(player, "retarget", f"change the target of {pend.label}? (No.148 少女密室)",
                                   ("keep", *options), effect=pend.effect, rule="VOP-I-23")
            if answer and answer[0] != "keep":
                new = tuple(int(answer[0]) if t == mine[0] else t for t in pend.targets)
                engine.emit(ev.Chosen(player, new, pend.effect))
            return
