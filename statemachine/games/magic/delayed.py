"""Delayed triggered abilities (CR 603.7): "destroy that creature at the beginning of the next end step".

An effect step ``delay`` creates one: a continuous effect (kind ``delayed``) naming the ability of the same card
that will trigger (a triggered ability whose trigger is ``on = "delayed"``), the step whose next beginning it
waits for, and what "that creature" is (its subject). It triggers once, at the beginning of that step, and
ends (CR 603.7b); it triggers even if its source has left the battlefield (CR 603.7c, read from the last known
information of this turn). Its controller is the controller of the ability that created it (CR 603.7d).
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import current_or_last_known, view
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic.verbs import Acts, acted_on
from statemachine.games.magic.vocab import MTG, Step
from statemachine.loader import CardFileError
from statemachine.triggers import Instance, Listener
from statemachine.vocabulary import Procedure

DELAYED = "delayed"  # a continuous effect: a delayed triggered ability waiting for its step (value "step:ability")


class DelayParams(Acts, frozen=True, forbid_unknown_fields=True):
    ability: str = ""  # the id of this card's triggered ability with trigger on = "delayed"
    step: Step = "end"  # "at the beginning of the next <step>"


@MTG.effect("delay", DelayParams)
def delay(ctx: EffectContext, p: DelayParams) -> Procedure:
    """Create a delayed triggered ability (CR 603.7a): ``ability`` of this card triggers at the beginning of the
    next ``step``, about what ``on`` names now ("that creature"); nothing named, nothing is created."""
    found = [o for o in acted_on(ctx, p) if o >= 0]
    eid = ctx.state.next_effect
    events = [ev.ContinuousEffectStarted(eid + k, ctx.source, DELAYED, o, amount=ctx.controller,
                                         value=f"{p.step}:{p.ability}") for k, o in enumerate(found)]
    if events:
        ctx.engine.emit(*events)
    return
    yield


def step_begins(engine: Engine, step: str) -> list[Instance]:
    """The delayed abilities waiting for this step: they trigger now and end (CR 603.7b)."""
    st = engine.state
    due = [m for m in sorted(st.modifiers.values(), key=lambda m: m.effect)
           if m.kind == DELAYED and m.value.partition(":")[0] == step]
    found: list[Instance] = []
    for m in due:
        holder = current_or_last_known(st, m.source)
        if holder is None:
            continue  # its source is gone beyond what this turn remembers: kifu cannot name it (README)
        card = engine.profile.pool[st.cards[holder.card].definition]
        ability = card.ability(m.value.partition(":")[2])
        subject = view(st, m.target) if m.target in st.objects else holder
        found.append(Instance(Listener(m.source, card, ability), m.amount, holder, subject, st.seq, ev.AFTER))
    if due:
        engine.emit(*[ev.ContinuousEffectEnded(m.effect) for m in due])
    return found


def check_delayed(pool: CardPool) -> CardPool:
    """A ``delay`` step names a triggered ability of its own card whose trigger is ``on = "delayed"``."""
    for card in pool.cards.values():
        waiting = {a.id for a in card.abilities if a.trigger is not None and a.trigger.on == DELAYED}
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if step.name == "delay" and step.params.get("ability") not in waiting:
                    raise CardFileError("magic", f"delay names {step.params.get('ability')!r}, not a triggered "
                                        "ability of this card with trigger on = \"delayed\"", card.id,
                                        f"$.abilities[{n}].effects[{k}].params.ability", ability.id)
    return pool
