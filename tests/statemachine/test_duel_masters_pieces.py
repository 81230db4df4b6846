"""Duel Masters' newest card pool is written with general pieces (#25): a step or condition that only one card
uses is a general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb
kept only for the logs of older pools."""

from __future__ import annotations

from collections import defaultdict

from statemachine.cards import CardPool
from statemachine.games.duel_masters.pieces import GENERAL_PIECES
from statemachine.games.duel_masters.profile import card_pool
from statemachine.games.duel_masters.versions import RELEASES

# Verbs shaped to one card, kept registered only so that logs of the pools that used them verify byte for byte.
RETIRED = {
    "tap_opponent_creature", "bounce_own_creature", "destroy_subject",  # until pool 1.2
    "destroy_opponent_creature", "mana_send_opponent_creature", "tap_all_opponent_creatures",  # until 1.3
    "bounce_opponent_mana", "bounce_opponent_creatures", "look_top_take_spell", "put_creature_from_hand",
    "put_creatures_total_cost", "effect_battle", "destroy_self_after_attack", "return_self_to_battle",
    "mill_top_if",  # until 1.4
}


def users(pool: CardPool) -> dict[str, set[str]]:
    """Every step and condition name of the pool's cards, with the cards using it."""
    used: dict[str, set[str]] = defaultdict(set)
    for card in pool.cards.values():
        for ability in card.abilities:
            for step in ability.effects:
                used[step.name].add(card.id)
            for cond in ability.conditions:
                used[cond.name].add(card.id)
    return used


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    single = {name: cards for name, cards in used.items() if len(cards) == 1}
    assert single, "the check must see the pool's pieces"
    shaped = {name: sorted(cards) for name, cards in single.items() if name not in GENERAL_PIECES}
    assert shaped == {}, f"verbs used by one card that are not general pieces: {shaped}"


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    assert sorted(set(used) & RETIRED) == []
    assert set(users(card_pool("1.3"))) & RETIRED, "pool 1.3 still plays its recorded verbs"


def test_the_general_pieces_listed_are_registered_and_none_is_retired() -> None:
    from statemachine.games.duel_masters.effects import DM

    known = set(DM.effects) | set(DM.conditions)
    assert set(GENERAL_PIECES) <= known
    assert not set(GENERAL_PIECES) & RETIRED
    assert known >= RETIRED  # still registered for the old pools' logs
