"""Every HTTP request body kifu serve reads is bounded: a body announced or sent larger than ``MAX_BODY`` is
answered 413 before any route reads it, and nothing of it is kept; the server answers the next request."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from tools.serve.bounds import MAX_BODY, BoundedBodies

READ: list[int] = []


async def echo(request: Request) -> JSONResponse:
    body = await request.body()
    READ.append(len(body))
    return JSONResponse({"bytes": len(body)})


def client() -> TestClient:
    return TestClient(BoundedBodies(Starlette(routes=[Route("/", echo, methods=["POST"])])))


def test_a_body_within_the_bound_reaches_the_route() -> None:
    READ.clear()
    answer = client().post("/", content=b"x" * MAX_BODY)
    assert answer.status_code == 200 and answer.json() == {"bytes": MAX_BODY}
    assert READ == [MAX_BODY]


def test_a_body_announced_too_large_is_refused_unread() -> None:
    READ.clear()
    answer = client().post("/", content=b"x" * (MAX_BODY + 1))
    assert answer.status_code == 413 and str(MAX_BODY) in answer.json()["error"]
    assert READ == []


def test_a_chunked_body_is_cut_off_at_the_bound() -> None:
    READ.clear()

    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024

    with client() as c:
        answer = c.post("/", content=chunks())  # (no Content-Length: sent in chunks)
        assert answer.status_code == 413
        assert READ == []
        assert c.post("/", content=b"{}").status_code == 200


def test_a_length_that_is_not_a_number_is_refused() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not be called")

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "headers": [(b"content-length", b"-1")]}
    asyncio.run(BoundedBodies(app)(scope, receive, send))
    assert sent[0]["status"] == 413
