"""kifu serve through its public API (Starlette's TestClient: HTTP and WebSocket, in-process), as clients use it.

- A whole match of every game, played by two seats over WebSocket, ends; its log audits clean with the server's
  key; the revealed seed shares give the seed the log names and match the commitment made before any seat joined.
- Bad input gets a clear answer and appends nothing: malformed and oversized messages, a wrong credential, a
  decision for the other seat, a stale head; a retried decision is applied once.
- What a seat and a spectator receive never holds the seed, the other seat's hand, or a deck.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import random
import secrets
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from eventsource import events as ev
from eventsource import exchange, signing
from eventsource.groupcommit import GroupCommitSQLiteStore
from eventsource.records import decode
from eventsource.sqlite import SQLiteStore
from statemachine.engine import Engine
from statemachine.games import PROFILES
from statemachine.games import profile as load_profile
from statemachine.scenario.run import load as load_scenario
from statemachine.scenario.setup import Board
from tools.cli import main
from tools.logs.stores import open_store
from tools.serve import app as serve_app
from tools.serve import messages
from tools.serve.app import create_app, shards_for
from tools.serve.bots import answer
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.service import Service

GAMES = sorted(PROFILES)


@pytest.fixture
def server(tmp_path: Path) -> Any:
    db = str(tmp_path / "serve.db")
    key = tmp_path / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    open_store(db, write=True).close()  # (the store first: its file then takes the lobby's table too)
    lobby, signer = Lobby(db), signing.load_private(key)
    shards = shards_for(db, lobby, signer)  # (as each worker of kifu serve has them)
    service = shards.services[0]
    with TestClient(create_app(shards)) as client:
        client.key = key  # type: ignore[attr-defined]
        client.service, client.db, client.shards = service, db, shards  # type: ignore[attr-defined]
        yield client


def sample(game: str) -> dict[str, Any]:
    _, players, decks = importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(0)
    return {"game": game, "players": list(players), "decks": [list(d) for d in decks]}


def start(client: TestClient, game: str) -> tuple[str, str, list[str]]:
    created = client.post("/api/matches", json=sample(game))
    assert created.status_code == 200, created.text
    match, commitment = created.json()["match"], created.json()["commitment"]
    creds = [client.post(f"/api/matches/{match}/seats/{s}", json={"nonce": secrets.token_hex(32)}).json()["credential"]
             for s in (0, 1)]
    return match, commitment, creds


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind``; any answer of another kind to a decision fails the test at once. Each message
    read is one ``kifu schema messages`` names, no field unknown (``tools.serve.messages``)."""
    while True:
        m = ws.receive_json()
        msgspec.convert(m, messages.Sent, strict=True)
        if m["type"] == kind:
            return m  # type: ignore[no-any-return]
        assert m["type"] in ("records", "state", "hello"), m


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_is_fair_signed_and_audits_clean(server: TestClient, game: str, tmp_path: Path) -> None:
    match, commitment, creds = start(server, game)
    rng = random.Random(game)
    received: list[str] = []
    picks = 0  # answers to a request for several options at once (Duel Masters' double breakers)
    connect = server.websocket_connect
    with connect(f"/ws/matches/{match}") as ws0, connect(f"/ws/matches/{match}") as ws1:
        seats = [ws0, ws1]
        for seat, ws in enumerate(seats):
            ws.send_json({"credential": creds[seat], "since": 0})
            assert until(ws, "hello")["seat"] == seat
        states = [until(ws, "state") for ws in seats]
        for _ in range(3000):
            if states[0]["ended"]:
                break
            mover = next(s for s in (0, 1) if states[s]["legal"] or states[s]["pick"])
            assert mover == states[0]["to_act"] == states[1]["to_act"]
            assert states[1 - mover]["legal"] == [] and states[1 - mover]["pick"] is None
            picks += bool(states[mover]["pick"])
            seats[mover].send_json({"decide": answer(states[mover], rng)[0]})
            ack = until(seats[mover], "ack")
            assert ack["applied"]
            for s in (0, 1):
                while True:
                    m = seats[s].receive_json()
                    received.append(json.dumps(m, ensure_ascii=False))
                    if m["type"] == "state" and m["head"] == ack["head"]:
                        states[s] = m
                        break
        assert states[0]["ended"] and states[1]["ended"]
    info = server.get(f"/api/matches/{match}").json()
    shares = info["seed_shares"]
    assert hashlib.sha256(bytes.fromhex(shares["secret"])).hexdigest() == commitment
    log = tmp_path / "match.jsonl"
    log.write_bytes(server.get(f"/api/matches/{match}/log").content)
    started = decode(next(iter(exchange.read(log)))).event
    assert isinstance(started, ev.GameStarted) and started.seed == shares["seed"]
    assert not any(f'"seed": {started.seed}' in m or str(started.seed) in m for m in received)
    for m in received:  # every message of a whole match of each game is one the schema names
        msgspec.json.decode(m, type=messages.Sent, strict=True)
    audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{server.key}.pub"])  # type: ignore[attr-defined]
    assert audit.exit_code == 0, audit.output


