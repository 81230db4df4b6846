"""A match thread: one thread that runs the calls the event loop hands it, one at a time, in the order made.

Every decision, and every watcher's update after it, is a hop from the event loop to its match's thread and back.
Through ``run_in_executor`` a hop made a ``concurrent.futures.Future`` (with a lock and a condition of its own)
and chained it to an asyncio future: about 170 µs of the event loop's time a hop with 64 matches in flight, where
a queue the thread reads and ``call_soon_threadsafe`` to hand the result back take about 40 µs — several hops a
decision, on the one thread that also carries every connection's traffic.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_Call = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class MatchThread:
    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on this thread, after every call made before it; its result or its error."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._calls.put((fn, args, done, loop))
        return await done

    def stop(self) -> None:
        """End the thread once the calls made before are done."""
        self._calls.put(None)
        self._thread.join()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            fn, args, done, loop = call
            if done.cancelled():  # (its caller stopped waiting: a watcher gone; a read of a flag the loop sets once)
                continue
            try:
                result, ok = fn(*args), True
            except BaseException as exc:  # (handed to the caller, as an executor does)
                result, ok = exc, False
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile: nobody is waiting)
                loop.call_soon_threadsafe(_settle, done, ok, result)


def _settle(done: asyncio.Future[Any], ok: bool, result: Any) -> None:
    if not done.done():
        if ok:
            done.set_result(result)
        else:
            done.set_exception(result)
