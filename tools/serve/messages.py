"""The WebSocket messages of ``kifu serve``, as types: what ``kifu schema messages`` prints as JSON Schema for
clients written outside kifu, and what the tests decode every message of whole matches as (strictly, no field
unknown), so that the schema says what the server sends.

Server to client, each an object whose ``type`` names it: ``hello``, ``records``, ``state``, ``ack``, ``refused``,
``stale``, ``error``. Client to server: the first message (a seat's ``credential`` or ``spectate``), then
``decide`` and ``sync``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import Struct

Arg = int | str  # a decision's argument, a request's option: an object or effect id, a number, a word


class _Sent(Struct, forbid_unknown_fields=True, tag_field="type"):
    """A message the server sends."""


class Hello(_Sent, tag="hello"):
    """The connection is the seat's (``seat``), or a spectator's (null)."""

    match: str
    seat: int | None


class Line(Struct, forbid_unknown_fields=True):
    """A record as the viewer may see it, in the game's words."""

    seq: int
    kind: str
    line: str


class Records(_Sent, tag="records"):
    """The records after the last the viewer was sent that the viewer saw (at most 500 a message)."""

    records: list[Line]


class Shown(Struct, forbid_unknown_fields=True):
    """An object the viewer may see."""

    obj: int
    name: str
    definition: str
    power: int | None
    status: dict[str, int]
    under: int


class HiddenZone(Struct, forbid_unknown_fields=True):
    """A zone holding objects the viewer may not see: how many, and those it may."""

    count: int
    visible: list[Shown]


class Player(Struct, forbid_unknown_fields=True):
    name: str
    stats: dict[str, int]
    lost: str  # why the player lost ("": not lost)


class Pending(Struct, forbid_unknown_fields=True):
    """A pending ability (the pool, stack, chain or queue), as the viewer may know it."""

    effect: int
    label: str
    ability: str
    holder: str
    controller: int
    controller_name: str
    source: int
    source_name: str | None
    resolving: bool
    next: bool
    triggered_by: int | None  # the record that triggered it
    checked: str | None
    since: int
    key: list[int]  # its place in the game's order of resolution
    order: str | None
    targets: list[Arg]
    target_names: list[str]


class OpenRequest(Struct, forbid_unknown_fields=True):
    """The request the rules wait on, its options as the viewer may know them."""

    player: int
    player_name: str
    kind: str
    asks: str
    options: list[Arg]
    option_names: list[str]
    minimum: int
    maximum: int
    effect: int | None
    effect_name: str | None


class Legal(Struct, forbid_unknown_fields=True):
    """One of the seat's legal decisions: answered with ``{"decide": {"head": H, "choice": index}}``."""

    index: int
    action: str
    args: list[Arg]
    text: str


class Option(Struct, forbid_unknown_fields=True):
    index: int
    arg: Arg
    text: str


class Pick(Struct, forbid_unknown_fields=True):
    """A request answered with several options at once: ``{"decide": {"head": H, "pick": [index, ...]}}``."""

    prompt: str
    rule: str
    action: str
    minimum: int
    maximum: int
    max_total: int | None
    weights: list[int] | None
    options: list[Option]


class State(_Sent, tag="state"):
    """The board as the viewer sees it at record ``head``; ``legal`` (or ``pick``) when it is theirs to answer."""

    seq: int
    head: int
    turn: int
    active: int | None
    phase: str | None
    step: str | None
    priority: int | None
    players: list[Player]
    zones: dict[str, list[Shown] | HiddenZone]
    pending: list[Pending]
    ended: bool
    winner: int | None
    decision: int
    active_name: str | None
    priority_name: str | None
    request: OpenRequest | None
    viewer: int | None  # the seat; 2 for a public spectator; null for the judge's view
    in_progress: bool
    acting: int | None
    acting_name: str | None
    to_act: int | None
    legal: list[Legal]
    pick: Pick | None


class Ack(_Sent, tag="ack"):
    """The decision is appended and durable at ``head`` (``applied`` false: a retry of one applied before)."""

    head: int
    applied: bool


class Refused(_Sent, tag="refused"):
    """The rules refuse the decision: the rule it breaks; nothing was appended."""

    reason: str
    rule: str


class Stale(_Sent, tag="stale"):
    """The decision named a head the game has moved past: nothing was appended."""

    message: str


class Error(_Sent, tag="error"):
    """A message the server could not take (malformed, a spectator deciding, ...): nothing was appended."""

    message: str


Sent = Hello | Records | State | Ack | Refused | Stale | Error


class SeatFirst(Struct, forbid_unknown_fields=True):
    """A seat's first message: its credential and the last record it holds (0: none)."""

    credential: str
    since: int = 0


class SpectatorFirst(Struct, forbid_unknown_fields=True):
    spectate: Literal[True]
    since: int = 0


class Decision(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Made at record ``head``: ``choice`` (an index into ``legal``), or ``pick`` (indices into ``pick.options``), or
    ``action`` and ``args``."""

    head: int
    choice: int | None = None
    pick: list[int] | None = None
    action: str | None = None
    args: list[Arg] | None = None


class Decide(Struct, forbid_unknown_fields=True):
    decide: Decision


class Sync(Struct, forbid_unknown_fields=True):
    """Send the board again (after a stale decision)."""

    sync: Literal[True]


RECEIVED: tuple[type[Struct], ...] = (SeatFirst, SpectatorFirst, Decide, Sync)


def schema() -> dict[str, Any]:
    """The JSON Schema of every message: ``sent`` (server to client, by ``type``) and ``received`` (client to
    server: the first message, then decisions and syncs)."""
    types: list[Any] = [Sent, *RECEIVED]
    (sent, *received), components = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "kifu serve WebSocket messages",
            "$defs": components, "oneOf": [{"title": "sent", **sent}, {"title": "received", "anyOf": received}]}
