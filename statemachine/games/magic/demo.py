"""A seeded sample Magic game for ``kifu demo``: two small two-colour decks from the shipped pool.

Red-green (lands, creatures with enters and mana abilities, burn and pump) against blue-black (counterspells,
《血の芸術家》's dies trigger, removal, card draw), so a bot game shows the stack, responses, state-based actions
and triggered abilities put on the stack.
"""

from __future__ import annotations

import random

from statemachine.games.magic.profile import Magic

PLAYERS = ("Alice", "Bob")

# Two constructed decks (MTG-GAME-DECK, CR 100.2a: at least 60 cards, at most 4 of one name but basic lands);
# until rules 1.2 they were 40-card decks of the same cards.
RED_GREEN = (
    ["mountain"] * 11 + ["forest"] * 12 + ["mana_confluence"] * 1
    + ["grizzly_bears"] * 4 + ["llanowar_elves"] * 4 + ["elvish_visionary"] * 4 + ["hill_giant"] * 4
    + ["lightning_bolt"] * 4 + ["shock"] * 4 + ["giant_growth"] * 4 + ["fling"] * 4 + ["tormenting_voice"] * 4
)
BLUE_BLACK = (
    ["island"] * 12 + ["swamp"] * 12
    + ["blood_artist"] * 4 + ["prodigal_sorcerer"] * 4 + ["ornithopter"] * 4 + ["howling_mine"] * 1
    + ["counterspell"] * 4 + ["mana_leak"] * 4 + ["doom_blade"] * 4 + ["divination"] * 4 + ["mind_rot"] * 3
    + ["greed"] * 2 + ["toxic_deluge"] * 2
)


def sample_game(seed: int) -> tuple[Magic, tuple[str, str], list[list[str]]]:
    """The profile, the players and their decks; ``seed`` decides who plays which deck. The game's own seed
    (shuffles) is given to ``Engine.new`` by the caller."""
    decks = [list(RED_GREEN), list(BLUE_BLACK)]
    if random.Random(seed).random() < 0.5:
        decks.reverse()
    return Magic(), PLAYERS, decks
