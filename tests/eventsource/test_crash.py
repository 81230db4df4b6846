"""A writer killed with SIGKILL at random moments (30 times per backend in the suite, 20 times as many in
``make soak``): after every kill the log verifies,
every decision acknowledged after its commit is there whole, and no decision is there in part.

``bench.reliability.crashes`` does the killing and the checking; ``python -m bench.reliability`` runs it at
full size.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.reliability import crashes
from tests import properties
from tests.eventsource.reliability_backends import KINDS, backend_for

KILLS = properties.examples(30)


@pytest.mark.property
@pytest.mark.parametrize("kind", KINDS)
def test_a_writer_killed_at_random_points_never_loses_an_acknowledged_decision_nor_leaves_one_in_part(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    result = crashes(backend_for(kind, request, tmp_path), kills=KILLS, seed=7)
    assert result.kills == KILLS
    assert result.acked > 0, "the writer never got to acknowledge a decision: the kills came too early"
    print(f"{kind}: {result.kills} kills, {result.acked} acknowledged decisions present, "
          f"{result.committed_unacked} committed before their ack")


def test_the_checker_itself_catches_a_decision_in_part_and_a_broken_chain() -> None:
    from bench.reliability import Broken, check_log, decision
    from eventsource.memory import MemoryStore
    from eventsource.records import RawRecord

    store = MemoryStore()
    store.append("g", decision(0, 1, 3))
    store.append("g", decision(0, 2, 4)[:2])  # a decision of four events, two of them stored
    with pytest.raises(Broken, match="decision 2 is present in part"):
        check_log(list(store.read_raw("g")), "g")
    whole = MemoryStore()
    whole.append("g", decision(0, 1, 3))
    raws = list(whole.read_raw("g"))
    tampered = [*raws[:2], RawRecord("g", 3, 1, 0, raws[2].v, raws[1].body, raws[2].hash)]
    with pytest.raises(Broken, match="integrity check failed"):
        check_log(tampered, "g")


GROUP_KILLS = properties.examples(60)


@pytest.mark.property
def test_a_group_commit_writer_killed_at_random_points_never_loses_an_acknowledged_decision(tmp_path: Path) -> None:
    from bench.reliability import group_crashes

    result = group_crashes(str(tmp_path / "kifu.db"), kills=GROUP_KILLS, threads=8, max_delay=0.06, seed=11)
    assert result.kills == GROUP_KILLS
    assert result.acked > 0, "the writer never got to acknowledge a decision: the kills came too early"
    print(f"sqlite group commit: {result.kills} kills, {result.acked} acknowledged decisions present, "
          f"{result.committed_unacked} committed before their ack")
