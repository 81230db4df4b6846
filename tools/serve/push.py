"""What a watcher of a match is sent after an append: made in one call on the match's thread and encoded there.

A watcher's update is the match's head, the records it may see since what it was last sent, and its board at
that head. Asked for one piece at a time, each a hop from the event loop to the match's thread and back, an
update cost three hops per watcher per decision, and encoding the messages on the event loop held up every
other connection's traffic meanwhile; one call that reads the head, folds, draws the board and encodes the
messages (msgspec) costs one hop, and the event loop only sends them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tools.serve.catchup import SPECTATORS
from tools.serve.service import MAX_RECORDS, Service

_encoder = msgspec.json.Encoder()


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text frame the client receives (as compact as Starlette's ``send_json``)."""
    return _encoder.encode(message).decode()


@dataclass
class Update:
    sent: int  # every record up to here has been sent (or was not the watcher's to see)
    stated: int  # the head of the last board sent
    messages: list[str] = field(default_factory=list)
    more: bool = False  # records remain to be sent: ask again (a long catch-up goes out a message at a time)


def update(service: Service, match_id: str, viewer: int, sent: int, told: int, delay: int, stated: int,
           forced: bool) -> Update:
    """What ``viewer`` is sent now: the records after ``sent`` (at most ``MAX_RECORDS`` of them in one message;
    ``more`` when others remain), then — once they are all sent — the board, if its head is not ``stated`` (or
    ``forced``). ``told`` is a head the match is known to be at least at; a spectator sees ``delay`` records
    behind."""
    head = service.head(match_id, told)
    shown = head - delay if viewer in SPECTATORS else head
    out = Update(sent, stated)
    if shown > sent:
        stop = min(shown, sent + MAX_RECORDS)
        frame = _frame(service, (match_id, "records", viewer, sent, stop), lambda: _records(service, match_id, viewer,
                                                                                             sent, stop))
        if frame:
            out.messages.append(frame)
        out.sent = stop
        if stop < shown:
            out.more = True
            return out
    if head and (forced or shown != stated):  # (this worker's append is also notified: once)
        at = shown if viewer in SPECTATORS else None
        out.messages.append(_frame(service, (match_id, "state", viewer, shown), lambda: encode(
            {"type": "state", **service.view(match_id, viewer, at)})))
        out.stated = shown
    return out


def _records(service: Service, match_id: str, viewer: int, sent: int, stop: int) -> str:
    recs = service.records(match_id, viewer, sent, stop)
    return encode({"type": "records", "records": recs}) if recs else ""


def _frame(service: Service, key: tuple[Any, ...], make: Callable[[], str]) -> str:
    """The frame ``key`` names — a match's records or board, for one audience (a seat, or the spectators), at one
    head — made once and sent to every connection of that audience (a log never changes below its head, so neither
    does the frame). The service keeps the last of each kind per match and audience."""
    kept = service.frames.get(key[:3])
    if kept is not None and kept[0] == key:
        return kept[1]
    frame = make()
    service.frames[key[:3]] = (key, frame)
    return frame
