"""``projections.diff.StateDiff`` for people and machines: what ``kifu diff`` prints."""

from __future__ import annotations

from typing import Any

import msgspec

from projections.diff import Move, PendingChange, StateDiff
from projections.state import GameState
from tools.travel.trace import ARROW, Memory, card_name, names, player_name, zone_name


def _place(st: GameState, zone: str | None, obj: int | None) -> str:
    return "out of the game" if zone is None else f"{zone_name(st, zone)} (#{obj})"


def _move(before: GameState, after: GameState, m: Move) -> str:
    name = card_name(after, m.card) if m.card in after.cards else card_name(before, m.card)
    return f"{name}: {_place(before, m.src, m.old)} {ARROW} {_place(after, m.dst, m.new)}"


def _label(before: GameState, after: GameState, p: PendingChange, mem: Memory | None) -> str:
    """A pending effect's label; one still waiting with none recorded (a Magic trigger not yet on the stack) by
    its ability's label."""
    for st in (after, before):
        pend = st.pending.get(p.effect)
        if pend is not None and (pend.label or pend.ability) == p.label:
            return names(st, mem).label(pend)
    return p.label


def diff_lines(d: StateDiff, before: GameState, after: GameState, mem: Memory | None = None) -> list[str]:
    lines = [f"from record {d.a} to record {d.b}"]
    if d.empty:
        return [*lines, "nothing changed"]
    for name, va, vb in d.game:
        if name in ("active", "priority", "winner"):
            va = player_name(before, va) if isinstance(va, int) else "nobody"
            vb = player_name(after, vb) if isinstance(vb, int) else "nobody"
        lines.append(f"game: {name} {va} {ARROW} {vb}")
    if d.moves:
        lines.append("by zone:")
        for zone, (came, went) in d.by_zone().items():
            st = after if zone in after.zones else before
            parts = []
            if came:
                parts.append("+" + ", +".join(f"{card_name(after, m.card)}#{m.new}" for m in came))
            if went:
                parts.append("-" + ", -".join(f"{card_name(before, m.card)}#{m.old}" for m in went))
            lines.append(f"  {zone_name(st, zone)}: {'; '.join(parts)}")
        lines.append("by card:")
        lines += [f"  {_move(before, after, m)}" for m in d.moves]
    if d.reordered:
        lines.append("reordered: " + ", ".join(zone_name(after, z) for z in d.reordered))
    if d.changes:
        lines.append("by object:")
        for c in d.changes:
            lines.append(f"  {card_name(after, c.card)}#{c.obj}: {c.what} {c.before} {ARROW} {c.after}")
    if d.stats:
        lines.append("by player:")
        lines += [f"  {player_name(after, s.player)}: {s.key} {s.before} {ARROW} {s.after}" for s in d.stats]
    if d.pending:
        lines.append("pending:")
        for p in d.pending:
            where = f" in {p.holder}" if p.holder else ""
            label = _label(before, after, p, mem)
            lines.append(f"  #{p.effect} {label} ({player_name(after, p.controller)}){where}: {p.change}")
    return lines


def diff_json(d: StateDiff) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(d)
    data["by_zone"] = {z: {"entered": msgspec.to_builtins(c), "left": msgspec.to_builtins(w)}
                       for z, (c, w) in d.by_zone().items()}
    return data
