"""What a player with priority does: cast a spell, activate an ability, activate a mana ability, play a land.

Each check names the SPEC id it enforces; an illegal decision raises before anything is appended. Rules the
seed only refers to (601 casting, 602 activating, 305 lands) carry kifu's own ids (MTG-GAME-..), listed in the
game's README.
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from projections.state import modifiers_applying
from statemachine.cards import AbilityDef, CardDef
from statemachine.decisions import Decision, IllegalDecision, Request
from statemachine.engine import Engine
from statemachine.games.magic import board, cost_increases, mana, targets
from statemachine.games.magic.board import BATTLEFIELD, HAND, LANDS_PLAYED, STACK, zone
from statemachine.games.magic.costs import Why, life_x, pay_costs, why_not_costs
from statemachine.games.magic.effects import ACTIVATED_TURN, ACTIVATIONS, TIMES_EACH_TURN, activations_this_turn
from statemachine.games.magic.restrictions import AS_SORCERY, DURING_YOUR_TURN
from statemachine.games.magic.stack import MAX_TARGETS, SPELL, choose_mode, choose_targets, give_priority, stack_key
from statemachine.games.magic.turn import sorcery_timing
from statemachine.vocabulary import Procedure

MAX_X = 20
GRANT_ABILITY = "granted_ability"  # a continuous effect giving an object an ability of another card (statics)


def card_of(engine: Engine, oid: int) -> CardDef:
    return engine.profile.pool[engine.state.facts(oid).definition]


def extra_costs(card: CardDef) -> list[AbilityDef]:
    return [a for a in card.abilities if a.kind == "spell"]


def why_not_priority(engine: Engine, player: int) -> Why | None:
    """Why ``player`` may not act with priority now (MTG-P-01), or None."""
    return _priority(engine, player)


def _priority(engine: Engine, player: int) -> Why | None:
    holder = engine.state.priority
    if holder != player:
        who = "nobody" if holder is None else f"player {holder}"
        return "MTG-P-01", f"only the player with priority may act, and {who} has it"
    return None


# -- casting ------------------------------------------------------------------------------------------------


def why_not_cast(engine: Engine, player: int, oid: int) -> Why | None:
    st = engine.state
    why = _priority(engine, player)
    if why:
        return why
    if oid not in st.zone(zone(player, HAND)):
        return "MTG-GAME-CAST", "the card is not in your hand"
    card = card_of(engine, oid)
    chars = view(st, oid).chars
    if "land" in chars.types:
        return "MTG-P-05", "a land is played (a special action), not cast"
    if "instant" not in chars.types and "flash" not in chars.keywords and not sorcery_timing(engine, player):
        # MTG-P-02 allows instants at any time; everything else waits for MTG-P-03.
        return "MTG-P-03", "a non-instant spell may be cast only in your main phase while the stack is empty"
    if mana.symbols(card) is None:
        return "MTG-C-12", f"{card.name} has no mana cost: a cost that does not exist cannot be paid"
    costs = [c for a in extra_costs(card) for c in a.costs]
    why = why_not_costs(engine, player, oid, costs, 0)
    if why:
        return why
    # CR 601.2f: the total cost, with the increases in force (a cost increase, Gloom)
    total = cost_increases.raised(mana.parse(mana.symbols(card) or "0"),
                                  cost_increases.increase(engine, "spells", oid))
    if not mana.affordable(engine, player, total):
        return "MTG-C-04", f"you cannot pay {total}: not enough mana"
    for a in extra_costs(card):
        if not targets.has_targets(engine, a, None, player, oid):
            return "MTG-GAME-TARGET", f"{card.name} has no legal target"
    return None


def cast(engine: Engine, player: int, oid: int) -> Procedure:
    """601.2: the card goes on the stack, then X, targets, costs (mana abilities first); the caster then
    receives priority (MTG-P-17). Costs paid here are events of this spell (MTG-C-10)."""
    st = engine.state
    card = card_of(engine, oid)
    eid = st.next_effect
    moved = board.move(engine, oid, STACK, board.CAST, controller=player)
    engine.emit(moved, ev.EffectPending(eid, STACK, player, card.name, stack_key(engine, moved.new, SPELL, moved.card)))
    spell = moved.new
    abilities = extra_costs(card)
    costs = [c for a in abilities for c in a.costs]
    x = 0
    # CR 601.2f: the total cost is the mana cost with the increases in force on the spell
    printed = cost_increases.raised(mana.parse(mana.symbols(card) or "0"),
                                    cost_increases.increase(engine, "spells", spell))
    if life_x(costs):
        top = max(0, min(board.life(st, player), MAX_X))
        answer = yield Request(player, "x", "choose X (the life you pay)", tuple(range(top + 1)), effect=eid,
                               rule="MTG-C-05")
        x = int(answer[0])
        engine.emit(ev.StatusSet(spell, "x", x))
    x_mana, per_target = card.fields.get("x_mana"), int(card.fields.get("cost_per_extra_target") or 0)
    if printed.xs and not life_x(costs):
        # 601.2b: X is announced as the spell is cast; only an X whose total cost can be paid is offered (601.2g-h),
        # in the one colour the card allows for X (CR 107.3).
        options = tuple(n for n in range(MAX_X + 1) if mana.affordable(engine, player, printed.with_x(n, x_mana)))
        answer = yield Request(player, "x", f"choose X (the cost {printed})", options, effect=eid,
                               rule="MTG-C-04")
        x = int(answer[0])
        engine.emit(ev.StatusSet(spell, "x", x))
    yield from choose_mode(engine, player, eid, abilities, spell)
    # CR 601.2f: "costs {1} more for each target beyond the first": only as many targets as can be paid for
    most = next((k for k in range(MAX_TARGETS, 1, -1) if mana.affordable(
        engine, player, printed.with_x(x, x_mana, (k - 1) * per_target))), 1) if per_target else MAX_TARGETS
    yield from choose_targets(engine, player, eid, abilities, spell, spell, most)
    chosen = len(st.pending[eid].targets) if eid in st.pending else 0
    paid = yield from mana.pay(engine, player, printed.with_x(x, x_mana, max(0, chosen - 1) * per_target), eid)
    assert paid, "checked before the decision was accepted"
    yield from pay_costs(engine, player, spell, costs, eid, x)
    yield from give_priority(engine, player)  # MTG-P-17


# -- activating ---------------------------------------------------------------------------------------------


def activated(engine: Engine, oid: int) -> list[tuple[int, AbilityDef]]:
    """The activated abilities (mana abilities included) an object has now, with their positions: its card's,
    then those other objects give it (``granted``), numbered on after its card's."""
    v = view(engine.state, oid)
    own = card_of(engine, oid).abilities
    mine = [(i, a) for i, a in enumerate(own) if a.kind == "activated" and a.id in v.chars.abilities]
    mine += [(len(own) + n, a) for n, (_, _, a) in enumerate(granted(engine, oid))]
    return mine + [(m.position, m.ability) for m in mana.intrinsic(engine, oid)] if engine.state.modifiers else mine


