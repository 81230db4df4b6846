"""``kifu view``: one self-contained HTML file with a timeline of the game.

The page needs no network: its script and style are inline (``tools/page/viewer.html``) and the game is inside it.
A page holds every record's line and the board just after it, but not a board per record (100,000 records of
boards are gigabytes): it carries the log compactly and the page's script builds a board when it is shown.

- One JSON line per record: ``[seq, turn, kind, decision, text, extra, change]``. ``extra`` holds what links a
  record to another (a trigger's ``by``, ``effect`` and ``checked``); ``change`` is the board after the record,
  as a full board (``{"F": board}``) every :data:`KEYFRAME_EVERY` records (the first one included) and otherwise
  as what changed since the record before (:func:`delta`: the top-level fields that changed, each changed zone
  as one card taken out or put in at a position or as its new content, the status and power marks that
  changed). The page finds the last full board at or before a record and applies the changes after it.
- A last line with the objects the boards name (``{"objects": {obj: [name, definition]}, "records": n}``).

The lines are compressed (raw DEFLATE, which every current browser inflates with ``DecompressionStream``) and
embedded as base64, which no string in the game can break out of. A short head (the game, its source, its rules
and the viewer) is embedded as JSON for the title, with every character that could end the script escaped
(:func:`embeddable`). Everything is written as it is made: a page is built in one pass over the log, holding
one board at a time.

With a viewer player, every board is ``projections.views.player_view`` of that player and every line names only
the cards that player could see, before or after the event.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from eventsource import events as ev
from eventsource.records import Record
from projections.state import GameState, copy
from tools.errors import BadInput
from tools.logs.folding import apply
from tools.page.frames import Boards, apply_change, delta
from tools.travel.trace import Memory, hidden_cards, player_name, seen_line

TEMPLATE = Path(__file__).with_name("viewer.html")
HEAD_MARK = "/*KIFU-DATA*/null"
LOG_MARK = "/*KIFU-LOG*/"
KEYFRAME_EVERY = 256  # a full board every this many records: at most 255 changes to apply to show any record
HIDDEN_LINE = "(hidden from this player)"
_encode = msgspec.json.Encoder().encode


# -- the lines of a page ---------------------------------------------------------------------------------


@dataclass
class Summary:
    """What a page holds, known once its records are read."""

    profile: str = ""
    viewer: str | None = None
    records: int = 0
    last: int = 0
    objects: dict[int, list[Any]] = field(default_factory=dict)


def _extra(record: Record) -> dict[str, Any]:
    event = record.event
    if isinstance(event, ev.Triggered):
        return {"by": event.by, "effect": event.effect, "checked": event.checked}
    if record.cause and isinstance(event, ev.EffectPending | ev.EffectResolving | ev.EffectResolved
                                   | ev.EffectFizzled):
        return {"effect": event.effect}
    return {}


def lines(records: Iterable[Record], viewer: int | None, summary: Summary) -> Iterator[bytes]:
    """One line per record (see the module's doc), folding the log as it goes; ``summary`` is filled in."""
    state = GameState()
    mem = Memory()
    hidden: set[int] = set()
    board: dict[str, Any] | None = None
    boards = Boards(viewer)
    summary.objects = boards.objects
    for n, r in enumerate(records):
        before_hidden = hidden
        # The line is read against the state before the event; with a viewer, the cards hidden both before and
        # after it stay unnamed (a card drawn into the viewer's own hand is named, one drawn by the opponent not).
        event = r.event
        turn = event.turn if isinstance(event, ev.TurnBegan) else state.turn
        if viewer is None:
            text = seen_line(state, before_hidden, hidden, event, viewer, mem)
            apply(state, r.seq, event, r.decision)
        else:
            line_state = copy(state)
            apply(state, r.seq, event, r.decision)
            hidden = hidden_cards(state, viewer)
            text = seen_line(line_state, before_hidden, hidden, event, viewer, mem)
        mem.note(r.seq, event)
        now = boards(state, mem)
        change = {"F": now} if board is None or n % KEYFRAME_EVERY == 0 else delta(board, now)
        board = now
        if n == 0:
            summary.profile = f"{state.profile} {state.profile_version}" if isinstance(
                event, ev.GameStarted) else ""
            summary.viewer = player_name(state, viewer) if viewer is not None else None
        summary.records, summary.last = n + 1, r.seq
        yield _encode([r.seq, turn, ev.kind_of(event), r.decision, text if text is not None else HIDDEN_LINE,
                       _extra(r), change]) + b"\n"


class _Packed:
    """DEFLATE, then base64, written to ``out`` as it comes."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.zip = zlib.compressobj(6, zlib.DEFLATED, -15)
        self.rest = b""

    def write(self, data: bytes) -> None:
        self._emit(self.zip.compress(data))

    def _emit(self, data: bytes) -> None:
        data = self.rest + data
        cut = len(data) - len(data) % 3
        self.out.write(base64.b64encode(data[:cut]))
        self.rest = data[cut:]

    def close(self) -> None:
        self._emit(self.zip.flush())
        self.out.write(base64.b64encode(self.rest))


# Characters a string in the embedded JSON must not carry raw: ``<`` (``</script>`` would close the script and
# ``<!--<script>`` would make the parser swallow the rest of the page), ``>`` and ``&`` for good measure, and the
# two line separators older script engines end a line at. JSON reads each escape back as the same character.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                              "\u2029": "\\u2029"})


def embeddable(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element whatever strings it holds."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_SAFE)


def _template() -> tuple[str, str, str]:
    template = TEMPLATE.read_text(encoding="utf-8")
    if template.count(HEAD_MARK) != 1 or template.count(LOG_MARK) != 1:
        raise RuntimeError(f"{TEMPLATE} must have one head mark and one log mark")
    before, rest = template.split(HEAD_MARK)
    between, after = rest.split(LOG_MARK)
    return before, between, after


def write_page(records: Iterable[Record], out: BinaryIO, *, game: str, source: str,
               viewer: int | None) -> Summary:
    """Write the page of ``records`` (one game's log, in order) to ``out``, in one pass."""
    before, between, after = _template()
    summary = Summary()
    made = lines(records, viewer, summary)
    first = next(made, None)
    if first is None:
        raise BadInput(f"{source}: game {game!r} has no records")
    head = {"game": game, "source": source, "profile": summary.profile, "viewer": summary.viewer,
            "every": KEYFRAME_EVERY}
    out.write((before + embeddable(head) + between).encode())
    packed = _Packed(out)
    packed.write(first)
    for line in made:
        packed.write(line)
    objects = {str(k): v for k, v in sorted(summary.objects.items())}  # (the boards' own, filled as they were made)
    packed.write(_encode({"objects": objects, "records": summary.records, "last": summary.last}))
    packed.close()
    out.write(after.encode())
    return summary


# -- reading a page back (for tests and tools: the page's script does the same) ---------------------------


@dataclass
class Page:
    head: dict[str, Any]
    records: list[list[Any]]
    objects: dict[str, list[Any]]

    def events(self) -> dict[int, str]:
        """Each record's line, by sequence number."""
        return {r[0]: r[4] for r in self.records}

    def board(self, index: int) -> dict[str, Any]:
        """The board shown at the ``index``-th record (0-based), rebuilt as the page's script rebuilds it."""
        start = index - index % self.head["every"]
        board: dict[str, Any] = {}
        for r in self.records[start:index + 1]:
            board = apply_change(board, r[6])
        return board


def read_page(html: str) -> Page:
    """The head and the records a page written by :func:`write_page` holds."""
    head = re.search(r'<script id="kifu-data"[^>]*>(.*?)</script>', html, re.S)
    blob = re.search(r'<script id="kifu-log"[^>]*>(.*?)</script>', html, re.S)
    if head is None or blob is None:
        raise BadInput("not a page written by kifu view")
    text = zlib.decompress(base64.b64decode(blob.group(1)), -15).decode("utf-8").split("\n")
    trailer = json.loads(text.pop())
    return Page(json.loads(head.group(1)), [json.loads(line) for line in text], trailer["objects"])
