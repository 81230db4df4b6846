"""kifu verify and kifu audit on real logs of every game with a sample: clean logs, and logs tampered with in
three ways (a changed decision, a changed consequence, a removed record), each caught and located exactly —
by the hash chain when the forger did not re-seal the log, by the rules when they did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.records import Record
from tests.tools.games import export, sampled_games
from tests.tools.tamper import change_event, records_of, remove_record, reseal
from tools.cli import main

GAMES = sampled_games()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(*args, "--json")
    return code, json.loads(out)


@pytest.fixture(params=GAMES)
def game_log(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return export(request.param, tmp_path / f"{request.param}.jsonl")


def after_first_decision(records: list[Record]) -> list[Record]:
    first = next(r.seq for r in records if isinstance(r.event, ev.ChoiceMade))
    middle = max(first, len(records) // 3)
    return [r for r in records if r.seq > middle]


def changed_decision(records: list[Record]) -> tuple[int, ev.Event]:
    """A decision changed to another one that was legal at its point (asked of the rules themselves)."""
    from eventsource.records import RawRecord
    from statemachine.engine import Engine
    from statemachine.games import profile
    from tools.travel.loaded import LogStore, PrefixStore

    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    rules = profile(started.profile)
    store = LogStore()
    store.load(records[0].game, [RawRecord(r.game, r.seq, r.decision, r.cause, r.v, ev.encode(r.event), r.hash)
                                 for r in records])
    for r in after_first_decision(records):
        if not isinstance(r.event, ev.ChoiceMade):
            continue
        engine = Engine.load(rules, PrefixStore(store, r.game, r.seq - 1), r.game)
        given = (r.event.player, r.event.action, tuple(r.event.args))
        others = [d for d in engine.legal().decisions if (d.player, d.action, tuple(d.args)) != given]
        if others:
            d = others[0]
            return r.seq, ev.ChoiceMade(d.player, d.action, tuple(d.args))
    raise AssertionError("no decision with a legal alternative")


def changed_consequence(records: list[Record]) -> tuple[int, ev.Event]:
    for r in after_first_decision(records):
        if isinstance(r.event, ev.PlayerStat):
            return r.seq, ev.PlayerStat(r.event.player, r.event.key, r.event.value + 7)
    raise AssertionError("no player counter to change")


def removable(records: list[Record]) -> int:
    for r in after_first_decision(records):
        if isinstance(r.event, ev.StatusSet | ev.PlayerStat):
            return r.seq
    raise AssertionError("no record to remove")


# -- clean logs ---------------------------------------------------------------------------------------------


def test_verify_clean(game_log: Path) -> None:
    code, out, _ = run("verify", str(game_log))
    assert code == 0, out
    assert "SAME: all" in out
    assert "the installed rules and card pool are the ones the log names" in out
    code, data = run_json("verify", str(game_log))
    assert code == 0 and data["same"] is True and data["divergence"] is None and data["illegal"] == []


def test_audit_clean(game_log: Path) -> None:
    code, data = run_json("audit", str(game_log))
    assert code == 0, data
    assert [c["check"] for c in data["checks"]] == ["integrity", "fold", "rules", "legality"]
    assert {c["status"] for c in data["checks"]} == {"ok"}
    code, out, _ = run("audit", str(game_log))
    assert out.splitlines()[-1].startswith("summary: the log is intact")


# -- tampered and re-sealed: the rules catch it -------------------------------------------------------------


def test_changed_decision_is_located(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    seq, event = changed_decision(records)
    forged = reseal(change_event(records, seq, event), tmp_path / "forged.jsonl")
    code, data = run_json("verify", str(forged))
    assert code == 1
    d = data["divergence"]
    assert d["decision_seq"] == seq, d  # the divergence belongs to the changed decision
    assert d["seq"] >= seq
    code, out, _ = run("verify", str(forged))
    assert f"DIVERGENT at record {d['seq']}, in decision {d['decision']} (record {seq}:" in out
    assert f"the state just before record {d['seq']}" in out
    code, report = run_json("audit", str(forged))
    assert code == 1
    rules = next(c for c in report["checks"] if c["check"] == "rules")
    assert rules["status"] == "finding" and rules["finding"]["seq"] == d["seq"]
    assert rules["finding"]["decision"] == d["decision"]


def test_illegal_decision_names_its_rule(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    seq, changed = changed_decision(records)
    assert isinstance(changed, ev.ChoiceMade)
    bogus = ev.ChoiceMade(changed.player, "fly_to_the_moon", ())
    forged = reseal(change_event(records, seq, bogus), tmp_path / "illegal.jsonl")
    code, data = run_json("verify", str(forged))
    assert code == 1
    (illegal,) = data["illegal"]
    assert illegal["seq"] == seq and illegal["rule"], illegal
    code, report = run_json("audit", str(forged))
    assert code == 1
    legality = next(c for c in report["checks"] if c["check"] == "legality")
    assert legality["status"] == "finding"
    assert legality["finding"]["seq"] == seq and legality["finding"]["rule"] == illegal["rule"]
    code, out, _ = run("audit", str(forged))
    assert f"record {seq} breaks {illegal['rule']}" in out.splitlines()[-1]


def test_changed_consequence_is_located(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    seq, event = changed_consequence(records)
    forged = reseal(change_event(records, seq, event), tmp_path / "forged.jsonl")
    code, data = run_json("verify", str(forged))
    assert code == 1
    d = data["divergence"]
    assert d["seq"] == seq
    assert d["expected"] == ev.to_builtins(event)
    assert d["actual"] == ev.to_builtins(records[seq - 1].event)
    # (decisions after it are judged on the log's own, altered, state: they may or may not stay legal there)
    assert all(i["seq"] > seq for i in data["illegal"])
    code, report = run_json("audit", str(forged))
    first = report["findings"][0]
    # A number pushed out of its range (a second charge in a turn) is an impossible board: the fold finds it
    # at the same record, before the rules run; any other change is the rules' finding.
    impossible = first["check"] == "fold"
    assert code == 1 and first["seq"] == seq
    assert (first["kind"], bool(first["invariant"])) == (("impossible", True) if impossible else ("divergent", False))


def test_removed_record_is_located(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    seq = removable(records)
    forged = reseal(remove_record(records, seq), tmp_path / "short.jsonl")
    code, data = run_json("verify", str(forged))
    assert code == 1
    d = data["divergence"]
    assert d["seq"] == seq
    assert d["actual"] == ev.to_builtins(records[seq - 1].event)  # the rules give what was removed
    code, report = run_json("audit", str(forged))
    assert code == 1 and report["findings"][0]["seq"] == seq


# -- tampered without re-sealing: the hash chain catches it first --------------------------------------------


@pytest.mark.parametrize("how", ["decision", "consequence", "removed"])
def test_unsealed_tampering_is_an_integrity_finding(game_log: Path, tmp_path: Path, how: str) -> None:
    lines = game_log.read_bytes().splitlines(keepends=True)
    records = records_of(game_log)
    from tests.tools.tamper import forge

    if how == "removed":
        seq = removable(records)
        del lines[seq - 1]
        kind = "missing"
    else:
        seq, event = changed_decision(records) if how == "decision" else changed_consequence(records)
        lines[seq - 1] = forge(lines[seq - 1], **{f: getattr(event, f) for f in event.__struct_fields__})
        kind = "altered"
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(b"".join(lines))
    code, report = run_json("audit", str(path))
    assert code == 1
    first = report["findings"][0]
    assert (first["check"], first["kind"], first["seq"]) == ("integrity", kind, seq)
    code, data = run_json("verify", str(path))  # the rules, run anyway, point at the same record
    assert code == 1 and data["divergence"]["seq"] >= seq


# -- versions and bad input ---------------------------------------------------------------------------------


def test_a_rules_version_not_installed_is_input_naming_those_that_are(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    import msgspec

    older = msgspec.structs.replace(started, profile_version="0.9")
    path = reseal(change_event(records, 1, older), tmp_path / "older.jsonl")
    code, _, err = run("verify", str(path))
    assert code == 2
    assert f"no {started.profile} rules 0.9 installed (installed: 1.0, " in err


def test_unknown_rules_and_unreadable_logs_are_exit_2(game_log: Path, tmp_path: Path) -> None:
    records = records_of(game_log)
    started = records[0].event
    import msgspec

    assert isinstance(started, ev.GameStarted)
    path = reseal(change_event(records, 1, msgspec.structs.replace(started, profile="chess")), tmp_path / "c.jsonl")
    code, _, err = run("verify", str(path))
    assert code == 2 and "no rules profile 'chess'" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"nonsense\n")
    assert run("verify", str(bad))[0] == 2
    assert run("verify", str(tmp_path / "missing.jsonl"))[0] == 2
