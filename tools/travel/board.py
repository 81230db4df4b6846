"""The state at one point, as data and as text: what ``kifu at`` prints and what ``verify``, ``why`` and the HTML
view show around a record.

Everything a player may see goes through ``projections.views.player_view``, so ``--player`` hides exactly
what that function hides; this module only adds the parts of the state it does not carry (the open request,
the details of each pending effect) and renders it for people. Pending effects are game-neutral: a pool
(Duel Masters), a stack (Magic), a chain (Vision of Phantasm) or a queue (Shadowverse) is whatever ``holder``
the rules put them in, listed in the order of their policy's key.
"""

from __future__ import annotations

from typing import Any

from eventsource.errors import KifuError
from projections.state import GameState, Pending
from projections.views import OBJECT, player_view, shown_options, zone_kind
from statemachine.games import hidden_zones, profile_class
from tools.travel.trace import Memory, names, order_text, player_name

# Where play happens first, the deck last; a zone kind not named here comes just before the deck.
ZONE_ORDER = ("battle", "battlefield", "field", "board", "node", "mana", "hand", "shields", "graveyard", "cemetery",
              "discard", "exile", "deck")
LISTED_ALWAYS = 12  # objects listed in a zone before "and N more" (unless everything is asked for)


def pending_order(p: Pending) -> tuple[str, tuple[int, ...], int, int]:
    return (p.holder, p.key, p.since, p.effect)


def next_to_resolve(state: GameState) -> int | None:
    """The waiting effect that resolves next by its game's order (None: its controller chooses, or the game
    is not installed here); nothing is next while one is resolving."""
    if any(p.resolving for p in state.pending.values()):
        return None
    try:
        return profile_class(state.profile).next_to_resolve(state)
    except KifuError:
        return None


def pending_data(state: GameState, mem: Memory | None, player: int | None) -> list[dict[str, Any]]:
    nm = names(state, mem, player)
    following = next_to_resolve(state)
    out = []
    for p in sorted(state.pending.values(), key=pending_order):
        out.append({
            "effect": p.effect, "label": nm.label(p), "ability": p.ability, "holder": p.holder or "",
            "controller": p.controller, "controller_name": player_name(state, p.controller),
            "source": p.source, "source_name": nm.obj(p.source) if p.source >= 0 else None,
            "resolving": p.resolving, "next": p.effect == following,
            "triggered_by": p.by or None, "checked": p.checked or None, "since": p.since,
            "key": list(p.key), "order": order_text(state, p.key) if p.key else None,
            "targets": list(p.targets), "target_names": [nm.target(t) for t in p.targets],
        })
    return out


def request_data(state: GameState, mem: Memory | None, player: int | None) -> dict[str, Any] | None:
    """The open request, its options named as ``player`` (None: a judge) may know them."""
    req = state.request
    if req is None:
        return None
    nm = names(state, mem, player)
    # Another player's options among objects hidden from this one are left out, as their request's record is.
    options = shown_options(state, player, req.player, req.options, objects=nm.option_kind(req.kind) == OBJECT,
                            hidden=hidden_zones(state.profile))
    return {"player": req.player, "player_name": player_name(state, req.player), "kind": req.kind,
            "asks": nm.request(req.kind),
            "options": list(options), "option_names": nm.options(req.kind, options),
            "minimum": req.minimum, "maximum": req.maximum, "effect": req.effect,
            "effect_name": nm.effect(req.effect) if req.effect is not None else None}


def acting(state: GameState) -> int | None:
    """Who must act if the rules wait at this point: the player an open request asks, else the one with
    priority (Magic, Vision), else the turn player (a free action: Duel Masters' and Shadowverse's main step);
    nobody once the game is over. Where the rules are in the middle of a procedure nobody is asked at all:
    :func:`in_progress` says so from the record after."""
    if state.ended or not state.players:
        return None
    if state.request is not None:
        return state.request.player
    return state.priority if state.priority is not None else state.active


def in_progress(state: GameState, next_decision: int | None) -> bool:
    """Whether the rules are in the middle of a procedure just after ``state``'s record: the record after it
    (of decision number ``next_decision``; None at the log's end) still belongs to the same decision, so the
    rules went on by themselves and asked nobody here."""
    return next_decision is not None and next_decision == state.decision and state.request is None


