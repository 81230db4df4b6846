"""A worker that learns of another's append (LISTEN/NOTIFY on PostgreSQL; here two services on one store, as two
workers are) moves its cached engine on over the new records alone — no load from the match's snapshots — and
is then where a fresh load would be, down to what it offers next."""

from __future__ import annotations

import importlib
import random
import secrets
from pathlib import Path
from typing import Any

import msgspec
import pytest

from statemachine.engine import Engine
from statemachine.games import PROFILES
from tools.logs.stores import open_store
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.service import Service


def two_workers(tmp_path: Path) -> tuple[Service, Service, str]:
    db = str(tmp_path / "serve.db")
    open_store(db, write=True).close()
    lobby = Lobby(db)
    first, second = (Service(lambda: open_store(db, write=True), lobby) for _ in range(2))
    _, players, decks = importlib.import_module(f"{PROFILES['shadowverse'][0]}.demo").sample_game(0)
    match = first.create(MatchSpec(game="shadowverse", players=list(players), decks=[list(d) for d in decks]))
    for seat in (0, 1):
        first.join(match.id, seat, secrets.token_bytes(32))
    return first, second, match.id


def decide_one(svc: Service, match: str, rng: random.Random) -> None:
    legal = svc.legal(match)
    assert legal.player is not None
    decision = rng.choice(legal.decisions)
    svc.decide(match, legal.player, svc.head(match), decision.action, list(decision.args), "test")


def test_a_worker_told_of_another_workers_append_runs_only_the_new_decisions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, match = two_workers(tmp_path)
    rng = random.Random(7)
    second.listening(True)  # (it hears every append from now on)
    kept = second.engine(match)  # the second worker has the match cached at the opening
    opening = kept.state.seq
    for _ in range(3):
        decide_one(first, match, rng)
    head = first.head(match)
    assert head > opening

    def no_load(*_: Any, **__: Any) -> Engine:
        raise AssertionError("the match was loaded again from the store")

    monkeypatch.setattr(Engine, "load", no_load)
    second.heard(match, head)
    caught = second.engine(match, head)
    assert caught is kept and caught.state.seq == head
    monkeypatch.undo()
    fresh = Engine.load(caught.profile, first.store, match)
    assert msgspec.json.encode(caught.state) == msgspec.json.encode(fresh.state)
    assert second.legal(match) == first.legal(match)
    decide_one(second, match, rng)  # and it goes on appending where the first left off
    assert first.head(match) > head


def test_a_log_the_rules_do_not_give_there_is_loaded_afresh(tmp_path: Path) -> None:
    first, second, match = two_workers(tmp_path)
    kept = second.engine(match)
    decide_one(first, match, random.Random(1))
    kept.state.seq -= 1  # (the cached engine is no longer where the log's next decision was made)
    caught = second.engine(match)
    assert caught is not kept and caught.state.seq == first.head(match)


def test_listening_again_after_a_pause_keeps_the_cached_engines_and_checks_them_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's listening connection drops (PostgreSQL restarting, the network) and comes back: what another
    worker appended meanwhile went unheard. The cached engine is neither trusted as it was (it is behind) nor
    dropped (a reload of every match the worker serves): it is checked against the store's head and moved on."""
    first, second, match = two_workers(tmp_path)
    rng = random.Random(3)
    second.listening(True)
    kept = second.engine(match)
    opening = kept.state.seq
    second.listening(False)  # (its connection dropped: the next appends are not heard)
    for _ in range(2):
        decide_one(first, match, rng)
    head = first.head(match)
    assert head > opening
    second.listening(True)  # (heard again from now on; what came before is unknown)

    def no_load(*_: Any, **__: Any) -> Engine:
        raise AssertionError("the match was loaded again from the store")

    monkeypatch.setattr(Engine, "load", no_load)
    caught = second.engine(match)
    assert caught is kept and caught.state.seq == head
    assert second.head(match) == head
    decide_one(second, match, rng)  # and it appends where the first left off
    assert first.head(match) > head
