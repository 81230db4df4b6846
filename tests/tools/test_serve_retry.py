"""A decision sent again after a crash (the client never got its acknowledgement) is applied once: the server keeps
each submission as the receipt of its append, in the append's own transaction, so after any crash the store holds
the decision and its receipt, or neither."""

from __future__ import annotations

import importlib
import json
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from eventsource.sqlite import SQLiteStore
from statemachine.games import PROFILES
from tools.errors import BadInput
from tools.logs.stores import open_store
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.service import Service, Stale

GAME = "shadowverse"


def fresh(db: str) -> Service:
    """A server process started anew on the store: nothing of the last one's memory."""
    return Service(lambda: open_store(db, write=True), Lobby(db))


class Crashed(Exception):
    """The process died inside the append's transaction."""


class DiesAtCommit:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise Crashed
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_retry_after_a_crash_is_applied_once(tmp_path: Path) -> None:
    db = str(tmp_path / "serve.db")
    open_store(db, write=True).close()
    first = fresh(db)
    _, players, decks = importlib.import_module(f"{PROFILES[GAME][0]}.demo").sample_game(0)
    match = first.create(MatchSpec(GAME, list(players), [list(d) for d in decks])).id
    for joining in (0, 1):
        first.join(match, joining, secrets.token_bytes(32))
    head = first.head(match)
    seat = first.legal(match).player
    assert seat is not None
    action, args = first.chosen(match, seat, 0)
    body = json.dumps({"choice": 0, "head": head}, sort_keys=True)

    # The server dies inside the append's transaction: the events and the receipt were written, the commit never
    # came (closing the connection then rolls the transaction back, as the process's death would).
    store = first.store
    assert isinstance(store, SQLiteStore)
    connection = store._db
    store._db = DiesAtCommit(connection)  # type: ignore[assignment]
    with pytest.raises(Crashed):
        first.decide(match, seat, head, action, args, body)
    connection.close()

    # Neither the decision nor its receipt: the retry is a new decision, applied.
    second = fresh(db)
    assert second.store.head(match) == head and second.store.receipt(match, head) is None
    assert second.submitted(match, seat, head, body) is None
    applied = second.decide(match, seat, head, action, args, body)
    assert applied.applied and applied.head > head

    # The acknowledgement is lost again; the retry reaches a third process: acknowledged, not applied twice.
    third = fresh(db)
    again = third.submitted(match, seat, head, body)
    assert again is not None and not again.applied and again.head == applied.head
    with pytest.raises(Stale):
        third.decide(match, seat, head, action, args, body)
    assert third.store.head(match) == applied.head
    other = json.dumps({"choice": 1, "head": head}, sort_keys=True)  # not what was applied: stale, not acked
    assert third.submitted(match, seat, head, other) is None
    assert third.submitted(match, 1 - seat, head, body) is None


def test_a_join_sent_again_with_its_nonce_gets_a_new_credential_until_the_game_ends(tmp_path: Path) -> None:
    """A join whose answer was lost (a reset connection, a worker killed after its commit) is sent again with the
    same nonce: a new credential replaces the one never received; another nonce finds the seat taken. A second
    seat's join committed by a worker that died before starting the game is started by the retry, once."""
    db = str(tmp_path / "serve.db")
    open_store(db, write=True).close()
    first = fresh(db)
    _, players, decks = importlib.import_module(f"{PROFILES[GAME][0]}.demo").sample_game(0)
    match = first.create(MatchSpec(GAME, list(players), [list(d) for d in decks])).id
    nonces = [secrets.token_bytes(32) for _ in (0, 1)]
    lost = first.join(match, 0, nonces[0])
    again = first.join(match, 0, nonces[0])
    assert again != lost and first.lobby.seat_of(match, again) == 0 and first.lobby.seat_of(match, lost) is None
    with pytest.raises(BadInput, match=r"seat 0 of match .* is taken"):
        first.join(match, 0, secrets.token_bytes(32))

    first.lobby.join(match, 1, nonces[1])  # (the lobby's commit, then the worker's death: no game started)
    assert first.store.head(match) == 0
    second = fresh(db)
    credential = second.join(match, 1, nonces[1])
    head = second.store.head(match)
    assert head > 0 and second.lobby.seat_of(match, credential) == 1
    assert second.join(match, 1, nonces[1]) != credential and second.store.head(match) == head  # not dealt twice

    # Once the game has ended, its nonces are revealed to anyone: they no longer let a seat join again.
    second.engine(match).state.ended = True  # (the cached engine's state stands for a game played to its end)
    with pytest.raises(BadInput, match="is taken"):
        second.join(match, 1, nonces[1])
