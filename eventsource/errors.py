"""Errors the event layer raises; each names the problem it found."""

from __future__ import annotations

import os
import stat


class KifuError(Exception):
    """Base of kifu's own errors: bad input, not a bug."""


class ConcurrencyConflict(KifuError):
    """Another writer appended to the game first; nothing of this append was stored."""

    def __init__(self, game: str, expected: int, actual: int) -> None:
        super().__init__(
            f"concurrency conflict on game {game!r}: expected the log to end at sequence {expected}, "
            f"but it ends at {actual}; nothing was appended"
        )
        self.game = game
        self.expected = expected
        self.actual = actual


class StoreUnavailable(KifuError):
    """The store's server cannot be reached, or refused the connection; nothing was appended (a client may try
    again once it is back)."""


class InvalidEvent(KifuError):
    """An event that cannot be recorded as given (an integer too large to encode); nothing was appended."""


class UnknownGame(KifuError):
    def __init__(self, game: str) -> None:
        super().__init__(f"no game {game!r} in this store")
        self.game = game


class CorruptLog(KifuError):
    """A log that cannot be read or does not verify; ``seq`` or ``line`` say where."""

    def __init__(self, message: str, *, seq: int | None = None, line: int | None = None) -> None:
        where = f"line {line}: " if line is not None else f"record {seq}: " if seq is not None else ""
        super().__init__(where + message)
        self.seq = seq
        self.line = line


class NotAFile(KifuError):
    """An input that is not a regular file: reading a pipe or a device would wait for a writer forever (or
    never end), so it is refused at once."""


def regular_file(path: str | os.PathLike[str], what: str) -> None:
    """Refuse ``path`` at once unless it is missing or a regular file (symbolic links followed): ``what`` says
    which input it was given as (``a log``, ``the --db store``, ``the public key``). A missing file is left to
    the caller, whose message says what to do."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISDIR(mode):
        raise NotAFile(f"{path} is a directory, not {what}")
    if not stat.S_ISREG(mode):
        raise NotAFile(f"{path} is not a regular file (a pipe, a device or a socket) and cannot be {what}")
