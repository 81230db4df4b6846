"""The boards ``kifu view``'s page shows, and what changes from one to the next.

A board is ``tools.travel.board.board_data`` made compact for the page (:func:`frame`): the zones as object ids (or a
count and the ids the viewer may see), each object's status marks and power by id (as text, as JSON reads them
back), the players, what is pending and what the rules wait for (``acting``: who must act if the rules wait
there; the page tells from the next record's decision number whether they do or are in the middle of a procedure,
as ``tools.travel.board.in_progress`` does). :class:`Boards` makes the same board at every
record of a log faster than :func:`frame` does, by computing an object's face again only when what it is
computed from changed. :func:`delta` is what changed from one board to the next, :func:`apply_change` applies it
(as the page's script does).
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import msgspec

from projections.characteristics import view
from projections.state import SEEN_BY, GameState, Modifier
from projections.views import can_see
from statemachine.games import hidden_zones
from tools.travel.board import acting, board_data, pending_data, request_data
from tools.travel.trace import Memory, player_name

_TOP = ("seq", "turn", "active", "acting", "phase", "step", "priority", "request", "players", "pending", "ended",
        "winner")
_encode = msgspec.msgpack.Encoder().encode


def _marks(status: dict[str, int], under: int) -> str | None:
    marks = [k if v == 1 else f"{k} {v}" for k, v in status.items() if not k.startswith(SEEN_BY)]
    if under:
        marks.append(f"{under} under")
    return ", ".join(marks) if marks else None


def _compact_zone(content: Any) -> Any:
    if isinstance(content, dict):
        return {"count": content["count"], "visible": [c["obj"] for c in content["visible"]]}
    return [c["obj"] for c in content]


def frame(state: GameState, viewer: int | None, mem: Memory | None,
          objects: dict[int, list[Any]] | None = None) -> dict[str, Any]:
    """The board the page shows for ``state``, from ``board_data``; the objects it names are added to
    ``objects``."""
    data = board_data(state, viewer, mem)
    status: dict[str, str] = {}
    power: dict[str, int] = {}
    for content in data["zones"].values():
        for c in content["visible"] if isinstance(content, dict) else content:
            if objects is not None:
                objects.setdefault(c["obj"], [c["name"], c["definition"]])
            marks = _marks(c["status"], c["under"])
            if marks:
                status[str(c["obj"])] = marks
            if c["power"] is not None:
                power[str(c["obj"])] = c["power"]
    return {
        "seq": data["seq"], "turn": data["turn"], "active": data["active"], "acting": acting(state),
        "phase": data["phase"],
        "step": data["step"], "priority": data["priority_name"], "request": data["request"],
        "players": [{"name": p["name"], "stats": p["stats"], "lost": p["lost"]} for p in data["players"]],
        "zones": {z: _compact_zone(c) for z, c in data["zones"].items()},
        "status": status, "power": power, "pending": data["pending"], "ended": data["ended"],
        "winner": data["winner"],
    }


Face = tuple[str, str, "str | None", "int | None"]  # name, definition, status marks, power


class Boards:
    """``frame(state, viewer, mem, objects)`` for one state after another, faster (``objects`` is kept here).

    An object's face (name, definition, marks, power) is ``projections.characteristics.view`` of it; it is
    computed again only when something it is computed from changed: the object itself (its card, status and
    the objects under it), its card's facts, or the continuous effects on it. Everything else is as
    :func:`frame` makes it (the tests check the two agree at every record of every sample game).
    """

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self.faces: dict[int, tuple[tuple[bytes, int, bytes, int], Face]] = {}
        self.hidden: dict[str, frozenset[str]] = {}
        self.objects: dict[int, list[Any]] = {}  # every object a board so far named: [name, definition]
        self.cards, self.cards_version = b"", 0  # every face is computed again when any card's facts change
        self.last: tuple[bytes, dict[str, Any], dict[str, str], dict[str, int]] | None = None
        self.known: tuple[int, ...] = ()
        self.known_version = 0
        self.zones: dict[str, tuple[Any, Any, dict[str, str], dict[str, int]]] = {}  # by zone: key, content, marks

    def _face(self, state: GameState, oid: int, mods: list[Modifier]) -> Face:
        obj = state.objects[oid]
        key = (_encode(obj), self.cards_version, _encode(mods) if mods else b"", self.known_version if obj.under else 0)
        known = self.faces.get(oid)
        if known is not None and known[0] == key:
            return known[1]
        v = view(state, oid)
        status = {k: n for k, n in sorted(v.status.items())}
        face: Face = (v.chars.name, v.definition, _marks(status, len(v.under_cards)), v.chars.power)
        self.faces[oid] = (key, face)
        return face

    def __call__(self, state: GameState, mem: Memory | None) -> dict[str, Any]:
        hidden = self.hidden.get(state.profile)
        if hidden is None:
            hidden = self.hidden[state.profile] = hidden_zones(state.profile)
        zones, status, power = self._objects(state, hidden)
        return {
            "seq": state.seq, "turn": state.turn, "active": state.active, "acting": acting(state),
            "phase": state.phase, "step": state.step,
            "priority": player_name(state, state.priority) if state.priority is not None else None,
            "request": request_data(state, mem, self.viewer),
            "players": [{"name": p.name, "stats": dict(sorted(p.stats.items())), "lost": p.lost}
                        for p in state.players],
            "zones": zones, "status": status, "power": power, "pending": pending_data(state, mem, self.viewer),
            "ended": state.ended, "winner": state.winner,
        }

    def _objects(self, state: GameState, hidden: frozenset[str]
                 ) -> tuple[dict[str, Any], dict[str, str], dict[str, int]]:
        """The zones, status marks and powers: those of the state before when no object, card, zone or
        continuous effect changed (a step, a priority pass, a trigger waiting), else made again. (So boards in a
        row share what did not change: read them, never change them.)"""
        cards = _encode(state.cards)
        if cards != self.cards:
            self.cards, self.cards_version = cards, self.cards_version + 1
        blob = _encode((state.objects, state.zones, state.modifiers)) + cards
        if self.last is not None and self.last[0] == blob:
            return self.last[1], self.last[2], self.last[3]
        known = tuple(state.objects)
        if known != self.known:  # (whether the objects under one still exist: the count of them is shown)
            self.known, self.known_version = known, self.known_version + 1
            if len(self.faces) > 2 * len(known) + 64:  # the faces of objects gone are not kept
                self.faces = {oid: face for oid, face in self.faces.items() if oid in state.objects}
        mods: dict[int, list[Modifier]] = {}
        for m in state.modifiers.values():
            mods.setdefault(m.target, []).append(m)
        zones: dict[str, Any] = {}
        status: dict[str, str] = {}
        power: dict[str, int] = {}
        for name in sorted(state.zones):
            ids = state.zones[name]
            objs = [state.objects[oid] for oid in ids]
            key = (_encode((objs, [mods.get(oid) for oid in ids] if mods else None)), self.cards_version,
                   self.known_version if any(o.under for o in objs) else 0)
            made = self.zones.get(name)
            if made is None or made[0] != key:
                made = self.zones[name] = (key, *self._zone(state, name, ids, mods, hidden))
            zones[name] = made[1]
            status.update(made[2])
            power.update(made[3])
        self.last = (blob, zones, status, power)
        return zones, status, power

    def _zone(self, state: GameState, name: str, ids: list[int], mods: dict[int, list[Modifier]],
              hidden: frozenset[str]) -> tuple[Any, dict[str, str], dict[str, int]]:
        """One zone's content, and the status marks and powers of the objects in it the viewer may see."""
        status: dict[str, str] = {}
        power: dict[str, int] = {}
        shown = [oid for oid in ids if can_see(state, self.viewer, oid, name, hidden=hidden)]
        for oid in shown:
            face = self._face(state, oid, mods.get(oid, []))
            self.objects.setdefault(oid, [face[0], face[1]])
            if face[2]:
                status[str(oid)] = face[2]
            if face[3] is not None:
                power[str(oid)] = face[3]
        return (list(ids) if len(shown) == len(ids) else {"count": len(ids), "visible": shown}), status, power


