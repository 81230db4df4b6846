"""Which Shadowverse pieces one card of the newest pool may be alone in using, and why each is general (#25): a
step or condition used by a single card names a rule of the game or a primitive any card may say, never that card.
Verbs shaped to one card live in ``effects/retired.py``, kept only for the logs of the pools that used them.

``tests/statemachine/test_shadowverse_pieces.py`` fails when a piece used by one card of the newest pool is not
listed here, or when a card of the newest pool uses a retired verb.
"""

from __future__ import annotations

from typing import Final

GENERAL_PIECES: Final[dict[str, str]] = {
    # game mechanics (a keyword or a rule of the game, which every card that says it uses)
    "burial_rite": "葬送: the keyword's action, put a hand follower onto the field and destroy it (SV-O-34)",
    "if_burial_rite": "葬送 … すれば: whether the Burial Rite was done, as every 葬送 card reads it (SV-O-35)",
    "earth_sigil": "土の秘術: the condition every Earth Rite card reads, an Earth Sigil amulet on your field",
    "enhanced": "エンハンス N: whether the card was played enhanced (SV-GAME-ENHANCE)",
    "resonance": "共鳴: the keyword's condition, every Resonance card reads it (board.resonance)",
    "reanimate": "リアニメイト X: the keyword's action (the highest-cost follower of cost X or less, SV-O-06/07)",
    "summon_self": "直接召喚: a card putting itself from the deck onto the field (SV-O-59)",
    "spend_ep": "an effect paid with evolution points, which is not evolving (SV-O-98)",
    "evolved_times": "a counter of the game: the times its player has evolved (SV-O-98)",
    "choose_card": "チョイス: one of the listed cards to the hand, unrevealed (SV-O-120)",
    "add_random_token": "one of the listed tokens, drawn at random, to the hand revealed (SV-O-122)",
    "grant_fanfare": "giving one of this card's Fanfares to a follower in the hand (SV-O-31)",
    "lose_abilities": "「能力を失う」: the targets a selector names lose their abilities (SV-O-32)",
    "damage_cut": "「ダメージを…軽減」: a damage reduction on each target, lost as it leaves or boards (SV-O-38)",
    "transform": "変身: a card becomes another; nothing leaves or enters (SV-O-92..96)",
    "extra_turn": "追加のターン: a game primitive with no object (SV-GAME-EXTRA-TURN)",
    "gain_pp_orb": "PP最大値+N: a game primitive (SV-GAME-PP-ORB)",
    "max_pp_down": "PP最大値-N: the primitive opposite gain_pp_orb, ending Overflow below 7 (SV-O-113)",
    "recover_pp": "PP回復: a game primitive",
    # the card language's general pieces (selectors, sequences, choices, static abilities)
    "discard": "捨てる: the cards a selector names (the one chosen at play, SV-O-112)",
    "discard_choose": "the controller chooses up to N cards of the hand to discard (SV-O-110)",
    "evolve": "進化する: the followers a selector names, one simultaneous group (SV-O-100)",
    "let": "X counted once and read again (SV-O-08)",
    "choose": "a choice made as the effect resolves, among what a selector names (SV-O-35)",
    "add_copy": "a copy of a card played last, or chosen at play, to the deck or hand (SV-O-63/64)",
    "add_from_deck": "cards of given types from the deck to the hand at random (SV-O-06, SV-O-121)",
    "summon_from_deck": "cards of given types from the deck onto the field at random (SV-O-06, SV-O-59)",
    "replace_deck": "a player's deck replaced by a listed deck (「デッキを…デッキにする」)",
    "has_stats": "a static ability's stats while a condition holds (SV-GAME-STATIC)",
    "replaces": "a static replacement: destroyed → banished for followers or amulets (SV-O-76)",
    "costs_less": "a static cost reduction in the hand by any amount (コスト-N: a counter, a count; SV-GAME-STATIC)",
    "opponent_has_follower": "a condition on the board: the opponent has a follower on the field",
}
