"""The stack with priority (seed 002, CR 117): Magic's resolution policy.

Priority passes in turn order. Before any player receives priority, state-based actions are performed as one
event, again until none apply, then every triggered ability waiting is put on the stack — the active player's
first, each player ordering their own — and the two repeat until nothing more happens (MTG-P-09, MTG-P-20).
When all players pass in succession the top object resolves, or, on an empty stack, the step ends (MTG-P-19).
The active player receives priority after a resolution (MTG-P-16) and at the start of most steps (MTG-P-14);
whoever casts, activates or takes a special action receives it afterwards (MTG-P-17). Nobody has priority
while something resolves (MTG-P-13), in the untap step, or normally in the cleanup step (MTG-P-15).

Every object on the stack is a pending effect with holder ``stack``; its key is ``(position, source object,
ability index, source card)``: the position orders the stack (the top is the highest), the index is
``SPELL`` for a spell (the source object is then the card on the stack) and ``TRIGGERED`` for a triggered
ability.
"""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.characteristics import current_or_last_known
from projections.state import GameState, Pending
from statemachine.amounts import THAT_MUCH, reads_that_much
from statemachine.cards import AbilityDef, CardDef
from statemachine.context import Body, EffectContext, context_of, resolve_effect, run_steps
from statemachine.decisions import Decision, IllegalDecision, Legal, Request
from statemachine.engine import Engine
from statemachine.games.magic import board, mana, sba, state_triggers, targets
from statemachine.games.magic.board import BATTLEFIELD, STACK, zone
from statemachine.games.magic.board import stack_items as items
from statemachine.games.magic.statics import ATTACH_TO, ATTACHED
from statemachine.games.magic.turn import end_step
from statemachine.policy import ResolutionPolicy
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure

SPELL = -1
TRIGGERED = -2
PERMANENT_TYPES = ("creature", "artifact", "enchantment", "land", "planeswalker")
UNTAP, CLEANUP = "untap", "cleanup"
PRIORITY_ACTIONS = ("pass", "cast", "activate", "play")
MAX_TARGETS = 20  # the most targets "any number of targets" offers (as MAX_X bounds X)


def waiting(state: GameState) -> list[Pending]:
    """Triggered abilities not yet put on the stack (MTG-P-08: triggering does nothing by itself)."""
    return [p for p in state.pending.values() if p.holder == ""]


def is_spell(pend: Pending) -> bool:
    return len(pend.key) > 2 and pend.key[2] == SPELL


def source_object(pend: Pending) -> int:
    return pend.source if pend.source >= 0 else pend.key[1]


def stack_key(engine: Engine, source: int, index: int, card: int) -> tuple[int, ...]:
    return (engine.state.seq + 1, source, index, card)


def ability_of(engine: Engine, pend: Pending) -> tuple[CardDef, list[AbilityDef]]:
    """The card and the abilities that resolve for a stack object: a spell's text, or one ability."""
    st = engine.state
    card_id = pend.source_card if pend.source >= 0 else pend.key[3]
    card = engine.profile.pool[st.cards[card_id].definition]
    if is_spell(pend):
        return card, [a for a in card.abilities if a.kind == "spell"]
    if pend.source >= 0:
        return card, [card.ability(pend.ability)]
    return card, [card.abilities[pend.key[2]]]


def _that_much(engine: Engine, inst: Instance) -> tuple[str, ...]:
    """"Deals that much damage" (CR 608.2h): an ability whose amount reads the damage that triggered it keeps that
    amount as it triggers (pool 1.6); nothing is captured for any other ability, so older logs read the same."""
    if not any(reads_that_much(e.params) for e in inst.listener.ability.effects):
        return ()
    event = engine.recent_event(inst.by)
    return (f"{THAT_MUCH}{event.amount}",) if isinstance(event, ev.DamageDealt) else ()


