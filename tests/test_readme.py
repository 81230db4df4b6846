"""The README's embedding example runs as written, and names exactly two set-up commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def test_the_embedding_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "README has no python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "DM-GAME-TURN" in capsys.readouterr().out


def test_exactly_two_setup_commands() -> None:
    setup = README.split("## Set-up", 1)[1].split("##", 1)[0]
    commands = re.findall(r"^make (\w+)", setup, re.M)
    assert commands == ["demo", "test"]
