"""A sample Vision of Phantasm game for tools and tests that run every game: ``sample_game(seed)`` gives the
profile, the players and their decks, ready for ``Engine.new`` (the game's own seed is given there)."""

from __future__ import annotations

from statemachine.games.vision.profile import Vision

PLAYERS = ("霊夢", "魔理沙")
# Two legal decks (VOP-GAME-DECK: 50 cards, at most 3 of one name), which with a pool of 18 cards hold nearly
# every card; until rules 1.3 they were 30-card decks with up to 6 毛玉.
_BOTH = ("kedama", "youkai_guard", "ambush_fairy", "fairy_sniper", "danmaku", "sakusen_soshi", "tea_break",
         "hakugyokurou_no_gentou", "master_spark", "twin_talisman")
DECK_A = (
    [c for c in _BOTH for _ in range(3)] + ["miko_apprentice"] * 3 + ["watchful_tengu"] * 3
    + ["no148_shoujo_misshitsu"] * 3 + ["higan_retour"] * 3 + ["kinkou"] * 2 + ["mumei_no_oka"] * 2
    + ["tsuki_no_kanchou"] * 2 + ["well_destructor"] * 2
)
DECK_B = (
    [c for c in _BOTH for _ in range(3)] + ["miko_apprentice"] * 2 + ["watchful_tengu"] * 2
    + ["no148_shoujo_misshitsu"] * 2 + ["higan_retour"] * 2 + ["kinkou"] * 3 + ["mumei_no_oka"] * 3
    + ["tsuki_no_kanchou"] * 3 + ["well_destructor"] * 3
)


def sample_game(seed: int) -> tuple[Vision, tuple[str, str], list[list[str]]]:
    del seed  # the decks do not depend on it
    return Vision(), PLAYERS, [list(DECK_A), list(DECK_B)]