class Stack(ResolutionPolicy):
    holder = STACK
    set_up_actions: ClassVar[dict[str, bool]] = {"spell": True}  # a spell being cast lies on the stack (CR 601.2a)
    rows_by_source_object = True


    def set_up_waiting(self, order: int, holder: str, source: int, ability: int | None, action: str,
                       controller: int, label: str, subject: int | None, caused_by: int) -> list[ev.Event]:
        """A spell is put on the stack without triggering; an ability's key names its source and index."""
        if ability is None and action == "spell":
            return [ev.EffectPending(order, holder, controller, label, (order, source, SPELL, source))]
        key = (order, source, ability or 0, source) if holder == STACK else (order,)
        return [ev.Triggered(order, action, source, source, controller, caused_by, ev.AFTER, (), subject),
                ev.EffectPending(order, holder, controller, label, key)]
    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        for inst in instances:
            if engine.profile.conditions_checked_on_trigger() and not intervening_if_holds(engine, inst):
                continue  # CR 603.4: its "if" is false as the event happens: it does not trigger at all
            # MTG-P-08: an ability may trigger at any time, but nothing happens yet: it waits, on no stack,
            # until a player would receive priority (MTG-P-09).
            engine.trigger(inst, holder="", label=inst.listener.ability.label, captured=_that_much(engine, inst))

    def next(self, engine: Engine) -> Procedure | None:
        st = engine.state
        if st.priority is not None or st.ended or st.request is not None:
            return None
        step = engine.flow.current
        if step is None or step.name == UNTAP:
            return None  # MTG-P-15: nobody receives priority in the untap step
        if step.name == CLEANUP and not (waiting(st) or sba.find(engine).actions):
            return None  # MTG-P-15: normally nobody receives priority in the cleanup step (514.3a)
        # MTG-P-14: at the start of a step; MTG-P-16: after a resolution — the active player.
        return give_priority(engine, st.active)

    def legal(self, engine: Engine) -> Legal | None:
        if engine.state.priority is None:
            return None
        return engine.profile.actions(engine)

    def awaits_decision(self, engine: Engine) -> bool:
        return engine.state.priority is not None  # the player with priority acts (listing how is costly)

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        if decision.action != "pass":
            return None
        holder = engine.state.priority
        if holder != decision.player:
            raise IllegalDecision(decision, "MTG-P-01", _no_priority(engine, holder))
        return pass_priority(engine, decision.player)

    def misplaced(self, engine: Engine, decision: Decision, request: Request) -> tuple[str, str]:
        if decision.action in PRIORITY_ACTIONS:
            if any(p.resolving for p in engine.state.pending.values()):
                return "MTG-P-13", "no player receives priority while a spell or ability is resolving"
            return "MTG-P-01", f"nobody has priority now: player {request.player} must answer: {request.prompt}"
        return super().misplaced(engine, decision, request)

    def refused(self, engine: Engine, decision: Decision, request: Request, why: str) -> tuple[str, str]:
        """A mana ability offered nowhere in a payment (MTG-P-06) because its cost cannot be paid breaks that
        cost's rule: paying 1 life at 0 life MTG-C-05, tapping a tapped land MTG-C-06."""
        if request.kind == "pay_mana" and len(decision.args) == 1 and isinstance(decision.args[0], int):
            broken = mana.why_not_source(engine, decision.player, decision.args[0])
            if broken is not None:
                return broken
        return super().refused(engine, decision, request, why)

    def source_of(self, state: GameState, pend: Pending) -> int | None:
        return source_object(pend) if pend.source >= 0 or len(pend.key) > 1 else None


def intervening_if_holds(engine: Engine, inst: Instance) -> bool:
    """CR 603.4: a triggered ability's conditions are its intervening "if" clause ("When ..., if ..., ..."):
    checked as the event happens (here, in the state it was matched in) and again as it resolves (``resolve``).
    The source is read as it is now, or as it last existed if the event moved it (a "dies" trigger)."""
    ability = inst.listener.ability
    if not ability.conditions:
        return True
    ctx = EffectContext(engine, controller=inst.controller, source=inst.holder.obj, source_card=inst.holder.card,
                        ability=ability.id, subject=inst.subject.obj if inst.subject is not None else None)
    vocab = engine.profile.vocabulary
    return all(vocab.check(ctx, c.name, c.params) for c in ability.conditions)


def _no_priority(engine: Engine, holder: int | None) -> str:
    if holder is None:
        return "nobody has priority now"
    return f"player {holder} has priority"


