"""Suite-wide fixtures: a real, throwaway PostgreSQL server for every test that needs one.

The server is started once per session (``tests.pgserver``) and stopped at the end; each test gets a schema
of its own in it, so tests never see each other's games. If the server cannot be started, the tests that
use it fail (an error in this fixture), they are never skipped.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import psycopg
import pytest
from hypothesis import HealthCheck, settings

from tests import pgserver, properties

# In CI every property test draws the same examples each run, so a red build can be reproduced; on a
# developer's machine they explore new ones every run. ``make soak`` (tests/properties.py) draws many more, with
# fresh randomness, and prints the ``@example`` that pins each failure it finds.
settings.register_profile("ci", derandomize=True)
settings.register_profile("soak", derandomize=False, deadline=None, print_blob=True, database=None,
                          max_examples=properties.examples(100), suppress_health_check=list(HealthCheck))
if properties.SOAK:
    settings.load_profile("soak")
elif os.environ.get("CI"):
    settings.load_profile("ci")

_schemas = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[pgserver.Server]:
    server = pgserver.start()
    try:
        yield server
    finally:
        server.stop()


def fresh_schema(server: pgserver.Server) -> str:
    """A URL whose connections work in a new, empty schema."""
    name = f"t{next(_schemas)}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{server.url}?options=-csearch_path%3D{name}"


@pytest.fixture
def postgres_url(postgres_server: pgserver.Server) -> str:
    return fresh_schema(postgres_server)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A soak runs the property tests only: those hypothesis runs, and those marked as running them."""
    if not properties.SOAK:
        return
    kept = [i for i in items if getattr(getattr(i, "obj", None), "is_hypothesis_test", False)
            or i.get_closest_marker("property")]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    played = properties.GAMES_PLAYED
    if played:
        each = ", ".join(f"{game} {n}" for game, n in sorted(played.items()))
        terminalreporter.write_line(f"random games played: {sum(played.values())} ({each})")
