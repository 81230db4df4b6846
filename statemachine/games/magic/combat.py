"""Combat as turn-based actions: declaring attackers and blockers, and combat damage (506-511, outside the
seed; SPEC Part 4 #20), with the keywords that change them: flying and reach (CR 702.9, 702.17), haste
(702.10), vigilance (702.20), defender (702.3), menace (702.111), protection (702.16), fear (702.36), first strike
and double strike (702.7, 702.4: a first combat damage step), trample (702.19), deathtouch (702.2) and lifelink
(702.15); and the restrictions card text states (``restrictions``)."""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.magic import board, lifegain, memory
from statemachine.games.magic.board import LIFE
from statemachine.games.magic.damage import (
    DEATHTOUCH,
    combat_damage_prevented,
    dealt_by,
    prevented,
    protected,
    recording,
)
from statemachine.games.magic.restrictions import attack_forbidden, block_forbidden, unblockable
from statemachine.games.magic.statics import CANT_ATTACK, CANT_BLOCK, flagged
from statemachine.replacements import Shields
from statemachine.vocabulary import Procedure

FEAR = "fear"


def attackers(state: GameState) -> list[int]:
    return [o for o in board.creatures(state) if state.objects[o].status.get("attacking")]


def can_attack(state: GameState, oid: int) -> bool:
    v = view(state, oid)
    if "defender" in v.chars.keywords or flagged(state, oid, CANT_ATTACK):
        return False  # CR 702.3b; "can't attack" (an aura's static ability)
    return not v.tapped and not (v.status.get("sick") and "haste" not in v.chars.keywords)


def declare_attackers(engine: Engine) -> Procedure:
    st = engine.state
    me = st.active
    defender = engine.opponent(me)
    options = [o for o in board.creatures(st, me) if can_attack(st, o) and not attack_forbidden(st, o, defender)]
    if not options:
        return
    chosen: list[int] = []
    while options:  # one attacker at a time; choosing none ends the declaration
        answer = yield Request(me, "attackers", "declare an attacking creature (none: done)", tuple(options), 0, 1,
                               rule="MTG-GAME-ATTACK")
        if not answer:
            break
        chosen.append(int(answer[0]))
        options.remove(int(answer[0]))
    if not chosen:
        return
    events: list[ev.Event] = []
    for o in chosen:
        if "vigilance" not in view(st, o).chars.keywords:
            events.append(ev.StatusSet(o, "tapped", 1))
        events += [ev.StatusSet(o, "attacking", 1), ev.Attacked(o, player=defender)]
    engine.emit(*events)


LANDWALK = {"swampwalk": "Swamp", "islandwalk": "Island", "forestwalk": "Forest", "mountainwalk": "Mountain",
            "plainswalk": "Plains"}


def landwalk_unblockable(state: GameState, attacker: int, defender: int) -> bool:
    """CR 702.14c: a creature with landwalk can't be blocked as long as the defending player controls a land
    of that subtype."""
    kinds = {LANDWALK[k] for k in view(state, attacker).chars.keywords if k in LANDWALK}
    return bool(kinds) and any("land" in (c := view(state, o).chars).types and kinds & set(c.subtypes)
                               for o in board.permanents(state, defender))


def can_block(state: GameState, blocker: int, attacker: int) -> bool:
    seen = view(state, attacker)
    flying = "flying" in seen.chars.keywords
    by = view(state, blocker)
    kw = by.chars.keywords
    if protected(seen, by) or flagged(state, blocker, CANT_BLOCK) or unblockable(state, attacker):
        return False  # CR 702.16f: can't be blocked by creatures of that colour; "can't block"; CR 509.1b
    if FEAR in seen.chars.keywords and "artifact" not in by.chars.types and "black" not in by.chars.colors:
        return False  # CR 702.36b: only artifact creatures and/or black creatures block it
    if landwalk_unblockable(state, attacker, view(state, blocker).controller):
        return False  # CR 702.14c
    if state.modifiers and block_forbidden(state, attacker, blocker):
        return False  # CR 509.1b: "can't be blocked by creatures with power 3 or greater"
    return not flying or "flying" in kw or "reach" in kw


def declare_blockers(engine: Engine) -> Procedure:
    st = engine.state
    defender = engine.opponent(st.active)
    for blocker in board.creatures(st, defender):
        if board.is_tapped(st, blocker):
            continue
        options = [a for a in attackers(st) if can_block(st, blocker, a)]
        if not options:
            continue
        name = view(st, blocker).chars.name
        answer = yield Request(defender, "block", f"choose an attacker for {name} to block, or none",
                               tuple(options), 0, 1, rule="MTG-GAME-BLOCK")
        if answer:
            attacker = int(answer[0])
            engine.emit(ev.StatusSet(blocker, "blocking", attacker), ev.StatusSet(attacker, "blocked", 1))
    # CR 702.111b: a creature with menace can't be blocked except by two or more creatures. A declaration
    # that breaks it is not kept: the lone blocker does not block (kifu asks blocker by blocker, 509.1a).
    undo: list[ev.Event] = []
    for a in attackers(st):
        blockers = [b for b in board.creatures(st) if st.objects[b].status.get("blocking") == a]
        if len(blockers) == 1 and "menace" in view(st, a).chars.keywords:
            undo += [ev.StatusSet(blockers[0], "blocking", 0), ev.StatusSet(a, "blocked", 0)]
    if undo:
        engine.emit(*undo)
    memory.unblocked_triggers(engine)  # CR 509.1h: the attackers now unblocked (rules 1.6)


