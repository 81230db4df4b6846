"""The worked example of docs/judges.md: the shipped logs still audit as the guide says."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tools.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_the_original_is_clean() -> None:
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES / "disputed-game.jsonl")])
    assert result.exit_code == 0, result.output
    assert "head e74f44cd3c0377641dbd0e34a03acbc1" in result.stdout


def test_the_forgery_is_caught_at_record_173() -> None:
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES / "disputed-game-forged.jsonl"), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [(f["check"], f["seq"], f["rule"]) for f in report["findings"]] == [
        ("rules", 173, ""), ("legality", 173, "DM-GAME-SUMMON")]
    guide = (EXAMPLES.parent / "judges.md").read_text(encoding="utf-8")
    assert "record 173 breaks DM-GAME-SUMMON" in guide
