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


def test_the_signed_example_audits_clean_with_its_demo_key_as_the_guide_says() -> None:
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES / "signed-game.jsonl"), "--key",
                                       str(EXAMPLES / "signed-game.pub")])
    assert result.exit_code == 0, result.output
    assert "signatures  ok       153 heads signed by key 4395bab83f27a2c0" in result.stdout
    guide = (EXAMPLES.parent / "judges.md").read_text(encoding="utf-8")
    assert "153 heads signed by key 4395bab83f27a2c0" in guide
    assert "It is a demo key" in guide


def test_the_signed_example_cut_after_record_601_is_truncated_with_the_key_only(tmp_path: Path) -> None:
    lines = (EXAMPLES / "signed-game.jsonl").read_bytes().splitlines(keepends=True)
    assert b'"signature"' in lines[600]  # record 601 ends a decision: the cut leaves a validly signed head
    cut = tmp_path / "signed-game-cut.jsonl"
    cut.write_bytes(b"".join(lines[:601]))
    assert CliRunner().invoke(main, ["audit", "--no-rules", str(cut)]).exit_code == 0
    result = CliRunner().invoke(main, ["audit", "--no-rules", str(cut), "--key", str(EXAMPLES / "signed-game.pub")])
    assert result.exit_code == 1
    assert "finding: truncated at record 601" in result.stdout


def test_no_private_key_is_shipped() -> None:
    for path in EXAMPLES.parent.rglob("*"):
        if path.is_file():
            assert b"PRIVATE KEY" not in path.read_bytes(), path
