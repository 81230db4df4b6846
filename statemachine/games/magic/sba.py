"""State-based actions (704, not in the seed; SPEC Part 4 #20): performed as one event whenever a player would
receive priority, and checked again until none apply (MTG-P-12, MTG-P-20)."""

from __future__ import annotations

from typing import NamedTuple

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.engine import Engine
from statemachine.games.magic import board, statics
from statemachine.games.magic.board import DREW_FROM_EMPTY
from statemachine.games.magic.damage import DEATHTOUCH, REGENERATION, destroy_events

CANT_LOSE = "cant_lose"  # pools 1.0-1.1: the ability id of 《プラチナの天使》 (since 1.2: a static effect)


def cant_lose(state: GameState, player: int) -> bool:
    """A "you can't lose the game" effect applies to the player (CR 104.3): a static effect in force, or (pools
    1.0-1.1, where the card had no effect steps) a permanent with that ability."""
    return statics.flagged(state, board.player_ref(player), statics.CANT_LOSE) or board.controls_ability(
        state, player, CANT_LOSE)


class Found(NamedTuple):
    actions: list[str]
    objects: list[int]
    dies: list[int]  # lethal damage: destroyed (704.5g)
    falls: list[int]  # toughness 0 or less: put into the graveyard (704.5f)
    losers: list[tuple[int, str]]
    unattached: list[int]  # an aura attached to nothing on the battlefield: put into the graveyard (704.5m)
    unequipped: list[int]  # an Equipment attached to nothing on the battlefield: it becomes unattached (704.5n)


def find(engine: Engine) -> Found:
    st = engine.state
    found = Found([], [], [], [], [], [], [])
    for p, ps in enumerate(st.players):
        if ps.lost:
            continue
        why = None
        if board.life(st, p) <= 0:
            why = "life total 0 or less (704.5a)"
        elif st.stat(p, DREW_FROM_EMPTY) and engine.options.deck_out != "off":
            why = "drew from an empty library (704.5b)"
        elif st.stat(p, board.POISON) >= board.POISON_LIMIT:
            why = "ten or more poison counters (704.5c)"
        # (asked only of a player who would lose: it looks at every permanent they control)
        if why is not None and not cant_lose(st, p):
            found.losers.append((p, why))
    for oid in board.permanents(st):  # 704.5m: an aura attached to nothing on the battlefield
        host = st.objects[oid].status.get(statics.ATTACHED)
        if host is None:
            continue
        if statics.EQUIPMENT in view(st, oid).chars.subtypes:
            if not board.on_battlefield(st, host) or not board.has_type(st, host, "creature"):
                found.unequipped.append(oid)  # 704.5n: it stays on the battlefield, attached to nothing
        elif not board.on_battlefield(st, host):
            found.unattached.append(oid)
    for oid in board.creatures(st):
        v = view(st, oid)
        toughness = v.chars.toughness or 0
        if toughness <= 0:
            found.falls.append(oid)
        elif "indestructible" in v.chars.keywords:
            continue  # CR 702.12b: lethal damage does not destroy it
        elif v.status.get("damage", 0) >= toughness or (v.status.get(DEATHTOUCH) and v.status.get("damage", 0)):
            found.dies.append(oid)  # 704.5g; 704.5h: damage from a source with deathtouch
    if found.losers:
        found.actions.append("player loses")
    if found.falls:
        found.actions.append("toughness 0 or less")
        found.objects.extend(found.falls)
    if found.dies:
        found.actions.append("lethal damage")
        found.objects.extend(found.dies)
    if found.unattached:
        found.actions.append("aura attached to nothing")
        found.objects.extend(found.unattached)
    if found.unequipped:
        found.actions.append("equipment attached to nothing")
        found.objects.extend(found.unequipped)
    return found


def perform(engine: Engine) -> bool:
    """Perform every state-based action that applies, simultaneously, as one event. True if any was. (Static
    abilities of permanents that arrived start first: what they do is part of the state looked at.)"""
    statics.start(engine)
    leave_combat(engine)
    found = find(engine)
    if not found.actions:
        return False
    st = engine.state
    events: list[ev.Event] = [ev.StateBasedAction(tuple(found.actions), tuple(found.objects))]
    # A regeneration shield replaces the destruction (CR 701.15b); toughness 0 is not destruction (704.5f).
    regenerated = [o for o in found.dies if st.objects[o].status.get(REGENERATION)]
    events += destroy_events(engine, regenerated, board.DESTROY)
    leaving = [(o, board.SBA) for o in found.falls] + [(o, board.DESTROY) for o in found.dies if o not in regenerated]
    leaving += [(o, board.SBA) for o in found.unattached]
    ids = engine.new_object_ids(len(leaving))
    events += [board.move(engine, o, board.zone(st.objects[o].owner, board.GRAVEYARD), cause, new_id=nid)
               for (o, cause), nid in zip(leaving, ids, strict=True)]
    events += [ev.StatusSet(o, statics.ATTACHED, 0) for o in found.unequipped]
    events += [ev.PlayerLost(p, why) for p, why in found.losers]
    lost = {p for p, _ in found.losers} | {p for p, ps in enumerate(st.players) if ps.lost}
    left = [p for p in range(len(st.players)) if p not in lost]
    if found.losers and len(left) <= 1:
        events.append(ev.GameEnded(left[0] if left else None, found.losers[0][1]))
    engine.emit(*events)
    return True



COMBAT_MARKS = ("attacking", "blocking", "blocked")


def leave_combat(engine: Engine) -> None:
    """CR 506.4: a permanent that is no longer a creature (a change of type ended) is removed from combat."""
    st = engine.state
    events = [ev.StatusSet(o, k, 0) for o in board.permanents(st) for k in COMBAT_MARKS
              if st.objects[o].status.get(k) and "creature" not in view(st, o).chars.types]
    if events:
        engine.emit(*events)

