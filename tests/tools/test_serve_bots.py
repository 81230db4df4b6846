"""``kifu bots --server A --server B``: the matches are spread over the servers — each created and joined on its
own server, its seats starting on two different ones — rather than all through the first."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from tools.serve import bots
from tools.serve.bots import Played


def test_matches_are_created_on_every_server_and_their_seats_start_on_two(monkeypatch: pytest.MonkeyPatch) -> None:
    orders: list[list[str]] = []

    async def plays(client: Any, servers: list[str], game: str, seed: int, result: Played) -> Played:
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
