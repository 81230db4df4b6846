"""``kifu bots``: plays matches on a ``kifu serve`` through its public API, as any client would — creates each
match with the game's sample decks, joins both seats with nonces of its own, and answers every request with a
seeded random legal decision over WebSocket. The load generator and the example client in one.

Given several servers (workers on one PostgreSQL database, on one machine or several), the matches are spread
over them: match ``i`` is created and joined on server ``i`` (modulo their number), its seat ``s`` connects
first to server ``i + s`` (so the two seats of a match are served by different workers), and after a dropped
connection to the next one: a seat can reconnect to any worker and catch up there."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

import httpx
import websockets

from statemachine.games import PROFILES

MAX_DECISIONS: Final = 2_000  # a match still going after this many decisions is reported unfinished
RECEIVE_TIMEOUT: Final = 60.0  # seconds without a message before a seat gives up
# Retries, each bounded in count and in time, the pause between two attempts doubling from FIRST_PAUSE up to
# MOST_PAUSE. A create or join that failed transiently (the connection refused or reset, 502/503/504: a worker
# restarting, the store unavailable) is sent again up to CALL_TRIES times in all within CALL_FOR seconds; a seat
# whose connection dropped connects again up to RECONNECT_TRIES times within RECONNECT_FOR seconds of its last
# message (a worker killed mid-match is restarted by its supervisor: up to a minute on a loaded machine). A
# permanent refusal — any other status, 4xx above all, or a WebSocket closed for a bad message (1008, 1009) — is
# reported at once.
FIRST_PAUSE: Final = 0.2
MOST_PAUSE: Final = 2.0
CALL_TRIES: Final = 8
CALL_FOR: Final = 30.0
RECONNECT_TRIES: Final = 60
RECONNECT_FOR: Final = 60.0
TRANSIENT_STATUS: Final = frozenset({502, 503, 504})
PERMANENT_CLOSE: Final = frozenset({1008, 1009})  # the server refused what this client sent: no retry helps


class Backoff:
    """Bounded retries: ``pause()`` is how long to wait before the next attempt, or None once ``tries`` attempts
    were made or ``seconds`` have passed since the first failure."""

    def __init__(self, tries: int, seconds: float) -> None:
        self.tries, self.seconds = tries, seconds
        self.failed = 0
        self.since = 0.0

    def pause(self) -> float | None:
        now = time.monotonic()
        if not self.failed:
            self.since = now
        self.failed += 1
        if self.failed >= self.tries or now - self.since >= self.seconds:
            return None
        return min(MOST_PAUSE, FIRST_PAUSE * 2.0 ** (self.failed - 1))

    def reset(self) -> None:
        self.failed = 0


class Refusal(Exception):
    """The server answered a create or join with a permanent error (4xx, or a 5xx other than 'try again'); or a
    transient failure outlasted its retries."""


async def call(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to ``url``, sent again after a transient failure (bounded: CALL_TRIES, CALL_FOR); its JSON
    answer. A create sent again after its answer was lost makes a second match (the first is left unplayed); a
    join sent again with the same nonce gets a new credential (the server allows it until the game ends)."""
    backoff = Backoff(CALL_TRIES, CALL_FOR)
    while True:
        try:
            got = await client.post(url, json=body)
        except httpx.TransportError as exc:  # (refused, reset, timed out: the request may not have arrived)
            failure = f"{type(exc).__name__}: {exc}"
        else:
            if got.status_code < 300:
                return dict(got.json())
            failure = f"{got.status_code} {got.text[:200]}"
            if got.status_code not in TRANSIENT_STATUS:
                raise Refusal(f"POST {url}: {failure}")
        pause = backoff.pause()
        if pause is None:
            spent = time.monotonic() - backoff.since
            raise Refusal(f"POST {url}: {failure} ({backoff.failed} attempts in {spent:.0f} s)")
        await asyncio.sleep(pause)
# Matches being created and joined at once, per server. Unbounded, K matches' creations all queue before any
# match's joins (the server's lobby answers one call at a time, in order), so at K = 256 no match began to play
# within a minute; bounded, a match plays as soon as its own set-up is done.
SETTING_UP: Final = 4


