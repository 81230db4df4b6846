"""What a Duel Masters player does: charge mana, summon, cast, attack — each a procedure of events.

Game rules that SPEC does not number carry kifu's own ids (DM-GAME-..), listed in the game's README.
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.context import EffectContext
from statemachine.decisions import Decision, IllegalDecision, Request
from statemachine.engine import Engine
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.board import BATTLE, GRAVEYARD, HAND, HOLD, MANA, SUMMON, zone
from statemachine.games.duel_masters.pending import POOL
from statemachine.vocabulary import Procedure

CASTING = "casting"


def _illegal(decision: Decision, rule: str, why: str) -> IllegalDecision:
    return IllegalDecision(decision, rule, why)


# -- mana ---------------------------------------------------------------------------------------------------


def mana_to_tap(engine: Engine, player: int, cost: int, colors: tuple[str, ...]) -> list[int] | None:
    """Untapped mana cards that pay ``cost`` with at least one of ``colors`` among them, or None.

    Which cards are tapped is not a timing question; kifu taps cards of the needed civilization first, then
    the others, in the order they lie in the mana zone (DM-GAME-MANA).
    """
    st = engine.state
    untapped = [o for o in st.zone(zone(player, MANA)) if not board.is_tapped(st, o)]
    if len(untapped) < cost:
        return None
    if cost == 0:
        return []
    matching = [o for o in untapped if set(view(st, o).chars.colors) & set(colors)] if colors else untapped
    if colors and not matching:
        return None
    rest = [o for o in untapped if o not in matching[:1]]
    return (matching[:1] + rest)[:cost]


def can_pay(engine: Engine, player: int, cost: int, colors: tuple[str, ...]) -> bool:
    """Whether ``mana_to_tap`` finds cards to pay with (asked for every card in hand whenever the legal decisions
    are listed, so it looks for one card of the civilization instead of listing them all)."""
    st = engine.state
    untapped = [o for o in st.zone(zone(player, MANA)) if not board.is_tapped(st, o)]
    if len(untapped) < cost:
        return False
    if cost == 0 or not colors:
        return True
    wanted = set(colors)
    return any(wanted & set(view(st, o).chars.colors) for o in untapped)


def pay_mana(engine: Engine, player: int, cost: int, colors: tuple[str, ...]) -> None:
    cards = mana_to_tap(engine, player, cost, colors)
    assert cards is not None, "checked before the decision was accepted"
    engine.emit(ev.CostPaid(player, "mana", cost, tuple(cards)), *[ev.StatusSet(o, "tapped", 1) for o in cards])


# -- entering the battle zone ---------------------------------------------------------------------------------


def enter_battle(engine: Engine, oid: int, controller: int, cause: str) -> int:
    """Put a creature (or field) into its owner's battle zone; returns its new object id."""
    st = engine.state
    chars = view(st, oid).chars
    moved = board.move(engine, oid, zone(st.objects[oid].owner, BATTLE), cause, controller=controller)
    sick = "creature" in chars.types and "speed_attacker" not in chars.keywords
    engine.emit(moved, *([ev.StatusSet(moved.new, "sick", 1)] if sick else []))
    board.start_statics(engine, moved.new)
    return moved.new


def evolve_onto(engine: Engine, oid: int, base: int, controller: int, cause: str) -> int:
    """An evolution creature enters on top of ``base``; it keeps the base's tapped state and is not sick.

    DM-GAME-EVOLVE (rules 1.1): on a base that is itself an evolution creature it goes on top of the whole
    stack: the base goes under it, then every card that lay under the base, bottom first, then the base again
    on top of them — so the stack keeps its order (``under`` is bottom first) and no evolution creature is
    ever left in the battle zone with nothing under it. Rules 1.0 put only the base under it (nested)."""
    st = engine.state
    tapped = board.is_tapped(st, base)
    moved = board.move(engine, oid, zone(st.objects[oid].owner, BATTLE), cause, controller=controller)
    extra = [ev.StatusSet(moved.new, "tapped", 1)] if tapped else []
    sources = list(st.objects[base].under) if engine.profile.rules.evolve_onto_whole_stack else []
    stacked = [ev.Stacked(moved.new, base)]
    if sources:
        stacked += [*(ev.Stacked(moved.new, u) for u in sources), ev.Stacked(moved.new, base)]
    engine.emit(moved, *stacked, *extra)
    board.start_statics(engine, moved.new)
    return moved.new


