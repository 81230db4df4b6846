"""Group commit: appends of many games waiting together go into one transaction, each acknowledged only after
the commit that holds it, each refused alone when it conflicts. (The store contract suite runs the group-commit
store through every other store test; tests/eventsource/test_crash.py kills it mid-group.)"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict
from eventsource.groupcommit import GroupCommitSQLiteStore, StoreClosed
from eventsource.integrity import Verified, verify
from eventsource.records import NewEvent
from eventsource.sqlite import writer_lock


def decision(n: int, size: int = 3) -> list[NewEvent]:
    return [NewEvent(ev.PriorityPassed(i % 2), n, 0) for i in range(size)]


def held_writes(path: Path) -> sqlite3.Connection:
    """Another connection holding SQLite's write lock: the writer waits, so appends pile up behind it."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    return blocker


class Watched:
    """The store's queue to its writer, watched: the appends queued, and the groups the writer took (it waits
    for SQLite's write lock inside ``_commit``), each announced on one condition the test waits on."""

    def __init__(self, store: GroupCommitSQLiteStore) -> None:
        self.queue, self.changed = store._queue, threading.Condition()
        self.queued = 0
        self.taken: list[int] = []  # the size of each group the writer began to commit
        commit = store._commit

        def taking(group: list[Any]) -> None:
            self._note(lambda: self.taken.append(len(group)))
            commit(group)

        store._commit = taking  # type: ignore[method-assign]
        store._queue = self  # type: ignore[assignment]

    def _note(self, change: Callable[[], object]) -> None:
        with self.changed:
            change()
            self.changed.notify_all()

    def wait_for(self, check: Callable[[], bool]) -> None:
        with self.changed:
            self.changed.wait_for(check)

    def wait_queued(self, n: int) -> None:
        self.wait_for(lambda: self.queued == n)

    # what the writer and the appending threads use: the store's own queue, each put announced
    def put(self, item: Any) -> None:
        self.queue.put(item)
        self._note(lambda: setattr(self, "queued", self.queued + 1))

    def get(self) -> Any:
        return self.queue.get()

    def get_nowait(self) -> Any:
        return self.queue.get_nowait()


def test_appends_waiting_together_share_one_commit_and_each_returns_after_it(tmp_path: Path) -> None:
    path = tmp_path / "kifu.db"
    with GroupCommitSQLiteStore(path, timeout=300) as store:
        store.append("warm", decision(0))  # the writer's connection exists before the lock is taken
        names = [f"g{i}" for i in range(12)]
        ready, go = threading.Barrier(len(names) + 1), threading.Event()
        done: list[tuple[str, int]] = []  # each game, and how many commits there were when its append returned

        def play(game: str) -> None:
            store.head(game)  # this thread's connection is open and has read before the lock is taken
            ready.wait()
            go.wait()
            store.append(game, decision(1))
            done.append((game, store.groups))

        watched = Watched(store)
        threads = [threading.Thread(target=play, args=(g,)) for g in names]
        for t in threads:
            t.start()
        ready.wait()
        groups = store.groups
        blocker = held_writes(path)
        go.set()
        # all twelve are queued, and the writer has taken the first of them and waits for the lock
        watched.wait_for(lambda: watched.queued == len(names) and len(watched.taken) == 1)
        assert done == []  # nothing is acknowledged before its commit
        blocker.execute("COMMIT")
        blocker.close()
        for t in threads:
            t.join()
        assert sorted(g for g, _ in done) == sorted(names)
        assert all(commits > groups for _, commits in done), "each append returned after the commit holding it"
        # what the writer had taken when it began waiting, then everything that queued up behind it
        assert 1 <= store.groups - groups <= 2
        for g in names:
            assert isinstance(verify(list(store.read_raw(g))), Verified)


