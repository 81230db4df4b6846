"""State triggers (CR 603.8): "When you control no Islands, sacrifice Sea Serpent." A triggered ability whose
trigger is ``on = "state"`` has no event: its conditions are the state it waits for. The rules look whenever a
player would receive priority (with the state-based actions, ``stack.give_priority``); once it has triggered it
does not trigger again while it waits or is on the stack, and its conditions are not checked again as it
resolves (they are its trigger, not an intervening "if", CR 603.4)."""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from statemachine.cards import AbilityDef, CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.loader import CardFileError
from statemachine.triggers import Instance

STATE = "state"


def is_state_trigger(ability: AbilityDef) -> bool:
    return ability.trigger is not None and ability.trigger.on == STATE


def trigger(engine: Engine) -> bool:
    """Trigger the state triggers whose state holds now and that are not already waiting or on the stack."""
    st = engine.state
    live = {(p.source, p.ability) for p in st.pending.values()}  # CR 603.8: once, until it has left the stack
    found: list[Instance] = []
    vocab = engine.profile.vocabulary
    for lst in engine.index.listeners(STATE):
        if lst.obj not in st.objects or not board.on_battlefield(st, lst.obj) or (lst.obj, lst.ability.id) in live:
            continue
        holder = view(st, lst.obj)
        if lst.ability.id not in holder.chars.abilities:
            continue
        ctx = EffectContext(engine, controller=holder.controller, source=lst.obj, source_card=holder.card,
                            ability=lst.ability.id)
        if all(vocab.check(ctx, c.name, c.params) for c in lst.ability.conditions):
            found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    if found:
        engine.policy.triggered(engine, found)
    return bool(found)


def check_state_triggers(pool: CardPool) -> CardPool:
    """A state trigger states its state as conditions: with none it would trigger at every look."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            if is_state_trigger(ability) and not ability.conditions:
                raise CardFileError("magic", "a state trigger (on = \"state\") needs conditions: the state it "
                                    "waits for", card.id, f"$.abilities[{n}].conditions", ability.id)
    return pool
