"""Damaged scenario files through ``kifu scenario run``: a damaged file is refused with a clear error and exit 2,
or runs and fails an expectation with exit 1 (or still passes, when the damage left a valid scenario); never a
traceback."""

from __future__ import annotations

import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from statemachine.scenario import ScenarioError, load
from tests.hardening.cli import failed_cleanly, kifu
from tests.hardening.conftest import CASES, tried
from tests.hardening.mutate import mutated
from tests.properties import examples

ROOT = Path(__file__).parent.parent / "scenarios"
FILES = sorted(ROOT.glob("*/*.toml"))  # every game's
DATA: list[dict[str, Any]] = [tomllib.loads(p.read_text(encoding="utf-8")) for p in FILES]


def _toml(value: Any) -> str:
    """A minimal TOML writer for the mutated data (inline tables; what tomllib reads back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if not isinstance(value, float) or value == value else "nan"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml(str(k))} = {_toml(v)}" for k, v in value.items() if v is not None) + "}"
    return '""'


def write(data: dict[str, Any], path: Path) -> None:
    path.write_text("\n".join(f"{_toml(str(k))} = {_toml(v)}" for k, v in data.items() if v is not None) + "\n",
                    encoding="utf-8")


def named(data: Any) -> str:
    """The file name a damaged scenario is written under: its id when that can be a name (a file whose id is
    not its name is refused at once, which would leave the rest of the damage untried)."""
    sid = data.get("id") if isinstance(data, dict) else None
    if isinstance(sid, str) and sid and all(c.isalnum() or c in "-_" for c in sid):
        return f"{sid}.toml"
    return "fuzz.toml"


def run(path: Path) -> None:
    result = kifu("scenario", "run", str(path))
    try:
        load(path)
        valid = True
    except ScenarioError:
        valid = False
    why = failed_cleanly(result, allowed=(0, 1, 2) if valid else (2,))
    assert why is None, f"kifu scenario run: {why}\n{path.read_text(encoding='utf-8', errors='replace')[:2000]}"


GAMES = sorted({p.parent.name for p in FILES})
STRUCTURE, BYTES = 200, 120  # damaged scenarios of every game


def each_game(kind: str, fuzz: Callable[[], None], total: int) -> None:
    """Run ``fuzz`` and check how many damaged scenarios it tried in all, and that every game had its share."""
    before = {g: CASES[f"scenario: {kind} ({g})"] for g in GAMES}
    fuzz()
    share = {g: CASES[f"scenario: {kind} ({g})"] - before[g] for g in GAMES}
    assert sum(share.values()) >= examples(total), share
    assert all(share.values()), f"a game's scenarios were never damaged: {share}"


@settings(max_examples=examples(STRUCTURE), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def damaged_scenario(data: st.DataObject) -> None:
    which = data.draw(st.integers(0, len(DATA) - 1))
    damaged = data.draw(mutated(DATA[which], max_mutations=2))
    tried(f"scenario: structure ({FILES[which].parent.name})")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / named(damaged)
        try:
            write(damaged, path)
            tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, RecursionError, ValueError):
            path.write_text("id = [", encoding="utf-8")  # what this writer cannot say becomes bad TOML
        run(path)


@pytest.mark.property
def test_a_damaged_scenario_is_refused_or_run_cleanly() -> None:
    each_game("structure", damaged_scenario, STRUCTURE)


@settings(max_examples=examples(BYTES), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 10**6), where=st.integers(0, 10**9), bit=st.integers(0, 7), cut=st.booleans())
def scenario_with_damaged_bytes(which: int, where: int, bit: int, cut: bool) -> None:
    text = bytearray(FILES[which % len(FILES)].read_bytes())
    if cut:
        text = text[: where % len(text)]
    else:
        text[where % len(text)] ^= 1 << bit
    tried(f"scenario: bytes ({FILES[which % len(FILES)].parent.name})")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / FILES[which % len(FILES)].name  # a file's id must equal its name: keep the name
        path.write_bytes(bytes(text))
        run(path)


@pytest.mark.property
def test_a_scenario_file_with_damaged_bytes_is_refused_or_run_cleanly() -> None:
    each_game("bytes", scenario_with_damaged_bytes, BYTES)