def test_a_sqlite_workers_threads_share_one_group_commit_and_acknowledge_after_it(server: TestClient) -> None:
    """On SQLite every match thread appends through one group-commit store (appends of several matches ready
    together share a transaction and its flush); a decision is acknowledged only once it is committed: another
    connection to the file reads the acknowledged head at once."""
    stores = {id(s.store) for s in server.shards.services}  # type: ignore[attr-defined]
    assert len(server.shards.services) > 1 and len(stores) == 1  # type: ignore[attr-defined]
    shared = server.service.store  # type: ignore[attr-defined]
    assert isinstance(shared, GroupCommitSQLiteStore)
    match, _, creds = start(server, "shadowverse")
    connect = server.websocket_connect
    with connect(f"/ws/matches/{match}") as ws0, connect(f"/ws/matches/{match}") as ws1:
        for seat, ws in enumerate((ws0, ws1)):
            ws.send_json({"credential": creds[seat], "since": 0})
        states = [until(ws, "state") for ws in (ws0, ws1)]
        mover = (ws0, ws1)[states[0]["to_act"]]
        before = shared.grouped
        mover.send_json({"decide": {"head": states[0]["head"], "choice": 0}})
        ack = until(mover, "ack")
        other = SQLiteStore(server.db)  # type: ignore[attr-defined]
        assert ack["applied"] and ack["head"] > states[0]["head"] and other.head(match) == ack["head"]
        assert shared.grouped == before + 1
        other.close()


def closed_with(ws: Any) -> WebSocketDisconnect:
    """How the server closed ``ws``: every message it sent before, then the close (code and reason)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(50):
            ws.receive_json()
    return closed.value


def test_bad_first_messages_are_closed_with_a_code_and_append_nothing(server: TestClient) -> None:
    """A connection that does not say who it is properly is closed: 1008 for a malformed first message, a wrong
    credential or another match's seat's credential (with an error naming the problem first), 1009 for an
    oversized one. Nothing is appended, and another match's seats play on."""
    match, _, _ = start(server, "duel_masters")
    other, _, other_creds = start(server, "shadowverse")
    head = server.get(f"/api/matches/{match}").json()["head"]
    for first, code, says in (
            ({"credential": "not-a-credential"}, serve_app.POLICY_VIOLATION, "no seat's of this match"),
            ({"credential": other_creds[0], "since": 0}, serve_app.POLICY_VIOLATION, "no seat's of this match"),
            ({"credential": 7}, serve_app.POLICY_VIOLATION, "names the seat's credential"),
            ({"credential": "x" * 300}, serve_app.POLICY_VIOLATION, "names the seat's credential"),
            ({"spectate": True, "since": -1}, serve_app.POLICY_VIOLATION, "since: the last record"),
            ("{" * 10, serve_app.POLICY_VIOLATION, "one JSON object"),
            ("[1, 2]", serve_app.POLICY_VIOLATION, "one JSON object"),
            ({"credential": "x", "pad": "x" * 20_000}, serve_app.TOO_BIG, "")):
        with server.websocket_connect(f"/ws/matches/{match}") as ws:
            ws.send_text(first if isinstance(first, str) else json.dumps(first))
            messages = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    messages.append(ws.receive_json())
        assert closed.value.code == code, (first, closed.value)
        assert [m["type"] for m in messages] == (["error"] if says else []), (first, messages)
        assert not says or says in messages[0]["message"], (first, messages)
    with server.websocket_connect("/ws/matches/m-nope") as ws:
        ws.send_json({"spectate": True, "since": 0})
        assert "no match" in until(ws, "error")["message"]
        assert closed_with(ws).code == serve_app.POLICY_VIOLATION
    assert server.get(f"/api/matches/{match}").json()["head"] == head
    plays_on(server, other, other_creds)