def top_of(state: GameState, oid: int) -> int:
    """The card on top of the stack ``oid`` lies in (``oid`` itself if nothing lies on it)."""
    obj = state.objects.get(oid)
    while obj is not None and obj.on is not None and obj.on in state.objects:
        obj = state.objects[obj.on]
    return obj.id if obj is not None else oid


def process_held(engine: Engine, controller: int, oids: list[int], cause: str) -> Procedure:
    """Cards used together (DM-W-02 (2), DM-W-35): all are put on hold at once (DM-W-36), then processed one at
    a time (DM-W-37); while one is processed the others cannot be referred to (DM-W-38).

    Held cards lie in their owner's hold zone, where no other effect can count, choose or see them
    (SPEC Part 4 #12, decided in the game's README).
    """
    if not oids:
        return
    held = board.move_all(engine, [(o, zone(engine.state.objects[o].owner, HOLD)) for o in oids], "hold")
    engine.emit(*held)
    for e in held:
        if e.new in engine.state.objects:
            enter_battle(engine, e.new, controller, cause)
    return
    yield


# -- summoning and casting ----------------------------------------------------------------------------------


def can_summon(engine: Engine, player: int, oid: int, base: int | None) -> str | None:
    """Why ``player`` cannot summon ``oid`` (on ``base``) now, or None."""
    st = engine.state
    if oid not in st.zone(zone(player, HAND)):
        return "the card is not in your hand"
    chars = view(st, oid).chars
    if "creature" not in chars.types:
        return "only a creature can be summoned"
    if not can_pay(engine, player, chars.cost or 0, chars.colors):
        return f"not enough untapped mana (cost {chars.cost}, civilization {'/'.join(chars.colors)})"
    evolution = "evolution" in chars.types
    neo = "neo_evolution" in chars.keywords
    if base is None:
        return "an evolution creature must be put on a creature" if evolution and not neo else None
    if not (evolution or neo):
        return "only an evolution creature goes on top of another"
    if base not in board.creatures(st, player):
        return "the evolution source must be one of your creatures in the battle zone"
    return evolution_source_refused(engine, oid, base)


def evolution_source_refused(engine: Engine, oid: int, base: int) -> str | None:
    """Why the evolution creature ``oid`` cannot go on ``base`` (its characteristics as they are now), or None.

    DM-GAME-EVOLVE: from rules 1.2 (``evolution_race``) a card naming its races (``evolves_from``, 進化—自分の
    <race>1体の上に置く) goes only on a creature of one of them; otherwise, and always under 1.1, on a creature
    sharing a civilization with it."""
    st = engine.state
    chars, under = view(st, oid).chars, view(st, base).chars
    fields = engine.profile.pool[st.facts(oid).definition].fields
    races, words = fields.get("evolves_from", ()), fields.get("evolves_from_word", ())
    if (races or words) and engine.profile.rules.evolution_race:
        if not board.race_fits(races, words, under.subtypes):
            named = [*races, *(f"race holding {w!r}" for w in words)]
            return f"the evolution source must be one of your {' or '.join(named)} (進化元)"
        return None
    if not set(under.colors) & set(chars.colors):
        return "the evolution source must share a civilization with it"
    return None


