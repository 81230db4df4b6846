"""How a worker of ``kifu serve`` on PostgreSQL learns that another worker appended to a match: the store notifies
the channel ``kifu_appended`` in every append's transaction (``eventsource.postgres``), and each worker LISTENs on
one connection of its own. No broker of our own: PostgreSQL delivers a notification to every listener once the
append has committed, and never one for an append rolled back.

A notification can be missed only while this connection is down (PostgreSQL restarting, the network gone): when
it is open again, every watcher is woken to read the store's head itself, so nothing missed stays unseen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Final

import psycopg

from eventsource.postgres import APPENDED

RETRY_PAUSE: Final = 0.5  # seconds between two attempts to listen again after the connection was lost


async def listen(url: str, appended: Callable[[str, int], None], hearing: Callable[[bool], None],
                 ready: asyncio.Event | None = None) -> None:
    """Call ``appended(game, head)`` for every append any worker commits, for as long as this task runs;
    ``hearing(True)`` each time listening starts (what was appended before may have gone unheard), and
    ``hearing(False)`` when it stops."""
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=5)
        except psycopg.Error:
            await asyncio.sleep(RETRY_PAUSE)
            continue
        try:
            async with conn:
                await conn.execute(f"LISTEN {APPENDED}")
                hearing(True)
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    head, _, game = note.payload.partition(" ")
                    if head.isdecimal() and game:
                        appended(game, int(head))
        except psycopg.Error:
            pass
        finally:
            hearing(False)
        await asyncio.sleep(RETRY_PAUSE)
