"""What changed between two states of one game: per card across zones, per object, per player, per pending effect.

Pure and read-only: two states in, a ``StateDiff`` out. A card is followed by its card id, so a card that moved
(and so became a new object, DESIGN "Objects, zones and identity") is one move, not a removal and an addition.
"""

from __future__ import annotations

from msgspec import Struct

from projections.characteristics import view
from projections.state import GameState


class Move(Struct, frozen=True):
    card: int
    old: int | None  # the object it was in A (None: not in the game yet)
    new: int | None  # the object it is in B (None: no longer in the game)
    src: str | None
    dst: str | None


class Change(Struct, frozen=True):
    obj: int
    card: int
    what: str  # a status key, "power", "controller", "face_down" or "under"
    before: object
    after: object


class StatChange(Struct, frozen=True):
    player: int
    key: str
    before: int
    after: int


class PendingChange(Struct, frozen=True):
    effect: int
    change: str  # "added", "removed", "resolving", "moved"
    label: str
    holder: str
    controller: int


class StateDiff(Struct, frozen=True):
    a: int
    b: int
    game: list[tuple[str, object, object]]  # turn, active, phase, step, priority, ended, winner
    moves: list[Move]
    reordered: list[str]  # zones holding the same objects in another order (a shuffle)
    changes: list[Change]
    stats: list[StatChange]
    pending: list[PendingChange]

    @property
    def empty(self) -> bool:
        return not (self.game or self.moves or self.reordered or self.changes or self.stats or self.pending)

    def by_zone(self) -> dict[str, tuple[list[Move], list[Move]]]:
        """Per zone: the moves that brought a card in and those that took one out."""
        out: dict[str, tuple[list[Move], list[Move]]] = {}
        for m in self.moves:
            if m.dst is not None:
                out.setdefault(m.dst, ([], []))[0].append(m)
            if m.src is not None:
                out.setdefault(m.src, ([], []))[1].append(m)
        return dict(sorted(out.items()))


def _where(state: GameState) -> dict[int, tuple[int, str]]:
    return {o.card: (o.id, o.zone) for o in state.objects.values()}


def _power(state: GameState, oid: int) -> int | None:
    return view(state, oid).chars.power


def diff_states(a: GameState, b: GameState) -> StateDiff:
    game: list[tuple[str, object, object]] = []
    for name in ("turn", "active", "phase", "step", "priority", "ended", "winner"):
        va, vb = getattr(a, name), getattr(b, name)
        if va != vb:
            game.append((name, va, vb))
    wa, wb = _where(a), _where(b)
    moves = []
    for card in sorted(set(wa) | set(wb)):
        oa, za = wa.get(card, (None, None))
        ob, zb = wb.get(card, (None, None))
        if oa != ob or za != zb:
            moves.append(Move(card, oa, ob, za, zb))
    reordered = [z for z in sorted(set(a.zones) & set(b.zones))
                 if a.zones[z] != b.zones[z] and sorted(a.zones[z]) == sorted(b.zones[z])]
    changes: list[Change] = []
    for oid in sorted(set(a.objects) & set(b.objects)):
        x, y = a.objects[oid], b.objects[oid]
        if x.card != y.card:  # two games (a what-if fork and its source) that numbered objects differently
            continue
        for key in sorted(set(x.status) | set(y.status)):
            if x.status.get(key, 0) != y.status.get(key, 0):
                changes.append(Change(oid, y.card, key, x.status.get(key, 0), y.status.get(key, 0)))
        for what, va, vb in (("power", _power(a, oid), _power(b, oid)), ("controller", x.controller, y.controller),
                             ("face_down", x.face_down, y.face_down), ("under", list(x.under), list(y.under))):
            if va != vb:
                changes.append(Change(oid, y.card, what, va, vb))
    stats = []
    for p in range(max(len(a.players), len(b.players))):
        sa = a.players[p].stats if p < len(a.players) else {}
        sb = b.players[p].stats if p < len(b.players) else {}
        for key in sorted(set(sa) | set(sb)):
            if sa.get(key, 0) != sb.get(key, 0):
                stats.append(StatChange(p, key, sa.get(key, 0), sb.get(key, 0)))
    pending = []
    for eid in sorted(set(a.pending) | set(b.pending)):
        pa, pb = a.pending.get(eid), b.pending.get(eid)
        pend = pb or pa
        assert pend is not None
        label, holder, controller = pend.label or pend.ability, pend.holder, pend.controller
        if pa is not None and pb is not None and (pa.ability, pa.source) != (pb.ability, pb.source):
            pending.append(PendingChange(eid, "removed", pa.label or pa.ability, pa.holder, pa.controller))
            pending.append(PendingChange(eid, "added", label, holder, controller))  # (two games, see above)
        elif pa is None:
            pending.append(PendingChange(eid, "added", label, holder, controller))
        elif pb is None:
            pending.append(PendingChange(eid, "removed", label, holder, controller))
        elif pb.resolving and not pa.resolving:
            pending.append(PendingChange(eid, "resolving", label, holder, controller))
        elif pa.holder != pb.holder:
            pending.append(PendingChange(eid, "moved", label, holder, controller))
    return StateDiff(a.seq, b.seq, game, moves, reordered, changes, stats, pending)