def plays_on(server: TestClient, match: str, creds: list[str]) -> None:
    """The match's seats connect and the one to act has a decision acknowledged and applied."""
    connect = server.websocket_connect
    with connect(f"/ws/matches/{match}") as ws0, connect(f"/ws/matches/{match}") as ws1:
        ws0.send_json({"credential": creds[0], "since": 0})
        ws1.send_json({"credential": creds[1], "since": 0})
        s0, s1 = until(ws0, "state"), until(ws1, "state")
        mover, state = (ws0, s0) if s0["legal"] else (ws1, s1)
        mover.send_json({"decide": {"head": state["head"], "choice": 0}})
        ack = until(mover, "ack")
        assert ack["applied"] and ack["head"] > state["head"]
    assert server.get(f"/api/matches/{match}").json()["head"] == ack["head"]


def test_bad_messages_and_wrong_seats_append_nothing(server: TestClient) -> None:
    """During play: a decision for the other seat is refused naming the rule, one made against an old head is
    stale, a bad choice or a malformed decision is an error; a retry is applied once; a malformed message closes
    the connection with 1008, an oversized one with 1009. Nothing of it is appended, and another match plays on."""
    match, _, creds = start(server, "duel_masters")
    other, _, other_creds = start(server, "shadowverse")
    ws0 = server.websocket_connect(f"/ws/matches/{match}")
    ws1 = server.websocket_connect(f"/ws/matches/{match}")
    with ws0, ws1:
        ws0.send_json({"credential": creds[0], "since": 0})
        ws1.send_json({"credential": creds[1], "since": 0})
        s0, s1 = until(ws0, "state"), until(ws1, "state")
        mover, other_ws = (ws0, ws1) if s0["legal"] else (ws1, ws0)
        state = s0 if s0["legal"] else s1
        other_state = s1 if s0["legal"] else s0
        head = state["head"]
        other_ws.send_json({"decide": {"head": head, "action": state["legal"][0]["action"],
                                       "args": state["legal"][0]["args"]}})
        refused = until(other_ws, "refused")
        assert refused["rule"] == "KIFU-TURN"
        mover.send_json({"decide": {"head": head - 1, "choice": 0}})
        assert "made against record" in until(mover, "stale")["message"]
        mover.send_json({"decide": {"head": head, "choice": 99}})
        assert "choice" in until(mover, "error")["message"]
        for malformed in ({"decide": {"choice": 0}}, {"decide": [0]}, {"decide": {"head": head, "action": 5}},
                          {"decide": {"head": head, "action": "x", "args": list(range(65))}}):
            mover.send_json(malformed)
            says = until(mover, "error")["message"]
            assert "a decision is" in says or "action: a name" in says, (malformed, says)
        assert server.get(f"/api/matches/{match}").json()["head"] == head
        mover.send_json({"decide": {"head": head, "choice": 0}})
        first = until(mover, "ack")
        mover.send_json({"decide": {"head": head, "choice": 0}})  # a retry of the same decision
        again = until(mover, "ack")
        assert first["applied"] and not again["applied"] and again["head"] == first["head"]
        assert other_state["head"] == head
        other_ws.send_text("not json")
        assert closed_with(other_ws).code == serve_app.POLICY_VIOLATION
        mover.send_text(json.dumps({"decide": {"head": first["head"], "pad": "x" * 40_000}}))
        assert closed_with(mover).code == serve_app.TOO_BIG
    assert server.get(f"/api/matches/{match}").json()["head"] == first["head"]
    plays_on(server, other, other_creds)


