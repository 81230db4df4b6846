"""What the live surfaces (``kifu debug``, ``kifu serve``) share: the one thread their store work runs on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fastapi.responses import StreamingResponse

from tools.errors import BAD_INPUT_ERRORS, describe

T = TypeVar("T")


class Worker:
    """The one thread every question to the session runs on, one at a time: a store's connection belongs to the
    thread that opened it, and the session's reader caches are not shared between threads. A streamed answer is
    produced there item by item, so progress reaches the page while a search folds."""

    def __init__(self, name: str = "kifu") -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def streamed(self, produce: Callable[[], Iterator[dict[str, Any]]]) -> StreamingResponse:
        """An NDJSON answer, a line per item ``produce`` yields (progress while a search folds, then its
        answer); an error met on the way is the last line, ``{"error": ...}``."""

        async def body() -> AsyncIterator[bytes]:
            items = await self.call(produce)
            while True:
                try:
                    item = await self.call(next, items, None)
                except BAD_INPUT_ERRORS as exc:
                    yield _line({"error": describe(exc)})
                    return
                if item is None:
                    return
                yield _line(item)

        return StreamingResponse(body(), media_type="application/x-ndjson")


def _line(item: dict[str, Any]) -> bytes:
    return (json.dumps(item, ensure_ascii=False) + "\n").encode()