FIRST_STRIKE, DOUBLE_STRIKE, STRUCK = "first_strike", "double_strike", "struck_first"


def in_combat(state: GameState) -> list[int]:
    return [o for o in board.creatures(state) if state.objects[o].status.get("attacking")
            or state.objects[o].status.get("blocking")]


def first_strike_step(state: GameState) -> bool:
    """CR 510.4: a creature in combat has first strike or double strike: a first combat damage step."""
    return any({FIRST_STRIKE, DOUBLE_STRIKE} & set(view(state, o).chars.keywords) for o in in_combat(state))


def _deals(state: GameState, oid: int, strike: str) -> bool:
    """Whether the creature deals combat damage in this step (CR 702.7b, 702.4b-c)."""
    kw = view(state, oid).chars.keywords
    match strike:
        case "first":
            return FIRST_STRIKE in kw or DOUBLE_STRIKE in kw
        case "regular":
            return not state.objects[oid].status.get(STRUCK) or DOUBLE_STRIKE in kw
        case _:
            return True


def _lethal(state: GameState, oid: int, deathtouch: bool) -> int:
    v = view(state, oid)
    left = max((v.chars.toughness or 0) - v.status.get("damage", 0), 0)
    return min(left, 1) if deathtouch else left  # CR 702.2c: any damage from deathtouch is lethal


def combat_damage(engine: Engine, strike: str = "all") -> None:
    """510: combat damage is dealt at once ("first": the first-strike step; "regular": the step after it;
    "all": the only step). Each attacker assigns lethal damage to its blockers in order, the rest to the last,
    or with trample to the player (702.19b); each blocker to the attacker it blocks."""
    st = engine.state
    defender = engine.opponent(st.active)
    hits: list[tuple[int, int, int]] = []  # (source, object or player ref, amount), in assignment order
    for a in attackers(st):
        blockers = [b for b in board.creatures(st) if st.objects[b].status.get("blocking") == a]
        seen = view(st, a)
        power = max(seen.power, 0)
        deals = _deals(st, a, strike)
        trample, touch = "trample" in seen.chars.keywords, DEATHTOUCH in seen.chars.keywords
        if not blockers:
            if deals and (not st.objects[a].status.get("blocked") or trample):
                hits.append((a, board.player_ref(defender), power))
            continue
        left = power if deals else 0
        for i, b in enumerate(blockers):
            share = left if i == len(blockers) - 1 and not trample else min(left, _lethal(st, b, touch))
            if share:
                hits.append((a, b, share))
            left -= share
            if _deals(st, b, strike) and view(st, b).power > 0:
                hits.append((b, a, view(st, b).power))
        if left > 0:
            hits.append((a, board.player_ref(defender), left))
    events = _combat_events(engine, hits)
    if strike == "first":
        events += [ev.StatusSet(o, STRUCK, 1) for o in in_combat(st) if _deals(st, o, "first")]
    if events:
        lifegain.emit(engine, *events)


def _combat_events(engine: Engine, hits: list[tuple[int, int, int]]) -> list[ev.Event]:
    """The damage as events: one mark per creature, one life change per player (prevention, deathtouch and
    lifelink applied per source: CR 615, 702.16e, 702.2b, 702.15b)."""
    st = engine.state
    if combat_damage_prevented(st):
        return []
    damage: dict[int, int] = {}
    life: dict[int, int] = {}
    touched: list[int] = []
    shields = Shields(st)
    dealt: list[ev.DamageDealt] = []
    for source, ref, n in hits:
        src = view(st, source)
        player = board.ref_player(ref)
        if player is None and protected(view(st, ref), src):
            continue
        left = prevented(shields, st, source, src, ref, n)  # CR 615
        if n and not left:
            continue
        n = left
        if n:
            dealt.append(ev.DamageDealt(source, ref, n, True))
        if player is not None:
            life[player] = life.get(player, 0) - n
        else:
            damage[ref] = damage.get(ref, 0) + n
            if DEATHTOUCH in src.chars.keywords and ref not in touched:
                touched.append(ref)
        if "lifelink" in src.chars.keywords:
            life[src.controller] = life.get(src.controller, 0) + n
    events: list[ev.Event] = shields.events() + (dealt + dealt_by(st, dealt) if recording(engine) else [])
    events += [ev.StatusSet(o, "damage", st.objects[o].status.get("damage", 0) + n) for o, n in damage.items()]
    events += [ev.StatusSet(o, DEATHTOUCH, 1) for o in touched]
    events += [ev.PlayerStat(p, LIFE, board.life(st, p) + d) for p, d in life.items() if d]
    return events
