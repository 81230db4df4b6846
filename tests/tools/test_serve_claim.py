"""On SQLite one ``kifu serve`` holds the file: a second is refused by name, one killed outright frees it at once,
and the worker holding it trusts its cached engines — a decision and everything it sends read nothing back from
the store."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from statemachine.games.shadowverse.demo import sample_game
from tests.tools.serving import ROOT, Serve
from tools.cli import main
from tools.logs.stores import open_store
from tools.serve.app import shards_for
from tools.serve.claim import claim_path
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.push import update
from tools.serve.service import SPECTATOR
from tools.serve.service import Service as _Service


def test_a_second_server_on_the_same_file_is_refused_naming_the_first(tmp_path: Path) -> None:
    key = tmp_path / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    db = tmp_path / "serve.db"
    first = Serve(db, key)
    try:
        second = subprocess.run([sys.executable, "-m", "tools.cli", "serve", "--db", str(db), "--key", str(key),
                                 "--port", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        said = second.stdout + second.stderr
        assert "served already" in said and f"process {first.proc.pid}" in said and "Traceback" not in said
    finally:
        first.kill()  # (kill -9: the kernel drops the claim with the process)
    again = Serve(db, key)  # (started at once on the same file: the claim died with the killed server)
    again.stop()
    assert claim_path(db.resolve()).exists()


def test_the_sqlite_worker_reads_nothing_back_from_the_store_in_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """Every append to the file is the worker's own (it holds the claim), so its cached engine is the head: a
    decision, its acknowledgement and the boards and records of both seats and a spectator cost no read of it,
    and the records' lines are folded from what the engine appended, not read back."""
    db = str(tmp_path / "serve.db")
    open_store(db, write=True).close()
    shards = shards_for(db, Lobby(db), None)
    _, players, decks = sample_game(0)
    service: _Service = shards.services[0]
    match = service.create(MatchSpec("shadowverse", list(players), [list(d) for d in decks]))
    for seat in (0, 1):
        service.join(match.id, seat, secrets.token_bytes(32))
    head = service.head(match.id)
    for viewer in (0, 1, SPECTATOR):  # (each watcher's first catch-up: the match's fold starts from the store)
        update(service, match.id, viewer, 0, head, 0, -1, False)
    reads: list[str] = []
    store = service.store
    real = type(store).head
    monkeypatch.setattr(type(store), "head", lambda self, game: reads.append(game) or real(self, game))
    read_raw = type(store).read_raw
    monkeypatch.setattr(type(store), "read_raw", lambda self, game, *a: reads.append(f"records of {game}") or
                        read_raw(self, game, *a))
    sent = dict.fromkeys((0, 1, SPECTATOR), head)  # (where each watcher is, as the push loop keeps it)
    for _ in range(6):
        seat = service.legal(match.id).player
        assert seat is not None
        service.decide(match.id, seat, head, *service.chosen(match.id, seat, 0))
        head = service.head(match.id)
        for viewer in (0, 1, SPECTATOR):
            step = update(service, match.id, viewer, sent[viewer], head, 0, sent[viewer], False)
            assert step.messages and step.stated == head
            sent[viewer] = step.sent
    assert reads == []
    assert head == open_store(db).head(match.id)  # (and the cache was right: the file's head)


def test_a_key_that_cannot_sign_is_refused_before_the_claim(tmp_path: Path) -> None:
    """The order of the command's checks: a bad key is refused without leaving the file claimed."""
    bad = tmp_path / "bad.key"
    bad.write_text("not a key", encoding="utf-8")
    db = tmp_path / "serve.db"
    refused = CliRunner().invoke(main, ["serve", "--db", str(db), "--key", str(bad), "--port", "0"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert not claim_path(db.resolve()).exists()
