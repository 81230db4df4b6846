"""Triggers the game fires itself, at the moment its procedures say: the start and end of a turn, countdowns,
healing (a leader is not an object), maneuvering and "if this survived the attack".

Each becomes an ``Instance`` like a kernel match and joins the queue through the policy, sorted by the same
keys (SV-O-10..14).
"""

from __future__ import annotations

from projections.characteristics import ObjectView, view
from statemachine.engine import Engine
from statemachine.triggers import Instance, matches_filter

from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import FIELD


def instances(engine: Engine, name: str, *, player: int | None = None, subject: int | None = None,
              by: int | None = None, where: tuple[str, ...] = (FIELD,)) -> list[Instance]:
    """Listeners of ``name`` (``whose`` read against ``player``; ``subject`` for self/other triggers)."""
    from eventsource import events as ev

    st = engine.state
    seq = by if by is not None else st.seq
    subj: ObjectView | None = view(st, subject) if subject is not None and subject in st.objects else None
    out: list[Instance] = []
    for lst in engine.index.listeners(name):
        holder = view(st, lst.obj)
        if board.kind_of(holder.zone) not in where or lst.ability.id not in holder.chars.abilities:
            continue
        t = lst.ability.trigger
        assert t is not None
        if player is not None:
            if t.whose == "you" and holder.controller != player:
                continue
            if t.whose == "opponent" and holder.controller == player:
                continue
        if subject is not None:
            if t.subject == "self" and subject != lst.obj:
                continue
            if t.subject == "other" and subject == lst.obj:
                continue
            if subj is not None and not matches_filter(subj, t.filter):
                continue
        out.append(Instance(lst, holder.controller, holder, subj, seq, ev.AFTER))
    return out


def fire(engine: Engine, *names: str, player: int | None = None, subject: int | None = None,
         where: tuple[str, ...] = (FIELD,)) -> None:
    """Fire every listener of ``names`` at this moment, as one simultaneous group."""
    found: list[Instance] = []
    for name in names:
        found += instances(engine, name, player=player, subject=subject, where=where)
    if found:
        engine.policy.triggered(engine, found)


def healed(engine: Engine, player: int) -> None:
    """「回復するたび」: a heal of a player's leader or followers (天狐の社)."""
    fire(engine, "healed", player=player)


__all__ = ["fire", "healed", "instances"]