# -- priority -----------------------------------------------------------------------------------------------


def give_priority(engine: Engine, player: int) -> Procedure:
    """MTG-P-20 (117.5): state-based actions until none apply, then waiting triggers onto the stack; repeat
    until neither happens; only then does ``player`` receive priority."""
    while not engine.state.ended:
        if sba.perform(engine):  # MTG-P-12: one event per check, checked again
            continue
        state_triggers.trigger(engine)  # CR 603.8: a state trigger's state is looked at with the SBAs
        if not waiting(engine.state):
            break
        yield from put_triggers(engine)
    if not engine.state.ended:
        engine.emit(ev.PriorityGiven(player))


def turn_order(engine: Engine, first: int) -> list[int]:
    n = len(engine.state.players)
    return [(first + i) % n for i in range(n)]


def put_triggers(engine: Engine) -> Procedure:
    """The active player's waiting abilities go on the stack first, then the others' in turn order; a player
    with several chooses their order (MTG-P-20, 603.3b). The first put is the last to resolve."""
    for player in turn_order(engine, engine.state.active):
        mine = [p.effect for p in waiting(engine.state) if p.controller == player]
        while mine:
            if len(mine) == 1:
                eid = mine[0]
            else:
                answer = yield Request(player, "stack_order",
                                       "choose which of your triggered abilities goes on the stack next "
                                       "(the first put resolves last)", tuple(mine), rule="MTG-P-20")
                eid = int(answer[0])
            mine.remove(eid)
            yield from put_on_stack(engine, eid)


def put_on_stack(engine: Engine, eid: int) -> Procedure:
    st = engine.state
    pend = st.pending[eid]
    _, abilities = ability_of(engine, pend)
    engine.emit(ev.EffectPending(eid, STACK, pend.controller, pend.label or abilities[0].label,
                                 stack_key(engine, pend.source, TRIGGERED, pend.source_card)))
    yield from choose_targets(engine, pend.controller, eid, abilities, None, pend.source)


def choose_targets(engine: Engine, player: int, eid: int, abilities: list[AbilityDef], spell: int | None,
                   source: int | None = None, most_targets: int = MAX_TARGETS) -> Procedure:
    """Targets are chosen as the object is put on the stack; with none to choose, a triggered ability is
    removed from the stack (603.3d)."""
    chosen: list[int] = []
    mode = targets.spell_mode(engine.state, spell)
    for ability in abilities:
        for n, spec in enumerate(targets.specs(ability, mode)):
            options = targets.candidates(engine, spec, spell, player, source)
            if len(options) < spec.count:  # (a step of count N needs N different targets, CR 115.3)
                engine.emit(ev.EffectFizzled(eid, "no legal target when put on the stack (603.3d)"))
                return
            most = min(len(options), most_targets) if spec.any_number else spec.count  # "any number": 1 or more
            least = spec.count  # CR 115.3: exactly N different targets ("two target creatures")
            answer = yield Request(player, "target", f"choose target {n + 1} ({spec.what}) for {ability.label}"
                                   + (f": up to {most}, each once" if most > least else "")
                                   + (f": {least} different" if least > 1 else ""), tuple(options),
                                   minimum=least, maximum=most, effect=eid, rule="MTG-GAME-TARGET")
            chosen += [int(a) for a in answer]
    if chosen:
        engine.emit(ev.Chosen(player, tuple(chosen), eid))


def choose_mode(engine: Engine, player: int, eid: int, abilities: list[AbilityDef], spell: int) -> Procedure:
    """CR 700.2a, 601.2b: a spell whose text says "choose one" with modes chosen as it is cast: the caster
    chooses the mode before its targets, among the modes whose targets can be chosen; recorded on the spell."""
    for ability in abilities:
        modes = targets.cast_modes(ability)
        if not modes:
            continue
        options = tuple(m for m in range(len(modes)) if targets.has_targets(engine, ability, spell, player, spell, m))
        answer = yield Request(player, "mode", "choose one: " + " / ".join(
            f"{m}: {modes[m]['label']}" for m in options), options, effect=eid, rule="MTG-GAME-MODE")
        engine.emit(ev.StatusSet(spell, targets.MODE, int(answer[0]) + 1))  # (a status of 0 is no status)
        return


