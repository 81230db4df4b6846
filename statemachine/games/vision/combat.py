"""Battle as an interference (VOP-I-18): the attack is the originating action, a defense is an interrupt that
can only be made directly on it (VOP-I-19, VOP-I-20), and the battle is processed when the attack resolves.

The battle-specific details are not in the seed (SPEC Part 4 #26); kifu's choices are in the README.
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState, Pending
from statemachine.engine import Engine
from statemachine.games.vision import board
from statemachine.games.vision.board import CHAIN, enter_field, fizzle

BLOCKED_BY = "blocked_by"


def battle_attack(state: GameState, oid: int) -> int:
    """The damage a character deals in battle: its attack with the battle modifiers (戦闘修正) in force."""
    return max(0, view(state, oid).power + board.battle_bonus(state, oid, board.BATTLE_POWER))


def resolve_defense(engine: Engine, pend: Pending) -> None:
    """The defender becomes the attack's defender; a character played to defend enters the field first."""
    st = engine.state
    defender = pend.source
    if defender in st.objects and st.objects[defender].zone == CHAIN:
        defender = enter_field(engine, defender, pend.controller)  # 奇襲 + 速攻: it enters active
    st = engine.state
    if not board.on_field(st, defender):
        fizzle(engine, pend.effect, "the defending character left the field")
        return
    attacker = pend.subject
    if attacker is not None and board.on_field(st, attacker):
        engine.emit(ev.StatusSet(attacker, BLOCKED_BY, defender))


def resolve_attack(engine: Engine, pend: Pending) -> None:
    """Undefended: the attacker deals its attack as damage to the defending player. Defended: attacker and
    defender deal their attack to each other at the same time. A defender that left the field leaves the
    attack defended, dealing no damage (README)."""
    st = engine.state
    attacker = pend.subject
    if attacker is None or not board.on_field(st, attacker):
        fizzle(engine, pend.effect, "the attacking character left the field")
        return
    atk = battle_attack(st, attacker)
    defender = st.objects[attacker].status.get(BLOCKED_BY)
    if defender:
        if board.on_field(st, defender):
            board.damage(engine, [(defender, atk), (attacker, battle_attack(st, defender))])
        if attacker in engine.state.objects:
            engine.emit(ev.StatusSet(attacker, BLOCKED_BY, 0))
    else:
        board.damage(engine, [(board.player_target(engine.opponent(pend.controller)), atk)])
