"""The rule behind a record: which rule of the game made the rules emit it.

A record names its rule in one of three ways, tried in this order: the event's own text names it (a fizzle's
reason, a state-based action, a loss: "... (DM-W-18)"); the game declares the rule for that kind of event
(``RulesProfile.event_rules``, keyed ``Kind:detail`` — a zone change's cause, a status's or counter's key —
then ``Kind``); or, for a player's decision, the game declares the rule of that action
(``RulesProfile.action_rules``). A record none of these name has no rule id to show, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.records import Record
from tools.travel.streamed import PointLog

RULE_ID: Final = re.compile(r"\b(?:DM|MTG|VOP|SV|KIFU)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b|\bCR \d{3}(?:\.\d+[a-z]?)?")


def _texts(event: ev.Event) -> list[str]:
    out = []
    for value in ev.to_builtins(event).values():
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out += [v for v in value if isinstance(v, str)]
    return out


def _detail(event: ev.Event) -> str:
    match event:
        case ev.ZoneChanged(cause=cause):
            return cause.split(":")[0].strip()
        case ev.StatusSet(key=key) | ev.PlayerStat(key=key):
            return key
        case ev.StateBasedAction(actions=actions) if actions:
            return actions[0]
        case _:
            return ""


def _profile(log: PointLog) -> Any:
    started = log.started
    if started is None:
        return None
    return _installed(started.profile, started.profile_version)


@cache
def _installed(name: str, version: str) -> Any:
    """The rules profile of a game at a version (None: not installed here), made once per process (a page of
    the timeline asks for it once per record)."""
    from statemachine.games import profile as make_profile

    try:
        return make_profile(name, version)
    except (KifuError, LookupError, ValueError):  # rules not installed here (another game, a generated log)
        return None


def rule_of(log: PointLog, rec: Record) -> str | None:
    """The rule id behind ``rec``, or None when neither the event nor its game names one."""
    for text in _texts(rec.event):
        m = RULE_ID.search(text)
        if m is not None:
            return m.group(0)
    profile = _profile(log)
    if profile is None:
        return None
    kind = ev.kind_of(rec.event)
    if isinstance(rec.event, ev.ChoiceMade):
        actions: Mapping[str, str] = getattr(profile, "action_rules", {})
        return actions.get(rec.event.action)
    table: Mapping[str, str] = getattr(profile, "event_rules", {})
    detail = _detail(rec.event)
    return table.get(f"{kind}:{detail}") if detail and f"{kind}:{detail}" in table else table.get(kind)