# -- what changed from one board to the next -------------------------------------------------------------


def _zone_change(old: Any, new: Any) -> dict[str, Any]:
    """One card out (``{"d": position}``), one card in (``{"i": [position, obj]}``), or the new content."""
    if isinstance(old, list) and isinstance(new, list) and abs(len(new) - len(old)) == 1:
        at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
        if len(new) < len(old) and old[at + 1:] == new[at:]:
            return {"d": at}
        if len(new) > len(old) and new[at + 1:] == old[at:]:
            return {"i": [at, new[at]]}
    return {"v": new}


def _marks_change(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {k: None for k in old if k not in new}
    out.update((k, v) for k, v in new.items() if old.get(k) != v)
    return out


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from board ``old`` to board ``new`` (None: a zone or mark removed): ``apply_change(old,
    delta(old, new))`` is ``new``."""
    out: dict[str, Any] = {}
    top = {k: new[k] for k in _TOP if new[k] != old[k]}
    if top:
        out["t"] = top
    zones: dict[str, Any] = {z: None for z in old["zones"] if z not in new["zones"]}
    zones.update((z, _zone_change(old["zones"].get(z), c)) for z, c in new["zones"].items()
                 if old["zones"].get(z) != c)
    if zones:
        out["z"] = zones
    for key, short in (("status", "s"), ("power", "p")):
        marks = _marks_change(old[key], new[key])
        if marks:
            out[short] = marks
    return out


def apply_change(board: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The board after ``change`` (what the page's script does, here for the tests and tools): a full board, or
    ``board`` with the change applied in place."""
    if "F" in change:
        return deepcopy(change["F"])
    board.update(change.get("t", {}))
    for z, op in change.get("z", {}).items():
        if op is None:
            del board["zones"][z]
        elif "v" in op:
            board["zones"][z] = deepcopy(op["v"])
        elif "d" in op:
            del board["zones"][z][op["d"]]
        else:
            board["zones"][z].insert(op["i"][0], op["i"][1])
    for key, short in (("status", "s"), ("power", "p")):
        for k, v in change.get(short, {}).items():
            if v is None:
                board[key].pop(k, None)
            else:
                board[key][k] = v
    return board