def test_the_log_waits_for_the_end_unless_a_seat_asks(server: TestClient) -> None:
    match, _, creds = start(server, "vision")
    head = server.get(f"/api/matches/{match}").json()["head"]
    assert server.get(f"/api/matches/{match}/log").status_code == 400
    mine = server.get(f"/api/matches/{match}/log", headers={"Authorization": f"Bearer {creds[1]}"})
    assert mine.status_code == 200 and mine.content.count(b"\n") >= 1
    assert server.get("/api/matches/m-nope").status_code == 404
    bad = server.post("/api/matches", json={**sample("magic"), "decks": [["no_such_card"], ["no_such_card"]]})
    assert bad.status_code == 400 and "not in magic's pool" in bad.json()["error"]
    assert server.post("/api/matches", json={"game": "chess"}).status_code == 400
    taken = server.post(f"/api/matches/{match}/seats/0", json={"nonce": secrets.token_hex(32)})
    assert taken.status_code == 400 and "taken" in taken.json()["error"]
    _, _, other_creds = start(server, "vision")  # another match's seat asks for this one's log
    theirs = server.get(f"/api/matches/{match}/log", headers={"Authorization": f"Bearer {other_creds[0]}"})
    assert theirs.status_code == 400 and "a seat's credential is needed" in theirs.json()["error"]
    for seat, body, says in (("1", {"nonce": "zz"}, "64 hex digits"), ("7", {"nonce": "00" * 32}, "no seat 7")):
        joined = server.post(f"/api/matches/{match}/seats/{seat}", json=body)
        assert joined.status_code == 400 and says in joined.json()["error"], joined.text
    # A body that is not JSON, or not an object, or a seat that is not a number: FastAPI's validation answer.
    for malformed in (server.post("/api/matches", content=b"{not json", headers={"content-type": "application/json"}),
                      server.post("/api/matches", json=[1, 2]),
                      server.post(f"/api/matches/{match}/seats/x", json={"nonce": "00" * 32})):
        assert malformed.status_code == 422 and malformed.json()["detail"][0]["msg"], malformed.text
    assert server.get(f"/api/matches/{match}").json()["head"] == head


def test_a_spectator_sees_neither_hand(server: TestClient) -> None:
    match, _, _ = start(server, "shadowverse")
    with server.websocket_connect(f"/ws/matches/{match}") as ws:
        ws.send_json({"spectate": True, "since": 0})
        assert until(ws, "hello")["seat"] is None
        state = until(ws, "state")
        for zone, content in state["zones"].items():
            if zone.endswith(("hand", "deck")):
                assert isinstance(content, dict) and content["visible"] == [], zone
        assert state["legal"] == []
        ws.send_json({"decide": {"head": state["head"], "choice": 0}})
        assert "spectator" in until(ws, "error")["message"]


def test_a_judges_view_spectator_sees_every_card_the_delay_behind_and_never_the_seed(server: TestClient) -> None:
    delay = 5
    created = server.post("/api/matches", json={**sample("shadowverse"), "spectator_view": "judge",
                                                "spectator_delay": delay})
    assert created.status_code == 200, created.text
    match = created.json()["match"]
    assert server.get(f"/api/matches/{match}").json()["spectators"] == {"view": "judge", "delay": delay}
    creds = [server.post(f"/api/matches/{match}/seats/{s}", json={"nonce": secrets.token_hex(32)}).json()["credential"]
             for s in (0, 1)]
    rng = random.Random(3)
    connect = server.websocket_connect
    with (connect(f"/ws/matches/{match}") as ws0, connect(f"/ws/matches/{match}") as ws1,
          connect(f"/ws/matches/{match}") as watcher):
        seats = [ws0, ws1]
        for seat, ws in enumerate(seats):
            ws.send_json({"credential": creds[seat], "since": 0})
            assert until(ws, "hello")["seat"] == seat
        watcher.send_json({"spectate": True, "since": 0})
        assert until(watcher, "hello")["seat"] is None
        states = [until(ws, "state") for ws in seats]
        for _ in range(12):  # a few decisions, each seen by both seats before the next
            mover = states[0]["to_act"]
            seats[mover].send_json({"decide": answer(states[mover], rng)[0]})
            head = until(seats[mover], "ack")["head"]
            for s in (0, 1):
                while (m := seats[s].receive_json())["type"] != "state" or m["head"] != head:
                    pass
                states[s] = m
        watched: list[dict[str, Any]] = []
        while not watched or watched[-1]["type"] != "state" or watched[-1]["head"] != head - delay:
            watched.append(watcher.receive_json())
        watcher.send_json({"decide": {"head": head, "choice": 0}})
        assert "spectator" in until(watcher, "error")["message"]
    judge = server.service.view(match, None, at=head - delay)  # type: ignore[attr-defined]
    board = watched[-1]
    assert board["viewer"] is None and board["legal"] == [] and board["pick"] is None
    for zone in ("0.hand", "1.hand"):  # both hands by name, as the judge sees them that many records ago
        assert isinstance(board["zones"][zone], list) and board["zones"][zone] == judge["zones"][zone], zone
    records = [r for m in watched if m["type"] == "records" for r in m["records"]]
    assert [r["seq"] for r in records] == list(range(1, head - delay + 1))  # every record, none past the delay
    assert all(m["head"] <= head - delay for m in watched if m["type"] == "state")
    seed = server.service.engine(match).state.seed  # type: ignore[attr-defined]
    assert not any(str(seed) in json.dumps(m) for m in watched)


