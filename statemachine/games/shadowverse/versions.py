"""Shadowverse rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from msgspec import Meta, Struct

from statemachine.options import GameOptions, Switch
from statemachine.releases import Releases, load_releases


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The switches of one Shadowverse release."""

    # 1.0: a game started by a scenario could evolve before its player's 5th turn (4th going second); from 1.1
    # scenarios play the real rule and set the turn and evolve points in their set-up (SV-GAME-EVOLVE).
    scenario_evolves_early: bool = True
    # 1.0: an effect whose EP cost could not be paid went on with the rest of its text; from 1.1 it does
    # nothing more (SV-O-98: シルヴィア at 0 EP deals no damage).
    unpaid_ep_stops: bool = False
    # 1.0: which abilities bundle the instances of one simultaneous group was keyed by the effect id
    # ``piercing_bundle``; from 1.1 the card data states it: the ability's ``bundle`` (SV-O-100).
    bundle_from_card: bool = False
    # KIFU-END: the game stops the moment it ends; nothing of the procedure in flight runs on (and nothing it
    # triggered happens). Before: the procedure ran to its end after GameEnded.
    ends_at_game_end: bool = False
    # SV-GAME-LOOP: a loop no player can stop ends the game drawn once the rules give more events than this
    # since the last action other than passing priority (0: no bound, the game ran for ever).
    loop_bound: int = 0
    # 1.0-1.2: a transformed vehicle's pilot, and a pilot that found no room on the field as its vehicle left,
    # was left under nothing (KIFU-UNDER); from 1.3 it disembarks from a transformed vehicle as from any other
    # that leaves the field, and with no room it is banished (SV-O-40).
    pilot_never_left: bool = False
    # Until 1.3: the scenario runner wrote its label ``scenario`` into every scenario's options, and such logs
    # carry it; from 1.3 no option exists only for tests (#22), and a scenario's id is its game id.
    scenario_option: bool = True
    # From 1.3 the decks of a game started from deck lists must follow the game's construction rule
    # (SV-DECK, ``statemachine.decks``); before it, every deck was taken as given.
    decks_checked: bool = False
    # 1.0-1.2: a follower that boarded a vehicle kept its damage (and evolved mark) under it; from 1.3 a pilot
    # boards without the statuses only a card on the field carries, as it boards without its damage reductions
    # (SV-O-38): damage is a follower's on the field (SV-O-27), and a card under a vehicle is none.
    boarding_clears_marks: bool = False
    # Until 1.3 a card's spellboost count stayed with the card in the hand; from 1.4 the card played keeps it, so
    # its text may read it (SV-GAME-SPELLBOOST: 「スペルブースト ダメージ+1」, 「スペルブースト +1体」).
    spellboost_kept: bool = False
    # Until 1.6 a spell whose every play-time target was missing could still be played (its effect did nothing); from
    # 1.7 a spell that asks for a target is playable only when one can be chosen (SV-GAME-PLAY, SV-O-35).
    spell_needs_target: bool = False
    # From 1.7 each follower a player chooses as a play-time target counts in the player's counter ``chosen``, what
    # ever the effect then does (SV-O-87: choosing is enough for ウルズ); until 1.6 no such counter was kept.
    counts_chosen: bool = False


class Options(GameOptions, frozen=True, forbid_unknown_fields=True):
    """The options a Shadowverse game may be started with (``statemachine.options``): the readings of what the
    seed leaves open (the game's README, "Switches"), the opening's mulligan and the deck-out loss."""

    attack_timing: Literal["2021", "simultaneous"] | None = None  # SV-O-22
    leave_timing: Literal["with_last_words", "after_last_words"] | None = None  # SV-O-19
    count_timing: Literal["resolution", "trigger"] | None = None  # SV-O-08
    multi_random_discard: Literal["left", "random"] | None = None  # SV-O-111
    evolve_hand_order: Literal["after_field", "basic"] | None = None  # SV-O-99
    enter_timing: Literal["with_fanfare", "played_only"] | None = None  # SV-O-17, SV-O-116
    hand_limit: Annotated[int, Meta(ge=1)] | None = None  # SV-O-102: 9 unless given
    mulligan: Switch | None = None  # SV-O-47
    # A player who must draw from an empty deck loses. "off" only for a board whose deck is not part of what it
    # shows (a judge's reconstruction, a scenario that says why); every real game plays it "on".
    deck_out: Switch | None = None


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
