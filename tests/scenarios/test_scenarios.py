"""Every scenario file under tests/scenarios/ runs as one test named by its SPEC scenario id."""

from __future__ import annotations

from pathlib import Path

import pytest

from statemachine.scenario import files, load, run_file

HERE = Path(__file__).parent
FILES = list(files([HERE]))


def test_every_scenario_file_is_named_by_its_id() -> None:
    assert FILES, "no scenario files found"
    for path in FILES:
        assert load(path).id == path.stem, f"{path} holds scenario {load(path).id}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    result = run_file(path)
    assert result.ok, result.message