def test_a_judges_view_needs_a_delay_and_a_view_is_public_or_the_judges(server: TestClient) -> None:
    for body, named in (({"spectator_view": "judge"}, "spectator_delay"),
                        ({"spectator_view": "judge", "spectator_delay": 0}, "spectator_delay"),
                        ({"spectator_view": "everything", "spectator_delay": 3}, "spectator_view")):
        refused = server.post("/api/matches", json={**sample("shadowverse"), **body})
        assert refused.status_code == 400 and named in refused.json()["error"], refused.text
    public = server.post("/api/matches", json=sample("shadowverse")).json()["match"]
    assert server.get(f"/api/matches/{public}").json()["spectators"] == {"view": "public", "delay": 0}


def test_a_matchs_options_are_checked_when_it_is_created(server: TestClient) -> None:
    for options, named in (({"bogus": "1"}, "option 'bogus'"), ({"mulligan": "maybe"}, "mulligan")):
        refused = server.post("/api/matches", json={**sample("shadowverse"), "options": options})
        assert refused.status_code == 400 and named in refused.json()["error"], refused.text
    created = server.post("/api/matches", json={**sample("shadowverse"), "options": {"mulligan": "off"}})
    assert created.status_code == 200, created.text
    match = created.json()["match"]
    for seat in (0, 1):  # (the second join deals the game with the options given)
        joined = server.post(f"/api/matches/{match}/seats/{seat}", json={"nonce": secrets.token_hex(32)})
        assert joined.status_code == 200, joined.text
    assert server.get(f"/api/matches/{match}").json()["head"] > 0


W_BREAKER_BOARD = """
id = "serve-pick"
game = "duel_masters"
title = "a double breaker attacks five shields"
[setup]
turn = 3
active = 0
step = "attack"
cards = [
  { handle = "bolshack", card = "bolshack_dragon", zone = "battle" },
  { handle = "s1", card = "bronze_arm_tribe", owner = 1, zone = "shields" },
  { handle = "s2", card = "bronze_arm_tribe", owner = 1, zone = "shields" },
  { handle = "s3", card = "bronze_arm_tribe", owner = 1, zone = "shields" },
  { handle = "s4", card = "bronze_arm_tribe", owner = 1, zone = "shields" },
  { handle = "s5", card = "bronze_arm_tribe", owner = 1, zone = "shields" },
  { handle = "deck0", card = "dark_soldier", owner = 0, zone = "deck" },
  { handle = "deck1", card = "dark_soldier", owner = 1, zone = "deck" },
]
"""


