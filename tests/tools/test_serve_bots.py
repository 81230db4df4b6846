"""``kifu bots``: the matches are spread over the servers given (``--server A --server B``) — each created and joined
on its own server, its seats starting on two different ones — rather than all through the first; a create, a join
or a seat's connection that fails transiently is tried again, bounded in count and time, and a permanent
refusal is reported at once."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from typing import Any

import httpx
import pytest
import websockets

from tools.serve import bots
from tools.serve.bots import Played


def test_matches_are_created_on_every_server_and_their_seats_start_on_two(monkeypatch: pytest.MonkeyPatch) -> None:
    orders: list[list[str]] = []

    async def plays(client: Any, servers: list[str], game: str, seed: int, result: Played,
                    setting_up: Any = None) -> Played:
        orders.append(servers)
        result.server, result.finished = servers[0], True
        return result

    monkeypatch.setattr(bots, "play_match", plays)
    servers = ["http://a", "http://b", "http://c"]
    results = asyncio.run(bots.run(servers, "shadowverse", 7, 3, 1))
    assert Counter(r.server for r in results) == {"http://a": 3, "http://b": 2, "http://c": 2}
    for order in orders:
        assert sorted(order) == servers and order[0] != order[1 % len(order)]  # seat 1 starts on another
    assert bots.spread(["http://a", "http://b"], 1) == ["http://b", "http://a"]


def scripted(answers: list[Any], asked: list[str]) -> httpx.AsyncClient:
    """A client whose server answers each request with the next of ``answers``: a status, or an exception."""

    def reply(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return httpx.Response(answer, json={"credential": "c"} if answer == 200 else {"error": f"answered {answer}"})

    return httpx.AsyncClient(transport=httpx.MockTransport(reply))


@pytest.fixture
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(asyncio, "sleep", pause)
    return pauses


def test_a_join_that_fails_transiently_is_sent_again_after_growing_pauses(no_pauses: list[float]) -> None:
    asked: list[str] = []
    answers: list[Any] = [httpx.ConnectError("refused"), httpx.ReadError("reset"), 503, 502, 200]
    got = asyncio.run(bots.call(scripted(answers, asked), "http://a/api/matches/m-x/seats/0", {"nonce": "00"}))
    assert got == {"credential": "c"} and len(asked) == 5
    assert no_pauses == [0.2, 0.4, 0.8, 1.6]


def test_a_permanent_refusal_is_reported_at_once(no_pauses: list[float]) -> None:
    asked: list[str] = []
    with pytest.raises(bots.Refusal, match="404"):
        asyncio.run(bots.call(scripted([404], asked), "http://a/api/matches/m-x/seats/0", {"nonce": "00"}))
    assert len(asked) == 1 and no_pauses == []


def test_retries_are_bounded_in_count(no_pauses: list[float]) -> None:
    asked: list[str] = []
    with pytest.raises(bots.Refusal, match=rf"503 .*\({bots.CALL_TRIES} attempts"):
        asyncio.run(bots.call(scripted([503] * 20, asked), "http://a/api/matches", {}))
    assert len(asked) == bots.CALL_TRIES and max(no_pauses) == bots.MOST_PAUSE


def test_retries_are_bounded_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    backoff = bots.Backoff(tries=1000, seconds=5.0)
    pauses = []
    while (pause := backoff.pause()) is not None:
        pauses.append(pause)
        clock[0] += pause
    assert sum(pauses) < 5.0 + bots.MOST_PAUSE and backoff.failed < 10


def test_a_seat_refused_at_the_handshake_stops_at_once_and_a_dropped_one_reconnects(
        no_pauses: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4xx at the WebSocket handshake, or a close for a bad message, is final; a refused connection or a 503
    (a worker restarting) is tried again, within the bound."""
    failures: list[Exception] = []

    def connect(url: str, **_: Any) -> Any:
        raise failures.pop(0)

    monkeypatch.setattr(websockets, "connect", connect)

    def seat(*fails: Exception) -> Played:
        failures[:] = list(fails)
        played = Played("m-x")
        asyncio.run(bots._seat(["http://a"], "m-x", 0, "c", random.Random(0), played))
        return played

    def status(code: int) -> Exception:
        return websockets.InvalidStatus(websockets.http11.Response(code, "", websockets.datastructures.Headers()))

    refused = seat(status(404))
    assert "refused by http://a" in refused.error and refused.reconnects == 0
    closed = seat(websockets.ConnectionClosedError(websockets.frames.Close(1008, "bad"), None))
    assert "refused" in closed.error and closed.reconnects == 0 and closed.closes == [1008]
    gave_up = seat(*[ConnectionRefusedError("down")] * 3, *[status(503)] * (bots.RECONNECT_TRIES - 3))
    assert gave_up.reconnects == bots.RECONNECT_TRIES - 1 and "could not reconnect" in gave_up.error
