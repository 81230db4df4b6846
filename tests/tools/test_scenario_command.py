"""``kifu scenario run``: one line per scenario, failures explained, exit 0 only if all pass."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tools.cli import main

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "duel_masters"

FAILING = '''
id = "WRONG-1"
game = "duel_masters"
[setup]
cards = [
  { handle = "rias", card = "mist_rias", zone = "battle" },
  { handle = "raiya", card = "raiya", zone = "hand" },
  { handle = "m", card = "aqua_hulcus", zone = "mana" },
  { card = "dark_soldier", owner = 0, zone = "deck" },
  { card = "dark_soldier", owner = 1, zone = "deck" },
]
[[steps]]
do = { player = 0, action = "summon", args = ["@raiya"] }
[steps.expect]
pending = [{ label = "1ドロー", source = "@rias", side = "a" }]
'''


def test_passing_scenarios_print_one_line_each_and_exit_0() -> None:
    result = CliRunner().invoke(main, ["scenario", "run", str(SCENARIOS / "DM-W-S06.toml"),
                                       str(SCENARIOS / "DM-W-S08.toml")])
    assert result.exit_code == 0, result.output
    assert "ok    DM-W-S06" in result.output and "ok    DM-W-S08" in result.output
    assert result.output.rstrip().endswith("2 passed, 0 failed")


def test_a_failing_scenario_is_explained_with_the_step_and_the_pool_there(tmp_path: Path) -> None:
    path = tmp_path / "WRONG-1.toml"
    path.write_text(FAILING, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(path)])
    assert result.exit_code == 1
    assert "FAIL  WRONG-1" in result.output
    assert "step 1: pending" in result.output
    assert "pending: 1ドロー (@rias, A), バウンス (@raiya, A)" in result.output
    assert "0 passed, 1 failed" in result.output


def test_an_unreadable_scenario_exits_2_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("id = 'x'\ngame = 'duel_masters'\n[setup]\ncards = [{ card = 'no_such_card' }]\n")
    result = CliRunner().invoke(main, ["scenario", "run", str(path)])
    assert result.exit_code == 2
    assert "no card 'no_such_card'" in result.output
    assert "Traceback" not in result.output
