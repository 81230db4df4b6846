"""What only the PostgreSQL store promises, against a real server: the head re-checked under the game's row
lock, a failed write rolled back whole, read-only opening, and clear errors when the server is not there."""

from __future__ import annotations

import threading

import psycopg
import pytest

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict, CorruptLog, KifuError, StoreUnavailable
from eventsource.integrity import Verified, verify
from eventsource.postgres import PostgresStore, ReadOnlyStore
from eventsource.records import NewEvent, RawRecord, seal
from tests.pgserver import free_port


def passes(n: int, decision: int = 1) -> list[NewEvent]:
    return [NewEvent(ev.PriorityPassed(i % 2), decision) for i in range(n)]


def test_a_store_reopened_reads_what_was_written(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as store:
        written = store.append("g", passes(5))
        store.save_snapshot("g", 3, b"snap")
    with PostgresStore(postgres_url) as store:
        assert list(store.read_raw("g")) == written
        assert store.load_snapshot("g", 5) == (3, b"snap")


def test_two_connections_racing_with_the_same_expected_exactly_one_wins(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as setup:
        setup.append("g", passes(3))
    rounds = 20
    for n in range(rounds):
        expected = 3 + 4 * n
        barrier = threading.Barrier(2)
        outcome: dict[int, str] = {}

        def write(i: int, n: int = n, expected: int = expected, barrier: threading.Barrier = barrier,
                  outcome: dict[int, str] = outcome) -> None:
            with PostgresStore(postgres_url) as store:
                barrier.wait()
                try:
                    store.append("g", [NewEvent(ev.PriorityGiven(i), n + 2)] * 4, expected=expected)
                    outcome[i] = "won"
                except ConcurrencyConflict:
                    outcome[i] = "conflict"

        threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["conflict", "won"], outcome
    with PostgresStore(postgres_url) as store:
        records = list(store.read_raw("g"))
        assert len(records) == 3 + 4 * rounds
        assert isinstance(verify(records), Verified)
        for start in range(3, len(records), 4):
            assert len({r.body for r in records[start : start + 4]}) == 1


def test_the_head_is_checked_again_inside_the_transaction(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as a, PostgresStore(postgres_url) as b:
        a.append("g", passes(2))
        last, prev = a._head("g")
        sealed_by_a = seal("g", last + 1, prev, passes(2, decision=2))
        b.append("g", passes(1, decision=3), expected=2)
        with pytest.raises(ConcurrencyConflict, match="expected the log to end at sequence 2, but it ends at 3"):
            a._write("g", last, sealed_by_a)
        records = list(a.read_raw("g"))
        assert [r.decision for r in records] == [1, 1, 3]
        assert isinstance(verify(records), Verified)


def test_a_writer_waits_for_the_game_lock_and_then_sees_the_new_head(postgres_url: str) -> None:
    """A transaction holding the game's row lock makes a second writer wait; once it commits, the second
    writer re-reads the head under the lock and gets a conflict, never a duplicated sequence number."""
    with PostgresStore(postgres_url) as a, PostgresStore(postgres_url) as b:
        a.append("g", passes(2))
        sealed_by_b = seal("g", 3, a._head("g")[1], passes(1, decision=9))
        done: list[BaseException | None] = []
        with psycopg.connect(postgres_url) as holder:  # not autocommit: the lock is held until commit
            holder.execute("SELECT id FROM kifu_games WHERE name = 'g' FOR UPDATE")
            thread = threading.Thread(target=lambda: done.append(_try(b._write, "g", 2, sealed_by_b)))
            thread.start()
            thread.join(0.5)
            assert thread.is_alive(), "the second writer did not wait for the game's lock"
            # The holder appends through SQL in its own transaction, then commits.
            recs = seal("g", 3, a._head("g")[1], passes(1, decision=7))
            with holder.cursor() as cur:
                cur.executemany(
                    "INSERT INTO kifu_events SELECT id, %s, %s, %s, %s, %s, %s FROM kifu_games WHERE name = 'g'",
                    [(r.seq, r.decision, r.cause, r.v, r.body, r.hash) for r in recs],
                )
            holder.commit()
        thread.join(10)
        assert isinstance(done[0], ConcurrencyConflict)
        assert [r.decision for r in a.read_raw("g")] == [1, 1, 7]


def _try(fn: object, *args: object) -> BaseException | None:
    try:
        fn(*args)  # type: ignore[operator]
    except BaseException as exc:
        return exc
    return None


def test_a_failure_in_the_middle_of_a_write_rolls_back_the_whole_batch(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as store:
        store.append("g", passes(2))
        before = list(store.read_raw("g"))
        good = seal("g", 3, before[-1].hash, passes(3))
        broken = [*good[:2], RawRecord("g", 4, 1, 0, 1, good[2].body, good[2].hash)]
        with pytest.raises(psycopg.errors.UniqueViolation):
            store._write("g", 2, broken)
        assert list(store.read_raw("g")) == before
        assert store.append("g", passes(1))[0].seq == 3


def test_a_failed_first_write_does_not_leave_the_game_behind(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as store:
        good = seal("new", 1, bytes(16), passes(2))
        broken = [good[0], RawRecord("new", 1, 1, 0, 1, good[1].body, good[1].hash)]
        with pytest.raises(psycopg.errors.UniqueViolation):
            store._write("new", 0, broken)
        assert store.games() == []
        assert store.append("new", passes(2)) == good
    with PostgresStore(postgres_url) as store:
        assert [g.game for g in store.games()] == ["new"]


def test_reads_stream_page_by_page(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import eventsource.postgres as pg

    monkeypatch.setattr(pg, "PAGE", 7)
    with PostgresStore(postgres_url) as store:
        for _ in range(5):
            store.append("g", passes(6))
        assert [r.seq for r in store.read_raw("g")] == list(range(1, 31))
        assert [row[0] for row in store.read_bodies("g", 5, 22)] == list(range(5, 23))
        assert [r.seq for r in store.read_raw("g", 14, 14)] == [14]


def test_read_only_opening_reads_and_refuses_writes(postgres_url: str) -> None:
    with PostgresStore(postgres_url) as store:
        written = store.append("g", passes(3))
    with PostgresStore(postgres_url, read_only=True) as ro:
        assert list(ro.read_raw("g")) == written
        ro.save_snapshot("g", 2, b"ignored")
        assert ro.load_snapshot("g", 3) is None
        with pytest.raises(ReadOnlyStore, match="nothing was appended"):
            ro.append("g", passes(1))
        assert isinstance(ReadOnlyStore("x"), KifuError)
    with PostgresStore(postgres_url) as store:
        assert list(store.read_raw("g")) == written


def test_read_only_opening_of_a_database_without_kifu_tables_is_refused(postgres_url: str) -> None:
    with pytest.raises(CorruptLog, match="is not a kifu store"):
        PostgresStore(postgres_url, read_only=True)


def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://someone:s3cret@127.0.0.1:{free_port()}/kifu"
    with pytest.raises(StoreUnavailable, match="cannot connect to the PostgreSQL store") as caught:
        PostgresStore(url, connect_timeout=2)
    assert "s3cret" not in str(caught.value)
    assert isinstance(caught.value, KifuError)


def test_a_committed_append_is_notified_with_its_head_and_a_refused_one_is_not(postgres_url: str) -> None:
    """What the workers of ``kifu serve`` listen to: ``kifu_appended`` carries "HEAD GAME" once an append commits."""
    with psycopg.connect(postgres_url, autocommit=True) as listener, PostgresStore(postgres_url) as store:
        listener.execute("LISTEN kifu_appended")
        store.append("g one", passes(3))
        with pytest.raises(ConcurrencyConflict):
            store.append("g one", passes(1, decision=2), expected=1)
        store.append("h", passes(2))
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=2)]
        assert heard == ["3 g one", "2 h"]
        assert list(listener.notifies(timeout=0.3)) == []  # (nothing for the conflict)


class Counted:
    """A connection whose statements are counted (each ``execute`` is a round trip to the server)."""

    def __init__(self, db: psycopg.Connection[tuple[object, ...]]) -> None:
        self.db, self.statements = db, 0

    def execute(self, *args: object, **kwargs: object) -> object:
        self.statements += 1
        return self.db.execute(*args, **kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_an_append_after_the_head_this_store_appended_is_one_round_trip(postgres_url: str) -> None:
    """``kifu_append`` does the game's row, its lock, the head's check, the records, the signature, the receipt
    and the notification in one statement; the head it seals after is the one this store appended last."""
    with PostgresStore(postgres_url) as store:
        store.append("g", passes(3))
        counted = Counted(store._db)
        store._db = counted  # type: ignore[assignment]
        store.append("g", passes(4, decision=2), expected=3, receipt=b"0 {}")
        assert counted.statements == 1
        store._db = counted.db
        records = list(store.read_raw("g"))
        assert [r.seq for r in records] == list(range(1, 8)) and isinstance(verify(records), Verified)
        assert store.receipt("g", 3) == b"0 {}"


def test_a_head_another_store_moved_past_is_refused_and_nothing_is_appended(postgres_url: str) -> None:
    """The head ``a`` appended last is no longer the game's (``b`` appended since): sealed after it without asking,
    the append is refused by the check under the game's lock, naming the head, and leaves no record, receipt or
    signature; ``a`` then reads the head again and appends after it."""
    with PostgresStore(postgres_url) as a, PostgresStore(postgres_url) as b:
        a.append("g", passes(2))
        b.append("g", passes(1, decision=3), expected=2)
        with pytest.raises(ConcurrencyConflict, match="expected the log to end at sequence 2, but it ends at 3"):
            a.append("g", passes(2, decision=2), expected=2, receipt=b"0 stale")
        assert [r.decision for r in b.read_raw("g")] == [1, 1, 3]
        assert b.receipt("g", 2) is None and b.signatures("g") == []
        assert a.append("g", passes(1, decision=4), expected=3)[0].seq == 4
        assert isinstance(verify(list(b.read_raw("g"))), Verified)
