"""A bound on the size of every HTTP request body, before any route reads it.

uvicorn bounds WebSocket messages (``ws_max_size``) and headers, not bodies: without this a client could make a
worker buffer a body of any size. A body announced larger than ``MAX_BODY`` is answered 413 at once; a body sent
in chunks without a length is cut off the moment it passes the bound (the app hears the client leave, and
whatever it answers is dropped) and answered 413 too.
"""

from __future__ import annotations

import json
import re
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY: Final = 64 * 1024  # bytes: a match's spec (two decks of card ids) is a few KB


class BoundedBodies:
    """ASGI middleware: HTTP request bodies of at most ``limit`` bytes reach the app; larger ones get 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = dict(scope["headers"]).get(b"content-length")
        if announced is not None and (not re.fullmatch(rb"[0-9]+", announced) or int(announced) > self.limit):
            await _too_large(send, self.limit)
            return
        seen = 0
        over = False

        async def bounded_receive() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # (the app is told the client went away; what it answers is dropped)
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def muted_when_over(message: Message) -> None:
            if not over:
                await send(message)

        try:
            await self.app(scope, bounded_receive, muted_when_over)
        except Exception:
            if not over:
                raise
        if over:
            await _too_large(send, self.limit)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": f"a request body is at most {limit} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
