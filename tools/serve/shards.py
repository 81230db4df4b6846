"""Per-match serialisation: a worker's matches are spread over a few threads by their id, each thread with a
:class:`Service` of its own (its own store connection, engines and folds), so that one match's decision never
waits behind another's commit, fold or board; two decisions of one match still run one at a time, in order. The
lobby (creating matches, checking credentials) has a thread of its own and never waits behind play.

Threads share the interpreter: rules and views, which are CPU bound, take turns; what overlaps is the time each
spends waiting on its store (an fsync, a round trip to PostgreSQL). Matches on several workers (processes) run in
parallel: the store's optimistic concurrency already guards a match two workers append to.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable
from typing import Any, Final, TypeVar

import msgspec

from eventsource.errors import StoreUnavailable
from statemachine.games import PROFILES, profile_class
from tools.serve.lobby import Lobby
from tools.serve.service import Service
from tools.serve.threads import MatchThread
from tools.web import Worker

T = TypeVar("T")
MATCH_THREADS: Final = 4  # threads a worker's matches are spread over


def build_types_first() -> None:
    """Import every game and build msgspec's information about every Struct type, on this one thread, before the
    match threads start. msgspec (0.22) builds a type's information the first time it converts to it, and two
    threads doing that at once can crash the process (a null type node read in ``convert``, SIGSEGV): a worker
    restarted under load died so when its match threads loaded their games at once."""
    for game in PROFILES:
        profile_class(game)
    build_struct_types()


def build_struct_types() -> None:
    """Build msgspec's information about every Struct type defined so far (a decoder for each builds it)."""
    todo: list[type[msgspec.Struct]] = [msgspec.Struct]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            with contextlib.suppress(TypeError):  # (a type only ever encoded, through a hook, has none to build)
                msgspec.json.Decoder(cls)


class Shards:
    def __init__(self, make: Callable[[], Service], threads: int = MATCH_THREADS) -> None:
        """``make`` makes each thread's service (over one lobby they share)."""
        build_types_first()
        self.services = [make() for _ in range(threads)]
        self.workers = [MatchThread(f"kifu-match-{i}") for i in range(threads)]
        self.front = Worker("kifu-lobby")

    @property
    def lobby(self) -> Lobby:
        return self.services[0].lobby

    def _of(self, match_id: str) -> int:
        return zlib.crc32(match_id.encode()) % len(self.services)

    def service(self, match_id: str) -> Service:
        return self.services[self._of(match_id)]

    async def call(self, match_id: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(service, *args)`` on the thread of ``match_id``; a store gone away (PostgreSQL restarting) is
        opened again next time."""
        i = self._of(match_id)
        try:
            return await self.workers[i].call(fn, self.services[i], *args)
        except StoreUnavailable:
            await self.workers[i].call(self.services[i].lost)
            raise

    async def lobby_call(self, fn: Callable[[Lobby], T]) -> T:
        """``fn(lobby)`` on the lobby's thread."""
        return await self.front.call(fn, self.lobby)

    def heard(self, match_id: str, head: int) -> None:
        self.service(match_id).heard(match_id, head)

    def listening(self, on: bool) -> None:
        for service in self.services:
            service.listening(on)
