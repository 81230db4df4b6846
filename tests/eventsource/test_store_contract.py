"""The store contract: written once, run against every store.

A new backend joins by adding one entry to ``STORES``; every test below then runs against it. The PostgreSQL
store runs against a real server started for the session (``tests/conftest.py``), in a schema of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict, CorruptLog
from eventsource.groupcommit import GroupCommitSQLiteStore
from eventsource.integrity import Verified, verify
from eventsource.memory import MemoryStore
from eventsource.postgres import PostgresStore
from eventsource.records import GENESIS, NewEvent, RawRecord, record_hash, seal
from eventsource.signing import Signer
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore, GameInfo
from tests.fixtures.scripted import events_of, record_game, scripted_game

StoreFactory = Callable[[pytest.FixtureRequest, Path], EventStore]

STORES: dict[str, StoreFactory] = {
    "memory": lambda request, tmp: MemoryStore(),
    "sqlite": lambda request, tmp: SQLiteStore(tmp / "kifu.db"),
    "sqlite-group-commit": lambda request, tmp: GroupCommitSQLiteStore(tmp / "kifu.db"),
    "postgresql": lambda request, tmp: PostgresStore(request.getfixturevalue("postgres_url")),
}


@pytest.fixture(params=sorted(STORES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    with STORES[request.param](request, tmp_path) as s:
        yield s


def batch(*events: ev.Event, decision: int = 1) -> list[NewEvent]:
    return [NewEvent(e, decision, 0) for e in events]


def passes(n: int) -> list[NewEvent]:
    return batch(*(ev.PriorityPassed(i % 2) for i in range(n)))


def everything(store: EventStore, game: str) -> list[RawRecord]:
    return list(store.read_raw(game))


# -- append and read -------------------------------------------------------------------------------


def test_append_then_read_gives_back_the_same_events_in_order(store: EventStore) -> None:
    batches = scripted_game(random.Random(1), 80)
    record_game(store, "g", batches)
    records = list(store.read("g"))
    assert [r.event for r in records] == events_of(batches)
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    assert [(r.decision, r.cause) for r in records] == [(i.decision, i.cause) for b in batches for i in b]
    assert all(r.game == "g" for r in records)


def test_append_returns_exactly_what_is_stored(store: EventStore) -> None:
    first = store.append("g", passes(3))
    second = store.append("g", passes(2), expected=3)
    assert everything(store, "g") == first + second
    assert [r.seq for r in second] == [4, 5]


def test_records_chain_from_genesis_and_verify(store: EventStore) -> None:
    record_game(store, "g", scripted_game(random.Random(2), 60))
    raws = everything(store, "g")
    prev = GENESIS
    for r in raws:
        assert r.hash == record_hash(prev, r.game, r.seq, r.decision, r.cause, r.v, r.body)
        prev = r.hash
    assert verify(raws) == Verified(len(raws), raws[-1].hash)


def test_appending_without_expected_appends_after_the_current_end(store: EventStore) -> None:
    store.append("g", passes(2))
    store.append("g", passes(2))
    assert store.head("g") == 4
    assert isinstance(verify(everything(store, "g")), Verified)


@pytest.mark.parametrize(
    ("start", "stop"),
    [(1, None), (1, 10), (3, 7), (10, 10), (10, None), (7, 3), (11, None), (0, 4), (5, 999)],
)
def test_ranged_reads_hold_start_to_stop_inclusive(store: EventStore, start: int, stop: int | None) -> None:
    store.append("g", passes(10))
    want = [s for s in range(1, 11) if s >= start and (stop is None or s <= stop)]
    assert [r.seq for r in store.read_raw("g", start, stop)] == want
    assert [r.seq for r in store.read("g", start, stop)] == want


def test_head_is_the_last_sequence_number(store: EventStore) -> None:
    assert store.head("g") == 0
    store.append("g", passes(4))
    assert store.head("g") == 4
    store.append("g", passes(1), expected=4)
    assert store.head("g") == 5


def test_games_lists_every_game_ordered_by_id_with_its_length_and_head(store: EventStore) -> None:
    for name, n in [("b-game", 3), ("a-game", 5), ("c-game", 1), ("A-upper", 2)]:
        store.append(name, passes(n))
    games = store.games()
    assert [g.game for g in games] == sorted(["b-game", "a-game", "c-game", "A-upper"])
    for info in games:
        raws = everything(store, info.game)
        assert info == GameInfo(info.game, len(raws), raws[-1].hash)


def test_games_do_not_mix(store: EventStore) -> None:
    store.append("one", passes(3))
    store.append("two", batch(ev.PriorityGiven(1)))
    store.append("one", passes(1), expected=3)
    assert [r.seq for r in store.read_raw("one")] == [1, 2, 3, 4]
    assert [r.event for r in store.read("two")] == [ev.PriorityGiven(1)]
    assert all(r.game == "one" for r in store.read_raw("one"))


def test_an_unknown_game_reads_empty(store: EventStore) -> None:
    store.append("known", passes(2))
    assert list(store.read_raw("unknown")) == []
    assert list(store.read("unknown")) == []
    assert store.head("unknown") == 0
    assert store.load_snapshot("unknown", 10) is None
    assert [g.game for g in store.games()] == ["known"]


def test_an_empty_batch_stores_nothing(store: EventStore) -> None:
    assert store.append("g", []) == []
    assert store.games() == []
    store.append("g", passes(2))
    assert store.append("g", [], expected=2) == []
    assert store.head("g") == 2


# -- optimistic concurrency ------------------------------------------------------------------------


@pytest.mark.parametrize("stale", [0, 1, 2, 4, 10])
def test_a_stale_expected_raises_a_clear_conflict_and_appends_nothing(store: EventStore, stale: int) -> None:
    store.append("g", passes(3))
    before = everything(store, "g")
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("g", passes(2), expected=stale)
    assert (caught.value.game, caught.value.expected, caught.value.actual) == ("g", stale, 3)
    assert f"expected the log to end at sequence {stale}, but it ends at 3" in str(caught.value)
    assert "nothing was appended" in str(caught.value)
    assert everything(store, "g") == before
    assert store.games() == [GameInfo("g", 3, before[-1].hash)]


def test_a_receipt_is_kept_with_its_append_and_a_refused_append_keeps_none(store: EventStore) -> None:
    """An appender's receipt (kifu serve's copy of the submission it judged) is stored in the append's own
    transaction: a committed append has it, a conflicting one — refused before or inside the transaction —
    leaves none of its own."""
    store.append("g", passes(2), receipt=b"0 first")
    assert store.receipt("g", 0) == b"0 first" and store.receipt("g", 2) is None
    with pytest.raises(ConcurrencyConflict):
        store.append("g", passes(1), expected=0, receipt=b"1 late")
    sealed = seal("g", 3, next(store.read_raw("g", 2)).hash, passes(1))  # a writer that read head 2
    store.append("g", batch(ev.PriorityGiven(0)), receipt=b"0 won")  # another moves the head first
    with pytest.raises(ConcurrencyConflict):
        store._write("g", 2, sealed, (), b"1 lost")
    assert store.receipt("g", 0) == b"0 first" and store.receipt("g", 2) == b"0 won"
    assert store.receipt("g", 3) is None and store.receipt("other", 0) is None


def test_a_conflict_on_a_new_game_does_not_create_it(store: EventStore) -> None:
    with pytest.raises(ConcurrencyConflict):
        store.append("new", passes(1), expected=5)
    assert store.games() == []
    assert store.head("new") == 0


def test_the_writer_that_read_the_head_first_wins(store: EventStore) -> None:
    store.append("g", passes(2))
    seen_by_a = seen_by_b = store.head("g")
    store.append("g", batch(ev.PriorityGiven(0)), expected=seen_by_a)
    with pytest.raises(ConcurrencyConflict):
        store.append("g", batch(ev.PriorityGiven(1)), expected=seen_by_b)
    assert [r.event for r in store.read("g", 3)] == [ev.PriorityGiven(0)]


# -- a batch is stored whole or not at all ---------------------------------------------------------


def test_a_failure_while_writing_leaves_the_log_as_it_was(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.append("g", passes(2))
    before = everything(store, "g")

    class Boom(Exception):
        pass

    def explode(*_: object) -> bytes:
        raise Boom

    # Encoding the fourth event of the batch fails after three were sealed.
    events: list[ev.Event] = [ev.PriorityGiven(0), ev.PriorityGiven(1), ev.PriorityPassed(0), ev.PriorityPassed(1)]
    real = ev.encode
    calls = iter(range(100))
    monkeypatch.setattr(ev, "encode", lambda e: explode() if next(calls) == 3 else real(e))
    with pytest.raises(Boom):
        store.append("g", batch(*events), expected=2)
    monkeypatch.undo()
    assert everything(store, "g") == before


def test_an_import_that_continues_the_chain_is_stored_as_is(store: EventStore) -> None:
    source = MemoryStore()
    record_game(source, "g", scripted_game(random.Random(3), 40))
    raws = everything(source, "g")
    store.append_raw("g", raws[:7], expected=0)
    store.append_raw("g", raws[7:], expected=7)
    assert everything(store, "g") == raws
    assert store.games() == source.games()


def _forged(raws: list[RawRecord], **change: object) -> list[RawRecord]:
    return [msgspec.structs.replace(raws[0], **change), *raws[1:]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hash": bytes(16)}, "does not chain"),
        ({"body": ev.encode(ev.PriorityGiven(1))}, "does not chain"),
        ({"seq": 4}, "expected record 3"),
        ({"game": "other"}, "belongs to game 'other'"),
    ],
)
def test_an_import_that_does_not_continue_the_chain_is_refused_whole(
    store: EventStore, change: dict[str, object], message: str
) -> None:
    source = MemoryStore()
    source.append("g", passes(6))
    raws = everything(source, "g")
    store.append_raw("g", raws[:2], expected=0)
    with pytest.raises(CorruptLog, match=message):
        store.append_raw("g", _forged(raws[2:], **change), expected=2)
    assert everything(store, "g") == raws[:2]


def test_an_import_after_a_stale_head_is_a_conflict(store: EventStore) -> None:
    source = MemoryStore()
    source.append("g", passes(4))
    raws = everything(source, "g")
    store.append_raw("g", raws[:2], expected=0)
    with pytest.raises(ConcurrencyConflict):
        store.append_raw("g", raws[2:], expected=1)
    assert everything(store, "g") == raws[:2]


# -- signatures ------------------------------------------------------------------------------------


def test_a_signed_append_stores_a_signature_over_the_head_it_ends_in(store: EventStore) -> None:
    signer = Signer.generate()
    first = store.append("g", passes(3), signer=signer)
    store.append("g", passes(2), expected=3)  # unsigned
    last = store.append("g", passes(4), expected=5, signer=signer, end=True)
    signatures = store.signatures("g")
    assert [(s.game, s.seq, s.head, s.end) for s in signatures] == [
        ("g", 3, first[-1].hash, False), ("g", 9, last[-1].hash, True),
    ]
    assert all(s.key == signer.key and signer.public().verifies(s) for s in signatures)
    assert store.signatures("other") == []


@pytest.mark.parametrize("kind", sorted(set(STORES) - {"memory"}))
def test_signatures_belong_to_their_game_and_survive_opening_the_store_again(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    signer = Signer.generate()
    with STORES[kind](request, tmp_path) as store:
        store.append("a", passes(2), signer=signer)
        store.append("b", passes(3), signer=signer, end=True)
        a, b = store.signatures("a"), store.signatures("b")
    assert [s.seq for s in a] == [2] and [s.seq for s in b] == [3]
    with STORES[kind](request, tmp_path) as again:
        assert again.signatures("a") == a and again.signatures("b") == b


def test_a_conflicting_signed_append_stores_neither_records_nor_signature(store: EventStore) -> None:
    signer = Signer.generate()
    store.append("g", passes(2), signer=signer)
    with pytest.raises(ConcurrencyConflict):
        store.append("g", passes(2), expected=1, signer=signer)
    assert [s.seq for s in store.signatures("g")] == [2]
    assert store.head("g") == 2


def test_an_import_keeps_the_signatures_over_its_heads(store: EventStore) -> None:
    signer, source = Signer.generate(), MemoryStore()
    source.append("g", passes(3), signer=signer)
    source.append("g", passes(3), signer=signer, end=True)
    raws, signatures = everything(source, "g"), source.signatures("g")
    store.append_raw("g", raws, expected=0, signatures=signatures)
    assert store.signatures("g") == signatures


def test_an_import_whose_signature_names_another_head_is_refused_whole(store: EventStore) -> None:
    signer, source = Signer.generate(), MemoryStore()
    source.append("g", passes(3), signer=signer)
    raws, (signature,) = everything(source, "g"), source.signatures("g")
    for wrong in (msgspec.structs.replace(signature, head=bytes(16)), msgspec.structs.replace(signature, seq=9),
                  msgspec.structs.replace(signature, game="other")):
        with pytest.raises(CorruptLog, match="signature names a head"):
            store.append_raw("g", raws, expected=0, signatures=[wrong])
        assert store.head("g") == 0 and store.signatures("g") == []


# -- snapshots -------------------------------------------------------------------------------------


def test_snapshots_load_the_newest_at_or_below(store: EventStore) -> None:
    store.append("g", passes(30))
    for seq in (20, 5, 10):
        store.save_snapshot("g", seq, f"state@{seq}".encode())
    assert store.load_snapshot("g", 4) is None
    assert store.load_snapshot("g", 5) == (5, b"state@5")
    assert store.load_snapshot("g", 9) == (5, b"state@5")
    assert store.load_snapshot("g", 10) == (10, b"state@10")
    assert store.load_snapshot("g", 19) == (10, b"state@10")
    assert store.load_snapshot("g", 30) == (20, b"state@20")
    assert store.load_snapshot("g", 10**9) == (20, b"state@20")


def test_saving_a_snapshot_again_replaces_it(store: EventStore) -> None:
    store.append("g", passes(10))
    store.save_snapshot("g", 7, b"old")
    store.save_snapshot("g", 7, b"new")
    assert store.load_snapshot("g", 8) == (7, b"new")


def test_snapshots_belong_to_their_game(store: EventStore) -> None:
    store.append("a", passes(10))
    store.append("b", passes(10))
    store.save_snapshot("a", 5, b"a5")
    assert store.load_snapshot("b", 10) is None
    assert store.load_snapshot("a", 10) == (5, b"a5")


def test_read_bodies_starting_gives_the_records_of_one_kind(store: EventStore) -> None:
    """``read_bodies_starting`` with a kind's msgpack header and tag yields exactly ``read_bodies``' rows of that
    kind, in order, within the range asked (the debugger's counter index reads a long game so)."""
    stats = [ev.PlayerStat(i % 2, "life", 20 - i) for i in range(6)]
    store.append("g", [e for i, s in enumerate(stats) for e in batch(ev.PriorityPassed(i % 2), s)], expected=0)
    prefix = ev.encode(stats[0])[:2]
    want = [row for row in store.read_bodies("g", 3, 10) if isinstance(ev.decode(row[3]), ev.PlayerStat)]
    assert [row[0] for row in want] == [4, 6, 8, 10]
    assert list(store.read_bodies_starting("g", prefix, 3, 10)) == want
    assert list(store.read_bodies_starting("nope", prefix)) == []