@dataclass
class Played:
    match: str
    finished: bool = False
    winner: int | None = None
    decisions: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds from a decision's send to its ack
    boards: list[float] = field(default_factory=list)  # seconds from a decision's send to the board after it
    acknowledged: list[tuple[int, int, str, list[Any]]] = field(default_factory=list)  # seat, head, action, args
    reconnects: int = 0
    closes: list[int] = field(default_factory=list)  # the close codes the server's connections ended with
    error: str = ""
    server: str = ""  # the server the match was created on
    set_up: bool = False  # created and both seats joined
    first_ack: float = 0.0  # when its first decision was acknowledged (time.perf_counter; 0: none was)


def ws_url(server: str) -> str:
    return "ws" + server[4:] if server.startswith("http") else server


async def play_match(client: httpx.AsyncClient, servers: list[str], game: str, seed: int,
                     result: Played | None = None, setting_up: asyncio.Semaphore | None = None) -> Played:
    """One match from its creation to its end, created on ``servers[0]``; what was played is in ``result``
    (given: also when cut short). Its creation and joins take a turn of ``setting_up`` (given)."""
    result = result or Played("")
    async with setting_up or contextlib.nullcontext():
        creds = await set_up(client, servers[0], game, seed, result)
    rng = random.Random(seed)
    await asyncio.gather(*(_seat(servers, result.match, seat, creds[seat], rng, result) for seat in (0, 1)))
    return result


async def set_up(client: httpx.AsyncClient, server: str, game: str, seed: int, result: Played) -> list[str]:
    """Creates the match on ``server`` with the game's sample decks and joins both seats: their credentials."""
    result.server = server
    module = PROFILES[game][0]
    _, players, decks = importlib.import_module(f"{module}.demo").sample_game(seed)
    created = await call(client, f"{server}/api/matches",
                         {"game": game, "players": list(players), "decks": [list(d) for d in decks]})
    match = result.match = created["match"]
    creds = []
    for seat in (0, 1):
        joined = await call(client, f"{server}/api/matches/{match}/seats/{seat}", {"nonce": secrets.token_hex(32)})
        creds.append(joined["credential"])
    result.set_up = True
    return creds


def answer(state: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], tuple[str, list[Any]]]:
    """A random answer to a ``state`` that asks this seat: one of its legal decisions, or (when a request is
    answered with several options at once) a random pick within its count and weight."""
    pick, legal = state.get("pick"), state["legal"]
    if pick and (not legal or rng.random() < 0.5):
        picked = random_pick(pick, rng)
        return {"head": state["head"], "pick": picked}, (pick["action"], [pick["options"][i]["arg"] for i in picked])
    one = legal[rng.randrange(len(legal))]
    return {"head": state["head"], "choice": one["index"]}, (one["action"], one["args"])


def random_pick(pick: dict[str, Any], rng: random.Random) -> list[int]:
    """Between ``minimum`` and ``maximum`` distinct options, their weights within ``max_total`` when it is set."""
    order = [o["index"] for o in pick["options"]]
    rng.shuffle(order)
    want = rng.randint(pick["minimum"], min(pick["maximum"], len(order)))
    weights, cap = pick.get("weights") or [0] * len(order), pick.get("max_total")
    chosen: list[int] = []
    total = 0
    for i in order:
        if len(chosen) == want:
            break
        if cap is None or total + weights[i] <= cap:
            chosen.append(i)
            total += weights[i]
    return sorted(chosen)


