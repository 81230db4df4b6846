"""The debugger's web app: one page (``static/``, nothing fetched from the network) and a JSON API over a
:class:`tools.debug.session.Session`, documented at ``/openapi.json`` so editors and notebooks can drive it.

Only the person who started it may use it. It listens on 127.0.0.1 (``tools.debug.serve``), answers only requests
whose Host is that address (a page on another site cannot reach it through DNS rebinding), and every request
must carry the session's token: ``/?token=...`` (the URL ``kifu debug`` prints) sets it as a strict, HTTP-only
cookie and redirects to ``/`` so the token leaves the address bar; a client of the API may send it as
``Authorization: Bearer TOKEN`` instead. Tokens are compared in constant time and never logged.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

from fastapi import Body, FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from tools.debug.search import Progress
from tools.debug.session import Session
from tools.errors import BAD_INPUT_ERRORS, BadInput, describe
from tools.web import Worker

T = TypeVar("T")
PATH_HELP: Final = ("the value: kind object (obj, field, key), player (player, key), pending (effect), request, "
                    "option (index: of the open request's options) or amount (seq: an AmountComputed record)")
STATIC: Final = Path(__file__).with_name("static")
COOKIE: Final = "kifu_debug"
MAX_BODY: Final = 16 * 1024  # bytes: every request body is a few small fields
MAX_TEXT: Final = 400  # characters of a condition or an expression
Point = Annotated[int, Query(ge=0, le=2**62, description="a point: the state just after this record (0: before any)")]
Game = Annotated[str | None, Query(max_length=200, description="a branch (a fork) instead of the log being debugged")]
Seat = Annotated[str | None, Query(max_length=200, description="a seat's number or name; none: the judge")]


class _Guard:
    """Token and size checks in front of everything (pure ASGI, so streaming answers stay streamed)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("token")
        if request.url.path == "/" and given is not None:
            if secrets.compare_digest(given, self.token):
                answer: Response = RedirectResponse("/", status_code=303)
                answer.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", path="/")
            else:
                answer = _refuse(403, "this token is not the session's: open the URL kifu debug printed")
            await answer(scope, receive, send)
            return
        if not self._allowed(request):
            await _refuse(401, "open the URL kifu debug printed (it carries the session's token)")(scope, receive, send)
            return
        length = request.headers.get("content-length")
        if length is not None and (not length.isdecimal() or int(length) > MAX_BODY):
            await _refuse(413, f"a request body is at most {MAX_BODY} bytes")(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _allowed(self, request: Request) -> bool:
        cookie = request.cookies.get(COOKIE, "")
        bearer = request.headers.get("authorization", "")
        given = bearer[7:] if bearer.lower().startswith("bearer ") else cookie
        return bool(given) and secrets.compare_digest(given, self.token)


async def _bad_input(request: Request, exc: Exception) -> Response:
    """Input the session cannot use (a point past the end, an unknown card, a fork refused): 400 naming it."""
    return _refuse(400, describe(exc))


def _refuse(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def create_app(session: Session, token: str, hosts: list[str]) -> ASGIApp:
    """The app for ``session``; ``hosts`` are the Host values it answers (``127.0.0.1:PORT``, ``localhost:PORT``)."""
    worker = Worker()
    api = FastAPI(title="kifu debug", version="1", docs_url=None, redoc_url=None,
                  description="Step through a recorded game, ask where a value came from, search, and fork.")

    for kind in BAD_INPUT_ERRORS:
        if issubclass(kind, Exception):
            api.add_exception_handler(kind, _bad_input)

    @api.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @api.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> FileResponse:
        path = STATIC / name
        if name not in _STATIC_FILES:
            raise BadInput(f"no file {name!r}")
        return FileResponse(path)

    @api.get("/api/info", summary="The log being debugged: its game, length, players, branches, scenario")
    async def info(game: Game = None) -> dict[str, Any]:
        return await worker.call(session.info, game)

    @api.get("/api/point/{n}", summary="The state just after record N: board, pending, priority, open request")
    async def point(n: int, game: Game = None, seat: Seat = None) -> dict[str, Any]:
        return await worker.call(session.point, n, game, seat)

    @api.get("/api/records", summary="Records as the timeline lists them (at most 200 at a time)")
    async def records(start: Annotated[int, Query(ge=1)] = 1, count: Annotated[int, Query(ge=1, le=200)] = 100,
                      game: Game = None, seat: Seat = None) -> list[dict[str, Any]]:
        return await worker.call(session.records, start, count, game, seat)

    @api.get("/api/step", summary="The point one event, decision or turn away")
    async def step(at: Point, by: Literal["event", "decision", "turn"] = "event",
                   direction: Literal["next", "prev"] = "next", game: Game = None) -> dict[str, int]:
        return {"point": await worker.call(session.step, at, by, direction, game)}

    @api.post("/api/origin", summary="Where a value came from: the record, its rule, the causes back to a decision")
    async def origin(at: Point, path: Annotated[dict[str, Any], Body(description=PATH_HELP)], game: Game = None,
                     seat: Seat = None) -> dict[str, Any]:
        return await worker.call(session.origin, at, path, game, seat)

    @api.get("/api/why/{n}", summary="Why the trigger of record N fired, resolved or fizzled (kifu why)")
    async def why(n: int, game: Game = None) -> dict[str, list[str]]:
        return {"lines": await worker.call(session.why, n, game)}

    @api.get("/api/why-not/{n}", summary="Why CARD's ability did not trigger at record N (kifu why-not)")
    async def why_not(n: int, card: Annotated[str, Query(max_length=200, description=(
                          "#OBJECT, a card id or a card's name (as kifu why-not reads it)"))],
                      ability: Annotated[str | None, Query(max_length=200, description="one ability id")] = None,
                      game: Game = None
                      ) -> dict[str, Any]:
        return {"lines": await worker.call(session.why_not, n, card, ability, game)}

    @api.get("/api/search", summary="The next or previous record where a condition holds (NDJSON with progress)")
    async def search(condition: Annotated[str, Query(max_length=MAX_TEXT)], at: Point,
               direction: Literal["next", "prev"] = "next", game: Game = None, seat: Seat = None) -> Response:
        def lines() -> Iterator[dict[str, Any]]:
            found = None
            for item in session.search(condition, at, direction, game, seat):
                if isinstance(item, Progress):
                    yield {"progress": item.seq}
                else:
                    found = item
            yield {"match": None if found is None else {"seq": found.seq, "before": list(found.before),
                                                         "after": list(found.after)}}
        return worker.streamed(lines)

    @api.get("/api/query", summary="A value at every record where it changed (NDJSON with progress)")
    async def query(expression: Annotated[str, Query(max_length=MAX_TEXT)], game: Game = None,
              seat: Seat = None) -> Response:
        def lines() -> Iterator[dict[str, Any]]:
            for item in session.query(expression, game, seat):
                yield {"progress": item.seq} if isinstance(item, Progress) else {"seq": item[0], "value": item[1]}
        return worker.streamed(lines)

    @api.get("/api/legal/{n}", summary="The decisions the rules accept at point N (a point where they wait)")
    async def legal(n: int, game: Game = None) -> dict[str, Any]:
        return await worker.call(session.legal, n, game)

    @api.post("/api/fork", summary="A what-if branch from point N with another legal decision (kifu fork)")
    async def fork(at: Point, choice: Annotated[int, Query(ge=0, le=10_000)], game: Game = None) -> dict[str, Any]:
        return await worker.call(session.fork, at, choice, game)

    @api.post("/api/attempt", summary="Try any decision at point N: refused, it is kept for the breakpoint "
              "'refused' and nothing is appended; accepted, a branch with it played (as /api/fork)")
    async def attempt(at: Point, decision: Annotated[str, Query(max_length=MAX_TEXT, description=(
                          "as kifu decide reads it: a number of the legal decisions, or ACTION ARGS..."))],
                      game: Game = None) -> dict[str, Any]:
        return await worker.call(session.attempt, at, decision, game)

    @api.post("/api/decide", summary="Play a legal decision at the end of a branch")
    async def decide(game: Annotated[str, Query(max_length=200)],
                     choice: Annotated[int, Query(ge=0, le=10_000)]) -> dict[str, Any]:
        return await worker.call(session.decide, game, choice)

    @api.get("/api/compare", summary="Two games side by side: their first difference")
    async def compare(b: Annotated[str, Query(max_length=200)], a: Game = None) -> dict[str, Any]:
        return await worker.call(session.compare, a, b)

    @api.get("/api/scenario", summary="The scenario debugged: re-run when its file changed, its first failure")
    async def scenario() -> dict[str, Any]:
        return await worker.call(session.refresh)

    guarded = _Guard(api, token)
    return TrustedHostMiddleware(guarded, allowed_hosts=hosts)


_STATIC_FILES: Final = frozenset({"debugger.js", "debugger.css"})


