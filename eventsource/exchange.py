"""The exchange format: one game as JSON lines, one record per line, readable by other tools.

Each line is ``{"game", "seq", "decision", "cause", "v", "hash", "body", "event"}``: ``hash`` in hex,
``body`` the canonical event bytes in base64 (what the hash covers), and ``event`` the same event in named,
readable form. A line whose record ends a signed head (``eventsource.signing``) also carries
``"signature": {"key", "end", "sig"}`` (the key id in hex, whether it is the signed end, the Ed25519 signature in
base64); the game, seq and head it covers are the line's own. Lines without a signature are written exactly as
before signatures existed, so older exports stay byte-for-byte valid.
A line must be exactly as kifu writes it (so any changed byte is noticed), its ``event`` must be its ``body``
decoded, and its hash must chain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Struct

from eventsource import events as ev
from eventsource.errors import CorruptLog, regular_file
from eventsource.records import RawRecord
from eventsource.signing import Signature
from eventsource.upcast import UnknownEventKind, decode_body, fields_added_since

# The envelope's integers are SQLite INTEGERs: a larger one is not a record kifu wrote.
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]


class LineSignature(Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    end: bool
    sig: bytes


class Line(Struct, frozen=True, omit_defaults=True):
    game: str
    seq: Int64
    decision: Int64
    cause: Int64
    v: Int64
    hash: str
    body: bytes
    event: dict[str, Any]
    signature: LineSignature | None = None


_encoder = msgspec.json.Encoder()
# Characters JSON lets a string hold raw that a terminal obeys or that reorders text: DEL, the C1 controls, the
# bidirectional marks, embeddings, overrides and isolates, and the line and paragraph separators (as UTF-8). A
# line shows them as ``\uXXXX`` escapes, which every JSON reader decodes to the same string.
_UNSAFE_IN_JSON = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]")


def _escaped(match: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(match.group().decode())


_decoder = msgspec.json.Decoder(Line)


def readable(event: ev.Event, v: int, body: bytes | None = None) -> dict[str, object]:
    """The named form of an event showing the fields its record holds, as the kifu that wrote it showed it.

    A record written at an older schema version does not show the fields added since (its event has them,
    upcast); a body written before a field was appended (with its default, no version bump) does not show that
    field. So an old export stays byte-for-byte readable however the event types grow.
    """
    out = ev.to_builtins(event)
    added = fields_added_since(ev.kind_of(event), v)
    for name in added:
        out.pop(name, None)
    if body is not None:
        held = _array_length(body) - 1  # the fields this body holds, after its tag
        for name in [k for k in out if k != "kind"][held:]:
            del out[name]
    return out


def _array_length(body: bytes) -> int:
    head = body[0]
    if 0x90 <= head <= 0x9F:
        return head & 0x0F
    if head == 0xDC:
        return int.from_bytes(body[1:3], "big")
    return int.from_bytes(body[1:5], "big")  # 0xdd; a body that decoded is an array


def to_line(raw: RawRecord, signature: Signature | None = None) -> bytes:
    """A record as one line; ``signature`` is the signature over the head this record ends, if any (its game,
    seq and head are the record's: a signature over another head is not written)."""
    try:
        event = readable(decode_body(raw.v, raw.body), raw.v, raw.body)
    except (msgspec.MsgspecError, UnknownEventKind, IndexError) as exc:  # (IndexError: an empty body)
        raise CorruptLog(f"its body cannot be read: {exc or 'it is empty'}", seq=raw.seq) from exc
    signed = None if signature is None else LineSignature(signature.key.hex(), signature.end, signature.sig)
    line = _encoder.encode(
        Line(raw.game, raw.seq, raw.decision, raw.cause, raw.v, raw.hash.hex(), raw.body, event, signed)
    )
    return _UNSAFE_IN_JSON.sub(_escaped, line)


def write(records: Iterable[RawRecord], path: str | Path, signatures: Iterable[Signature] = ()) -> int:
    n = 0
    by_seq = {s.seq: s for s in signatures}
    with open(path, "wb") as out:
        for raw in records:
            out.write(to_line(raw, by_seq.get(raw.seq)) + b"\n")
            n += 1
    return n


def parse_line(text: bytes, lineno: int) -> RawRecord:
    """One line back into a stored record, or CorruptLog naming the line and what is wrong with it."""
    return parse_signed(text, lineno)[0]


def parse_signed(text: bytes, lineno: int) -> tuple[RawRecord, Signature | None]:
    """One line back into a stored record and the signature it carries (if any), or CorruptLog naming the
    line and what is wrong with it."""
    try:
        line = _decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise CorruptLog(f"not a kifu record: {exc}", line=lineno) from exc
    except UnicodeDecodeError as exc:
        raise CorruptLog(f"not a kifu record: a string is not UTF-8 ({exc.reason})", line=lineno) from exc
    except RecursionError as exc:  # msgspec's answer to JSON nested deeper than the interpreter's limit
        raise CorruptLog("not a kifu record: nested too deeply", line=lineno) from exc
    try:
        digest = bytes.fromhex(line.hash)
    except ValueError as exc:
        raise CorruptLog("hash is not hexadecimal", line=lineno) from exc
    raw = RawRecord(line.game, line.seq, line.decision, line.cause, line.v, line.body, digest)
    try:
        event = decode_body(raw.v, raw.body)
    except (msgspec.DecodeError, msgspec.ValidationError, UnknownEventKind) as exc:
        raise CorruptLog(f"event body cannot be read: {exc}", line=lineno) from exc
    if _encoder.encode(readable(event, raw.v, raw.body)) != _encoder.encode(line.event):
        raise CorruptLog("the readable event does not match the recorded body", line=lineno)
    signature = None
    if line.signature is not None:
        try:
            key = bytes.fromhex(line.signature.key)
        except ValueError as exc:
            raise CorruptLog("the signature's key id is not hexadecimal", line=lineno) from exc
        signature = Signature(raw.game, raw.seq, raw.hash, key, line.signature.end, line.signature.sig)
    if to_line(raw, signature) != text:
        raise CorruptLog("the line is not in kifu's canonical form (was it edited?)", line=lineno)
    return raw, signature


def read(path: str | Path) -> Iterator[RawRecord]:
    """Records from an exported file, each checked on its own; the chain is checked by ``integrity``."""
    for raw, _ in read_signed(path):
        yield raw


def read_signed(path: str | Path) -> Iterator[tuple[RawRecord, Signature | None]]:
    """Records from an exported file with the signatures they carry, each line checked on its own."""
    regular_file(path, "a log")
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the ``with`` below, once open succeeded
    except OSError as exc:
        raise CorruptLog(f"cannot open {path}: {exc.strerror}") from exc
    with handle:
        for lineno, text in enumerate(handle, start=1):
            if not text.endswith(b"\n"):
                raise CorruptLog("the file ends in the middle of a line (truncated?)", line=lineno)
            text = text[:-1]
            if not text.strip():
                raise CorruptLog("empty line", line=lineno)
            yield parse_signed(text, lineno)