def summon(engine: Engine, player: int, oid: int, base: int | None) -> Procedure:
    chars = view(engine.state, oid).chars
    pay_mana(engine, player, chars.cost or 0, chars.colors)
    if base is not None:
        evolve_onto(engine, oid, base, player, SUMMON)
    else:
        enter_battle(engine, oid, player, SUMMON)
    return
    yield


def cast_spell(engine: Engine, player: int, oid: int, *, pay: bool = False) -> Procedure:
    """Cast a spell: its abilities are carried out at once, in printed order, and never wait (DM-W-32, DM-W-33)."""
    st = engine.state
    chars = view(st, oid).chars
    if pay:
        pay_mana(engine, player, chars.cost or 0, chars.colors)
    moved = board.move(engine, oid, zone(player, CASTING), board.CAST)
    engine.emit(moved)
    card = engine.profile.pool[st.cards[moved.card].definition]
    vocab = engine.profile.vocabulary
    for ability in card.abilities:
        if ability.kind != "spell":
            continue
        ctx = EffectContext(engine, controller=player, source=moved.new, source_card=moved.card,
                            ability=ability.id)
        if all(vocab.check(ctx, c.name, c.params) for c in ability.conditions):
            for step in ability.effects:
                yield from vocab.run_effect(ctx, step.name, step.params)
    if moved.new in engine.state.objects:
        # DM-GAME-CHARGER: チャージャー puts the spell into its caster's mana zone instead of the graveyard
        charger = "charger" in chars.keywords
        engine.emit(board.move(engine, moved.new, zone(player, MANA if charger else GRAVEYARD),
                               "charger" if charger else "resolved"))


def can_cast(engine: Engine, player: int, oid: int) -> str | None:
    st = engine.state
    if oid not in st.zone(zone(player, HAND)):
        return "the card is not in your hand"
    chars = view(st, oid).chars
    if "spell" not in chars.types:
        return "only a spell can be cast"
    if not can_pay(engine, player, chars.cost or 0, chars.colors):
        return f"not enough untapped mana (cost {chars.cost}, civilization {'/'.join(chars.colors)})"
    return None


def check_spell_order(engine: Engine, decision: Decision, oid: int, order: tuple[int | str, ...]) -> None:
    """DM-W-34: a spell's abilities run in printed order; a player may not reorder them."""
    card = engine.profile.pool[engine.state.facts(oid).definition]
    printed = [i + 1 for i, a in enumerate(card.abilities) if a.kind == "spell"]
    if order and [int(x) for x in order] != printed:
        raise _illegal(decision, "DM-W-34",
                       f"a spell's abilities are carried out in printed order {printed}, not {list(order)}")


# -- hand-zone declarations (「〜する時」) ---------------------------------------------------------------------


def declaration_window(engine: Engine) -> Procedure:
    """DM-W-25, DM-W-26, DM-W-28: abilities triggered in a hidden zone at a 「〜する時」 moment are declared
    now, all at once, or not at all; the turn player declares first (SPEC Part 4 #10, see README).

    Only abilities whose trigger condition (the text before the comma) matched exactly are offered (DM-W-30,
    enforced by the trigger's filter); the text after the comma may be unsatisfiable now (DM-W-31: it is
    checked at resolution). An ability not declared is as if it never triggered (DM-W-29)."""
    found = engine.declarable
    engine.declarable = []
    if not found:
        return
    active = engine.state.active
    for player in (active, engine.opponent(active)):
        mine = [i for i in found if i.controller == player]
        if not mine:
            continue
        answer = yield Request(player, "declare", "declare the hand abilities you use now (all at once)",
                               tuple(i.holder.obj for i in mine), minimum=0, maximum=len(mine), rule="DM-W-25")
        for inst in mine:
            if inst.holder.obj in answer:
                engine.trigger(inst, holder=POOL, label=inst.listener.ability.label)


__all__ = ["HAND", "can_cast", "can_summon", "cast_spell", "declaration_window", "enter_battle", "evolve_onto",
           "process_held", "summon", "top_of"]
