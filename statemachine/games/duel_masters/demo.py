"""The sample Duel Masters game (``kifu demo``'s default, and for tools and tests that run every game):
``sample_game(seed)`` gives the profile, the players and their decks, ready for ``Engine.new``.

Both decks carry 雷鳴の守護者ミスト・リエス (so abilities of both sides wait in the pool together) and creatures whose
"is destroyed" abilities are checked by looking back (飛行男, クリーチャーA, ジャババ・ハット).
Each is a legal deck (DM-GAME-DECK: 40 cards, at most 4 of one name); until rules 1.2, deck A held
6 ダーク・ソルジャー and 2 オラクル・ジュエル.
"""

from __future__ import annotations

from statemachine.games.duel_masters.profile import DuelMasters

PLAYERS = ("Alice", "Bob")

DECK_A = (
    ["mist_rias"] * 4 + ["hikou_otoko"] * 4 + ["creature_a"] * 4 + ["jababa_hat"] * 4 + ["dark_soldier"] * 4
    + ["miele"] * 3 + ["heavens_force"] * 3 + ["aqua_hulcus"] * 4 + ["light_blocker"] * 4 + ["magnum"] * 3
    + ["oracle_jewel"] * 3
)
DECK_B = (
    ["mist_rias"] * 4 + ["magnum"] * 4 + ["mackallan"] * 4 + ["fire_command"] * 4 + ["fire_non_command"] * 4
    + ["bolshack_dragon"] * 3 + ["red_zone"] * 3 + ["pig_creature"] * 4 + ["creature_a"] * 3
    + ["raiya"] * 3 + ["bronze_arm_tribe"] * 4
)


def sample_game(seed: int) -> tuple[DuelMasters, tuple[str, str], list[list[str]]]:
    del seed  # the decks do not depend on it; the game's own seed is given to Engine.new
    return DuelMasters(), PLAYERS, [list(DECK_A), list(DECK_B)]
