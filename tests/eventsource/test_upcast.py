"""Schema evolution: a stored v1 log (ZoneChanged without ``cause``) is read, verified and upcast."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from eventsource import events as ev
from eventsource import exchange, records
from eventsource.errors import KifuError
from eventsource.integrity import Verified, verify
from eventsource.sqlite import SQLiteStore
from eventsource.upcast import UnknownEventKind, decode_body
from projections.characteristics import last_known
from projections.state import GameState, evolve
from projections.timeline import Timeline
from tests.fixtures import make_v1_fixture

FIXTURE = Path(__file__).parents[1] / "fixtures" / "v1_game.jsonl"


def fixture_records() -> list[records.RawRecord]:
    return list(exchange.read(FIXTURE))


def test_the_committed_fixture_is_what_its_script_writes() -> None:
    assert FIXTURE.read_bytes().splitlines() == make_v1_fixture.lines()


def test_the_v1_log_reads_and_verifies() -> None:
    raws = fixture_records()
    assert all(r.v == 1 for r in raws)
    last_hash = msgspec.json.decode(FIXTURE.read_bytes().splitlines()[-1])["hash"]
    assert verify(raws) == Verified(12, bytes.fromhex(last_hash))


def test_a_v1_zone_change_is_upcast_with_an_unrecorded_cause() -> None:
    moves = [records.decode(r) for r in fixture_records() if r.body[1] == 11]
    assert [m.seq for m in moves] == [7, 12]
    assert all(m.v == 1 for m in moves)
    assert [m.event for m in moves] == [
        ev.ZoneChanged(2, 4, 2, "0.hand", 1, "0.battle", 0, "unrecorded"),
        ev.ZoneChanged(4, 5, 2, "0.battle", 0, "0.grave", 0, "unrecorded"),
    ]


def test_the_upcast_log_folds() -> None:
    state = GameState()
    for r in fixture_records():
        rec = records.decode(r)
        evolve(state, rec.seq, rec.event, rec.decision)
    assert [p.name for p in state.players] == ["あおい", "Ren"]
    assert (state.zone("0.hand"), state.zone("0.battle"), state.zone("0.grave")) == ([1], [], [5])
    assert state.pending == {}
    gone = last_known(state, 4)
    assert gone is not None
    assert (gone.zone, gone.power, gone.tapped, gone.left_at) == ("0.battle", 2000, True, 12)
    assert gone.has_ability("when_enters_draw")


def test_an_old_log_exports_again_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "again.jsonl"
    assert exchange.write(fixture_records(), out) == 12
    assert out.read_bytes() == FIXTURE.read_bytes()


def test_an_old_log_imports_into_a_store_and_time_travels(tmp_path: Path) -> None:
    raws = fixture_records()
    with SQLiteStore(tmp_path / "kifu.db") as store:
        store.append_raw(make_v1_fixture.GAME, raws, expected=0)
        assert list(store.read_raw(make_v1_fixture.GAME)) == raws  # kept as written: v1 bodies, same hashes
        timeline = Timeline(store, make_v1_fixture.GAME, every=4)
        assert timeline.state_at(7).zone("0.battle") == [4]
        assert timeline.state_at(None).zone("0.grave") == [5]


def test_a_body_from_before_a_field_was_appended_reads_and_exports_as_written() -> None:
    """Appending a field with a default needs no version bump; older bodies simply hold fewer fields."""
    body = msgspec.msgpack.encode([45, 1, "target", [3, 4], 1, 1])  # ChoiceRequested before ``effect``
    assert decode_body(1, body) == ev.ChoiceRequested(1, "target", (3, 4), 1, 1, None)
    raw = records.RawRecord("g", 1, 0, 0, 1, body, records.record_hash(records.GENESIS, "g", 1, 0, 0, 1, body))
    line = exchange.to_line(raw)
    assert b'"effect"' not in line
    assert exchange.parse_line(line, 1) == raw


def test_a_current_body_labelled_v1_is_not_misread() -> None:
    body = ev.encode(ev.ZoneChanged(1, 2, 3, "0.hand", 0, "0.battle", 0, "summon"))
    with pytest.raises(msgspec.ValidationError):
        decode_body(1, body)
    assert decode_body(2, body) == ev.ZoneChanged(1, 2, 3, "0.hand", 0, "0.battle", 0, "summon")


@pytest.mark.parametrize(
    ("v", "body"),
    [
        (3, ev.encode(ev.ZoneChanged(1, 2, 3, "a", 0, "b", 0, "x"))),
        (0, ev.encode(ev.StatusSet(1, "tapped", 1))),
        (2, ev.encode(ev.StatusSet(1, "tapped", 1))),
    ],
)
def test_a_version_this_kifu_does_not_know_is_refused_naming_it(v: int, body: bytes) -> None:
    with pytest.raises(UnknownEventKind, match=f"schema v{v} is not one this kifu reads") as caught:
        decode_body(v, body)
    assert isinstance(caught.value, KifuError)
