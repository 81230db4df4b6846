"""The shipped demo is a real Duel Masters game that shows what kifu is for: abilities of both players waiting
in the pool together, and triggers checked by looking back at the state before their event."""

from __future__ import annotations

from pathlib import Path

from eventsource import events as ev
from eventsource.integrity import Verified, verify
from eventsource.sqlite import SQLiteStore
from statemachine.demo import GAME, highlights, play, run


def test_the_demo_game_shows_pending_from_both_sides_and_look_back() -> None:
    engine = play()
    records = list(engine.store.read(engine.game))
    triggered = [r.event for r in records if isinstance(r.event, ev.Triggered)]
    assert {t.controller for t in triggered} == {0, 1}
    assert any(t.checked == ev.BEFORE for t in triggered), "a look-back trigger occurs"
    text = highlights(records)
    assert "never waited together" not in text
    assert engine.state.ended


def test_run_records_the_game_and_says_where_to_look(tmp_path: Path) -> None:
    lines: list[str] = []
    db = tmp_path / "kifu.db"
    assert run(str(db), lines.append) == GAME
    assert "look-back" in lines[1] and f"kifu at {db}" in lines[1]
    with SQLiteStore(db) as store:
        assert isinstance(verify(store.read_raw(GAME)), Verified)
