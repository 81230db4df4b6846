"""Exit codes and the errors the command line turns into ``error: ...`` instead of a traceback.

Every command exits 0 when all is well, 1 when it found a problem in a log (an audit finding, a broken chain
during a replay, a file refused by ``import``), and 2 when its input cannot be used at all (a missing or
unreadable file, a database that is not a kifu store, an unknown game, a bad option).
"""

from __future__ import annotations

import sqlite3
from typing import Final

import msgspec

from eventsource.errors import KifuError
from eventsource.upcast import UnknownEventKind
from projections.state import ProjectionError

OK: Final = 0
FINDING: Final = 1
BAD_INPUT: Final = 2

# What the CLI boundary catches. Anything else is a bug in kifu and keeps its traceback.
BAD_INPUT_ERRORS: Final[tuple[type[BaseException], ...]] = (
    KifuError,
    msgspec.MsgspecError,
    UnknownEventKind,
    ProjectionError,
    OSError,
    sqlite3.DatabaseError,
)


class BadInput(KifuError):
    """A command's input cannot be used (tools' own counterpart of the event layer's errors)."""


def describe(exc: BaseException) -> str:
    """One line for ``error: ...``: what went wrong, without the exception's class."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    text = str(exc).strip()
    if isinstance(exc, sqlite3.DatabaseError):
        return f"database error: {text}"
    if isinstance(exc, msgspec.MsgspecError):
        return f"cannot read the input: {text}"
    return text or type(exc).__name__


DAMAGE: Final = "kifu.damage"  # click context meta: what a command found broken while reading its input


def note_damage(message: str) -> None:
    """Say that the input read is damaged: the command answers from the log as it has it, and the command line
    then prints ``warning: ...`` and exits 1 (``tools.cli.KifuGroup``), the same verdict as ``kifu audit``."""
    import click

    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        notes = ctx.meta.setdefault(DAMAGE, [])
        if message not in notes:
            notes.append(message)
