"""Hardening tests count the cases they try and print the totals at the end of the run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

CASES: Counter[str] = Counter()


def tried(kind: str, n: int = 1) -> None:
    CASES[kind] += n


def exercised(kind: str, fuzz: Callable[[], None]) -> int:
    """Run a fuzzer (a hypothesis test) and return how many cases of ``kind`` it tried: every fuzzer asserts how
    many it exercised, per game, so that one whose cases all fell through (none loaded, none reached the rules)
    cannot pass as if it had tested something."""
    before = CASES[kind]
    fuzz()
    return CASES[kind] - before


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    bad = {k: n for k, n in CASES.items() if not k.startswith("hidden")}
    if bad:
        parts = ", ".join(f"{kind} {n}" for kind, n in sorted(bad.items()))
        terminalreporter.write_line(f"hardening: {sum(bad.values())} bad-input cases tried ({parts})")
    views = CASES.get("hidden information: view checked")
    if views:
        terminalreporter.write_line(f"hardening: {views} player views checked against what each player may know")
