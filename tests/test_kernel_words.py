"""The kernel names no game's words: no module of ``eventsource/``, ``projections/`` or ``statemachine/`` (outside
``games/``; the scenario runner included) holds, as a string, a zone, player counter, status, holder, card or
trigger field, or trigger timing that one game declares and another does not. Each game declares those through
its profile (its ``Board``, its vocabulary, ``extra_turn_counter``, ``hidden_zones``); the kernel reads them there.

A word every registered game declares (``hand``, ``deck``) is the kernel's own, as is ``tapped``, the status of
its tapping kit. Docstrings and comments may
name a game's words as examples; only string values are held to this.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from projections.characteristics import TAPPED
from statemachine.games import PROFILES, profile_class
from statemachine.scenario.expect import EXPECTATIONS

ROOT = Path(__file__).resolve().parents[1]
KERNEL_MODULES = sorted([*ROOT.glob("eventsource/*.py"), *ROOT.glob("projections/*.py"),
                         *ROOT.glob("statemachine/*.py"), *ROOT.glob("statemachine/scenario/*.py")])
# The scenario runner sits above the games but keys nothing to one: its set-up reads each game's holder, shared and
# hidden zones, home zone and set-up actions from the profile and policy. The words of the scenario format itself
# (its expectation keys, such as ``stack`` or ``damage``, and ``pool`` in ``pending_after``) are the format's own.
SCENARIO = ROOT / "statemachine" / "scenario"
FORMAT_WORDS = frozenset(EXPECTATIONS) | {"pool"}


def declared_words(game: str) -> frozenset[str]:
    """Every word game ``game`` declares for its board, cards and triggers."""
    profile = profile_class(game)
    vocab = profile.vocabulary
    words = {*vocab.card_fields, *vocab.trigger_fields, vocab.home_zone, *profile.hidden_zones,
             profile.extra_turn_counter}
    words |= {default for _, default, _ in vocab.trigger_fields.values() if isinstance(default, str)}
    board = profile.board
    if board is not None:
        words |= {*board.zones, *board.holders, *board.stats, *board.statuses, *board.limits}
    return frozenset(words - {""})


@cache
def game_words() -> dict[str, frozenset[str]]:
    """Each game's words that not every game shares (what every game declares belongs to the kernel, as does
    the status of the tapping kit the kernel offers the games that tap)."""
    declared = {game: declared_words(game) for game in sorted(PROFILES)}
    shared = frozenset.intersection(*declared.values()) | {TAPPED}
    return {game: words - shared for game, words in declared.items()}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def strings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, value) of every string constant of a module but its docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def test_every_game_declares_words_of_its_own() -> None:
    """The check below can fail: each game's zones and counters are found, and a known one is among them."""
    words = game_words()
    assert "battle" in words["duel_masters"] and "extra_turns" in words["duel_masters"]
    assert "shita" in words["duel_masters"]  # Duel Masters' trigger timing (DM-W-13)
    assert "mana" in words["magic"]  # Magic's mana symbols, a card field of its own
    assert all(words.values())


@pytest.mark.parametrize("path", KERNEL_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_kernel_module_names_no_game_word(path: Path) -> None:
    """Not a zone, counter, status, holder, field or timing one game declares (the scenario format's own keys aside)."""
    words = game_words()
    allowed = FORMAT_WORDS if path.parent == SCENARIO else frozenset()
    found = [f"{path.relative_to(ROOT)}:{line}: {value!r} is {game}'s"
             for line, value in strings(path) for game, mine in words.items() if value in mine and value not in allowed]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", sorted(SCENARIO.glob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_scenario_runner_names_no_game(path: Path) -> None:
    """No table keyed by a game id: what differs between games is read from the profile and its policy."""
    found = [f"{path.relative_to(ROOT)}:{line}: {value!r}" for line, value in strings(path) if value in PROFILES]
    assert not found, "\n".join(found)
