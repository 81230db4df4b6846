"""The boards ``kifu view`` puts in its page: the fast maker agrees with ``board_data`` at every record, and the
changes the page carries rebuild each board exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from eventsource.records import Record, decode
from projections.state import GameState
from tests.tools.games import play, sampled_games
from tools.logs import synthetic
from tools.logs.folding import apply
from tools.page.frames import Boards, apply_change, delta, frame
from tools.travel.trace import Memory


def sample(name: str) -> list[Record]:
    return [decode(raw) for raw in play(name)]


def generated(n: int) -> list[Record]:
    from eventsource.memory import MemoryStore

    store = MemoryStore()
    for batch in synthetic.batches(7, n):
        store.append("g", batch)
    return list(store.read("g"))


def folded(records: list[Record], viewer: int | None) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """At each record: the board ``frame`` makes from ``board_data``, and the one ``Boards`` makes."""
    state, mem, boards = GameState(), Memory(), Boards(viewer)
    named: dict[int, list[Any]] = {}
    for r in records:
        apply(state, r.seq, r.event, r.decision)
        mem.note(r.seq, r.event)
        want, got = frame(state, viewer, mem, named), boards(state, mem)
        assert boards.objects == named  # the objects named so far, each with its first name
        yield want, got


@pytest.mark.parametrize("viewer", [None, 0, 1])
@pytest.mark.parametrize("name", [*sampled_games(), "synthetic"])
def test_the_fast_boards_are_those_board_data_gives_at_every_record(name: str, viewer: int | None) -> None:
    records = generated(3000) if name == "synthetic" else sample(name)
    count = 0
    for want, got in folded(records, viewer):
        assert got == want, f"record {want['seq']}"
        count += 1
    assert count == len(records) > 100


@pytest.mark.parametrize("name", [*sampled_games(), "synthetic"])
def test_each_change_rebuilds_the_next_board_exactly(name: str) -> None:
    records = generated(3000) if name == "synthetic" else sample(name)
    board: dict[str, Any] | None = None
    kinds: set[str] = set()
    for want, _ in folded(records, 1):
        want = json.loads(json.dumps(want))  # as the page holds it
        if board is None:
            board = apply_change({}, {"F": want})
            continue
        change = json.loads(json.dumps(delta(board, want)))
        kinds |= {next(iter(op)) for op in change.get("z", {}).values() if op is not None}
        board = apply_change(board, change)
        assert board == want, f"record {want['seq']}"
    assert {"d", "i"} <= kinds  # cards taken out and put in are carried as such, not as whole zones
