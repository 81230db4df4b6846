"""JSON Schema of the exchange format: the record line and, inside it, the event union in readable form.

In an exported file each line carries the event twice: ``body``, its canonical msgpack bytes in base64 (what
the hash covers), and ``event``, the same event as a JSON object with its kind in ``"kind"``
(``eventsource.events.to_builtins``). The events' own msgspec schema describes their compact array encoding,
which no file contains, so the readable form is described by mirror Structs derived from the event types:
the same fields under the names they are written as, types and defaults, plus ``"kind"`` holding the class
name. Should an event ever write a field of its own as ``kind``, that field would overwrite the class name in
the readable form; the schema then describes the event as written and says so in a ``$comment``.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

import msgspec
from msgspec import NODEFAULT, structs

from eventsource import events as ev
from eventsource import exchange

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
REF: Final = "#/$defs/{name}"


def _mirror(cls: type[Any]) -> type[Any]:
    """A plain (not array-like, untagged) Struct of ``cls``'s fields, under the names they are written as."""
    fields: list[tuple[str, Any, Any]] = []
    for f in structs.fields(cls):
        if f.default is not NODEFAULT:
            spec = msgspec.field(default=f.default, name=f.encode_name)
        elif f.default_factory is not NODEFAULT:
            spec = msgspec.field(default_factory=f.default_factory, name=f.encode_name)
        else:
            spec = msgspec.field(name=f.encode_name)
        fields.append((f.name, f.type, spec))
    mirror: type[Any] = msgspec.defstruct(cls.__name__, fields, frozen=True, forbid_unknown_fields=True)
    mirror.__doc__ = cls.__doc__
    return mirror


@cache
def readable_event_types() -> tuple[type[Any], ...]:
    """Every event in the readable form an export's ``event`` field holds."""
    return tuple(_mirror(cls) for cls in ev.EVENT_TYPES)


@cache
def line_type() -> type[Any]:
    fields = [(f.name, f.type) if f.required else (f.name, f.type, f.default) for f in structs.fields(exchange.Line)]
    line: type[Any] = msgspec.defstruct("Line", fields, forbid_unknown_fields=True)
    line.__doc__ = ("One record of an exported game: envelope, hash (hex), body (base64) and readable event; "
                    "the record that ends a signed head also carries its signature.")
    return line


TAG: Final = "kind"  # the key eventsource.events.to_builtins writes the class name under


def _tag(defs: dict[str, Any]) -> None:
    for cls in ev.EVENT_TYPES:
        d = defs.get(cls.__name__)
        if d is None:
            continue
        props: dict[str, Any] = d.setdefault("properties", {})
        if TAG in props:
            d["$comment"] = (
                f"this event's own {TAG!r} field overwrites the class name in the readable form "
                "(eventsource.events.to_builtins), so such an event is told apart by its fields"
            )
            continue
        d["properties"] = {TAG: {"const": cls.__name__}, **props}
        d["required"] = [TAG, *d.get("required", [])]


def schema(what: str = "line") -> dict[str, Any]:
    """``line``: a record line, the event union in ``$defs``; ``event``: the event union alone."""
    events = readable_event_types()
    # msgspec builds a union of Structs only when they are tagged, and the readable form cannot be tagged by
    # msgspec (see the module docstring), so the union is written here as an ``anyOf``.
    roots = [line_type(), *events] if what == "line" else list(events)
    (top, *_), defs = msgspec.json.schema_components(roots, ref_template=REF)
    _tag(defs)
    union = {
        "title": "Event",
        "description": "Any kifu event, in readable form: its type's name in 'kind', then its fields.",
        "anyOf": [{"$ref": REF.format(name=cls.__name__)} for cls in events],
    }
    out: dict[str, Any] = {"$schema": SCHEMA_DIALECT}
    if what == "line":
        defs["Line"]["properties"]["event"] = {"$ref": REF.format(name="Event")}
        out["title"] = "kifu exchange line"
        out.update(top)
    else:
        out["title"] = "kifu event"
        out["$ref"] = REF.format(name="Event")
    out["$defs"] = {**defs, "Event": union}
    return out