async def _seat(servers: list[str], match: str, seat: int, credential: str, rng: random.Random,
                result: Played) -> None:
    """One seat's client: answers every request it is sent; when the connection drops (the server restarted,
    the network failed) it connects again, asks for the records after the last board it saw (``since``) and
    sends again the decision that was not acknowledged — the server applies a retry once."""
    seen = 0  # the head of the last board received: every record up to it has been received
    pending: dict[str, Any] | None = None  # the submission sent and not yet answered
    choice: tuple[str, list[Any]] = ("", [])  # what it chose, by name (to report what was acknowledged)
    sent_at = 0.0
    awaited = -1  # the head of the last decision sent whose board (a head past it) has not come yet
    backoff = Backoff(RECONNECT_TRIES, RECONNECT_FOR)  # (reset by every message received)
    attempt = seat
    while result.decisions < MAX_DECISIONS and not result.error:
        server = servers[attempt % len(servers)]
        attempt += 1
        try:
            async with websockets.connect(f"{ws_url(server)}/ws/matches/{match}", max_size=8 << 20) as ws:
                await ws.send(json.dumps({"credential": credential, "since": seen}))
                if pending is not None:
                    await ws.send(json.dumps({"decide": pending}))
                while result.decisions < MAX_DECISIONS and not result.error:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT))
                    except TimeoutError:
                        result.error = f"seat {seat}: no message for {RECEIVE_TIMEOUT:.0f} s"
                        return
                    backoff.reset()
                    kind = message.get("type")
                    if kind == "state":
                        seen = max(seen, message["head"])
                        if 0 <= awaited < seen:  # (the board may come before the ack: both are sent once appended)
                            result.boards.append(time.perf_counter() - sent_at)
                            awaited = -1
                        if message["ended"]:
                            result.finished, result.winner = True, message["winner"]
                            return
                        if (message["legal"] or message.get("pick")) and pending is None:
                            pending, choice = answer(message, rng)
                            sent_at, awaited = time.perf_counter(), message["head"]
                            await ws.send(json.dumps({"decide": pending}))
                    elif kind == "ack" and pending is not None:
                        result.decisions += 1
                        result.latencies.append(time.perf_counter() - sent_at)
                        result.first_ack = result.first_ack or time.perf_counter()
                        result.acknowledged.append((seat, pending["head"], *choice))
                        pending = None
                    elif kind in ("refused", "stale"):
                        result.refused += 1
                        pending, awaited = None, -1
                        await ws.send(json.dumps({"sync": True}))
                    elif kind == "error":
                        result.error = f"seat {seat}: {message.get('message')}"
                        return
        except (OSError, websockets.WebSocketException) as exc:
            if isinstance(exc, websockets.ConnectionClosed) and exc.rcvd is not None:
                result.closes.append(exc.rcvd.code)
            if permanent(exc):
                result.error = f"seat {seat}: refused by {server} ({exc})"
                return
            pause = backoff.pause()
            if pause is None:
                result.error = (f"seat {seat}: could not reconnect in {backoff.failed} attempts within "
                                f"{RECONNECT_FOR:.0f} s ({exc})")
                return
            result.reconnects += 1
            await asyncio.sleep(pause)


def permanent(exc: Exception) -> bool:
    """A connection the server refused for what this client is or sent (a 4xx at the handshake: no such match;
    closed for a bad message): connecting again would only be refused again."""
    if isinstance(exc, websockets.InvalidStatus):
        return 400 <= exc.response.status_code < 500
    return isinstance(exc, websockets.ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code in PERMANENT_CLOSE


def spread(servers: list[str], i: int) -> list[str]:
    """The servers in the order match ``i`` uses them: its own first, then the next ones round."""
    first = i % len(servers)
    return servers[first:] + servers[:first]


async def run(server: str | list[str], game: str, matches: int, concurrency: int, seed: int,
              seconds: float | None = None) -> list[Played]:
    """Play ``matches`` matches, ``concurrency`` at once; with ``seconds``, stop every match still going then
    (each reports what it played: a bounded load run)."""
    servers = [server] if isinstance(server, str) else server
    limit = asyncio.Semaphore(concurrency)
    setting_up = asyncio.Semaphore(SETTING_UP * len(servers))
    results = [Played(f"(match {i})") for i in range(matches)]
    async with httpx.AsyncClient(timeout=30.0) as client:
        async def one(i: int) -> None:
            async with limit:
                try:
                    await play_match(client, spread(servers, i), game, seed + i, results[i], setting_up)
                except (Refusal, httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
                    results[i].error = f"{type(exc).__name__}: {exc}"
        tasks = [asyncio.create_task(one(i)) for i in range(matches)]
        _, going = await asyncio.wait(tasks, timeout=seconds)
        for task in going:
            task.cancel()
        await asyncio.gather(*going, return_exceptions=True)
    for r in results:
        if not r.finished and not r.error:
            r.error = f"stopped at the {seconds:.0f} s limit"
    return results