def granted(engine: Engine, oid: int) -> list[tuple[int, int, AbilityDef]]:
    """The activated abilities other permanents' static effects give the object now ("Other Zombies have
    '{B}: Regenerate this permanent.'", CR 613.1f), in the order the effects started: each as the card that
    defines it, its position there, and the ability."""
    st = engine.state
    if not st.modifiers:
        return []
    out: list[tuple[int, int, AbilityDef]] = []
    for m in sorted(modifiers_applying(st, oid), key=lambda m: m.effect):
        if m.kind != GRANT_ABILITY or m.source not in st.objects or view(st, oid).abilities_ignored:
            continue
        giver = st.objects[m.source].card
        out += [(giver, i, a) for i, a in enumerate(engine.profile.pool[st.cards[giver].definition].abilities)
                if a.id == m.value]
    return out


def why_not_activate(engine: Engine, player: int, oid: int, index: int) -> Why | None:
    st = engine.state
    if not board.on_battlefield(st, oid) or st.objects[oid].controller != player:
        return "MTG-P-04", "only a permanent you control on the battlefield has abilities you may activate"
    found = dict(activated(engine, oid))
    ability = found.get(index)
    if ability is None:
        return "MTG-P-04", "that permanent has no such activated ability"
    if mana.is_mana_ability(ability):
        return None  # MTG-P-06: checked by the caller (priority or a payment in progress)
    why = _priority(engine, player)
    if why:
        return why  # MTG-P-04: any time you have priority
    why = why_not_costs(engine, player, oid, ability.costs, 0)
    if why:
        return why
    more = cost_increases.increase(engine, "abilities", oid)
    if more:  # CR 601.2f, 602.2b: the total cost with the increase must be payable
        total = cost_increases.raised(cost_increases.mana_part(ability.costs), more)
        if not mana.affordable(engine, player, total):
            return "MTG-C-04", f"you cannot pay {total}: not enough mana (an increase of {more} is in force)"
    for c in ability.conditions:  # CR 602.5b: "activate no more than N times each turn"
        times = int(c.params.get("times", 1))
        if c.name == TIMES_EACH_TURN and activations_this_turn(st, oid, ability.id) >= times:
            return "CR 602.5b", f"{ability.label} may be activated only {times} time(s) each turn"
        if c.name == AS_SORCERY and not sorcery_timing(engine, player):
            return "CR 602.5d", f"{ability.label} may be activated only as a sorcery (your main phase, empty stack)"
        if c.name == DURING_YOUR_TURN and st.active != player:
            return "CR 602.5", f"{ability.label} may be activated only during your turn"
    if not targets.has_targets(engine, ability, None, player, oid):
        return "MTG-GAME-TARGET", f"{ability.label} has no legal target"
    return None


