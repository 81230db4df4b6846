"""Duel Masters rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from msgspec import Struct

from statemachine.options import GameOptions, Switch
from statemachine.releases import Releases, load_releases


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The switches of one Duel Masters release."""

    # An extra turn is added after the current turn and the normal order of turns then resumes, so a player
    # who gains one in the opponent's turn takes two turns in a row (シン・ガイギンガ: 「このターンの後に自分の
    # ターンを追加する」). 1.0: the extra turn took the place of that player's next normal turn.
    extra_turn_added: bool = False
    # A card that evolves or invades onto a creature that is itself an evolution goes on top of the whole
    # stack, every card already there staying under it; two invasions declared together stack one on the other
    # (DM-GAME-EVOLVE). 1.0: the card under the first invader was taken from under it, or the stack nested.
    evolve_onto_whole_stack: bool = False
    # KIFU-END: the game stops the moment it ends; nothing of the procedure in flight runs on (an attack that
    # won by a direct attack does not go on to end: no 「攻撃の後」 destruction, no ability left waiting). 1.1:
    # the attack ran to its end after GameEnded.
    ends_at_game_end: bool = False
    # DM-GAME-STATE: the state check (a player with no deck loses) runs before each waiting ability resolves,
    # not only once the whole pool is done (状況起因処理 comes before the resolution of any spell or ability).
    state_checked_between_abilities: bool = False
    # DM-GAME-LOOP: a loop of mandatory processes no player can stop ends the game drawn once one decision gives
    # more events than this (0: no bound, the game ran for ever).
    loop_bound: int = 0
    # Until 1.2: the scenario runner wrote its label ``scenario`` into every scenario's options, and such logs
    # carry it; from 1.2 no option exists only for tests (#22), and a scenario's id is its game id.
    scenario_option: bool = True
    # From 1.2 the decks of a game started from deck lists must follow the game's construction rule
    # (DM-DECK, ``statemachine.decks``); before it, every deck was taken as given.
    decks_checked: bool = False

    # An evolution creature whose card names the races it evolves from (進化—自分の<race>1体の上に置く,
    # ``evolves_from``) goes only on a creature of one of them (DM-GAME-EVOLVE). 1.1: any creature sharing a
    # civilization, whatever the card said.
    evolution_race: bool = False
    # A step's ``may`` is asked for ``mana_boost`` and ``discard_blind`` too ("…してもよい"). 1.1: they were
    # carried out even when their card said "may".
    may_honoured: bool = False
    # DM-GAME-BATTLE: 「バトルする時」 triggers on the battle of an effect (効果バトル, step ``battle``) too, its
    # abilities resolving before that battle. 1.4: only the battles of an attack fired it.
    effect_battle_fires: bool = False

class Options(GameOptions, frozen=True, forbid_unknown_fields=True):
    """The options a Duel Masters game may be started with (``statemachine.options``)."""

    # DM-GAME-WIN: a player whose deck is empty loses. "off" only for a board whose decks are not part of what
    # it shows (a judge's reconstruction, a scenario that says why); every real game plays it "on".
    deck_out: Switch | None = None
    # DM-LB-17/18: which ruling an ability ignored where its card was follows when that card leaves: the one in
    # force since 2020-09-18 (the default), or the one before it.
    lookback_ruling: Literal["2020-09-18", "before-2020-09-18"] | None = None


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
