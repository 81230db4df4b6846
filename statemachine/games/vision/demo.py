"""A sample Vision of Phantasm game for tools and tests that run every game: ``sample_game(seed)`` gives the
profile, the players and their decks, ready for ``Engine.new`` (the game's own seed is given there)."""

from __future__ import annotations

from statemachine.games.vision.profile import Vision

PLAYERS = ("霊夢", "魔理沙")
DECK_A = (
    ["kedama"] * 6 + ["youkai_guard"] * 4 + ["miko_apprentice"] * 4 + ["watchful_tengu"] * 2
    + ["danmaku"] * 3 + ["no148_shoujo_misshitsu"] * 2 + ["sakusen_soshi"] * 2 + ["higan_retour"] * 2
    + ["tea_break"] * 2 + ["hakugyokurou_no_gentou"] * 3
)
DECK_B = (
    ["kedama"] * 6 + ["youkai_guard"] * 3 + ["ambush_fairy"] * 4 + ["fairy_sniper"] * 3
    + ["master_spark"] * 2 + ["danmaku"] * 3 + ["sakusen_soshi"] * 2 + ["twin_talisman"] * 2
    + ["hakugyokurou_no_gentou"] * 3 + ["tea_break"] * 2
)


def sample_game(seed: int) -> tuple[Vision, tuple[str, str], list[list[str]]]:
    del seed  # the decks do not depend on it
    return Vision(), PLAYERS, [list(DECK_A), list(DECK_B)]
