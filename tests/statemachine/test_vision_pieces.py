"""Vision of Phantasm's newest card pool is written with general pieces (#25): a step or condition that only one card
uses is a general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb
kept only for the logs of older pools. Steps and conditions carried inside another step (``if``'s ``then``,
``else`` and ``condition``; ``unless_pays``'s and ``remove_from_game``'s ``then``) count as used."""

from __future__ import annotations

from typing import Any

from statemachine.games.vision.effects import VOP
from statemachine.games.vision.pieces import GENERAL_PIECES
from statemachine.games.vision.profile import card_pool
from statemachine.games.vision.versions import RELEASES
from tests.statemachine.pieces_check import check_registered, not_general, single_card, users

# Verbs shaped to one card, kept registered only so that logs of the pools that used them verify byte for byte.
RETIRED = {"set_from_discard"}  # 死神『ヒガンルトゥール』 until pool 1.4 (cards/errata_1_4.toml)
CARRIED = ("then", "else", "condition")  # the keys under which a step names another step or a condition


def named(name: str, params: dict[str, Any]) -> list[str]:
    """A step's name and those of the steps and conditions it carries, however deep."""
    found = [name]
    for key in CARRIED:
        inner = params.get(key)
        if isinstance(inner, str) and inner:
            nested = params.get({"then": "params", "else": "else_params", "condition": "condition_params"}[key], {})
            found += named(inner, nested if isinstance(nested, dict) else {})
    return found


def carried(step: Any) -> list[str]:
    """A step's or condition's name and those it carries."""
    return named(step.name, step.params)


def test_carried_steps_and_conditions_are_counted() -> None:
    used = users(card_pool(RELEASES.latest.pool), carried)
    assert used["return_to_hand"] == {"hakugyokurou", "mumei_no_oka"}  # carried by remove_from_game
    assert "ryuusei_kigankai" in used["hand_fewer_than_opponent"]  # an if's condition


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool), carried)
    single = single_card(used)
    assert single, "the check must see the pool's pieces"
    assert not_general(single, GENERAL_PIECES) == {}, "verbs used by one card that are not general pieces"


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    used = users(card_pool(RELEASES.latest.pool), carried)
    assert sorted(set(used) & RETIRED) == []
    assert set(users(card_pool("1.3"), carried)) & RETIRED, "pool 1.3 still plays its recorded verbs"


def test_the_general_pieces_listed_are_registered_and_none_is_retired() -> None:
    check_registered(set(VOP.effects) | set(VOP.conditions), GENERAL_PIECES, RETIRED)
