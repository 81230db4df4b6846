"""``kifu bots --matches K --concurrency K``: a match begins to play once its own set-up (create, join both seats)
is done, not after every match's. Unbounded, the K creations queued before any join, and at K = 256 no decision
was acknowledged within a minute (bench/results/serve.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tools.serve import bots
from tools.serve.bots import Played


def test_a_match_plays_before_every_match_is_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    happened: list[tuple[str, int]] = []
    setting_up = 0
    most_at_once = 0

    async def set_up(client: Any, server: str, game: str, seed: int, result: Played) -> list[str]:
        nonlocal setting_up, most_at_once
        setting_up += 1
        most_at_once = max(most_at_once, setting_up)
        happened.append(("set up", seed))
        await asyncio.sleep(0.005)  # (the lobby's three calls)
        setting_up -= 1
        result.match, result.set_up = f"m-{seed}", True
        return ["cred0", "cred1"]

    async def seat(servers: list[str], match: str, seat: int, credential: str, rng: Any, result: Played) -> None:
        happened.append(("play", int(match[2:])))
        await asyncio.sleep(0.005)
        result.finished = True

    monkeypatch.setattr(bots, "set_up", set_up)
    monkeypatch.setattr(bots, "_seat", seat)
    k = 64
    results = asyncio.run(bots.run("http://a", "shadowverse", k, k, 0))
    assert all(r.finished and r.set_up for r in results)
    assert most_at_once == bots.SETTING_UP
    first_play = happened.index(("play", 0))
    last_set_up = happened.index(("set up", k - 1))
    assert first_play < last_set_up, "the first match waited for every match's set-up before it played"
