"""Progress bars for long work: rich, on stderr, only when stdout is a terminal and the work takes more than a
moment (``MOMENT``: a bar appears only then, so a short run never flickers one)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from tools.logs.safe import install, raw

LONG_LOG: Final = 1_000  # records; below this the work is never long enough for a bar
EVERY: Final = 512  # records between two updates of the bar (re-adjudication reads a few thousand a second)
MOMENT: Final = 0.5  # seconds of work before a bar appears

Advance = Callable[[int], None]


def on_terminal() -> bool:
    return sys.stdout.isatty()


def wanted(records: int) -> bool:
    """A bar for a log of ``records`` records: only when it is long and someone is watching."""
    return records > LONG_LOG and on_terminal()


def _ignore(n: int) -> None:
    pass


@contextmanager
def bar(label: str, total: int, enabled: bool, moment: float = MOMENT) -> Iterator[Advance]:
    """A transient bar on stderr, shown once the work has taken ``moment`` seconds; yields ``advance(n)``.
    Output printed meanwhile goes above the bar. (The clock only times the display, never the work.)"""
    if not enabled:
        yield _ignore
        return
    began = time.monotonic()
    shown: list[Any] = []  # [progress, task] once shown
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if shown:
            shown[0].advance(shown[1], n)
        elif time.monotonic() - began >= moment:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            console = Console(file=raw(sys.stderr))  # (the bar's colours are its own; its label is kifu's)
            progress = Progress(*columns, console=console, transient=True, redirect_stdout=True)
            progress.start()
            sys.stdout = install(sys.stdout)  # what is printed above the bar is escaped too (tools.logs.safe)
            shown.extend((progress, progress.add_task(label, total=total, completed=done)))

    try:
        yield advance
    finally:
        if shown:
            shown[0].stop()


class Counter:
    """Calls ``advance`` every ``EVERY`` records (one call per record would cost more than the work)."""

    def __init__(self, advance: Advance) -> None:
        self._advance = advance
        self._pending = 0

    def tick(self) -> None:
        self._pending += 1
        if self._pending >= EVERY:
            self._advance(self._pending)
            self._pending = 0

    def flush(self) -> None:
        if self._pending:
            self._advance(self._pending)
            self._pending = 0
