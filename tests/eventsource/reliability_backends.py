"""The backends the reliability tests run on: a SQLite file and a schema of the session's PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.reliability import Backend

KINDS = ("sqlite", "postgresql")


def backend_for(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if kind == "sqlite":
        return ("sqlite", str(tmp_path / "kifu.db"))
    return ("postgresql", request.getfixturevalue("postgres_url"))
