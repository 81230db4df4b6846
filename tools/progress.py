"""Progress bars for long work: rich, on stderr, only when stdout is a terminal and the work is long."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

LONG_LOG: Final = 50_000  # records; below this a bar would only flicker
EVERY: Final = 4096  # records between two updates of the bar

Advance = Callable[[int], None]


def on_terminal() -> bool:
    return sys.stdout.isatty()


def wanted(records: int) -> bool:
    """A bar for a log of ``records`` records: only when it is long and someone is watching."""
    return records > LONG_LOG and on_terminal()


def _ignore(n: int) -> None:
    pass


@contextmanager
def bar(label: str, total: int, enabled: bool) -> Iterator[Advance]:
    """A transient bar on stderr; yields ``advance(n)``. Output printed meanwhile goes above the bar."""
    if not enabled:
        yield _ignore
        return
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, redirect_stdout=True) as progress:
        task = progress.add_task(label, total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)

        yield advance


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
