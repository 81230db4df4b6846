"""The exchange format: one game as JSON lines, one record per line, readable by other tools.

Each line is ``{"game", "seq", "decision", "cause", "v", "hash", "body", "event"}``: ``hash`` in hex, ``body`` the
canonical event bytes in base64 (what the hash covers), and ``event`` the same event in named, readable form.
A line must be exactly as kifu writes it (so any changed byte is noticed), its ``event`` must be its ``body``
decoded, and its hash must chain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Struct

from eventsource import events as ev
from eventsource.errors import CorruptLog
from eventsource.records import RawRecord
from eventsource.upcast import UnknownEventKind, decode_body, fields_added_since

# The envelope's integers are SQLite INTEGERs: a larger one is not a record kifu wrote.
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]


class Line(Struct, frozen=True):
    game: str
    seq: Int64
    decision: Int64
    cause: Int64
    v: Int64
    hash: str
    body: bytes
    event: dict[str, Any]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Line)


def readable(event: ev.Event, v: int) -> dict[str, object]:
    """The named form of an event as a record at schema version ``v`` shows it (old records: old fields)."""
    out = ev.to_builtins(event)
    for name in fields_added_since(ev.kind_of(event), v):
        out.pop(name, None)
    return out


def to_line(raw: RawRecord) -> bytes:
    event = readable(decode_body(raw.v, raw.body), raw.v)
    return _encoder.encode(
        Line(raw.game, raw.seq, raw.decision, raw.cause, raw.v, raw.hash.hex(), raw.body, event)
    )


def write(records: Iterable[RawRecord], path: str | Path) -> int:
    n = 0
    with open(path, "wb") as out:
        for raw in records:
            out.write(to_line(raw) + b"\n")
            n += 1
    return n


def parse_line(text: bytes, lineno: int) -> RawRecord:
    """One line back into a stored record, or CorruptLog naming the line and what is wrong with it."""
    try:
        line = _decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise CorruptLog(f"not a kifu record: {exc}", line=lineno) from exc
    try:
        digest = bytes.fromhex(line.hash)
    except ValueError as exc:
        raise CorruptLog("hash is not hexadecimal", line=lineno) from exc
    raw = RawRecord(line.game, line.seq, line.decision, line.cause, line.v, line.body, digest)
    try:
        event = decode_body(raw.v, raw.body)
    except (msgspec.DecodeError, msgspec.ValidationError, UnknownEventKind) as exc:
        raise CorruptLog(f"event body cannot be read: {exc}", line=lineno) from exc
    if _encoder.encode(readable(event, raw.v)) != _encoder.encode(line.event):
        raise CorruptLog("the readable event does not match the recorded body", line=lineno)
    if to_line(raw) != text:
        raise CorruptLog("the line is not in kifu's canonical form (was it edited?)", line=lineno)
    return raw


def read(path: str | Path) -> Iterator[RawRecord]:
    """Records from an exported file, each checked on its own; the chain is checked by ``integrity``."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise CorruptLog(f"cannot open {path}: {exc.strerror}") from exc
    with handle:
        for lineno, text in enumerate(handle, start=1):
            if not text.endswith(b"\n"):
                raise CorruptLog("the file ends in the middle of a line (truncated?)", line=lineno)
            text = text[:-1]
            if not text.strip():
                raise CorruptLog("empty line", line=lineno)
            yield parse_line(text, lineno)