def test_a_conflict_in_a_group_refuses_that_append_alone(tmp_path: Path) -> None:
    path = tmp_path / "kifu.db"
    with GroupCommitSQLiteStore(path, timeout=300) as store:
        store.append("a", decision(1))
        store.append("b", decision(1))
        blocker = held_writes(path)
        errors: dict[str, BaseException] = {}

        def attempt(game: str, expected: int) -> None:
            try:
                store.append(game, decision(2), expected=expected)
            except ConcurrencyConflict as exc:
                errors[game] = exc

        # The writer takes a first append and waits for the lock; the next three then form one group, in which
        # "a" is appended twice after record 3: the second must lose alone, and "b" is unaffected.
        watched = Watched(store)
        first = threading.Thread(target=attempt, args=("c", 0))
        first.start()
        watched.wait_for(lambda: watched.taken == [1])  # the writer took it, and waits for the lock
        threads = []
        for n, args in enumerate((("a", 3), ("b", 3), ("a", 3)), start=2):
            threads.append(threading.Thread(target=attempt, args=args))
            threads[-1].start()
            watched.wait_queued(n)  # queued in this order
        groups = store.groups
        blocker.execute("COMMIT")
        blocker.close()
        for t in (first, *threads):
            t.join()
        assert watched.taken == [1, 3]
        assert store.groups - groups == 2  # the first append alone, then the three together
        assert list(errors) == ["a"] and isinstance(errors["a"], ConcurrencyConflict)
        assert store.head("a") == 6 and store.head("b") == 6
        for game in ("a", "b"):
            assert isinstance(verify(list(store.read_raw(game))), Verified)


def test_a_closed_store_refuses_appends(tmp_path: Path) -> None:
    store = GroupCommitSQLiteStore(tmp_path / "kifu.db")
    store.append("g", decision(1))
    store.close()
    with pytest.raises(StoreClosed):
        store.append("g", decision(2))


def test_many_threads_many_games_every_acknowledged_decision_is_there(tmp_path: Path) -> None:
    with GroupCommitSQLiteStore(tmp_path / "kifu.db") as store:
        def play(game: str) -> None:
            for n in range(1, 21):
                store.append(game, decision(n, 2 + n % 3))

        threads = [threading.Thread(target=play, args=(f"g{i}",)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i in range(16):
            records = list(store.read_raw(f"g{i}"))
            assert [r.decision for r in records][-1] == 20
            assert isinstance(verify(records), Verified)
        assert store.groups < 16 * 20  # some commits held more than one append


def test_the_writer_takes_the_files_turn_with_the_other_writers_of_this_process(tmp_path: Path) -> None:
    """A server's lobby writes the same file through a connection of its own, on this process's lock per file
    (``writer_lock``): the group's writer takes that turn too, so neither sleeps in SQLite's busy handler behind
    the other, and an append held behind the lock returns only once the lock is let go and its group committed."""
    path = tmp_path / "kifu.db"
    with GroupCommitSQLiteStore(path) as store:
        turn = writer_lock(str(path))
        returned = threading.Event()
        with turn:  # (another writer of this process is writing)
            appending = threading.Thread(target=lambda: (store.append("g", decision(1), 0), returned.set()))
            appending.start()
            assert not returned.wait(0.3)
            assert store.head("g") == 0
        assert returned.wait(10)
        appending.join()
        assert store.head("g") == 3 and store.groups == 1


def test_the_next_append_is_sealed_after_the_head_this_store_committed_without_reading_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An append that expects the head this store committed last is sealed after that head's hash, known from the
    commit, with no read of the file; another writer's append in between is still caught inside the writer's
    transaction (the head it expects is no longer the file's), and nothing of the refused append is stored."""
    path = tmp_path / "kifu.db"
    with GroupCommitSQLiteStore(path) as store:
        store.append("a", decision(1), expected=0)
        reads: list[str] = []
        head = type(store)._head
        monkeypatch.setattr(type(store), "_head", lambda self, game: reads.append(game) or head(self, game))
        store.append("a", decision(2), expected=3)
        assert reads == [] and store.head("a") == 6  # (the check reads it: the append did not)
        other = GroupCommitSQLiteStore(path)  # another writer of the file
        other.append("a", decision(3), expected=6)
        reads.clear()  # (the other store read it: it had appended nothing yet)
        with pytest.raises(ConcurrencyConflict):
            store.append("a", decision(4), expected=6)  # sealed after record 6's hash: refused by the writer
        assert reads == [] and store.head("a") == 9
        assert [r.seq for r in store.read("a")] == list(range(1, 10))
        assert isinstance(verify(list(store.read_raw("a"))), Verified)
        reads.clear()  # (the checks above read it)
        store.append("a", decision(4), expected=9)  # (after a refusal the head is read again, and it appends)
        assert reads == ["a"] and store.head("a") == 12
        other.close()
