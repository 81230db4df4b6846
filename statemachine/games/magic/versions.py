"""Magic rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from statemachine.options import GameOptions, Switch
from statemachine.releases import Releases, load_releases


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The switches of one Magic release."""

    # CR 603.4: a triggered ability with an intervening "if" clause ("when/whenever/at ..., if ...") triggers
    # only if its condition holds when the event happens, and checks it again as it resolves. 1.0 checked it
    # on resolution only, so the ability went on the stack and players received priority with it there.
    intervening_if: bool = False
    # KIFU-END: the game stops the moment it ends; nothing of the procedure in flight runs on (and nothing it
    # triggered happens). Before: the procedure ran to its end after GameEnded.
    ends_at_game_end: bool = False
    # CR 104.4b: a loop no player can stop ends the game drawn once the rules give more events than this
    # since the last action other than passing priority (0: no bound, the game ran for ever).
    loop_bound: int = 0
    # Until 1.2: the scenario runner wrote its label ``scenario`` into every scenario's options, and such logs
    # carry it; from 1.2 no option exists only for tests (#22), and a scenario's id is its game id.
    scenario_option: bool = True
    # From 1.2 the decks of a game started from deck lists must follow the game's construction rule
    # (MTG-DECK, ``statemachine.decks``); before it, every deck was taken as given.
    decks_checked: bool = False
    # CR 120.3 (rules 1.4): damage is recorded as a ``DamageDealt`` event naming its source, so "whenever ~ deals
    # damage" triggers can see it. Before, damage was only its results (damage marked, life lost).
    damage_recorded: bool = False
    # CR 302.6 (rules 1.6): every permanent that comes under a player's control is marked summoning sick, so one
    # that becomes a creature later that turn (layer 4) can't attack or pay {T}. Before, creatures only.
    sick_any_permanent: bool = False


class Options(GameOptions, frozen=True, forbid_unknown_fields=True):
    """The options a Magic game may be started with (``statemachine.options``)."""

    # CR 704.5b: a player who drew from an empty library loses. "off" only for a board whose library is not part
    # of what it shows (a judge's reconstruction, a scenario that says why); every real game plays it "on".
    deck_out: Switch | None = None


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