def activate(engine: Engine, player: int, oid: int, index: int) -> Procedure:
    """602.2: the ability goes on the stack, targets are chosen, costs paid; then its controller receives
    priority (MTG-P-17)."""
    st = engine.state
    ability = dict(activated(engine, oid))[index]
    # A granted ability is named on the stack by the card that defines it and its position there.
    own = len(card_of(engine, oid).abilities)
    card, at = (st.objects[oid].card, index) if index < own else granted(engine, oid)[index - own][:2]
    eid = st.next_effect
    engine.emit(ev.EffectPending(eid, STACK, player, ability.label, stack_key(engine, oid, at, card)))
    if any(c.name == TIMES_EACH_TURN for c in ability.conditions):  # counted as it is activated (CR 602.5b)
        engine.emit(ev.StatusSet(oid, ACTIVATIONS + ability.id, activations_this_turn(st, oid, ability.id) + 1),
                    ev.StatusSet(oid, ACTIVATED_TURN + ability.id, st.turn))
    yield from choose_targets(engine, player, eid, [ability], None, oid)
    more = cost_increases.increase(engine, "abilities", oid)
    costs = ability.costs
    if more:  # CR 601.2f, 602.2b: the increase is paid with the ability's mana, as one total cost
        paid = yield from mana.pay(engine, player, cost_increases.raised(cost_increases.mana_part(costs), more), eid)
        assert paid, "checked before the decision was accepted"
        costs = tuple(c for c in costs if c.name != "mana")
    yield from pay_costs(engine, player, oid, costs, eid, 0)
    yield from give_priority(engine, player)


def activate_mana(engine: Engine, player: int, oid: int, color: str | None) -> Procedure:
    """A mana ability while holding priority (MTG-P-06): no stack, and the player keeps priority."""
    src = next(s for s in mana.sources(engine, player, only=oid) if s.obj == oid)
    yield from mana.activate(engine, player, src, color)


def why_not_mana(engine: Engine, player: int, oid: int, color: str | None) -> Why | None:
    why = _priority(engine, player)
    if why:
        return "MTG-P-06", "mana abilities are activated with priority or while paying mana"
    src = next((s for s in mana.sources(engine, player, only=oid) if s.obj == oid), None)
    if src is None:
        # The rule the activation breaks: its cost's (MTG-C-05 life, MTG-C-06 a tapped source), if that is why.
        return mana.why_not_source(engine, player, oid) or (
            "MTG-P-06", "that is not a mana ability you can activate now")
    if color is not None and color not in src.colors:
        return "MTG-P-06", f"it cannot make {color} mana"
    return None


# -- special action: playing a land ---------------------------------------------------------------------------


def why_not_play(engine: Engine, player: int, oid: int) -> Why | None:
    st = engine.state
    why = _priority(engine, player)
    if why:
        return why
    if oid not in st.zone(zone(player, HAND)) or "land" not in view(st, oid).chars.types:
        return "MTG-P-05", "only a land card in your hand can be played"
    if not sorcery_timing(engine, player):
        return "MTG-P-05", "a land is played only in your main phase while you have priority and the stack is empty"
    if st.stat(player, LANDS_PLAYED) >= 1:
        return "MTG-P-05", "you have already played a land this turn (305.2)"
    return None


def play_land(engine: Engine, player: int, oid: int) -> Procedure:
    moved = board.move(engine, oid, zone(player, BATTLEFIELD), board.PLAY, controller=player)
    engine.emit(moved, *board.entered(engine, moved.new, engine.state.cards[moved.card].printed.types),
                ev.PlayerStat(player, LANDS_PLAYED, engine.state.stat(player, LANDS_PLAYED) + 1))
    yield from give_priority(engine, player)  # MTG-P-17: after a special action


def illegal(decision: Decision, why: Why) -> IllegalDecision:
    return IllegalDecision(decision, why[0], why[1])
