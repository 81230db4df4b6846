"""Imports go one way only: eventsource <- projections <- statemachine <- tools (DESIGN, Layout).

Every ``.py`` file of the four packages is parsed with ``ast`` (so a file added tomorrow is checked too), and
every ``import`` in it, at any depth (functions, ``TYPE_CHECKING`` blocks), is held to its layer's rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = frozenset({"eventsource", "projections", "statemachine", "tools", "bench", "tests"})

# What each layer may import of ours (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "eventsource": frozenset({"eventsource"}),
    "projections": frozenset({"eventsource", "projections"}),
    "statemachine": frozenset({"eventsource", "projections", "statemachine"}),
    "tools": frozenset({"eventsource", "projections", "statemachine", "tools"}),
}
GAMES = ("statemachine", "games")


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, relative imports resolved."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = package[: len(package) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            # ``from pkg import sub`` may name a submodule: keep both so a game folder's check sees it.
            out.append((node.lineno, name))
            out.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*")
    return out


def game_folders() -> set[str]:
    return {p.parent.name for p in (ROOT / "statemachine" / "games").glob("*/__init__.py")}


def violations(path: Path, source: str | None = None) -> list[str]:
    rel = path.relative_to(ROOT)
    layer = rel.parts[0]
    module = ".".join(rel.with_suffix("").parts)
    is_package = path.name == "__init__.py"
    if is_package:
        module = module.removesuffix(".__init__")
    text = path.read_text(encoding="utf-8") if source is None else source
    found: list[str] = []
    for line, name in imported_modules(text, module, is_package):
        parts = name.split(".")
        top = parts[0]
        if top in OURS and top not in ALLOWED[layer]:
            found.append(
                f"{rel}:{line}: {layer} imports {name} (a {layer} module may import only "
                f"{', '.join(sorted(ALLOWED[layer]))})"
            )
        # Nothing in a game folder reaches into another game's folder.
        in_game = rel.parts[:2] == GAMES and len(rel.parts) > 3
        names_game = tuple(parts[:2]) == GAMES and len(parts) > 2 and parts[2] in game_folders()
        if in_game and names_game and parts[2] != rel.parts[2]:
            found.append(f"{rel}:{line}: game {rel.parts[2]} imports {name} from game {parts[2]}")
    return found


def layer_files() -> list[Path]:
    files = sorted(p for layer in ALLOWED for p in (ROOT / layer).rglob("*.py"))
    assert files, "no source files found: is ROOT right?"
    return files


def test_imports_go_one_way_only() -> None:
    problems = [v for path in layer_files() for v in violations(path)]
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def test_every_layer_is_checked() -> None:
    checked = {p.relative_to(ROOT).parts[0] for p in layer_files()}
    assert checked == set(ALLOWED)


@pytest.mark.parametrize(
    ("file", "source", "expected"),
    [
        ("eventsource/store.py", "from projections.state import GameState\n", "eventsource imports projections.state"),
        ("eventsource/store.py", "def f():\n    import tools.cli\n", "eventsource imports tools.cli"),
        ("projections/state.py", "import statemachine.engine as engine\n", "projections imports statemachine.engine"),
        (
            "projections/state.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tools import cli\n",
            "projections imports tools",
        ),
        ("projections/views.py", "from ..statemachine import engine\n", "projections imports statemachine"),
        ("statemachine/engine.py", "from tools.trace import render\n", "statemachine imports tools.trace"),
        ("statemachine/engine.py", "from bench import ours\n", "statemachine imports bench"),
        ("tools/cli.py", "from tests.fixtures import scripted\n", "tools imports tests.fixtures"),
        (
            "statemachine/games/magic/flow.py",
            "from statemachine.games.duel_masters import pending\n",
            "game magic imports statemachine.games.duel_masters",
        ),
        (
            "statemachine/games/magic/flow.py",
            "from statemachine.games import duel_masters\n",
            "game magic imports statemachine.games.duel_masters",
        ),
        (
            "statemachine/games/magic/flow.py",
            "from ..duel_masters.pending import Pool\n",
            "game magic imports statemachine.games.duel_masters.pending",
        ),
    ],
)
def test_the_checker_names_the_file_and_the_import(file: str, source: str, expected: str) -> None:
    found = violations(ROOT / file, source)
    assert any(expected in v and v.startswith(f"{file}:") for v in found), found


@pytest.mark.parametrize(
    ("file", "source"),
    [
        ("eventsource/store.py", "import msgspec\nfrom eventsource.records import seal\nfrom . import errors\n"),
        ("projections/state.py", "from eventsource import events as ev\nfrom .characteristics import view\n"),
        ("statemachine/engine.py", "from projections.state import evolve\nfrom eventsource.store import EventStore\n"),
        ("tools/cli.py", "from statemachine.engine import Engine\nfrom projections import views\nimport click\n"),
        ("statemachine/games/magic/flow.py", "from statemachine.games.magic.stack import Stack\nfrom . import stack\n"),
    ],
)
def test_the_checker_accepts_what_the_layering_allows(file: str, source: str) -> None:
    assert violations(ROOT / file, source) == []
