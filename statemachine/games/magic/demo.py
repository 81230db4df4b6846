"""A seeded sample Magic game for ``kifu demo``: two small two-colour decks from the shipped pool.

Red-green (lands, creatures with enters and mana abilities, burn and pump) against blue-black (counterspells,
《血の芸術家》's dies trigger, removal, card draw), so a bot game shows the stack, responses, state-based actions
and triggered abilities put on the stack.
"""

from __future__ import annotations

import random

from statemachine.games.magic.profile import Magic

PLAYERS = ("Alice", "Bob")

RED_GREEN = (
    ["mountain"] * 8 + ["forest"] * 8 + ["mana_confluence"] * 1
    + ["grizzly_bears"] * 3 + ["llanowar_elves"] * 3 + ["elvish_visionary"] * 3 + ["hill_giant"] * 3
    + ["lightning_bolt"] * 3 + ["shock"] * 2 + ["giant_growth"] * 3 + ["fling"] * 1 + ["tormenting_voice"] * 2
)
BLUE_BLACK = (
    ["island"] * 8 + ["swamp"] * 9
    + ["blood_artist"] * 3 + ["prodigal_sorcerer"] * 3 + ["ornithopter"] * 2 + ["howling_mine"] * 1
    + ["counterspell"] * 2 + ["mana_leak"] * 2 + ["doom_blade"] * 3 + ["divination"] * 2 + ["mind_rot"] * 2
    + ["greed"] * 1 + ["toxic_deluge"] * 2
)


def sample_game(seed: int) -> tuple[Magic, tuple[str, str], list[list[str]]]:
    """The profile, the players and their decks; ``seed`` decides who plays which deck. The game's own seed
    (shuffles) is given to ``Engine.new`` by the caller."""
    decks = [list(RED_GREEN), list(BLUE_BLACK)]
    if random.Random(seed).random() < 0.5:
        decks.reverse()
    return Magic(), PLAYERS, decks
