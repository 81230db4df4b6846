"""A game's log as the tools read it: from an exported JSON-lines file or from a store.

``open_log(location, game)`` decides which by looking at the input (a SQLite header or extension, or a store
URL, means a store; anything else is read as an export) and yields a :class:`LogSource` whose ``scan`` streams
the game's records in the order they were written.

Reading an export for an audit is lenient on purpose: ``eventsource.exchange.read`` stops with ``CorruptLog``
at the first line that is not exactly as kifu wrote it, which for a judge is not "unreadable input" but a
finding located at that record. ``scan`` therefore yields a :class:`LineProblem` in place of the first bad
line and stops there; only a file whose first line is not a kifu record at all is unreadable (exit 2).

Reading a store, ``scan`` checks that what it read ends where the store says the game ends (its length and head
hash, as ``kifu games`` prints them): a damaged file can silently yield fewer records, which must never pass
for the whole game. A shortfall raises :class:`CorruptLog` naming the first record that could not be read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal

import msgspec
from msgspec import Struct

from eventsource import exchange
from eventsource.errors import CorruptLog, regular_file
from eventsource.records import RawRecord
from eventsource.signing import Signature
from eventsource.store import EventStore, GameInfo
from tools.errors import BadInput
from tools.logs.stores import is_store_location, open_store, pick_game

Format = Literal["file", "store"]

MAX_LINE = 1 << 24  # how much of a first line is read to tell a kifu export from anything else


class LineProblem(Struct, frozen=True):
    """The first line of an export that is not a sound kifu record."""

    kind: Literal["altered", "malformed", "truncated"]
    line: int  # 1-based line number in the file
    claimed_seq: int | None  # the sequence number the line claims, when it can be read at all
    message: str


class _Envelope(Struct):
    """Just enough of a line to tell a damaged kifu record from text that is not one."""

    game: str
    seq: int


_envelope_decoder = msgspec.json.Decoder(_Envelope)


def _claimed(text: bytes) -> _Envelope | None:
    try:
        return _envelope_decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
        return None


def _reason(exc: CorruptLog) -> str:
    text = str(exc)
    prefix = f"line {exc.line}: "
    return text[len(prefix) :] if exc.line is not None and text.startswith(prefix) else text


def _open(path: Path) -> BinaryIO:
    regular_file(path, "a log")
    try:
        return open(path, "rb")  # the callers close it in a with block
    except OSError as exc:
        raise CorruptLog(f"cannot open {path}: {exc.strerror}") from exc


def scan_file(path: Path) -> Iterator[RawRecord | LineProblem]:
    """Records of an export, each checked on its own, then at most one LineProblem, after which it stops."""
    handle = _open(path)
    with handle:
        for lineno, raw_text in enumerate(handle, start=1):
            if not raw_text.endswith(b"\n"):
                yield LineProblem("truncated", lineno, None, "the file ends in the middle of a line")
                return
            text = raw_text[:-1]
            try:
                yield exchange.parse_line(text, lineno)
            except CorruptLog as exc:
                envelope = _claimed(text)
                if envelope is None:
                    yield LineProblem("malformed", lineno, None, _reason(exc))
                else:
                    yield LineProblem("altered", lineno, envelope.seq, _reason(exc))
                return


def first_game_in(path: Path) -> str:
    """The game an export holds, from its first line; CorruptLog if that line is not a kifu record.

    A first line that is no sound record (a field of the wrong type, a number where a record is expected) but
    is followed by record 2 of a game is that game's damaged first record: the audit reports it, located."""
    handle = _open(path)
    with handle:
        first = handle.readline(MAX_LINE)
        second = handle.readline(MAX_LINE) if first.endswith(b"\n") else b""
    if not first:
        raise CorruptLog(f"{path} is empty: no records")
    envelope = _claimed(first.rstrip(b"\n"))
    if envelope is None:
        following = _claimed(second.rstrip(b"\n")) if second.endswith(b"\n") else None
        if following is not None and following.seq == 2:
            return following.game
        raise CorruptLog(f"{path} is not a kifu log: its first line is not a record")
    return envelope.game


