"""Duel Masters rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

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
    # An evolution creature whose card names the races it evolves from (進化—自分の<race>1体の上に置く,
    # ``evolves_from``) goes only on a creature of one of them (DM-GAME-EVOLVE). 1.1: any creature sharing a
    # civilization, whatever the card said.
    evolution_race: bool = False
    # A step's ``may`` is asked for ``mana_boost`` and ``discard_blind`` too ("…してもよい"). 1.1: they were
    # carried out even when their card said "may".
    may_honoured: bool = False


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
