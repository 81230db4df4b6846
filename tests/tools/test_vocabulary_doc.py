"""docs/vocabulary.md is generated from the code and kept current; it lists every name a card or scenario file
may use, and every decision the engine offers is one the vocabulary declares."""

from __future__ import annotations

import pytest

from statemachine.bots import RandomBot
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile
from statemachine.scenario import EXPECTATIONS
from statemachine.vocabulary import KEYWORD, SELECTOR
from tests.hardening.cli import kifu
from tools.cards.vocabulary import DOC, render

GAMES = sorted(PROFILES)


def test_the_shipped_reference_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), "run: python -m tools.cards.vocabulary > docs/vocabulary.md"


def test_kifu_vocabulary_prints_it_and_checks_it() -> None:
    result = kifu("vocabulary")
    assert result.exit_code == 0 and result.output == render()
    assert kifu("vocabulary", "--check").exit_code == 0


@pytest.mark.parametrize("game", GAMES)
def test_it_names_everything_a_card_file_may_use(game: str) -> None:
    text = render()
    section = text.split(f"(`{game}`)", 1)[1].split("\n## ", 1)[0]
    vocab = profile(game).vocabulary
    names = [*vocab.effects, *vocab.conditions, *vocab.costs, *profile(game).trigger_kinds, *vocab.filters,
             *vocab.names[KEYWORD], *vocab.names[SELECTOR], *profile(game).decisions]
    missing = [n for n in names if f"`{n}`" not in section]
    assert not missing, missing
    assert all(f"`{k}`" in text for k in EXPECTATIONS)


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_the_engine_offers_is_declared(game: str) -> None:
    """Bots play a few hundred decisions: each action they are offered, and each request's answering action,
    is one the game's vocabulary declares (so the reference cannot miss one)."""
    seen: set[str] = set()
    for seed in (1, 2):
        p, players, decks = sample(game)(seed)
        engine = Engine.new(p, players, decks, seed)
        bots = [RandomBot(seed), RandomBot(seed + 10)]
        for _ in range(300):
            legal = engine.legal()
            if legal.player is None:
                break
            seen |= {d.action for d in legal.decisions}
            if legal.request is not None:
                seen.add(legal.request.action)
            engine.decide(bots[legal.player].choose(legal))
    declared = set(profile(game).decisions)
    assert seen <= declared, f"offered but not declared: {sorted(seen - declared)}"
    assert len(seen) >= 3
