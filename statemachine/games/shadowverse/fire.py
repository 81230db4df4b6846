"""Triggers the game fires itself, at the moment its procedures say: the start and end of a turn, countdowns,
healing (a leader is not an object), maneuvering and "if this survived the attack".

Each becomes an ``Instance`` like a kernel match and joins the queue through the policy, sorted by the same
keys (SV-O-10..14).
"""

from __future__ import annotations

import msgspec

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from statemachine.engine import Engine
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import FIELD
from statemachine.triggers import Instance, Listener, matches_filter


def instances(engine: Engine, name: str, *, player: int | None = None, subject: int | None = None,
              by: int | None = None, where: tuple[str, ...] = (FIELD,)) -> list[Instance]:
    """Listeners of ``name`` (``whose`` read against ``player``; ``subject`` for self/other triggers)."""
    st = engine.state
    seq = by if by is not None else st.seq
    subj: ObjectView | None = view(st, subject) if subject is not None and subject in st.objects else None
    out: list[Instance] = []
    for lst in engine.index.listeners(name):
        if board.kind_of(st.objects[lst.obj].zone) not in where:
            continue
        holder = view(st, lst.obj)
        if lst.ability.id not in holder.chars.abilities:
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
            if subj is not None and not matches_filter(subj, t.filter, engine.index.tests):
                continue
        elif t.filter and not matches_filter(holder, t.filter, engine.index.tests):
            continue  # a trigger about no subject (turn end, countdown): its filter reads the holder itself
        out.append(Instance(lst, holder.controller, holder, subj, seq, ev.AFTER))
    return out + leader_instances(engine, name, player=player, by=seq)


def leader_view(engine: Engine, player: int, card: int, definition: str, granted: str, since: int) -> ObjectView:
    """A leader as the holder of an ability granted to it (a leader is not an object: ``leader(p)``)."""
    return ObjectView(board.leader(player), card, definition, player, player, board.zone(player, "leader"),
                      ev.Characteristics("leader", abilities=(granted,)), {}, (), False, False, since)


def leader_instances(engine: Engine, name: str, *, player: int | None, by: int) -> list[Instance]:
    """Abilities granted to a leader (密約の吸血鬼): ``leader_ability`` modifiers naming "card/ability"."""
    st = engine.state
    out: list[Instance] = []
    if not st.modifiers:
        return out
    for m in sorted(st.modifiers.values(), key=lambda m: (m.since, m.effect)):
        if m.kind != "leader_ability" or m.target >= 0:
            continue
        if m.until == board.WHILE_ON and not board.on_field(st, m.source):
            continue  # SV-O-80: lost with the card that granted it, judged now
        owner = board.leader_player(m.target)
        definition, _, aid = m.value.partition("/")
        card = engine.profile.pool[definition]
        ability = card.ability(aid)
        t = ability.trigger
        if t is None or t.on != name:
            continue
        if player is not None and t.whose == "you" and owner != player:
            continue
        if player is not None and t.whose == "opponent" and owner == player:
            continue
        granted = msgspec.structs.replace(ability, id=m.value)
        holder = leader_view(engine, owner, m.amount, definition, m.value, m.since)
        out.append(Instance(Listener(board.leader(owner), card, granted), owner, holder, None, by, ev.AFTER))
    return out


def granted_instances(engine: Engine, oid: int, grants: list[tuple[str, int, int]], on: str, by: int
                      ) -> list[Instance]:
    """Abilities granted to a card (ディメンションドミネーター's Fanfare), as it is now; ``grants`` are
    (card/ability, granting card, when granted) in grant order (SV-O-14)."""
    st = engine.state
    out: list[Instance] = []
    holder = view(st, oid)
    for value, _card, _since in grants:
        definition, _, aid = value.partition("/")
        card = engine.profile.pool[definition]
        ability = card.ability(aid)
        if ability.trigger is None or ability.trigger.on != on:
            continue
        granted = msgspec.structs.replace(ability, id=value)
        out.append(Instance(Listener(oid, card, granted), holder.controller, holder, holder, by, ev.AFTER))
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


__all__ = ["fire", "granted_instances", "healed", "instances", "leader_instances"]