def test_a_request_for_several_options_is_answered_with_a_pick(server: TestClient, tmp_path: Path) -> None:
    """Breaking two shields at once is one decision naming both: the state offers it as ``pick`` (it has no
    single legal answer), a bad pick appends nothing, a good one is applied."""
    board = tmp_path / "serve-pick.toml"
    board.write_text(W_BREAKER_BOARD, encoding="utf-8")
    sc = load_scenario(board)
    profile = load_profile("duel_masters", None)
    service: Service = server.service  # type: ignore[attr-defined]
    match = service.lobby.create(MatchSpec("duel_masters", list(sc.setup.players), [[], []]))
    creds = [service.lobby.join(match.id, s, secrets.token_bytes(32))[0] for s in (0, 1)]
    store = open_store(server.db, write=True)  # type: ignore[attr-defined]  # (the server's own is its thread's)
    Engine.from_setup(profile, Board(sc, str(board), profile, profile.pool).events, store, match.id)
    with server.websocket_connect(f"/ws/matches/{match.id}") as ws:
        ws.send_json({"credential": creds[0], "since": 0})
        state = until(ws, "state")
        attack = next(x for x in state["legal"] if x["action"] == "attack" and x["args"][1] == "player")
        ws.send_json({"decide": {"head": state["head"], "choice": attack["index"]}})
        head = until(ws, "ack")["head"]
        state = until(ws, "state")
        while state["head"] != head:
            state = until(ws, "state")
        pick = state["pick"]
        assert state["legal"] == [] and pick["minimum"] == pick["maximum"] == 2 and len(pick["options"]) == 5
        assert pick["rule"] == "DM-GAME-BREAK"
        for bad, says in (([0], "refused"), ([0, 0], "error"), ([0, 9], "error"), ("0,1", "error"),
                          ([0, 1, 2], "refused")):
            ws.send_json({"decide": {"head": head, "pick": bad}})
            answer_ = ws.receive_json()
            assert answer_["type"] == says, (bad, answer_)
            assert store.head(match.id) == head
        ws.send_json({"decide": {"head": head, "pick": [0, 3]}})
        assert until(ws, "ack")["applied"]
    shields = [r.event for r in store.read(match.id, head + 1)
               if isinstance(r.event, ev.ZoneChanged) and r.event.src == "1.shields"]
    assert len(shields) == 2


def test_a_flood_of_connections_is_refused_with_a_close_code_and_the_seats_play_on(
        server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections that never say who they are are closed (1008) after a while; spectators past the match's bound,
    and one seat's connections past its own, are closed with "try again later" (1013) while the other seat still
    connects; nothing is appended; then the seats play on."""
    monkeypatch.setattr(serve_app, "FIRST_MESSAGE_WITHIN", 0.2)
    match, _, creds = start(server, "shadowverse")
    head = server.get(f"/api/matches/{match}").json()["head"]
    with server.websocket_connect(f"/ws/matches/{match}") as idle, pytest.raises(WebSocketDisconnect) as closed:
        idle.receive_json()
    assert closed.value.code == serve_app.POLICY_VIOLATION and "no credential" in closed.value.reason
    with contextlib.ExitStack() as stack:
        for _ in range(serve_app.MAX_SPECTATORS):
            watcher = stack.enter_context(server.websocket_connect(f"/ws/matches/{match}"))
            watcher.send_json({"spectate": True, "since": 0})
            assert watcher.receive_json()["type"] == "hello"
        with server.websocket_connect(f"/ws/matches/{match}") as one_too_many:
            one_too_many.send_json({"spectate": True, "since": 0})
            with pytest.raises(WebSocketDisconnect) as refused:
                one_too_many.receive_json()
        assert refused.value.code == serve_app.TRY_AGAIN_LATER
        assert "64 connections of spectators" in refused.value.reason
        for _ in range(serve_app.MAX_SEAT_CONNECTIONS):  # seat 0's client left connections behind
            stale = stack.enter_context(server.websocket_connect(f"/ws/matches/{match}"))
            stale.send_json({"credential": creds[0], "since": 0})
            assert until(stale, "hello")["seat"] == 0
        with server.websocket_connect(f"/ws/matches/{match}") as one_too_many:
            one_too_many.send_json({"credential": creds[0], "since": 0})
            with pytest.raises(WebSocketDisconnect) as refused:
                one_too_many.receive_json()
        assert refused.value.code == serve_app.TRY_AGAIN_LATER and "connections of seat 0" in refused.value.reason
        seat1 = stack.enter_context(server.websocket_connect(f"/ws/matches/{match}"))
        seat1.send_json({"credential": creds[1], "since": 0})
        assert until(seat1, "hello")["seat"] == 1 and until(seat1, "state")["head"] == head
    assert server.get(f"/api/matches/{match}").json()["head"] == head
    plays_on(server, match, creds)  # (once the flood has gone)
