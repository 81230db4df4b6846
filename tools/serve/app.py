"""``kifu serve``'s ASGI app: the lobby over HTTP, play over WebSocket, the page that plays in a browser.

HTTP (documented at ``/openapi.json``):
- ``POST /api/matches`` — create a match (game, rules, players, decks, options, spectator delay): its id and the
  commitment to the server's share of the seed.
- ``POST /api/matches/{id}/seats/{seat}`` — join with a 32-byte nonce (hex): the seat's credential, once.
- ``GET /api/matches/{id}`` — the match, and once it ended, the revealed seed shares.
- ``GET /api/matches/{id}/log`` — the signed log as JSON lines (``kifu audit --key`` reads it), once the game has
  ended; a seat's credential (``Authorization: Bearer``) gets it at any time.

WebSocket ``/ws/matches/{id}``: the first message authenticates — ``{"credential": C, "since": N}`` for a seat,
``{"spectate": true, "since": N}`` for a spectator — and is never in the URL (URLs are what servers log). The
server then sends ``records`` (what that viewer saw after record N), ``state`` (the board as they see it, who must
act, and their legal decisions when it is theirs to answer), and again after every record appended. A seat sends
``{"decide": {"head": H, "choice": I}}`` (or ``"action"``/``"args"`` in place of ``choice``); when the state's ``pick``
names a request answered with several options at once, ``{"decide": {"head": H, "pick": [I, ...]}}``. A refusal names
the rule and appends nothing. Messages are bounded (``MAX_MESSAGE``), and so are request bodies
(``bounds.MAX_BODY``: 413) and connections per match.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

import msgspec
from fastapi import Body, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.types import ASGIApp

from eventsource import exchange, signing
from eventsource.errors import StoreUnavailable
from statemachine.games import PROFILES
from tools.errors import BAD_INPUT_ERRORS, BadInput, describe
from tools.serve.bounds import BoundedBodies
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.push import encode, update
from tools.serve.service import JUDGE, SPECTATOR, SPECTATORS, Refused, Service, Stale
from tools.serve.shards import Shards

STATIC: Final = Path(__file__).with_name("static")
MAX_MESSAGE: Final = 16 * 1024  # bytes of one client message
MAX_SPECTATORS: Final = 64  # connections of spectators to one match, in one worker
MAX_SEAT_CONNECTIONS: Final = 8  # connections of one seat (a client reconnecting leaves one behind until it drops)
FIRST_MESSAGE_WITHIN: Final = 10.0  # seconds a new connection has to say who it is (a flood of idle sockets ends)
POLICY_VIOLATION: Final = 1008  # WebSocket close codes (RFC 6455)
TOO_BIG: Final = 1009
TRY_AGAIN_LATER: Final = 1013


class Hub:
    """Who watches which match in this worker; told of every record appended (by this worker, or by another
    through the store's notifications)."""

    def __init__(self) -> None:
        self.watchers: dict[str, set[asyncio.Queue[int]]] = {}
        self.connected: Counter[tuple[str, int]] = Counter()  # connections per match and viewer

    def watch(self, match_id: str, viewer: int) -> asyncio.Queue[int]:
        """A queue telling of the match's appends; refused when the viewer has its most connections already (a
        flood of spectators never keeps a seat out)."""
        most = MAX_SPECTATORS if viewer in SPECTATORS else MAX_SEAT_CONNECTIONS
        if self.connected[match_id, viewer] >= most:
            who = "spectators" if viewer in SPECTATORS else f"seat {viewer}"
            raise BadInput(f"match {match_id} has {most} connections of {who} already")
        self.connected[match_id, viewer] += 1
        q: asyncio.Queue[int] = asyncio.Queue(maxsize=64)
        self.watchers.setdefault(match_id, set()).add(q)
        return q

    def leave(self, match_id: str, viewer: int, q: asyncio.Queue[int]) -> None:
        self.watchers.get(match_id, set()).discard(q)
        self.connected[match_id, viewer] -= 1
        if not self.connected[match_id, viewer]:
            del self.connected[match_id, viewer]
        if not self.watchers.get(match_id, True):
            del self.watchers[match_id]

    def appended(self, match_id: str, head: int) -> None:
        for q in list(self.watchers.get(match_id, ())):
            _tell(q, head)

    def everything(self) -> None:
        """Every watcher reads its match's head again (notifications may have been missed meanwhile)."""
        for queues in list(self.watchers.values()):
            for q in list(queues):
                _tell(q, 0)


def _tell(q: asyncio.Queue[int], head: int) -> None:
    if q.full():
        q.get_nowait()  # (a slow reader is told only of the newest head: it reads from where it was)
    q.put_nowait(head)


SYNC: Final = -1  # told to a watcher whose client asked for the state again: sent even if the head is the same


def create_app(shards: Shards, listen_to: str | None = None) -> ASGIApp:
    """The app over ``shards`` (a service per thread, each match on one); with ``listen_to`` (the PostgreSQL URL
    every worker shares), the records other workers append reach this worker's watchers through LISTEN/NOTIFY."""
    hub = Hub()
    call = shards.call

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if listen_to is None:
            yield
            return
        from tools.serve.notify import listen

        def appended(match_id: str, head: int) -> None:
            shards.heard(match_id, head)
            hub.appended(match_id, head)

        def hearing(on: bool) -> None:
            shards.listening(on)
            if on:
                hub.everything()

        listening = asyncio.Event()
        task = asyncio.create_task(listen(listen_to, appended, hearing, listening))
        await asyncio.wait_for(listening.wait(), 30)  # (ready before serving: no append goes unheard)
        yield
        task.cancel()

    api = FastAPI(title="kifu serve", version="1", docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Matches, seats and play on kifu's rules, recorded as signed evidence.")

    for kind in BAD_INPUT_ERRORS:
        if issubclass(kind, Exception):
            api.add_exception_handler(kind, _bad_input)

    @api.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-store"})

    @api.get("/static/play.js", include_in_schema=False)
    def script() -> FileResponse:
        return FileResponse(STATIC / "play.js")

    @api.get("/api/samples/{game}", summary="A game's sample players and decks (to create a match with)")
    def samples(game: str) -> dict[str, Any]:
        if game not in PROFILES:
            raise BadInput(f"no game {game!r}: the games are {', '.join(sorted(PROFILES))}")
        _, players, decks = importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(0)
        return {"game": game, "players": list(players), "decks": [list(d) for d in decks]}

    @api.post("/api/matches", summary="Create a match: its id and the commitment to the server's seed share")
    async def create(spec: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        try:
            parsed = msgspec.convert(spec, MatchSpec, strict=True)
        except msgspec.ValidationError as exc:
            raise BadInput(f"a match is game, players, decks, and optionally rules, options, spectator_delay, "
                           f"spectator_view: "
                           f"{exc}") from None
        validator = shards.services[0]  # (creating touches the lobby and the rules' deck checks, not the store)
        match = await shards.lobby_call(lambda _: validator.create(parsed))
        return {"match": match.id, "commitment": match.commitment}

    @api.post("/api/matches/{match_id}/seats/{seat}", summary="Join a seat with a 32-byte nonce: its credential")
    async def join(match_id: str, seat: int, body: Annotated[dict[str, str], Body()]) -> dict[str, Any]:
        try:
            nonce = bytes.fromhex(body.get("nonce", ""))
        except ValueError:
            raise BadInput("nonce: 64 hex digits (32 random bytes of the seat's own)") from None
        credential = await call(match_id, Service.join, match_id, seat, nonce)
        head = await call(match_id, Service.head, match_id)
        if head:
            hub.appended(match_id, head)
        return {"match": match_id, "seat": seat, "credential": credential}

    @api.get("/api/matches/{match_id}", summary="The match; once it ended, the revealed seed shares")
    async def get(match_id: str) -> dict[str, Any]:
        def read(service: Service) -> dict[str, Any]:
            m = service.lobby.get(match_id)
            out: dict[str, Any] = {"match": m.id, "game": m.spec.game, "players": m.spec.players,
                                   "commitment": m.commitment, "joined": list(m.joined),
                                   # (a seat reads what spectators will see before it joins)
                                   "spectators": {"view": m.spec.spectator_view, "delay": m.spec.spectator_delay}}
            if service.started(match_id):
                st = service.engine(match_id).state
                out.update(head=st.seq, ended=st.ended, winner=st.winner)
                if st.ended:
                    out["seed_shares"] = service.lobby.reveal(match_id)
            return out
        return await call(match_id, read)

    @api.get("/api/matches/{match_id}/log", summary="The signed log as JSON lines (kifu audit --key reads it)")
    async def log(match_id: str, request: Request) -> Response:
        def read(service: Service) -> bytes:
            st = service.engine(match_id).state
            bearer = request.headers.get("authorization", "")
            seat = service.lobby.seat_of(match_id, bearer[7:]) if bearer.lower().startswith("bearer ") else None
            if not st.ended and seat is None:
                raise BadInput("the log holds hidden cards until the game ends: a seat's credential is needed")
            raws = list(service.store.read_raw(match_id))
            sigs = {s.seq: s for s in service.store.signatures(match_id)}
            return b"".join(exchange.to_line(r, sigs.get(r.seq)) + b"\n" for r in raws)
        return Response(await call(match_id, read), media_type="application/x-ndjson")

    @api.websocket("/ws/matches/{match_id}")
    async def play(ws: WebSocket, match_id: str) -> None:
        await ws.accept()
        try:
            first = await asyncio.wait_for(_receive(ws), FIRST_MESSAGE_WITHIN)
            viewer, since, delay = await shards.lobby_call(lambda lobby: _authenticate(lobby, match_id, first))
        except _Oversized:
            await ws.close(code=TOO_BIG)
            return
        except TimeoutError:
            await ws.close(code=POLICY_VIOLATION, reason=f"no credential within {FIRST_MESSAGE_WITHIN:.0f} s")
            return
        except StoreUnavailable:
            await ws.close(code=TRY_AGAIN_LATER, reason="the store is unavailable: connect again")
            return
        except (*BAD_INPUT_ERRORS, ValueError) as exc:  # type: ignore[misc]
            await ws.send_json({"type": "error", "message": describe(exc)})
            await ws.close(code=POLICY_VIOLATION)
            return
        except WebSocketDisconnect:
            return
        try:
            queue = hub.watch(match_id, viewer)
        except BadInput as exc:
            await ws.close(code=TRY_AGAIN_LATER, reason=str(exc)[:120])
            return
        await ws.send_json({"type": "hello", "match": match_id, "seat": None if viewer in SPECTATORS else viewer})
        sent = since

        async def push() -> None:
            nonlocal sent
            stated, forced = -1, True  # the head of the last state sent; whether to send it even so
            told = since  # a head the client saw, or this worker was told of: the match is at least there
            while True:
                step = await call(match_id, update, match_id, viewer, sent, told, delay, stated, forced)
                for message in step.messages:
                    await ws.send_text(message)
                sent, stated = step.sent, step.stated
                if step.more:
                    continue
                told = await queue.get()
                forced = told == SYNC

        async def pushing() -> None:
            try:
                await push()
            except StoreUnavailable:
                await ws.close(code=TRY_AGAIN_LATER, reason="the store is unavailable: connect again")

        pusher = asyncio.create_task(pushing())
        try:
            while True:
                message = await _receive(ws)
                if message.get("sync") is True:  # the client wants the state again (after a stale decision)
                    _tell(queue, SYNC)
                    continue
                if viewer in SPECTATORS:
                    await ws.send_json({"type": "error", "message": "a spectator cannot decide"})
                    continue
                await _decide(ws, shards, hub, match_id, viewer, message)
        except WebSocketDisconnect:
            pass
        except StoreUnavailable:  # (what was not acknowledged the client sends again, to this worker or another)
            await ws.close(code=TRY_AGAIN_LATER, reason="the store is unavailable: connect again")
        except _Oversized:
            await ws.close(code=TOO_BIG)
        except ValueError as exc:
            await ws.close(code=POLICY_VIOLATION, reason=str(exc)[:120])
        finally:
            pusher.cancel()
            hub.leave(match_id, viewer, queue)

    return BoundedBodies(api)


class _Oversized(Exception):
    pass


async def _receive(ws: WebSocket) -> dict[str, Any]:
    text = await ws.receive_text()
    if len(text.encode()) > MAX_MESSAGE:
        raise _Oversized
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("a message is one JSON object") from None
    if not isinstance(message, dict):
        raise ValueError("a message is one JSON object")
    return message


def _authenticate(lobby: Lobby, match_id: str, first: dict[str, Any]) -> tuple[int, int, int]:
    """(viewer, since, delay) for the first message of a connection."""
    match = lobby.get(match_id)
    since = first.get("since", 0)
    if not isinstance(since, int) or since < 0:
        raise BadInput("since: the last record number the client holds (0: none)")
    if first.get("spectate") is True:
        if match.spec.spectator_delay < 0:
            raise BadInput(f"match {match_id} takes no spectators")
        return JUDGE if match.spec.spectator_view == "judge" else SPECTATOR, since, match.spec.spectator_delay
    credential = first.get("credential")
    if not isinstance(credential, str) or len(credential) > 200:
        raise BadInput("the first message names the seat's credential (or spectate: true)")
    seat = lobby.seat_of(match_id, credential)
    if seat is None:
        raise BadInput("this credential is no seat's of this match")
    return seat, since, 0


async def _decide(ws: WebSocket, shards: Shards, hub: Hub, match_id: str, seat: int, message: dict[str, Any]) -> None:
    body = message.get("decide")
    if not isinstance(body, dict) or not isinstance(body.get("head"), int):
        await ws.send_json({"type": "error", "message": "a decision is {\"decide\": {\"head\": N, \"choice\": I}} "
                                                         "or with pick, or action and args"})
        return

    def run(service: Service) -> Any:
        sent = json.dumps(body, sort_keys=True, ensure_ascii=False)
        retry = service.submitted(match_id, seat, body["head"], sent)
        if retry is not None:
            return retry
        action: Any
        args: Any
        if "choice" in body:
            action, args = service.chosen(match_id, seat, body["choice"])
        elif "pick" in body:
            action, args = service.picked(match_id, seat, body["pick"])
        else:
            action, args = body.get("action"), body.get("args", [])
            if not isinstance(action, str) or not isinstance(args, list) or len(args) > 64:
                raise BadInput("action: a name; args: a list")
        return service.decide(match_id, seat, body["head"], action, args, sent)

    try:
        outcome = await shards.call(match_id, run)
    except Refused as refused:
        await ws.send_json({"type": "refused", "reason": refused.reason, "rule": refused.rule})
        return
    except Stale as stale:
        await ws.send_json({"type": "stale", "message": str(stale)})
        return
    except StoreUnavailable:
        raise
    except BAD_INPUT_ERRORS as exc:
        await ws.send_json({"type": "error", "message": describe(exc)})
        return
    await ws.send_text(encode({"type": "ack", "head": outcome.head, "applied": outcome.applied}))
    hub.appended(match_id, outcome.head)


async def _bad_input(request: Request, exc: Exception) -> Response:
    status = 503 if isinstance(exc, StoreUnavailable) else 404 if str(exc).startswith("no match") else 400
    return JSONResponse({"error": describe(exc)}, status_code=status)


def from_environment() -> ASGIApp:
    """The app ``kifu serve`` runs in each of its uvicorn workers (a factory: each worker process opens its own
    connections), configured by the command through ``KIFU_SERVE_DB`` and ``KIFU_SERVE_KEY``."""
    from tools.logs.stores import scheme_of

    db, key = os.environ["KIFU_SERVE_DB"], os.environ.get("KIFU_SERVE_KEY")
    signer = signing.load_private(key) if key else None
    return create_app(shards_for(db, Lobby(db), signer), db if scheme_of(db) in ("postgresql", "postgres") else None)


def shards_for(db: str, lobby: Lobby, signer: signing.Signer | None) -> Shards:
    """A worker's match threads over the store ``db``. On PostgreSQL each thread has a connection of its own (the
    server groups concurrent commits' flushes itself). On SQLite they share one group-commit store: the appends of
    every match that are ready together are committed in one transaction — one flush — each acknowledged only after
    it (a commit of its own each, the threads took turns on the file's writer lock, one flush at a time); the
    worker claims the file (``tools.serve.claim``), so it hears every append to it: its own."""
    from tools.logs.stores import open_store, scheme_of, sqlite_path

    if scheme_of(db) in ("postgresql", "postgres"):
        return Shards(lambda: Service(lambda: open_store(db, write=True), lobby, signer))
    from eventsource.groupcommit import GroupCommitSQLiteStore
    from tools.serve.claim import claim

    claim(sqlite_path(db))  # (this worker alone appends to the file: every append is one it makes)
    shared = GroupCommitSQLiteStore(sqlite_path(db))
    shards = Shards(lambda: Service(lambda: shared, lobby, signer))
    shards.listening(True)  # (its cached engines are current without reading the store's head)
    return shards
