"""A seeded sample Shadowverse game: two 40-card decks built from the shipped pool (SV-GAME-DECK: 40 cards, at most
3 of one card; until rules 1.3 they were 30 cards, each card twice).

``sample_game(seed)`` returns what ``Engine.new`` needs; the command line (``kifu demo --game shadowverse``)
and the benchmarks play it with seeded bots.
"""

from __future__ import annotations

import random

from statemachine.games.shadowverse.profile import Shadowverse

PLAYERS = ("Arisa", "Erika")

# Cards whose effects show the queue at work: Fanfares, Last Words, "another is destroyed", Strike and
# "another attacks", leader-held play triggers, board-wide damage, healing and the shrine.
DECK_A = (
    "fighter", "goblin", "lw_soldier", "blood_empress", "shadow_reaper", "belenus", "latham", "mana_elk",
    "scorching_storm", "heal_prayer", "tenko_shrine", "magic_tool_shop", "bane_snake", "drain_bat", "kyouka",
)
DECK_B = (
    "fighter", "goblin", "storm_knight", "guardian_golem", "julius", "munier", "icy", "leonel", "reinhard",
    "demonstorm", "light_of_wisdom", "destroy_spell", "sophina", "skull_fish", "cave_cathedral",
)


def sample_game(seed: int) -> tuple[Shadowverse, list[str], list[list[str]]]:
    """A profile, two players and two decks (the first ten cards three times, the rest twice, in a seeded order)."""
    rng = random.Random(seed)
    decks = []
    for base in (DECK_A, DECK_B):
        deck = [c for i, c in enumerate(base) for _ in range(3 if i < 10 else 2)]
        rng.shuffle(deck)
        decks.append(deck)
    return Shadowverse(), list(PLAYERS), decks


__all__ = ["sample_game"]
