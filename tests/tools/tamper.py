"""Ways to tamper with an exported file, as a forger or an accident would."""

from __future__ import annotations

import base64
import json

import msgspec

from eventsource import exchange
from eventsource.records import RawRecord
from eventsource.upcast import decode_body


def flip_body_byte(line: bytes, index: int = -1) -> bytes:
    """Change one byte of the canonical body, leaving the readable event (and the hash) as they were."""
    data = json.loads(line)
    body = bytearray(base64.b64decode(data["body"]))
    body[index] ^= 0x01
    data["body"] = base64.b64encode(bytes(body)).decode()
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def forge(line: bytes, **changes: object) -> bytes:
    """Rewrite one record's event consistently (body and readable form agree) but keep its old hash."""
    raw = exchange.parse_line(line.rstrip(b"\n"), 1)
    event = msgspec.structs.replace(decode_body(raw.v, raw.body), **changes)
    body = msgspec.msgpack.encode(event)
    forged = RawRecord(raw.game, raw.seq, raw.decision, raw.cause, raw.v, body, raw.hash)
    return exchange.to_line(forged) + b"\n"
