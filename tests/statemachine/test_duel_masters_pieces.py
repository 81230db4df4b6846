"""Duel Masters' newest card pool is written with general pieces (#25): a step or condition that only one card
uses is a general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb
kept only for the logs of older pools."""

from __future__ import annotations

from statemachine.games.duel_masters.pieces import GENERAL_PIECES
from statemachine.games.duel_masters.profile import card_pool
from statemachine.games.duel_masters.versions import RELEASES
from tests.statemachine.pieces_check import check_registered, not_general, single_card, users

# Verbs shaped to one card, kept registered only so that logs of the pools that used them verify byte for byte.
RETIRED = {
    "tap_opponent_creature", "bounce_own_creature", "destroy_subject",  # until pool 1.2
    "destroy_opponent_creature", "mana_send_opponent_creature", "tap_all_opponent_creatures",  # until 1.3
    "bounce_opponent_mana", "bounce_opponent_creatures", "look_top_take_spell", "put_creature_from_hand",
    "put_creatures_total_cost", "effect_battle", "destroy_self_after_attack", "return_self_to_battle",
    "mill_top_if",  # until 1.4
}


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    single = single_card(used)
    assert single, "the check must see the pool's pieces"
    assert not_general(single, GENERAL_PIECES) == {}, "verbs used by one card that are not general pieces"


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    assert sorted(set(used) & RETIRED) == []
    assert set(users(card_pool("1.3"))) & RETIRED, "pool 1.3 still plays its recorded verbs"


def test_the_general_pieces_listed_are_registered_and_none_is_retired() -> None:
    from statemachine.games.duel_masters.effects import DM

    check_registered(set(DM.effects) | set(DM.conditions), GENERAL_PIECES, RETIRED)
