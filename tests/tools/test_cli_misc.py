"""kifu schema, kifu demo, --help everywhere, logging, progress, and the installed entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from tests.tools.conftest import BOLSHACK, GAME, build_store
from tools.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


# -- schema -------------------------------------------------------------------------------------------------


def test_schema_is_json_and_describes_every_line(lines: list[bytes]) -> None:
    result = invoke("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"].startswith("https://json-schema.org/")
    defs = schema["$defs"]
    line_def = defs[schema["$ref"].rsplit("/", 1)[1]]
    assert line_def["properties"]["event"] == {"$ref": "#/$defs/Event"}
    alternatives = [defs[ref["$ref"].rsplit("/", 1)[1]] for ref in defs["Event"]["anyOf"]]
    assert [a["title"] for a in alternatives] == [c.__name__ for c in ev.EVENT_TYPES]
    # Every line of a real export has the line's fields, and its event the fields its kind declares.
    for raw in lines:
        line = json.loads(raw)
        assert set(line_def["required"]) <= set(line) <= set(line_def["properties"])
        assert any(_matches(line["event"], alternative) for alternative in alternatives), line["event"]


def _matches(event: dict[str, Any], schema: dict[str, Any]) -> bool:
    """A shallow check of one anyOf alternative: its fields, and its kind when the kind is a constant."""
    props = schema["properties"]
    kind = props["kind"].get("const", event["kind"])
    return event["kind"] == kind and set(schema["required"]) <= set(event) <= set(props)


def test_schema_of_the_event_union_alone() -> None:
    result = invoke("schema", "event")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$ref"] == "#/$defs/Event"
    assert "Line" not in schema["$defs"]


# -- demo ---------------------------------------------------------------------------------------------------


def test_demo_without_the_sample_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("tools.commands.demo.load_demo", lambda: None)
    result = invoke("demo", "--db", str(tmp_path / "d.db"))
    assert result.exit_code == 2
    assert "statemachine.demo" in result.stderr


def test_demo_runs_the_sample_game_and_can_leave_the_trace_to_the_cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[str] = []

    def run(db_path: str, echo: Any, game: str = "duel_masters") -> str:
        calls.append(db_path)
        echo("playing the sample game")
        build_store(Path(db_path))
        return GAME

    monkeypatch.setattr("tools.commands.demo.load_demo", lambda: SimpleNamespace(run=run))
    db = tmp_path / "d.db"
    result = invoke("demo", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert calls == [str(db)]
    assert result.stdout.startswith("playing the sample game\n── setup")
    assert f"{BOLSHACK}: Alice's hand[0] → Alice's battle[0]" in result.stdout


def test_demo_passes_on_its_exit_code(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("tools.commands.demo.load_demo", lambda: SimpleNamespace(run=lambda db, echo: 1))
    assert invoke("demo", "--db", str(tmp_path / "d.db")).exit_code == 1


# -- every command -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: main {command}")


def test_unknown_command_and_option_are_bad_input() -> None:
    assert invoke("frobnicate").exit_code == 2
    assert invoke("games", "--frobnicate").exit_code == 2


# -- logging and progress ----------------------------------------------------------------------------------


def test_log_json_goes_to_stderr(exported: Path, tmp_path: Path) -> None:
    result = invoke("--log-json", "import", str(exported), "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stderr.splitlines()]
    (imported,) = [r for r in records if r["event"] == "imported"]
    assert imported["game"] == GAME and imported["records"] == 23 and imported["level"] == "info"
    assert result.stdout.startswith("imported game")


def test_default_logs_are_quiet(exported: Path, tmp_path: Path) -> None:
    result = invoke("import", str(exported), "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 0
    assert result.stderr == ""


def test_progress_bar_on_a_long_log_changes_nothing_in_the_output(
    monkeypatch: pytest.MonkeyPatch, db: Path
) -> None:
    plain = invoke("replay", str(db)).stdout
    monkeypatch.setattr("tools.progress.LONG_LOG", 5)
    monkeypatch.setattr("tools.progress.on_terminal", lambda: True)
    monkeypatch.setattr("tools.commands.replay.on_terminal", lambda: True)
    monkeypatch.setattr("tools.commands.audit.on_terminal", lambda: True)
    assert invoke("replay", str(db)).stdout == plain
    assert invoke("audit", "--no-rules", str(db)).exit_code == 0


# -- the installed entry point ------------------------------------------------------------------------------


def test_entry_point_smoke(exported: Path, tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "kifu"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tools.cli"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([*command, "audit", "--no-rules", str(exported)], capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-2].startswith("clean: 23 records")
    garbage = tmp_path / "garbage"
    garbage.write_bytes(os.urandom(256))
    bad = subprocess.run(
        [sys.executable, "-m", "tools.cli", "audit", str(garbage)], capture_output=True, text=True, env=env,
        cwd=ROOT,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr


def test_a_seat_number_wins_over_a_seat_named_like_it() -> None:
    """#21: ``--player 1`` is seat 1, even where seat 0 is named "1" (a log recorded before names had to
    differ); a name that is no seat number still names its seat, and an unknown one is refused naming them."""
    from tools.errors import BadInput
    from tools.logs.seats import seat_of

    assert seat_of(["1", "Bob"], "1") == 1
    assert seat_of(["1", "Bob"], "0") == 0
    assert seat_of(["1", "Bob"], "Bob") == 1
    assert seat_of(["Alice", "7"], "7") == 1  # no seat 7: the name
    with pytest.raises(BadInput, match=r"no player '2' in this game; players: 1 \(0\), Bob \(1\)"):
        seat_of(["1", "Bob"], "2")


def test_a_game_whose_players_share_a_name_is_refused_where_it_is_created() -> None:
    from eventsource.errors import KifuError
    from eventsource.memory import MemoryStore
    from statemachine.engine import Engine
    from statemachine.games import profile
    from statemachine.games.duel_masters.demo import DECK_A, DECK_B

    store = MemoryStore()
    with pytest.raises(KifuError, match="players 0 and 1 are both named 'Ann'"):
        Engine.new(profile("duel_masters"), ["Ann", "Ann"], [list(DECK_A), list(DECK_B)], 3, store=store, game="g")
    assert store.head("g") == 0
