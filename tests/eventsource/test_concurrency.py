"""Writer processes racing on the same games with optimistic concurrency, on SQLite and PostgreSQL.

Every attempt carries its own decision id, so ``bench.reliability.concurrency`` can prove afterwards that each
append reported as a conflict stored nothing (the loser was told), each acknowledged one is in the log exactly
once, whole and in its writer's order, sequence numbers run 1..n, and the hash chain verifies. The full-size
figures come from ``python -m bench.reliability``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.reliability import concurrency
from tests.eventsource.reliability_backends import KINDS, backend_for


@pytest.mark.parametrize("kind", KINDS)
def test_writers_racing_on_one_game_lose_nothing_and_every_loser_is_told(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    result = concurrency(backend_for(kind, request, tmp_path), games=1, writers=4, decisions=15)
    assert result.decisions == 4 * 15
    assert result.events == 4 * 15 * 5
    print(f"{kind}: 1 game x 4 writers held; {result.conflicts} conflicts reported")


@pytest.mark.parametrize("kind", KINDS)
def test_many_games_appended_in_parallel_stay_apart_and_whole(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    result = concurrency(backend_for(kind, request, tmp_path), games=6, writers=4, decisions=3)
    assert result.decisions == 6 * 4 * 3
    print(f"{kind}: 6 games x 4 writers held; {result.conflicts} conflicts reported")
