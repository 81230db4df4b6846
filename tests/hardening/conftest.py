"""Hardening tests count the cases they try and print the totals at the end of the run."""

from __future__ import annotations

from collections import Counter

import pytest

CASES: Counter[str] = Counter()


def tried(kind: str, n: int = 1) -> None:
    CASES[kind] += n


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    bad = {k: n for k, n in CASES.items() if not k.startswith("hidden")}
    if bad:
        parts = ", ".join(f"{kind} {n}" for kind, n in sorted(bad.items()))
        terminalreporter.write_line(f"hardening: {sum(bad.values())} bad-input cases tried ({parts})")
    views = CASES.get("hidden information: view checked")
    if views:
        terminalreporter.write_line(f"hardening: {views} player views checked against what each player may know")
