"""kifu debug and kifu query, through the JSON API the page uses (Starlette's TestClient, in-process) and against
the fold.

- Only the session's token opens it: without it, with another, from another Host, or with an oversized body the
  answer is an error and nothing is read.
- Breakpoints stop exactly at the records a plain fold of the whole log finds for the same condition, forward and
  back, at random points of every sample game; a query lists a value exactly where the fold changes it.
- "Where did it come from" names the last record after which the value became what it is (the fold agrees at
  every record between it and the point), and its causes end at the player's decision (or the set-up); a
  look-back value leads to the board just before its card left.
- "Any refusal" stops exactly where a fold of the same condition over the refusals the session knows finds them
  (a scenario's refused steps, a decision refused in the page), forward and back; a refusal appends nothing.
- Why-not through the API answers as ``kifu why-not`` does; a request's option and a computed amount lead to the
  record that made them, its rule and its causes; a counter's origin read from the session's index is the fold's.
- A what-if fork made through the API is an ordinary log that ``kifu audit`` finds clean.
- A failing scenario opens at its failing step, and runs again when its file changes.
- A seat's view in the debugger does not change when a card that seat never saw changes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import GENESIS, NewEvent, decode, seal
from projections.state import GameState, copy, evolve, fork
from tests.tools.games import export, play, sampled_games
from tools.cli import main
from tools.debug.app import COOKIE, create_app
from tools.debug.expressions import parse_condition, parse_value
from tools.debug.provenance import Path as ValuePath
from tools.debug.session import Session, Source, names_of, run_scenario
from tools.travel.loaded import load_log
from tools.travel.points import open_at_points
from tools.travel.streamed import PointLog

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "t0ken-for-tests"
GAMES = sampled_games()
CONDITIONS = ("event Triggered", "leaves battle", "enters hand", "decision 0", "pending >= 2", "changes turn",
              "event ZoneChanged and pending >= 1")


def client(session: Session) -> TestClient:
    c = TestClient(create_app(session, TOKEN, ["testserver"]))
    c.cookies.set(COOKIE, TOKEN)
    return c


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("debug-logs")
    return {name: export(name, folder / f"{name}.jsonl") for name in GAMES}


def states(path: Path) -> list[GameState]:
    """The state after every record, by a plain fold of the whole log (the reference the debugger must match)."""
    state, out = GameState(), []
    out.append(copy(state))
    for raw in exchange.read(path):
        rec = decode(raw)
        evolve(state, rec.seq, rec.event, rec.decision)
        out.append(copy(state))
    return out


# -- the guard -------------------------------------------------------------------------------------------------


def test_only_the_token_opens_it(logs: dict[str, Path], tmp_path: Path) -> None:
    session = Session(Source(str(logs[GAMES[0]]), None), str(tmp_path / "forks.db"))
    bare = TestClient(create_app(session, TOKEN, ["testserver"]))
    assert bare.get("/api/info").status_code == 401
    assert bare.get("/api/info", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert bare.get("/?token=wrong", follow_redirects=False).status_code == 403
    entered = bare.get(f"/?token={TOKEN}", follow_redirects=False)
    assert entered.status_code == 303 and entered.headers["location"] == "/"
    cookie = entered.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert bare.get("/api/info", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    other_host = TestClient(create_app(session, TOKEN, ["127.0.0.1:9"]))
    assert other_host.get("/api/info", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 400
    c = client(session)
    big = c.post("/api/origin?at=1", content=b"{" + b" " * 20_000 + b"}", headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert c.get("/static/..%2Fapp.py").status_code in (400, 404)
    assert "/api/origin" in c.get("/openapi.json").json()["paths"]


def test_bad_questions_are_named(logs: dict[str, Path], tmp_path: Path) -> None:
    c = client(Session(Source(str(logs[GAMES[0]]), None), str(tmp_path / "forks.db")))
    assert "no point 999999" in c.get("/api/point/999999").json()["error"]
    assert "cannot read the condition" in c.get("/api/search", params={"condition": "bogus", "at": 1}).text
    assert "no event kind" in c.get("/api/search", params={"condition": "event Nope", "at": 1}).text
    assert "no player" in c.get("/api/point/1", params={"seat": "Nobody"}).json()["error"]
    answer = c.post("/api/origin?at=1", json={"kind": "object", "field": "colour", "obj": 1})
    assert answer.status_code == 400 and "no object field" in answer.json()["error"]


# -- stepping, breakpoints and queries agree with the fold -----------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_breakpoints_stop_where_the_fold_says(name: str, logs: dict[str, Path], tmp_path: Path) -> None:
    path = logs[name]
    session = Session(Source(str(path), None), str(tmp_path / "forks.db"))
    c = client(session)
    log = load_log(str(path), None)
    folded = states(path)
    records = [decode(r) for r in exchange.read(path)]
    rng = random.Random(name)
    for text in CONDITIONS:
        cond = parse_condition(text, names_of(log))
        holds = [r.seq for r in records
                 if cond.holds(r.event, tuple(v.read(folded[r.seq - 1], None) for v in cond.values),
                               tuple(v.read(folded[r.seq], None) for v in cond.values), seq=r.seq)]
        for at in rng.sample(range(len(records) + 1), 6):
            want_next = next((s for s in holds if s > at), None)
            want_prev = next((s for s in reversed(holds) if s <= at), None)
            for direction, want in (("next", want_next), ("prev", want_prev)):
                lines = [json.loads(x) for x in c.get("/api/search", params={
                    "condition": text, "at": at, "direction": direction}).text.splitlines()]
                got = lines[-1]["match"]
                assert (got["seq"] if got else None) == want, (name, text, at, direction)


@pytest.mark.parametrize("name", GAMES)
def test_a_query_lists_a_value_where_the_fold_changes_it(name: str, logs: dict[str, Path], tmp_path: Path) -> None:
    path = logs[name]
    c = client(Session(Source(str(path), None), str(tmp_path / "forks.db")))
    folded = states(path)
    log = load_log(str(path), None)
    for text in ("pending", "turn", "stat 0 " + _a_stat(folded), "size 1.hand"):
        value = parse_value(text.split(), names_of(log))
        rows = [json.loads(x) for x in c.get("/api/query", params={"expression": text}).text.splitlines()]
        got = [(r["seq"], r["value"]) for r in rows if "seq" in r]
        want = [(0, value.read(folded[0], None))]
        for seq in range(1, len(folded)):
            now = value.read(folded[seq], None)
            if now != want[-1][1]:
                want.append((seq, now))
        assert got == want, (name, text)


def _a_stat(folded: list[GameState]) -> str:
    return sorted(folded[-1].players[0].stats)[0]


@pytest.mark.parametrize("name", GAMES)
def test_steps_by_decision_and_turn(name: str, logs: dict[str, Path], tmp_path: Path) -> None:
    path = logs[name]
    c = client(Session(Source(str(path), None), str(tmp_path / "forks.db")))
    records = [decode(r) for r in exchange.read(path)]
    decisions = [r.seq - 1 for r in records if isinstance(r.event, ev.ChoiceMade)]
    turns = [r.seq for r in records if isinstance(r.event, ev.TurnBegan)]
    for at in (0, decisions[3], decisions[3] + 1, turns[2]):
        nxt = c.get("/api/step", params={"at": at, "by": "decision", "direction": "next"}).json()["point"]
        assert nxt == next(p for p in decisions if p > at)
        prev = c.get("/api/step", params={"at": at, "by": "turn", "direction": "prev"}).json()["point"]
        assert prev == max((t for t in turns if t < at), default=0)


# -- provenance --------------------------------------------------------------------------------------------------


def _values(state: GameState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for oid, obj in sorted(state.objects.items()):
        if obj.zone.endswith(("battle", "battlefield", "field", "mana", "board")):
            out += [{"kind": "object", "obj": oid, "field": f} for f in ("zone", "power")]
            out += [{"kind": "object", "obj": oid, "field": "status", "key": k} for k in sorted(obj.status)]
    for p, player in enumerate(state.players):
        out += [{"kind": "player", "player": p, "key": k} for k in sorted(player.stats)]
    out += [{"kind": "pending", "effect": e} for e in sorted(state.pending)]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_where_a_value_came_from_is_the_last_change(name: str, logs: dict[str, Path], tmp_path: Path) -> None:
    path = logs[name]
    c = client(Session(Source(str(path), None), str(tmp_path / "forks.db")))
    folded = states(path)
    records = {r.seq: r for r in map(decode, exchange.read(path))}
    rng = random.Random(name)
    checked = 0
    for n in rng.sample(range(1, len(folded)), 8):
        for raw_path in rng.sample(_values(folded[n]), min(6, len(_values(folded[n])))):
            answer = c.post(f"/api/origin?at={n}", json=raw_path).json()
            vp = ValuePath(raw_path["kind"], obj=raw_path.get("obj", 0), field=raw_path.get("field", ""),
                           key=raw_path.get("key", ""), player=raw_path.get("player", 0),
                           effect=raw_path.get("effect", 0))
            value = vp.read(folded[n])
            if not answer["set_by"]:
                assert all(vp.read(folded[s]) == value for s in range(0, n + 1)), (name, n, raw_path)
                continue
            origin = answer["set_by"][0]["seq"]
            assert origin <= n
            assert all(vp.read(folded[s]) == value for s in range(origin, n + 1)), (name, n, raw_path, origin)
            created_here = raw_path["kind"] in ("object", "pending") and vp.read(folded[origin - 1]) is None
            assert created_here or vp.read(folded[origin - 1]) != value, (name, n, raw_path, origin)
            chain = answer["set_by"]
            assert [e["seq"] for e in chain] == sorted((e["seq"] for e in chain), reverse=True)
            last = records[chain[-1]["seq"]]
            assert isinstance(last.event, ev.ChoiceMade) or last.decision == 0 or (len(chain) == 1 and not last.cause)
            checked += 1
    assert checked >= 20, f"only {checked} values were checked in {name}"


def test_a_look_back_value_leads_to_the_board_before_its_card_left(logs: dict[str, Path], tmp_path: Path) -> None:
    """A trigger checked in the state just before its event (a leave or destroy trigger): the power of its source,
    asked at the trigger, is gone from the board; the answer leads to the record that moved it and the board just
    before, where the power is what the look-back state says."""
    found = 0
    for name in GAMES:
        path = logs[name]
        c = client(Session(Source(str(path), None), str(tmp_path / f"{name}-forks.db")))
        folded = states(path)
        for r in map(decode, exchange.read(path)):
            e = r.event
            if not (isinstance(e, ev.Triggered) and e.checked == ev.BEFORE and e.source not in folded[r.seq].objects
                    and e.source in folded[r.seq].last_known):
                continue
            asked = {"kind": "object", "obj": e.source, "field": "power"}
            answer = c.post(f"/api/origin?at={r.seq}", json=asked).json()
            left = folded[r.seq].last_known[e.source].left_at
            assert answer["look_back"]["left_at"] == left == answer["set_by"][0]["seq"]
            assert answer["look_back"]["point_before"] == left - 1
            from projections.characteristics import view
            assert answer["look_back"]["value"] == view(folded[left - 1], e.source).chars.power
            found += 1
    assert found >= 3, "the sample games should hold look-back triggers"


# -- what if -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_fork_made_in_the_debugger_audits_clean(name: str, logs: dict[str, Path], tmp_path: Path) -> None:
    forks = tmp_path / "forks.db"
    c = client(Session(Source(str(logs[name]), None), str(forks)))
    records = [decode(r) for r in exchange.read(logs[name])]
    points = [r.seq - 1 for r in records if isinstance(r.event, ev.ChoiceMade)]
    for at in points[len(points) // 3:]:
        legal = c.get(f"/api/legal/{at}").json()
        if len(legal["decisions"]) >= 2:
            break
    else:
        pytest.fail(f"no point of {name} with two legal decisions")
    played = records[at].event
    assert isinstance(played, ev.ChoiceMade)
    choice = next(i for i, text in enumerate(legal["decisions"])
                  if text.split("   ")[0] != " ".join([played.action, *map(str, played.args)]))
    fork = c.post("/api/fork", params={"at": at, "choice": choice}).json()
    assert fork["first_difference"] == {"a": at + 1, "b": at + 2}  # (the fork's branch point is passed over)
    assert fork["game"] in c.get("/api/info").json()["branches"]
    end = c.get("/api/info", params={"game": fork["game"]}).json()["last"]
    after = c.get(f"/api/legal/{end}", params={"game": fork["game"]}).json()
    if after["decisions"]:
        c.post("/api/decide", params={"game": fork["game"], "choice": 0}).raise_for_status()
    result = CliRunner().invoke(main, ["audit", str(forks), "--game", fork["game"]])
    assert result.exit_code == 0, result.output


# -- scenarios -------------------------------------------------------------------------------------------------------


def test_a_failing_scenario_opens_at_its_failing_step(tmp_path: Path) -> None:
    source = ROOT / "tests/scenarios/duel_masters/DM-W-S11.toml"
    scenario = tmp_path / "DM-W-S11.toml"
    text = source.read_text(encoding="utf-8")
    wrong = text.replace('request = { player = 1, kind = "may" }', 'request = { player = 0, kind = "may" }')
    scenario.write_text(wrong, encoding="utf-8")
    src = run_scenario(scenario, tmp_path, 1)
    assert src.failure is not None and src.failure.step == 1 and "request" in src.failure.message
    session = Session(src, str(tmp_path / "forks.db"))
    c = client(session)
    info = c.get("/api/info").json()
    assert info["scenario"]["failure"]["step"] == 1 and info["scenario"]["failure"]["seq"] == info["last"]
    board = c.get(f"/api/point/{info['scenario']['failure']['seq']}").json()
    assert board["request"]["player"] == 1  # the actual, beside the expected the message names
    scenario.write_text(text, encoding="utf-8")  # fixed: the next look runs it again, and it passes
    later = int(src.mtime) + 10**9
    os.utime(scenario, ns=(later, later))
    again = c.get("/api/scenario").json()
    assert again["scenario"]["runs"] == 2 and again["scenario"]["failure"] is None


def test_scenario_run_keeps_each_log(tmp_path: Path) -> None:
    db = tmp_path / "scenarios.db"
    folder = ROOT / "tests/scenarios/vision"
    result = CliRunner().invoke(main, ["scenario", "run", "--db", str(db), str(folder)])
    assert result.exit_code == 0, result.output
    games = CliRunner().invoke(main, ["games", "--db", str(db)])
    assert games.exit_code == 0
    one = next(p.stem for p in sorted(folder.glob("*.toml")) if p.stem.startswith("VOP-"))  # (one that plays)
    assert one in games.output
    assert CliRunner().invoke(main, ["audit", str(db), "--game", one, "--given-setup-ok"]).exit_code == 0


# -- what a seat sees ---------------------------------------------------------------------------------------------


def _never_seen_by(records: list[Any], seat: int) -> int:
    """An object of the other seat's deck that stays there from its creation to the end: seat never sees it."""
    moved = {r.event.old for r in records if isinstance(r.event, ev.ZoneChanged)}
    revealed = {r.event.obj for r in records if isinstance(r.event, ev.Revealed)}
    for r in records:
        e = r.event
        if (isinstance(e, ev.ObjectCreated) and e.zone == f"{1 - seat}.deck" and e.obj not in moved
                and e.obj not in revealed):
            return e.obj
    raise AssertionError("every card of the deck moved")


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_view_does_not_change_with_a_card_it_never_saw(name: str, tmp_path: Path) -> None:
    raws = play(name)
    records = [decode(r) for r in raws]
    oid = _never_seen_by(records, 0)
    changed = []
    for r in records:
        e = r.event
        if isinstance(e, ev.ObjectCreated) and e.obj == oid:
            e = msgspec.structs.replace(e, definition="another_card",
                                        printed=ev.Characteristics("別のカード", ("creature",), power=99999))
        changed.append(NewEvent(e, r.decision, r.cause))
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    exchange.write(raws, a)
    exchange.write(seal(raws[0].game, 1, GENESIS, changed), b)
    ca = client(Session(Source(str(a), None), str(tmp_path / "fa.db")))
    cb = client(Session(Source(str(b), None), str(tmp_path / "fb.db")))
    judge = (ca.get(f"/api/point/{n}").content != cb.get(f"/api/point/{n}").content for n in range(len(raws)))
    assert any(judge), "the judge sees the card: the two logs must differ somewhere for this test to mean anything"
    step = max(7, len(raws) // 150)  # (about 150 points of a long game: the card is created once and never moves)
    for n in range(0, len(raws) + 1, step):
        for path in (f"/api/point/{n}", "/api/records"):
            params = {"seat": "0"} if path.startswith("/api/point") else {"seat": "0", "start": max(1, n), "count": 7}
            assert ca.get(path, params=params).content == cb.get(path, params=params).content, (name, path, n)
    for expr in ("pending", "size 1.deck"):
        assert (ca.get("/api/query", params={"expression": expr, "seat": "0"}).content
                == cb.get("/api/query", params={"expression": expr, "seat": "0"}).content)


# -- kifu query ---------------------------------------------------------------------------------------------------


def test_kifu_query_lists_changes_and_matches(logs: dict[str, Path]) -> None:
    path = logs["duel_masters"] if "duel_masters" in logs else logs[GAMES[0]]
    result = CliRunner().invoke(main, ["query", str(path), "turn"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "record 0: turn = 0" and lines[1].endswith("turn = 1")
    as_json = CliRunner().invoke(main, ["query", str(path), "turn", "--json"])
    assert [f"record {r['seq']}: turn = {r['value']}" for r in map(json.loads, as_json.output.splitlines())] == lines
    found = CliRunner().invoke(main, ["query", str(path), "--where", "event TurnBegan", "--json"])
    rows = [json.loads(x) for x in found.output.splitlines()]
    assert len(rows) == len(lines) - 1
    assert all(" begins: " in r["line"] and r["line"].startswith(f"record {r['seq']}: turn ") for r in rows), rows
    none = CliRunner().invoke(main, ["query", str(path), "--where", "pending >= 99"])
    assert none.exit_code == 1 and none.output == ""
    bad = CliRunner().invoke(main, ["query", str(path), "colour #1"])
    assert bad.exit_code == 2 and "cannot read the value" in bad.output


def test_debug_refuses_what_it_cannot_open(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["debug", str(tmp_path / "nope.db"), "--no-browser"])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    shutil.copy(ROOT / "tests/scenarios/duel_masters/DM-W-S11.toml", tmp_path / "wrong-name.toml")
    broken = CliRunner().invoke(main, ["debug", str(tmp_path / "wrong-name.toml"), "--no-browser"])
    assert broken.exit_code == 2 and "must equal the file name" in broken.output


# -- why-not inline, refusals, options, amounts, counters on a store -------------------------------------------------


def test_why_not_through_the_api_is_kifu_why_not(logs: dict[str, Path], tmp_path: Path) -> None:
    path = logs["duel_masters"]
    c = client(Session(Source(str(path), None), str(tmp_path / "forks.db")))
    records = [decode(r) for r in exchange.read(path)]
    folded = states(path)
    moves = [r for r in records if isinstance(r.event, ev.ZoneChanged) and r.seq > 20][:2]
    assert moves, "the sample game moves cards"
    for r in moves:
        assert isinstance(r.event, ev.ZoneChanged)
        for oid in (r.event.old, next(iter(sorted(folded[r.seq].objects)))):
            cli = CliRunner().invoke(main, ["why-not", str(path), str(r.seq), f"#{oid}"])
            assert cli.exit_code == 0, cli.output
            answer = c.get(f"/api/why-not/{r.seq}", params={"card": f"#{oid}"}).json()
            assert answer["lines"] == cli.output.rstrip("\n").split("\n")
    unknown = c.get(f"/api/why-not/{moves[0].seq}", params={"card": "no such card"})
    assert unknown.status_code == 400 and "no such card" in unknown.json()["error"]
    described = c.get("/openapi.json").json()["paths"]["/api/why-not/{n}"]["get"]["parameters"]
    card = next(p for p in described if p["name"] == "card")
    assert "#OBJECT" in card.get("description", "") + card["schema"].get("description", "")


def _refusal_reference(session: Session, c: TestClient, text: str, sample: int | None = None) -> None:
    """At every point of the log (or ``sample`` random ones, beside each refusal's): the breakpoint ``text``
    stops, forward and back, where a fold of the condition (over the refusals the session lists) finds it."""
    known = frozenset((r["point"], r["player"]) for r in c.get("/api/info").json()["refusals"])
    with open_at_points(session.source.location, session.source.game) as log:  # (the test's own reader)
        cond = parse_condition(text, dataclasses.replace(names_of(log), refusals=known))
        folded = [log.state_at(n) for n in range(log.last + 1)]
        events = [log.record(seq).event for seq in range(1, log.last + 1)]
    holds = [seq for seq in range(1, len(folded))
             if cond.holds(events[seq - 1], tuple(v.read(folded[seq - 1], None) for v in cond.values),
                           tuple(v.read(folded[seq], None) for v in cond.values), seq=seq)]
    assert holds, text
    points = set(range(len(folded)))
    if sample is not None:
        near = {p for at, _ in known for p in (at - 1, at, at + 1) if 0 <= p < len(folded)}
        points = near | set(random.Random(text).sample(sorted(points), sample)) | {0, len(folded) - 1}
    for at in sorted(points):
        for direction, want in (("next", next((s for s in holds if s > at), None)),
                                ("prev", next((s for s in reversed(holds) if s <= at), None))):
            lines = [json.loads(x) for x in c.get("/api/search", params={
                "condition": text, "at": at, "direction": direction}).text.splitlines()]
            got = lines[-1]["match"]
            assert (got["seq"] if got else None) == want, (text, at, direction)


def test_any_refusal_stops_where_a_scenario_refused_a_decision(tmp_path: Path) -> None:
    src = run_scenario(ROOT / "tests/scenarios/magic/MTG-C-S05.toml", tmp_path, 1)
    assert src.failure is None and src.refusals, "MTG-C-S05 expects a refused cast"
    session = Session(src, str(tmp_path / "forks.db"))
    c = client(session)
    info = c.get("/api/info").json()
    assert [(r["point"], r["rule"]) for r in info["refusals"]] == [(r.seq, r.rule) for r in src.refusals]
    assert all(r.rule == "MTG-C-09" for r in src.refusals)
    _refusal_reference(session, c, "refused")
    _refusal_reference(session, c, "refused 0")
    other = c.get("/api/search", params={"condition": "refused 1", "at": 0}).text.splitlines()
    assert json.loads(other[-1])["match"] is None  # player 1 tried nothing


def test_a_decision_refused_in_the_page_appends_nothing_and_is_a_breakpoint(logs: dict[str, Path],
                                                                           tmp_path: Path) -> None:
    path = logs["duel_masters"]
    forks = tmp_path / "forks.db"
    session = Session(Source(str(path), None), str(forks))
    c = client(session)
    records = [decode(r) for r in exchange.read(path)]
    at = [r.seq - 1 for r in records if isinstance(r.event, ev.ChoiceMade)][5]
    before = path.read_bytes()
    answer = c.post("/api/attempt", params={"at": at, "decision": "attack 999999"})
    assert answer.status_code == 200, answer.text
    refused = answer.json()["refused"]
    assert refused["point"] == at and refused["rule"] and refused["reason"]
    assert path.read_bytes() == before and c.get("/api/info").json()["branches"] == []
    assert [r["point"] for r in c.get("/api/info").json()["refusals"]] == [at]
    _refusal_reference(session, c, "refused", sample=3)
    assert "cannot read the decision" in c.post("/api/attempt", params={"at": at, "decision": "'"}).json()["error"]
    accepted = c.post("/api/attempt", params={"at": at, "decision": "0"}).json()
    assert accepted["game"] in c.get("/api/info").json()["branches"]
    audit = CliRunner().invoke(main, ["audit", str(forks), "--game", accepted["game"]])
    assert audit.exit_code == 0, audit.output


def test_an_option_and_a_computed_amount_lead_to_their_records(tmp_path: Path) -> None:
    src = run_scenario(ROOT / "tests/scenarios/duel_masters/DM-AMT-S03.toml", tmp_path, 1)
    assert src.failure is None
    c = client(Session(src, str(tmp_path / "forks.db")))
    with ExitStack() as stack:
        log = stack.enter_context(open_at_points(src.location, src.game))  # (the test's own reader)
        _amounts_and_options(c, log)


def _amounts_and_options(c: TestClient, log: PointLog) -> None:
    amounts = [seq for seq in range(1, log.last + 1) if isinstance(log.record(seq).event, ev.AmountComputed)]
    assert len(amounts) == 2
    for seq in amounts:
        event = log.record(seq).event
        assert isinstance(event, ev.AmountComputed)
        answer = c.post(f"/api/origin?at={log.last}", json={"kind": "amount", "seq": seq}).json()
        assert "error" not in answer, answer
        assert answer["value"] == event.value and answer["expression"] == event.expression
        chain = answer["set_by"]
        assert chain[0]["seq"] == seq and chain[0]["kind"] == "AmountComputed"
        assert isinstance(log.record(chain[-1]["seq"]).event, ev.ChoiceMade)  # back to the cast
    wrong = c.post(f"/api/origin?at={log.last}", json={"kind": "amount", "seq": 1})
    assert wrong.status_code == 400 and "not a computed amount" in wrong.json()["error"]
    early = c.post("/api/origin?at=1", json={"kind": "amount", "seq": amounts[0]})
    assert early.status_code == 400
    asked = [n for n in range(1, log.last + 1) if log.state_at(n).request is not None
             and log.state_at(n).request.options]  # type: ignore[union-attr]
    assert asked, "the hurricane asks which cards to return"
    for n in asked[:3]:
        request = log.state_at(n).request
        assert request is not None
        opened = max(s for s in range(1, n + 1) if isinstance(log.record(s).event, ev.ChoiceRequested))
        for i, option in enumerate(request.options[:2]):
            answer = c.post(f"/api/origin?at={n}", json={"kind": "option", "index": i}).json()
            assert answer["value"] == option and answer["set_by"][0]["seq"] == opened
            for seat in ("0", "1"):  # numbered as the board lists them for the seat asking
                listed = c.get(f"/api/point/{n}", params={"seat": seat}).json()["request"]["options"]
                as_seat = c.post(f"/api/origin?at={n}&seat={seat}", json={"kind": "option", "index": i})
                assert (as_seat.json()["value"] == listed[i]) if i < len(listed) else as_seat.status_code == 400
            assert answer["effect"] == request.effect
            assert isinstance(log.record(answer["set_by"][-1]["seq"]).event, ev.ChoiceMade)
            if isinstance(option, int) and option in log.state_at(n).objects:
                assert answer["object"]["set_by"][0]["seq"] == log.state_at(n).objects[option].since
    missing = c.post(f"/api/origin?at={asked[0]}", json={"kind": "option", "index": 99})
    assert missing.status_code == 400 and "no option 99" in missing.json()["error"]


def test_a_counters_origin_on_a_store_is_the_folds(logs: dict[str, Path], tmp_path: Path) -> None:
    """On a store the counters' index reads bodies (passing over the ones whose tag is not PlayerStat): every
    counter at sampled points answers the last record after which the fold reads it so."""
    db = tmp_path / "game.db"
    imported = CliRunner().invoke(main, ["import", str(logs["duel_masters"]), "--db", str(db)])
    assert imported.exit_code == 0, imported.output
    c = client(Session(Source(str(db), None), str(tmp_path / "forks.db")))
    folded = states(logs["duel_masters"])
    rng = random.Random(7)
    checked = 0
    for n in rng.sample(range(1, len(folded)), 16):
        for p, player in enumerate(folded[n].players):
            for key in sorted(player.stats):
                answer = c.post(f"/api/origin?at={n}", json={"kind": "player", "player": p, "key": key}).json()
                value = player.stats[key]
                origin = answer["set_by"][0]["seq"]
                assert all(folded[s].players[p].stats.get(key) == value for s in range(origin, n + 1))
                assert folded[origin - 1].players[p].stats.get(key) != value
                checked += 1
    assert checked >= 20


def test_a_power_or_toughness_origin_on_a_store_is_the_folds(tmp_path: Path) -> None:
    """Power and toughness change only where a continuous effect on the object begins or ends: the session finds
    the beginnings in its index of ContinuousEffectStarted records (read from the store by their tag) and each
    ending by a search over points. At every point where such an effect ended, and at points sampled between,
    every object's power and toughness answer the last record after which the fold reads them so; an object no
    effect touched answers the record it came to be at."""
    db = tmp_path / "synth.db"
    made = CliRunner().invoke(main, ["synth", "--db", str(db), "--events", "3000"])
    assert made.exit_code == 0, made.output
    folded = [GameState()]
    with open_at_points(str(db)) as log:
        for rec in log.forward(1):
            folded.append(fork(folded[-1]))  # (a copy that shares what the next record leaves alone)
            evolve(folded[-1], rec.seq, rec.event, rec.decision)
    ended = [s for s in range(1, len(folded)) if set(folded[s - 1].modifiers) - set(folded[s].modifiers)]
    rng = random.Random(23)
    points = sorted(set(rng.sample(ended, min(6, len(ended))) + rng.sample(range(1, len(folded)), 2)))
    c, touched, untouched = client(Session(Source(str(db), None), str(tmp_path / "forks.db"))), 0, 0
    from projections.characteristics import view
    for n in points:
        targets = {m.target for s in (n - 1, n) for m in folded[s].modifiers.values()} & set(folded[n].objects)
        others = rng.sample(sorted(set(folded[n].objects) - targets), 2)
        for oid in rng.sample(sorted(targets), min(3, len(targets))) + others:
            for fld in ("power", "toughness"):
                answer = c.post(f"/api/origin?at={n}", json={"kind": "object", "obj": oid, "field": fld}).json()
                assert "set_by" in answer, (n, oid, fld, answer)
                value = getattr(view(folded[n], oid).chars, fld)
                since = folded[n].objects[oid].since
                origin = answer["set_by"][0]["seq"]
                assert since <= origin <= n, (n, oid, fld)
                assert all(getattr(view(folded[s], oid).chars, fld) == value for s in range(origin, n + 1))
                if origin > since:
                    assert getattr(view(folded[origin - 1], oid).chars, fld) != value, (n, oid, fld, origin)
                    touched += 1
                else:
                    untouched += 1
    assert touched >= 8 and untouched >= 8, (touched, untouched)
