"""Ways to tamper with an exported file, as a forger or an accident would."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import msgspec

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import GENESIS, NewEvent, RawRecord, Record, decode, seal
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


# -- tampering that keeps the hash chain valid: a forger who re-seals the log --------------------------------


def records_of(path: Path) -> list[Record]:
    return [decode(raw) for raw in exchange.read(path)]


def reseal(records: list[Record], path: Path) -> Path:
    """Write ``records`` as a well-chained export, numbered from 1 in the order given."""
    game = records[0].game
    raws = seal(game, 1, GENESIS, [NewEvent(r.event, r.decision, r.cause) for r in records])
    exchange.write(raws, path)
    return path


def change_event(records: list[Record], seq: int, event: ev.Event) -> list[Record]:
    out = list(records)
    out[seq - 1] = msgspec.structs.replace(out[seq - 1], event=event)
    return out


def remove_record(records: list[Record], seq: int) -> list[Record]:
    return [r for r in records if r.seq != seq]
