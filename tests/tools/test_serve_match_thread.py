"""A worker's match thread (``tools.serve.threads``): the calls the event loop hands it run on that one thread, one
at a time, in the order made; each caller gets its result or its error; a call whose caller stopped waiting
before its turn is not run."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tools.serve.threads import MatchThread

WAIT = 5.0  # seconds any step may take at most before it counts as stuck


def test_calls_run_on_the_one_thread_in_the_order_made() -> None:
    thread = MatchThread("kifu-match-test")
    ran: list[tuple[int, str]] = []

    def note(i: int) -> int:
        ran.append((i, threading.current_thread().name))
        return i * i

    async def main() -> list[int]:
        return list(await asyncio.gather(*(thread.call(note, i) for i in range(200))))

    try:
        assert asyncio.run(main()) == [i * i for i in range(200)]
    finally:
        thread.stop()
    assert [i for i, _ in ran] == list(range(200))
    assert {name for _, name in ran} == {"kifu-match-test"}


def test_a_call_hands_back_its_error_and_the_thread_serves_on() -> None:
    thread = MatchThread("t")

    def fails() -> None:
        raise ValueError("no such card")

    async def main() -> str:
        with pytest.raises(ValueError, match="no such card"):
            await thread.call(fails)
        return await thread.call(lambda a, b: a + b, "still ", "serving")

    try:
        assert asyncio.run(main()) == "still serving"
    finally:
        thread.stop()


def test_a_call_whose_caller_stopped_waiting_is_not_run() -> None:
    thread = MatchThread("t")
    ran: list[str] = []
    started, release = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        assert release.wait(WAIT)

    async def main() -> None:
        first = asyncio.ensure_future(thread.call(hold))
        await asyncio.to_thread(started.wait, WAIT)  # the thread is busy: what follows waits its turn
        gone = asyncio.ensure_future(thread.call(ran.append, "gone"))
        await asyncio.sleep(0)
        gone.cancel()
        release.set()
        await first
        await thread.call(ran.append, "after")

    try:
        asyncio.run(main())
    finally:
        thread.stop()
    assert ran == ["after"]
