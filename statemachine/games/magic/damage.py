"""Dealing damage, and what the rules make of it: prevention (CR 615: protection, "prevent all combat damage"),
deathtouch (CR 702.2: any damage is lethal, a state-based action), lifelink (CR 702.15: its controller gains that
much life, at the same time). One place for spells, abilities and combat, so every source is treated alike.

Damage to a creature is marked on it (``damage``, and ``deathtouch`` when its source had deathtouch); damage to
a player is life lost. Both are undone at cleanup (514.2), with regeneration shields.
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import ObjectView, current_or_last_known, view
from projections.state import GameState
from statemachine.engine import Engine
from statemachine.games.magic import board, lifegain
from statemachine.games.magic.board import LIFE
from statemachine.replacements import Shields

PREVENT_COMBAT_DAMAGE = "prevent_combat_damage"  # a player-wide flag ("Prevent all combat damage this turn")
DEATHTOUCH = "deathtouch"  # status: a deathtouch source dealt it damage since the last cleanup (704.5h)
REGENERATION = "regeneration"  # status: regeneration shields until the cleanup (701.15)
DEALT_BY = "dealt_damage_by_"  # status + source object: it was dealt damage by that source this turn (rules 1.4)
PROTECTION = "protection_from_"
CANT_REGENERATE = "cant_regenerate"  # a continuous effect: "it can't be regenerated this turn" (CR 701.15c)


def protected(seen: ObjectView, source: ObjectView | None) -> bool:
    """CR 702.16: protection from a colour: damage, targeting, enchanting and blocking by that colour."""
    return source is not None and any(
        kw.startswith(PROTECTION) and kw.removeprefix(PROTECTION) in source.chars.colors for kw in seen.chars.keywords)


def combat_damage_prevented(state: GameState) -> bool:
    """A "prevent all combat damage that would be dealt this turn" effect is in force (CR 615.1)."""
    return any(m.kind == "set_flag" and m.value == PREVENT_COMBAT_DAMAGE for m in state.modifiers.values())


def recording(engine: Engine) -> bool:
    """Rules 1.4 (CR 120.3): damage is recorded as ``DamageDealt`` with its source, for triggers and conditions."""
    return bool(getattr(engine.profile.rules, "damage_recorded", False))


def dealt_by(st: GameState, dealt: list[ev.DamageDealt]) -> list[ev.Event]:
    """What a creature remembers until the cleanup: which sources dealt it damage this turn (CR 120.3; "a creature
    dealt damage by ~ this turn"), one status per source."""
    out: list[ev.Event] = []
    for d in dealt:
        key = f"{DEALT_BY}{d.source}"
        if d.to >= 0 and d.source >= 0 and not st.objects[d.to].status.get(key) and (
                ev.StatusSet(d.to, key, 1) not in out):
            out.append(ev.StatusSet(d.to, key, 1))
    return out


def prevented(shields: Shields, st: GameState, source: int, src: ObjectView | None, to: int, amount: int) -> int:
    """What is left of ``amount`` damage from ``source`` to ``to`` after the prevention shields on it (CR 615)."""
    if not amount or not st.modifiers:
        return amount
    return shields.prevent(to, amount, source, lambda: src.chars.colors if src is not None else ())


def damage_events(engine: Engine, source: int, hits: list[tuple[int, int]], *, combat: bool = False
                  ) -> tuple[list[ev.Event], int]:
    """The events of ``source`` dealing each (object or player ref, amount) at once, prevention applied, and
    the damage dealt."""
    st = engine.state
    src = current_or_last_known(st, source) if source >= 0 else None
    if combat and combat_damage_prevented(st):
        return [], 0
    shields = Shields(st)
    marked: dict[int, int] = {}
    lost: dict[int, int] = {}
    for ref, amount in hits:
        if amount <= 0:
            continue
        player = board.ref_player(ref)
        if player is not None:
            amount = prevented(shields, st, source, src, ref, amount)
            if amount:
                lost[player] = lost.get(player, 0) + amount
        elif ref in st.objects and board.on_battlefield(st, ref):
            if protected(view(st, ref), src):
                continue  # CR 702.16e: prevented
            amount = prevented(shields, st, source, src, ref, amount)
            if amount:
                marked[ref] = marked.get(ref, 0) + amount
    out: list[ev.Event] = shields.events()
    if recording(engine):
        to_objects = [ev.DamageDealt(source, o, n, combat) for o, n in marked.items()]
        out += to_objects + [ev.DamageDealt(source, board.player_ref(p), n, combat) for p, n in sorted(lost.items())]
        out += dealt_by(st, to_objects)
    for oid, n in marked.items():
        out.append(ev.StatusSet(oid, "damage", st.objects[oid].status.get("damage", 0) + n))
        if src is not None and DEATHTOUCH in src.chars.keywords:
            out.append(ev.StatusSet(oid, DEATHTOUCH, 1))
    changes = {p: -n for p, n in lost.items()}
    dealt = sum(marked.values()) + sum(lost.values())
    if src is not None and "lifelink" in src.chars.keywords and dealt:
        changes[src.controller] = changes.get(src.controller, 0) + dealt  # CR 702.15b: at the same time
    out += [ev.PlayerStat(p, LIFE, board.life(st, p) + d) for p, d in sorted(changes.items()) if d]
    return out, dealt


def deal(engine: Engine, source: int, hits: list[tuple[int, int]], *, combat: bool = False) -> int:
    """Deal the damage; returns how much was dealt (after prevention)."""
    events, dealt = damage_events(engine, source, hits, combat=combat)
    if events:
        lifegain.emit(engine, *events)
    return dealt


def destroy_events(engine: Engine, oids: list[int], cause: str, *, regenerate: bool = True) -> list[ev.Event]:
    """Destroy the objects at once: indestructible ones are not (CR 702.12b); one with a regeneration shield
    is tapped, its damage removed and it leaves combat instead (CR 701.15b) unless it can't be regenerated."""
    st = engine.state
    gone: list[int] = []
    saved: list[ev.Event] = []
    for oid in oids:
        if oid not in st.objects or not board.on_battlefield(st, oid):
            continue
        seen = view(st, oid)
        if "indestructible" in seen.chars.keywords:
            continue
        shields = seen.status.get(REGENERATION, 0)
        if regenerate and shields and not any(m.kind == CANT_REGENERATE and m.target == oid
                                              for m in st.modifiers.values()):
            saved += [ev.StatusSet(oid, REGENERATION, shields - 1), ev.StatusSet(oid, "tapped", 1),
                      ev.StatusSet(oid, "damage", 0), ev.StatusSet(oid, DEATHTOUCH, 0)]
            saved += [ev.StatusSet(oid, k, 0) for k in ("attacking", "blocking", "blocked") if seen.status.get(k)]
            continue
        gone.append(oid)
    return saved + list(board.to_graveyards(engine, gone, cause))
