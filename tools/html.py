"""``kifu view``: one self-contained HTML file with a timeline of the game.

The page needs no network: its script and style are inline (``tools/viewer.html``) and the game is embedded as
JSON — one entry per record (its line, its turn, the record a trigger was caused by) and, for each record, the
board just after it (frames; identical consecutive boards are stored once). With a viewer player, every board
is ``projections.views.player_view`` of that player and every line names only the cards that player could
see, before or after the event.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eventsource import events as ev
from projections.state import GameState, copy
from tools.board import board_data
from tools.folding import apply
from tools.loaded import LoadedLog
from tools.trace import Memory, hidden_cards, player_name, seen_line

TEMPLATE = Path(__file__).with_name("viewer.html")
DATA_MARK = "/*KIFU-DATA*/null"


def _compact_zone(content: Any) -> Any:
    if isinstance(content, dict):
        return {"count": content["count"], "visible": [c["obj"] for c in content["visible"]]}
    return [c["obj"] for c in content]


def _frame(data: dict[str, Any], objects: dict[int, list[Any]]) -> dict[str, Any]:
    status: dict[int, str] = {}
    power: dict[int, int | None] = {}
    for content in data["zones"].values():
        cards = content["visible"] if isinstance(content, dict) else content
        for c in cards:
            objects.setdefault(c["obj"], [c["name"], c["definition"]])
            marks = [k if v == 1 else f"{k} {v}" for k, v in c["status"].items() if not k.startswith("seen_by_")]
            if c["under"]:
                marks.append(f"{c['under']} under")
            if marks:
                status[c["obj"]] = ", ".join(marks)
            if c["power"] is not None:
                power[c["obj"]] = c["power"]
    return {
        "seq": data["seq"], "turn": data["turn"], "active": data["active"], "phase": data["phase"],
        "step": data["step"], "priority": data["priority_name"], "request": data["request"],
        "players": [{"name": p["name"], "stats": p["stats"], "lost": p["lost"]} for p in data["players"]],
        "zones": {z: _compact_zone(c) for z, c in data["zones"].items()},
        "status": status, "power": power, "pending": data["pending"], "ended": data["ended"],
        "winner": data["winner"],
    }


def build(log: LoadedLog, viewer: int | None) -> dict[str, Any]:
    """The page's data: events, frames (deduplicated), the objects they name."""
    state = GameState()
    mem = Memory()
    events: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    frame_index: dict[str, int] = {}
    frame_of: list[int] = []
    objects: dict[int, list[Any]] = {}
    hidden: set[int] = set()
    for r in log.records:
        before_hidden = hidden
        # The line is read against the state before the event; with a viewer, the cards hidden both before and
        # after it stay unnamed (a card drawn into the viewer's own hand is named, one drawn by the opponent not).
        event = r.event
        turn = event.turn if isinstance(event, ev.TurnBegan) else state.turn
        if viewer is None:
            text = seen_line(state, before_hidden, hidden, event, viewer, mem)
            apply(state, r.seq, event, r.decision)
        else:
            line_state = copy(state)
            apply(state, r.seq, event, r.decision)
            hidden = hidden_cards(state, viewer)
            text = seen_line(line_state, before_hidden, hidden, event, viewer, mem)
        mem.note(r.seq, event)
        entry: dict[str, Any] = {"seq": r.seq, "turn": turn, "kind": ev.kind_of(event), "decision": r.decision,
                                 "text": text if text is not None else "(hidden from this player)"}
        if isinstance(event, ev.Triggered):
            entry["by"] = event.by
            entry["effect"] = event.effect
            entry["checked"] = event.checked
        elif r.cause and isinstance(event, ev.EffectPending | ev.EffectResolving | ev.EffectResolved
                                    | ev.EffectFizzled):
            entry["effect"] = event.effect
        events.append(entry)
        frame = _frame(board_data(state, viewer, mem), objects)
        key = json.dumps(frame, sort_keys=True, ensure_ascii=False)
        if key not in frame_index:
            frame_index[key] = len(frames)
            frames.append(frame)
        frame_of.append(frame_index[key])
    started = log.started
    return {
        "game": log.game, "source": log.location,
        "profile": f"{started.profile} {started.profile_version}" if started else "",
        "viewer": player_name(state, viewer) if viewer is not None else None,
        "events": events, "frames": frames, "frame_of": frame_of,
        "objects": {str(k): v for k, v in sorted(objects.items())},
    }


# Characters a string in the embedded JSON must not carry raw: ``<`` (``</script>`` would close the script and
# ``<!--<script>`` would make the parser swallow the rest of the page), ``>`` and ``&`` for good measure, and the
# two line separators older script engines end a line at. JSON reads each escape back as the same character.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                              "\u2029": "\\u2029"})


def embeddable(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element whatever strings it holds."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_SAFE)


def page(data: dict[str, Any]) -> str:
    """The HTML page with ``data`` embedded (see ``embeddable``: no string in it can end or upset the script)."""
    blob = embeddable(data)
    template = TEMPLATE.read_text(encoding="utf-8")
    if DATA_MARK not in template:
        raise RuntimeError(f"{TEMPLATE} has no data mark")
    return template.replace(DATA_MARK, blob)
