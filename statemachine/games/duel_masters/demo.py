"""A sample Duel Masters game for tools and tests that run every game: ``sample_game(seed)`` gives the profile,
the players and their decks (the shipped demo's), ready for ``Engine.new``."""

from __future__ import annotations

from statemachine.games.duel_masters.profile import DuelMasters


def sample_game(seed: int) -> tuple[DuelMasters, tuple[str, str], list[list[str]]]:
    from statemachine.demo import DECK_A, DECK_B, PLAYERS

    del seed  # the decks do not depend on it; the game's own seed is given to Engine.new
    return DuelMasters(), PLAYERS, [list(DECK_A), list(DECK_B)]
