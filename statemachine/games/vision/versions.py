"""Vision of Phantasm rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from statemachine.options import GameOptions, Switch
from statemachine.releases import Releases, load_releases


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The switches of one Vision of Phantasm release."""

    # KIFU-END: the game stops the moment it ends; nothing of the procedure in flight runs on (and nothing it
    # triggered happens). Before: the procedure ran to its end after GameEnded.
    ends_at_game_end: bool = False
    # VOP-GAME-LOOP: a loop no player can stop ends the game drawn once the rules give more events than this
    # since the last action other than passing priority (0: no bound, the game ran for ever).
    loop_bound: int = 0
    # 1.2: changing life points to X (set_life) set the damage taken to 20 - X whatever X was, so an X above 20
    # raised life points above the 20 a player starts with; from 1.3 X is at most 20 (VOP-GAME-LIFE).
    life_at_most_start: bool = False
    # Until 1.3: the scenario runner wrote its label ``scenario`` into every scenario's options, and such logs
    # carry it; from 1.3 no option exists only for tests (#22), and a scenario's id is its game id.
    scenario_option: bool = True
    # From 1.3 the decks of a game started from deck lists must follow the game's construction rule
    # (VOP-DECK, ``statemachine.decks``); before it, every deck was taken as given.
    decks_checked: bool = False

    # A character played and put onto the field is marked with the turn (status ``played_turn``), so 「プレイされて
    # 場に出たターン」 can be judged (《上海人形》, VOP-GAME-TURN-END). 1.2: no mark (no card asked).
    played_turn_marked: bool = False
    # 1.7: a player whose character attacks is marked with the turn (counter ``attacked_turn``), so 「このターン一度も
    # 攻撃を行わなかった場合」 can be judged (《宣戦布告》, VOP-GAME-ATTACK). Before: no mark (no card asked).
    attack_turn_marked: bool = False

class Options(GameOptions, frozen=True, forbid_unknown_fields=True):
    """The options a Vision of Phantasm game may be started with (``statemachine.options``)."""

    # A player who must draw from an empty deck loses. "off" only for a board whose deck is not part of what it
    # shows (a judge's reconstruction, a scenario that says why); every real game plays it "on".
    deck_out: Switch | None = None


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
