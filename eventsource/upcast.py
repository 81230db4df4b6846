"""Reading old events: chained ``upcast_vN_vN+1`` steps on the raw array before typed decoding.

The fast path decodes a body written at the current schema version straight into its Struct. A body written by
an older version is decoded untyped, passed through each step up to the current version, then converted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from eventsource import events as ev
from eventsource.errors import KifuError

Raw = list[Any]  # [tag, field, ...] as msgpack decodes an array-like Struct

_raw_decoder = msgspec.msgpack.Decoder(list[Any])

# The union's one decoder (``events._decoder``), called without the ``events.decode`` wrapper's frame: 5 % of a
# rebuild (``python -m bench``).
_decode: Final = ev._decoder.decode

# The schema version of each event class as written today: the fast path's check is one dict lookup (every
# record of a rebuild passes through it).
_CURRENT: Final[dict[type[Any], int]] = {cls: ev.schema_version(cls.__name__) for cls in ev.EVENT_TYPES}


def _zone_changed_v1_v2(raw: Raw) -> Raw:
    # v1 had no ``cause``; a v1 log did not say why a card moved.
    return [*raw[:8], "unrecorded", *raw[8:]]


# kind -> {from_version: step}
UPCASTERS: Final[dict[str, dict[int, Callable[[Raw], Raw]]]] = {
    "ZoneChanged": {1: _zone_changed_v1_v2},
}

# kind -> {version: the fields that version added}. A record written at an older version is shown (in exports)
# without them, exactly as the kifu that wrote it showed it; its typed event still has them, upcast.
ADDED_FIELDS: Final[dict[str, dict[int, tuple[str, ...]]]] = {
    "ZoneChanged": {2: ("cause",)},
}


def fields_added_since(kind: str, v: int) -> frozenset[str]:
    """The fields of ``kind`` that did not exist yet at schema version ``v``."""
    return frozenset(f for version, names in ADDED_FIELDS.get(kind, {}).items() if version > v for f in names)


class UnknownEventKind(KifuError, ValueError):
    """A body whose tag or schema version this kifu does not know."""


def decode_body(v: int, body: bytes) -> ev.Event:
    """The event of a body written at schema version ``v``, upcast to today's shape.

    Raises ``msgspec.DecodeError`` (or its ``ValidationError``) for a body that is not an event, and
    :class:`UnknownEventKind` for a tag or version this kifu does not know.
    """
    # The fast path, inline: every record of a rebuild or a time travel comes through here.
    try:
        event = _decode(body)
    except msgspec.ValidationError:
        event = None  # an old shape that no longer decodes as is: the steps below mend it
    except UnicodeDecodeError as exc:
        raise _not_utf8(exc) from exc
    except RecursionError as exc:
        raise _too_deep() from exc
    if event is not None and v == _CURRENT[type(event)]:
        return event
    try:
        return _upcast(v, body)
    except UnicodeDecodeError as exc:
        raise _not_utf8(exc) from exc
    except RecursionError as exc:
        raise _too_deep() from exc


def _too_deep() -> msgspec.DecodeError:
    # msgspec raises RecursionError for a body nested deeper than the interpreter's limit
    return msgspec.DecodeError("the body is nested too deeply to be an event")


def _not_utf8(exc: UnicodeDecodeError) -> msgspec.DecodeError:
    # msgspec lets a string of invalid UTF-8 through as a UnicodeDecodeError
    return msgspec.DecodeError(f"a string in the body is not valid UTF-8: {exc.reason}")


def _upcast(v: int, body: bytes) -> ev.Event:
    raw = _raw_decoder.decode(body)
    if not raw or not isinstance(raw[0], int) or raw[0] not in ev.KIND_OF_TAG:
        raise UnknownEventKind(f"unknown event tag {raw[0] if raw else None!r}")
    kind = ev.KIND_OF_TAG[raw[0]]
    current = ev.schema_version(kind)
    if v > current or v < 1:
        raise UnknownEventKind(f"{kind} schema v{v} is not one this kifu reads (current v{current})")
    steps = UPCASTERS.get(kind, {})
    while v < current:
        raw = steps[v](raw)
        v += 1
    return ev.decode(msgspec.msgpack.encode(raw))