@dataclass
class LogSource:
    """One game's log, from an export or a store, readable as many times as needed."""

    location: str
    format: Format
    game: str
    store: EventStore | None = None
    path: Path | None = None
    info: GameInfo | None = None  # for a store: the game's length and head as the store lists them
    _length: int | None = field(default=None, repr=False)

    def scan(self) -> Iterator[RawRecord | LineProblem]:
        if self.store is not None:
            yield from self._scan_store(self.store)
        else:
            assert self.path is not None
            yield from scan_file(self.path)

    def _scan_store(self, store: EventStore) -> Iterator[RawRecord]:
        read, reached = 0, self.info is None
        for raw in store.read_raw(self.game):
            read += 1
            if raw.seq != read:
                raise CorruptLog(f"game {self.game!r}: record {read} cannot be read (the next one read is {raw.seq}): "
                                 "the store is damaged (kifu audit runs SQLite's integrity check)", seq=read)
            if self.info is not None and raw.seq == self.info.length:
                if raw.hash != self.info.head:
                    raise CorruptLog(f"the store lists head {self.info.head.hex()} for game {self.game!r}, but this "
                                     "record's hash differs (the store is damaged)", seq=raw.seq)
                reached = True
            yield raw
        if not reached:
            assert self.info is not None
            raise CorruptLog(
                f"the store says game {self.game!r} has {self.info.length} records (head {self.info.head.hex()}), "
                f"but only {read} could be read: the store is damaged (kifu audit runs SQLite's integrity check)",
                seq=read + 1,
            )

    def signatures(self) -> list[Signature]:
        """The signatures over this game's heads: the store's, or those the export's lines carry (up to the
        first line that is not a sound record)."""
        if self.store is not None:
            return self.store.signatures(self.game)
        assert self.path is not None
        out: list[Signature] = []
        handle = _open(self.path)
        with handle:
            for lineno, raw_text in enumerate(handle, start=1):
                try:
                    _, signature = exchange.parse_signed(raw_text.rstrip(b"\n"), lineno)
                except CorruptLog:
                    break
                if signature is not None:
                    out.append(signature)
        return out

    def records(self) -> Iterator[RawRecord]:
        """Records only, strictly: the first bad line raises CorruptLog (for tools that are not audits)."""
        for item in self.scan():
            if isinstance(item, LineProblem):
                raise CorruptLog(item.message, line=item.line)
            yield item

    def length(self) -> int:
        """How many records there are (lines, for an export), for progress reporting."""
        if self._length is None:
            if self.store is not None:
                self._length = self.store.head(self.game)
            else:
                assert self.path is not None
                self._length = _count_lines(self.path)
        return self._length

    def describe(self) -> str:
        what = "exported file" if self.format == "file" else "store"
        return f"{self.location} ({what}), game {self.game}"


def _count_lines(path: Path) -> int:
    n = 0
    regular_file(path, "a log")
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            n += chunk.count(b"\n")
    return n


@contextmanager
def open_log(location: str, game: str | None = None) -> Iterator[LogSource]:
    """The log of ``game`` (or the only game) at ``location``: an export, a SQLite file or a store URL."""
    if is_store_location(location):
        store = open_store(location, write=False)
        try:
            info = pick_game(store, game, location)
            yield LogSource(location, "store", info.game, store=store, info=info)
        finally:
            store.close()
        return
    path = Path(location)
    if path.is_dir():
        raise BadInput(f"{location} is a directory, not a kifu log")
    if not path.exists():
        raise BadInput(f"no such file: {location}")
    found = first_game_in(path)
    if game is not None and game != found:
        raise BadInput(f"{location} holds game {found!r}, not {game!r}")
    yield LogSource(location, "file", found, path=path)
