"""Magic's newest card pool is written with general pieces (#25): a step or condition that only one card uses is a
general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb kept only for
the logs of older pools."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from statemachine.cards import CardPool
from statemachine.games.magic.pieces import GENERAL_PIECES
from statemachine.games.magic.profile import card_pool
from statemachine.games.magic.versions import RELEASES
from statemachine.games.magic.vocab import MTG

# Verbs shaped to one card, kept registered only so that logs of the pools that used them verify byte for byte.
RETIRED = {"all_creatures_minus_x", "damage_by_sacrificed_power"}  # until pool 1.2 (毒の濁流, 投げ飛ばし)


def _steps(steps: Any) -> list[tuple[str, dict[str, Any]]]:
    """Steps with the steps they carry (a mode's effects, a sacrifice's ``otherwise``), depth first."""
    out: list[tuple[str, dict[str, Any]]] = []
    for step in steps:
        name, params = (step.name, step.params) if hasattr(step, "name") else (step["name"], step.get("params", {}))
        out.append((name, params))
        for value in params.values():
            if isinstance(value, list):
                inner = [v for v in value if isinstance(v, dict)]
                out += _steps([v for v in inner if "name" in v])
                for mode in (v for v in inner if "effects" in v):
                    out += _steps(mode["effects"])
    return out


def users(pool: CardPool) -> dict[str, set[str]]:
    """Every effect step and condition name of the pool's cards, with the cards using it."""
    used: dict[str, set[str]] = defaultdict(set)
    for card in pool.cards.values():
        for ability in card.abilities:
            for name, _ in _steps(ability.effects) + _steps(ability.conditions):
                used[name].add(card.id)
    return used


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    single = {name: cards for name, cards in used.items() if len(cards) == 1}
    assert "cant_be_blocked" in single and "damage" not in single, "the check must see the pool's pieces"
    shaped = {name: sorted(cards) for name, cards in single.items() if name not in GENERAL_PIECES}
    assert shaped == {}, f"verbs used by one card that are not general pieces: {shaped}"


def test_steps_carried_by_another_step_are_counted() -> None:
    used = users(card_pool(RELEASES.latest.pool))
    assert "lord_of_the_pit" in used["damage"]  # its damage is the sacrifice's ``otherwise``


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    assert sorted(set(users(card_pool(RELEASES.latest.pool))) & RETIRED) == []
    assert set(users(card_pool("1.1"))) >= RETIRED, "pool 1.1 still plays its recorded verbs"


def test_the_general_pieces_listed_are_registered_and_none_is_retired() -> None:
    known = set(MTG.effects) | set(MTG.conditions)
    assert set(GENERAL_PIECES) <= known
    assert not set(GENERAL_PIECES) & RETIRED
    assert known >= RETIRED  # still registered for the old pools' logs