def board_data(state: GameState, player: int | None = None, mem: Memory | None = None, *,
               next_decision: int | None = None, publics: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The board as ``player`` (None: an omniscient judge) may see it, as plain data. ``next_decision`` is the
    decision number of the record after this point (None: there is none, or it is not known), which tells
    whether the rules wait here or are in the middle of a procedure. ``publics``: as ``player_view`` keeps them,
    shared by the boards of one state."""
    data = player_view(state, player, hidden=hidden_zones(state.profile), publics=publics)
    data["decision"] = state.decision
    data["active_name"] = player_name(state, state.active) if state.players else None
    data["priority_name"] = player_name(state, state.priority) if state.priority is not None else None
    data["request"] = request_data(state, mem, player)
    data["pending"] = pending_data(state, mem, player)
    data["viewer"] = player
    data["in_progress"] = in_progress(state, next_decision)
    data["acting"] = None if data["in_progress"] else acting(state)
    data["acting_name"] = player_name(state, data["acting"]) if data["acting"] is not None else None
    return data


def _zone_sort(name: str) -> tuple[int, float, str]:
    owner, kind = zone_kind(name)
    rank = ZONE_ORDER.index(kind) if kind in ZONE_ORDER else len(ZONE_ORDER) - 1.5
    return (owner if owner is not None else 99, rank, name)


def _card(c: dict[str, Any]) -> str:
    text = f"{c['name']}#{c['obj']}"
    marks = []
    if c.get("power") is not None and c["power"] != 0:
        marks.append(str(c["power"]))
    marks += [k if v == 1 else f"{k} {v}" for k, v in c.get("status", {}).items() if not k.startswith("seen_by_")]
    if c.get("under"):
        marks.append(f"{c['under']} under")
    return text + (f" ({', '.join(marks)})" if marks else "")


def _zone_line(name: str, content: Any, full: bool) -> str:
    _, kind = zone_kind(name)
    if isinstance(content, dict):  # redacted: a count and what this player may see
        shown = ", ".join(_card(c) for c in content["visible"])
        hidden = content["count"] - len(content["visible"])
        return f"{kind:<10} {content['count']}: {hidden} hidden" + (f"; {shown}" if shown else "")
    if not content:
        return f"{kind:<10} —"
    if kind == "deck" and not full:
        return f"{kind:<10} {len(content)} cards (top: {_card(content[0])}; --all lists them)"
    listed = content if full else content[:LISTED_ALWAYS]
    more = f", and {len(content) - len(listed)} more" if len(listed) < len(content) else ""
    return f"{kind:<10} {len(content)}: " + ", ".join(_card(c) for c in listed) + more


def header_lines(data: dict[str, Any]) -> list[str]:
    where = f"turn {data['turn']}" + (f" ({data['active_name']})" if data["turn"] else " (set-up)")
    if data["phase"]:
        where += f" · {data['phase']} phase" + (f", {data['step']} step" if data["step"] else "")
    lines = [f"record {data['seq']} · {where} · decision {data['decision']}"]
    if data["ended"]:
        winner = data["players"][data["winner"]]["name"] if data["winner"] is not None else "nobody"
        lines.append(f"the game is over: {winner} won")
    who = data["priority_name"] or "nobody"
    req = data["request"]
    if req is not None:
        count = str(req["minimum"]) if req["minimum"] == req["maximum"] else f"{req['minimum']}..{req['maximum']}"
        wait = f"{req['player_name']} to choose {req['asks']} ({count})"
        if req["options"]:
            wait += " from " + ", ".join(req["option_names"])
        if req["effect"] is not None:
            wait += f" for effect {req['effect_name']}"
        lines.append(f"priority: {who} · the rules wait for: {wait}")
    elif data.get("in_progress"):
        lines.append(f"priority: {who} · in progress: {progress_text(data)} · nobody is asked at this point "
                     "(the rules go on by themselves)")
    elif data.get("acting") is not None:
        lines.append(f"priority: {who} · the rules wait for: {data['acting_name']} to act (nothing else is asked)")
    else:
        lines.append(f"priority: {who} · nobody is to act")
    return lines


def progress_text(data: dict[str, Any]) -> str:
    """What the rules are in the middle of: the effects resolving, else the decision they are carrying out."""
    resolving = [p for p in data["pending"] if p["resolving"]]
    if resolving:
        return ", ".join(f"#{p['effect']} {p['label']}" + (f" from {p['source_name']}" if p["source_name"] else "")
                         + " resolving" for p in resolving)
    if data["decision"]:
        return f"what follows decision {data['decision']}"
    return "the game's set-up and start" if not data["turn"] else "the turn's steps"


def pending_lines(data: dict[str, Any]) -> list[str]:
    pend = data["pending"]
    if not pend:
        return ["pending: nothing"]
    lines = []
    holders = sorted({p["holder"] for p in pend})
    for holder in holders:
        lines.append(f"pending in {holder or '(triggered, not yet placed)'}:")
        for p in (p for p in pend if p["holder"] == holder):
            text = f"  #{p['effect']} {p['label']} · {p['controller_name']}"
            if p["source_name"]:
                text += f" · from {p['source_name']}"
            if p["triggered_by"]:
                text += f" · triggered by record {p['triggered_by']} (checked {p['checked']} it)"
            text += f" · since record {p['since']}"
            if p["order"]:
                text += f" · {p['order']}"
            if p["targets"]:
                text += f" · targets {', '.join(p['target_names'])}"
            text += " · RESOLVING" if p["resolving"] else " · resolves next" if p.get("next") else ""
            lines.append(text)
    return lines


def board_lines(data: dict[str, Any], *, full: bool = False) -> list[str]:
    """The board as text: header, each player's zones, shared zones, then what is pending."""
    lines = header_lines(data)
    zones: dict[str, Any] = data["zones"]
    by_owner: dict[int | None, list[str]] = {}
    for name in sorted(zones, key=_zone_sort):
        by_owner.setdefault(zone_kind(name)[0], []).append(name)
    for i, p in enumerate(data["players"]):
        stats = ", ".join(f"{k} {v}" for k, v in p["stats"].items())
        title = f"{p['name']} ({i})" + (" · to act" if data.get("acting") == i else "")
        title += f" · {stats}" if stats else ""
        title += f" · LOST: {p['lost']}" if p["lost"] else ""
        lines.append(title)
        lines += [f"  {_zone_line(z, zones[z], full)}" for z in by_owner.get(i, [])]
    shared = by_owner.get(None, [])
    if shared:
        lines.append("shared zones")
        lines += [f"  {_zone_line(z, zones[z], full)}" for z in shared]
    return lines + pending_lines(data)
