"""Group commit: appends of many games waiting together go into one transaction, each acknowledged only after
the commit that holds it, each refused alone when it conflicts. (The store contract suite runs the group-commit
store through every other store test; tests/eventsource/test_crash.py kills it mid-group.)"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict
from eventsource.groupcommit import GroupCommitSQLiteStore, StoreClosed
from eventsource.integrity import Verified, verify
from eventsource.records import NewEvent


def decision(n: int, size: int = 3) -> list[NewEvent]:
    return [NewEvent(ev.PriorityPassed(i % 2), n, 0) for i in range(size)]


def held_writes(path: Path) -> sqlite3.Connection:
    """Another connection holding SQLite's write lock: the writer waits, so appends pile up behind it."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    return blocker


def counting(store: GroupCommitSQLiteStore) -> list[str]:
    """The games of the appends handed on to the writer, as they are handed (the store's ``_write``, watched)."""
    handed: list[str] = []
    write = store._write

    def counted(game: str, *rest: Any) -> None:
        handed.append(game)
        write(game, *rest)

    store._write = counted  # type: ignore[method-assign,assignment]
    return handed


def wait_until(check: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_appends_waiting_together_share_one_commit_and_each_returns_after_it(tmp_path: Path) -> None:
    path = tmp_path / "kifu.db"
    with GroupCommitSQLiteStore(path, timeout=300) as store:
        store.append("warm", decision(0))  # the writer's connection exists before the lock is taken
        names = [f"g{i}" for i in range(12)]
        ready, go = threading.Barrier(len(names) + 1), threading.Event()
        done: list[str] = []

        def play(game: str) -> None:
            store.head(game)  # this thread's connection is open and has read before the lock is taken
            ready.wait()
            go.wait()
            store.append(game, decision(1))
            done.append(game)

        handed = counting(store)
        threads = [threading.Thread(target=play, args=(g,)) for g in names]
        for t in threads:
            t.start()
        ready.wait()
        groups = store.groups
        blocker = held_writes(path)
        go.set()
        wait_until(lambda: len(handed) == len(names))  # all twelve wait; the writer waits for the lock
        time.sleep(0.1)
        assert done == []  # nothing is acknowledged before its commit
        blocker.execute("COMMIT")
        blocker.close()
        for t in threads:
            t.join(60)
        assert sorted(done) == sorted(names)
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
        handed = counting(store)
        first = threading.Thread(target=attempt, args=("c", 0))
        first.start()
        wait_until(lambda: len(handed) == 1)
        time.sleep(0.05)
        wait_until(lambda: store._queue.qsize() == 0)  # the writer took it, and waits for the lock
        threads = []
        for n, args in enumerate((("a", 3), ("b", 3), ("a", 3)), start=2):
            threads.append(threading.Thread(target=attempt, args=args))
            threads[-1].start()
            wait_until(lambda n=n: len(handed) == n)
        time.sleep(0.05)
        groups = store.groups
        blocker.execute("COMMIT")
        blocker.close()
        for t in (first, *threads):
            t.join(30)
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
            t.join(60)
        for i in range(16):
            records = list(store.read_raw(f"g{i}"))
            assert [r.decision for r in records][-1] == 20
            assert isinstance(verify(records), Verified)
        assert store.groups < 16 * 20  # some commits held more than one append
