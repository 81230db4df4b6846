"""Shadowverse's newest card pool is written with general pieces (#25): a step or condition only one card uses is a
general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb kept only for
the logs of older pools (``effects/retired.py``)."""

from __future__ import annotations

from typing import Any

from statemachine.cards import EffectDef
from statemachine.games.shadowverse.effects import SV, retired
from statemachine.games.shadowverse.pieces import GENERAL_PIECES
from statemachine.games.shadowverse.profile import card_pool
from statemachine.games.shadowverse.versions import RELEASES
from tests.statemachine.pieces_check import not_general, single_card, users

# Verbs shaped to one card, kept registered only so that logs of the pools that used them verify byte for byte.
RETIRED = {
    "piercing_bundle",  # until pool 1.1
    "tenko_damage", "buff_by_entered", "damage_by_attack",  # until 1.3
    "attack_to_enemy_max", "damage_by_last_defense", "destroy_own_amulets", "throw_from_hand",
    "banish_self_from_hand", "reveal_self",  # until 1.4
    "noa_count", "copy_last_played", "tutor_follower",  # until 1.5
    "evolve_others",  # until 1.6
}


def _nested(step: EffectDef) -> list[str]:
    """The conditions and steps an ``if`` names (its condition, its ``then`` and ``else``)."""
    if step.name != "if":
        return []
    names = [str(step.params.get("condition"))]
    for branch in ("then", "else"):
        value: Any = step.params.get(branch, [])
        for s in value if isinstance(value, list) else [value]:
            names.append(s if isinstance(s, str) else str(s.get("name")))
    return names


def with_if(step: EffectDef) -> list[str]:
    """A step's or condition's name and, for an ``if``, the names it carries."""
    return [step.name, *_nested(step)]


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool), with_if)
    single = single_card(used)
    assert len(single) >= 20, "the check must see the pool's pieces"
    assert not_general(single, GENERAL_PIECES) == {}, "verbs used by one card that are not general pieces"


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    used = users(card_pool(RELEASES.latest.pool), with_if)
    assert sorted(set(used) & RETIRED) == []
    for version, verb in (("1.0", "piercing_bundle"), ("1.2", "tenko_damage"), ("1.4", "noa_count"),
                          ("1.5", "evolve_others")):
        assert verb in users(card_pool(version), with_if), f"pool {version} still plays its recorded verb {verb}"


def test_the_retired_verbs_are_those_of_the_retired_module_and_still_registered() -> None:
    in_module = {name for name, entry in SV.effects.items() if entry.fn.__module__ == retired.__name__}
    assert in_module == RETIRED
    known = set(SV.effects) | set(SV.conditions)
    assert set(GENERAL_PIECES) <= known
    assert not set(GENERAL_PIECES) & RETIRED
