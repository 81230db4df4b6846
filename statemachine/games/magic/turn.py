"""The turn: its steps, their turn-based actions, and how a step ends (MTG-P-11, MTG-P-14, MTG-P-15).

Turn-based actions happen as a step begins, before anyone receives priority (MTG-P-11); abilities that trigger
"at the beginning of" a step trigger then and wait for priority like any other (MTG-P-14, MTG-P-S01). When a
step ends, mana empties from the pools (500.4) and, after combat, creatures leave combat (511.3). The declare
blockers and combat damage steps are skipped when no creature attacks (508.8).
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.magic import board, delayed, layers, mana
from statemachine.games.magic.board import BATTLEFIELD, HAND, HAND_SIZE, LANDS_PLAYED, zone
from statemachine.games.magic.combat import (
    STRUCK,
    attackers,
    combat_damage,
    declare_attackers,
    declare_blockers,
    first_strike_step,
    in_combat,
)
from statemachine.games.magic.damage import DEALT_BY, DEATHTOUCH, REGENERATION
from statemachine.games.magic.statics import (
    ATTACHED,
    DOESNT_UNTAP,
    DOESNT_UNTAP_NEXT,
    flagged,
    skipped_untap_ends,
)
from statemachine.profile import StepDef
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure

STEPS = (
    StepDef("untap", "beginning", True),
    StepDef("upkeep", "beginning", False),
    StepDef("draw", "beginning", False),
    StepDef("main1", "precombat_main", False),
    StepDef("beginning_of_combat", "combat", False),
    StepDef("declare_attackers", "combat", False),
    StepDef("declare_blockers", "combat", False),
    StepDef("first_strike_damage", "combat", False),  # only when a creature in combat has it (CR 510.4)
    StepDef("combat_damage", "combat", False),
    StepDef("end_of_combat", "combat", False),
    StepDef("main2", "postcombat_main", False),
    StepDef("end", "ending", False),
    StepDef("cleanup", "ending", True),
)
MAIN_STEPS = ("main1", "main2")
END_OF_COMBAT = "end_of_combat"  # a duration: "until end of combat" (rules 1.6)
UNTIL_CLEANUP = ("end_of_turn", END_OF_COMBAT)  # the durations that end at the cleanup at the latest (CR 514.2)
STEP_BEGINS = "step_begins"


def enter_step(engine: Engine, step: StepDef) -> Procedure:
    st = engine.state
    me = st.active
    step_triggers(engine, step.name)
    match step.name:
        case "untap":
            # 502.2-3: the active player's permanents untap; they have now been controlled since the turn began.
            mine = board.permanents(st, me)
            changes: list[ev.Event] = [ev.StatusSet(o, "tapped", 0) for o in mine if board.is_tapped(st, o)
                                       and not flagged(st, o, DOESNT_UNTAP)  # CR 502.3
                                       and not flagged(st, o, DOESNT_UNTAP_NEXT)]
            changes += skipped_untap_ends(st, mine)
            changes += [ev.StatusSet(o, "sick", 0) for o in mine if st.objects[o].status.get("sick")]
            if st.stat(me, LANDS_PLAYED):
                changes.append(ev.PlayerStat(me, LANDS_PLAYED, 0))
            if changes:
                engine.emit(*changes)
        case "upkeep":
            ending = layers.ended_at_upkeep(engine, me)  # "until your next upkeep" (rules 1.6)
            if ending:
                engine.emit(*ending)
        case "draw":
            if st.turn != 1:
                board.draw(engine, me, 1)  # 504.1; the player who goes first skips the first draw (103.8a)
        case "declare_attackers":
            yield from declare_attackers(engine)
        case "declare_blockers":
            yield from declare_blockers(engine)
        case "first_strike_damage":
            combat_damage(engine, "first")
        case "combat_damage":
            struck = any(st.objects[o].status.get(STRUCK) for o in in_combat(st))
            combat_damage(engine, "regular" if struck else "all")
        case "cleanup":
            yield from cleanup(engine)
        case _:
            pass


def step_triggers(engine: Engine, step: str) -> None:
    """Abilities that trigger "at the beginning of" this step (they wait for priority: MTG-P-14)."""
    st = engine.state
    found: list[Instance] = []
    for lst in engine.index.listeners(STEP_BEGINS):
        t = lst.ability.trigger
        assert t is not None
        if lst.obj not in st.objects or t.filter.get("step") != step:
            continue
        holder = view(st, lst.obj)
        if lst.ability.id not in holder.chars.abilities:
            continue
        if t.whose == "you" and holder.controller != st.active:
            continue
        if t.whose == "opponent" and holder.controller == st.active:
            continue
        if t.filter.get("turn_of") == "attached_controller" and not _attached_controller_active(engine, holder.obj):
            continue
        found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    found += delayed.step_begins(engine, step)
    if found:
        engine.policy.triggered(engine, found)


def _attached_controller_active(engine: Engine, oid: int) -> bool:
    """"At the beginning of the upkeep of enchanted permanent's controller" (CR 503.1, 603.2): the permanent the
    aura is attached to is controlled by the player whose turn it is."""
    st = engine.state
    host = st.objects[oid].status.get(ATTACHED)
    return host is not None and host in st.objects and view(st, host).controller == st.active


def cleanup(engine: Engine) -> Procedure:
    """514.1-2: discard to hand size; then damage wears off and "until end of turn" effects end, together."""
    st = engine.state
    me = st.active
    hand = st.zone(zone(me, HAND))
    excess = len(hand) - HAND_SIZE
    for n in range(excess):  # one card at a time: each a choice among the cards left
        hand = st.zone(zone(me, HAND))
        answer = yield Request(me, "discard", f"discard a card down to {HAND_SIZE} ({n + 1} of {excess})",
                               tuple(hand), rule="MTG-GAME-CLEANUP")
        engine.emit(*board.to_graveyards(engine, [int(answer[0])], board.DISCARD))
    events: list[ev.Event] = [ev.StatusSet(o, key, 0) for o in board.permanents(st)
                              for key in ("damage", DEATHTOUCH, REGENERATION) if st.objects[o].status.get(key)]
    events += [ev.StatusSet(o, key, 0) for o in board.permanents(st)  # "this turn" ends (rules 1.4)
               for key in sorted(st.objects[o].status) if key.startswith(DEALT_BY) and st.objects[o].status[key]]
    events += [ev.ContinuousEffectEnded(m.effect) for m in st.modifiers.values() if m.until in UNTIL_CLEANUP]
    if events:
        engine.emit(*events)


def end_step(engine: Engine) -> Procedure:
    """All players passed with an empty stack (MTG-P-19): the step ends and the next begins."""
    st = engine.state
    mana.empty_pools(engine)
    step = engine.flow.current
    name = step.name if step is not None else ""
    if name == "end_of_combat":
        marks: list[ev.Event] = [ev.StatusSet(o, k, 0) for o in board.permanents(st)
                                 for k in ("attacking", "blocking", "blocked", STRUCK) if st.objects[o].status.get(k)]
        # CR 511.2: "until end of combat" effects expire at the end of the combat phase (rules 1.6)
        marks += [ev.ContinuousEffectEnded(m.effect) for m in st.modifiers.values() if m.until == END_OF_COMBAT]
        if marks:
            engine.emit(*marks)
    if name == "cleanup":
        # 514.3a: players received priority in the cleanup step, so another cleanup step follows.
        here = engine.flow.steps["cleanup"]
        engine.emit(ev.StepBegan(here.phase, here.name))
        yield from enter_step(engine, here)
        return
    if name == "declare_attackers" and not attackers(st):
        engine.flow.advance_step()  # 508.8: no attackers — the declare blockers and
        engine.flow.advance_step()  # combat damage steps are skipped
        engine.flow.advance_step()
    elif name == "declare_blockers" and not first_strike_step(st):
        engine.flow.advance_step()  # 510.4: no first strike or double strike, one combat damage step
    yield from engine.flow.advance(engine)


def sorcery_timing(engine: Engine, player: int) -> bool:
    """MTG-P-03 / MTG-P-05: your own main phase, with an empty stack."""
    st = engine.state
    step = engine.flow.current
    return (st.active == player and step is not None and step.name in MAIN_STEPS and not board.stack_items(st))


__all__ = ["BATTLEFIELD", "MAIN_STEPS", "STEPS", "end_step", "enter_step", "sorcery_timing"]
