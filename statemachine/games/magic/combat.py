"""Combat as turn-based actions: declaring attackers and blockers, and combat damage (506-511, outside the
seed; SPEC Part 4 #20). Kept small: flying and reach, haste, no first strike or trample."""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.board import LIFE
from statemachine.vocabulary import Procedure


def attackers(state: GameState) -> list[int]:
    return [o for o in board.creatures(state) if state.objects[o].status.get("attacking")]


def can_attack(state: GameState, oid: int) -> bool:
    v = view(state, oid)
    return not v.tapped and not (v.status.get("sick") and "haste" not in v.chars.keywords)


def declare_attackers(engine: Engine) -> Procedure:
    st = engine.state
    me = st.active
    options = [o for o in board.creatures(st, me) if can_attack(st, o)]
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
    defender = engine.opponent(me)
    events: list[ev.Event] = []
    for o in chosen:
        if "vigilance" not in view(st, o).chars.keywords:
            events.append(ev.StatusSet(o, "tapped", 1))
        events += [ev.StatusSet(o, "attacking", 1), ev.Attacked(o, player=defender)]
    engine.emit(*events)


def can_block(state: GameState, blocker: int, attacker: int) -> bool:
    flying = "flying" in view(state, attacker).chars.keywords
    kw = view(state, blocker).chars.keywords
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


def combat_damage(engine: Engine) -> None:
    """510: all combat damage is dealt at once."""
    st = engine.state
    defender = engine.opponent(st.active)
    damage: dict[int, int] = {}
    to_player = 0
    for a in attackers(st):
        power = max(view(st, a).power, 0)
        blockers = [b for b in board.creatures(st) if st.objects[b].status.get("blocking") == a]
        if not blockers:
            if not st.objects[a].status.get("blocked"):
                to_player += power
            continue
        left = power
        for i, b in enumerate(blockers):
            v = view(st, b)
            lethal = max((v.chars.toughness or 0) - v.status.get("damage", 0), 0)
            share = left if i == len(blockers) - 1 else min(left, lethal)
            if share:
                damage[b] = damage.get(b, 0) + share
            left -= share
            if v.power > 0:
                damage[a] = damage.get(a, 0) + v.power
    events: list[ev.Event] = [ev.StatusSet(o, "damage", st.objects[o].status.get("damage", 0) + n)
                              for o, n in damage.items()]
    if to_player:
        events.append(ev.PlayerStat(defender, LIFE, board.life(st, defender) - to_player))
    if events:
        engine.emit(*events)