def pass_priority(engine: Engine, player: int) -> Procedure:
    st = engine.state
    left = mana.pool(engine, player)
    if left:
        # MTG-P-18: a player passing with mana in their pool announces what remains.
        engine.emit(ev.Revealed(board.player_ref(player), tuple(range(len(st.players))), -1,
                                f"mana pool: {mana.describe(left)}"))
    engine.emit(ev.PriorityPassed(player))
    in_game = {p for p, ps in enumerate(st.players) if not ps.lost}
    if in_game <= set(st.passes):
        # MTG-P-19: all players passed in succession.
        stack = items(st)
        if stack:
            yield from resolve(engine, stack[-1])  # MTG-P-22: the newest resolves first
        else:
            yield from end_step(engine)
        return
    nxt = next(p for p in turn_order(engine, player)[1:] if p in in_game)
    yield from give_priority(engine, nxt)  # MTG-P-18: the next player in turn order


# -- resolving ----------------------------------------------------------------------------------------------


def resolve(engine: Engine, pend: Pending) -> Procedure:
    """Resolve the top object. Nobody receives priority meanwhile (MTG-P-13); abilities it triggers wait
    (MTG-P-08) until the active player would receive priority again (MTG-P-16, MTG-P-20)."""
    yield from resolve_effect(engine, pend.effect, lambda: _carry_out(engine, pend))


def _carry_out(engine: Engine, pend: Pending) -> Body:
    st = engine.state
    eid = pend.effect
    card, abilities = ability_of(engine, pend)
    spell = pend.key[1] if is_spell(pend) else None
    source = source_object(pend)
    chosen = list(pend.targets)
    specs = targets.expand([s for a in abilities for s in targets.specs(a, targets.spell_mode(st, spell))],
                           len(chosen))
    if specs and not any(targets.legal(engine, s, t, spell, pend.controller, source)
                         for s, t in zip(specs, chosen, strict=False)):
        # 608.2b: a spell or ability whose targets are all illegal does nothing.
        engine.emit(ev.EffectFizzled(eid, "all its targets are illegal as it resolves (608.2b)"))
        if spell is not None and spell in st.objects:
            engine.emit(board.move(engine, spell, zone(st.objects[spell].owner, board.GRAVEYARD), board.COUNTERED))
        return False
    seen = current_or_last_known(st, source)
    source_card = seen.card if seen is not None else (pend.source_card if pend.source >= 0 else pend.key[3])
    vocab = engine.profile.vocabulary
    for ability in abilities:
        ctx = context_of(engine, pend, ability=ability.id, source=source, source_card=source_card)
        ctx.bound["targets"] = chosen
        ctx.bound["specs"] = specs
        ctx.bound["spell"] = spell
        if not state_triggers.is_state_trigger(ability) and not all(
                vocab.check(ctx, c.name, c.params) for c in ability.conditions):
            engine.emit(ev.EffectFizzled(eid, f"its condition is not met as it resolves (603.4): {ability.label}"))
            return False
        yield from run_steps(ctx, ability.effects, lambda: eid not in engine.state.pending)
        if eid not in engine.state.pending:
            return False  # a step ended it (a spell that countered itself): nothing after it happens
    if spell is None:
        return True
    obj = engine.state.objects[spell]
    if set(card.types) & set(PERMANENT_TYPES):
        moved = board.move(engine, spell, zone(obj.owner, BATTLEFIELD), board.RESOLVED, controller=pend.controller)
        sick = board.entered(engine, moved.new, card.types)
        host = obj.status.get(ATTACH_TO)  # an aura enters attached to its target (CR 303.4f)
        attached = [ev.StatusSet(moved.new, ATTACHED, host)] if host is not None and board.on_battlefield(
            engine.state, host) else []
        engine.emit(moved, *sick, *attached, ev.EffectResolved(eid))
    else:
        engine.emit(board.move(engine, spell, zone(obj.owner, board.GRAVEYARD), board.RESOLVED), ev.EffectResolved(eid))
    return True  # announced resolved with the spell's move, at once
