"""The canonical bytes of a record's body: the one encoding of its event that the engine writes.

msgspec reads more than it writes: an integer in a wider msgpack form than needed, a string as a longer
header, a map key it does not know, a characteristic spelled out at its default, or trailing array elements
that no field holds all decode to the same event. A log whose bodies carry such bytes chains and re-adjudicates
as cleanly as the engine's own, so it could carry a hidden data channel past every check; the integrity check
therefore re-derives each body from its decoded event and holds the record to it byte for byte.

A body written at an older schema version is held to that version's shape: today's event without the fields
added since (``upcast.ADDED_FIELDS``). Fields appended with defaults and no version bump (schema evolution's
usual step) may be absent from an older body when they hold their defaults, as the kifu that wrote it wrote it.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from eventsource import events as ev
from eventsource.upcast import fields_added_since

_raw_decoder: Final = msgspec.msgpack.Decoder(list[Any])
_encode: Final = ev._encoder.encode  # (the fast path runs once per record of every integrity check)
_CURRENT: Final[dict[type[Any], int]] = {cls: ev.schema_version(cls.__name__) for cls in ev.EVENT_TYPES}


def _values(v: int, event: ev.Event) -> list[Any]:
    """``[tag, field, ...]`` as a body of schema version ``v`` holds them."""
    kind = type(event).__name__
    dropped = fields_added_since(kind, v)
    return [ev.TAG_OF[kind], *(getattr(event, f) for f in event.__struct_fields__ if f not in dropped)]


def _required(v: int, event: ev.Event) -> int:
    dropped = fields_added_since(type(event).__name__, v)
    return 1 + sum(1 for f in msgspec.structs.fields(event) if f.required and f.name not in dropped)


def _defaults(v: int, event: ev.Event) -> list[Any]:
    """Each encoded element's default (``NODEFAULT`` for the tag and required fields)."""
    dropped = fields_added_since(type(event).__name__, v)
    out: list[Any] = [msgspec.NODEFAULT]
    for f in msgspec.structs.fields(event):
        if f.name in dropped:
            continue
        out.append(f.default if f.default_factory is msgspec.NODEFAULT else f.default_factory())
    return out


def non_canonical(v: int, body: bytes, event: ev.Event) -> str | None:
    """Why ``body`` is not the engine's encoding of ``event`` (decoded from it) at schema version ``v``, or None
    when it is. The common case, today's bytes, costs one encode."""
    if v == _CURRENT[type(event)] and _encode(event) == body:
        return None
    values, kind = _values(v, event), type(event).__name__
    try:
        held = len(_raw_decoder.decode(body))
    except (msgspec.DecodeError, RecursionError):
        held = len(values)
    if _required(v, event) <= held < len(values):
        defaults = _defaults(v, event)
        if all(values[i] == defaults[i] for i in range(held, len(values))):
            values = values[:held]  # an older kifu's body, before fields with defaults were appended
    written = msgspec.msgpack.encode(values)
    if written == body:
        return None
    shape = f"{kind} at schema v{v}"
    if held > len(values):
        extra = held - len(values)
        return (f"its body carries {extra} trailing element{'s' if extra > 1 else ''} that no field of {shape} "
                f"holds ({len(body) - len(written)} bytes more than the engine writes for its event)")
    return (f"its body is not the bytes the engine writes for its event ({shape}): the same event in other "
            f"msgpack forms ({len(body)} bytes where the engine writes {len(written)})")
