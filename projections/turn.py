"""The memory of the turn: what happened since the current turn began, folded from this turn's events.

Card text asks about the turn so far: "if ~ didn't attack this turn", "the damage dealt to you this turn", "unless
it came under your control this turn". The answers are facts of the log, so the fold keeps them
(``GameState.this_turn``), started afresh by each ``TurnBegan``: no rule keeps a counter of its own, and the state
at any record answers them as it was then. What the memory holds is the kernel's events, read the same in every
game: attacks declared (``Attacked``), damage dealt (``DamageDealt``), objects whose controller changed (a control
effect starting or ending). An object that came to be this turn is told by its ``since`` (``arrived``).
"""

from __future__ import annotations

from msgspec import Struct, field


class TurnMemory(Struct, array_like=True):
    """This turn's facts (``projections.state`` folds them; ``GameState.this_turn``)."""

    began: int = 0  # the record the turn began at (its ``TurnBegan``)
    attacked: list[int] = field(default_factory=list)  # objects declared as attackers this turn, in order
    # Damage dealt this turn to each object or player (``-1 - player``), summed, after prevention (CR 120.3)
    damage_to: dict[int, int] = field(default_factory=dict)
    control_changed: list[int] = field(default_factory=list)  # objects whose controller changed this turn

    def damage_dealt_to(self, ref: int) -> int:
        return self.damage_to.get(ref, 0)

    def arrived(self, since: int) -> bool:
        """Whether an object that came to be at record ``since`` did so this turn (it entered its zone, or was
        created, after the turn began)."""
        return since > self.began


def remember_damage(memory: TurnMemory, to: int, amount: int) -> None:
    memory.damage_to[to] = memory.damage_to.get(to, 0) + amount


def remember_attack(memory: TurnMemory, attacker: int) -> None:
    memory.attacked.append(attacker)


def remember_control_change(memory: TurnMemory, oid: int) -> None:
    if oid not in memory.control_changed:
        memory.control_changed.append(oid)
