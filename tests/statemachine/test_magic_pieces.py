"""Magic's newest card pool is written with general pieces (#25): a step or condition that only one card uses is a
general piece (``pieces.GENERAL_PIECES``, each with why), and no card of the newest pool uses a verb kept only for
the logs of older pools."""

from __future__ import annotations

from typing import Any

from statemachine.games.magic.pieces import GENERAL_PIECES
from statemachine.games.magic.profile import card_pool
from statemachine.games.magic.versions import RELEASES
from statemachine.games.magic.vocab import MTG
from tests.statemachine.pieces_check import check_registered, not_general, single_card, users

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


def carried(step: Any) -> list[str]:
    """A step's or condition's name and those it carries."""
    return [name for name, _ in _steps([step])]


def test_a_piece_only_one_card_of_the_newest_pool_uses_is_a_documented_general_piece() -> None:
    used = users(card_pool(RELEASES.latest.pool), carried)
    single = single_card(used)
    assert "cant_be_blocked" in single and "damage" not in single, "the check must see the pool's pieces"
    assert not_general(single, GENERAL_PIECES) == {}, "verbs used by one card that are not general pieces"


def test_steps_carried_by_another_step_are_counted() -> None:
    used = users(card_pool(RELEASES.latest.pool), carried)
    assert "lord_of_the_pit" in used["damage"]  # its damage is the sacrifice's ``otherwise``


def test_no_card_of_the_newest_pool_uses_a_verb_kept_for_older_pools() -> None:
    assert sorted(set(users(card_pool(RELEASES.latest.pool), carried)) & RETIRED) == []
    assert set(users(card_pool("1.1"), carried)) >= RETIRED, "pool 1.1 still plays its recorded verbs"


def test_the_general_pieces_listed_are_registered_and_none_is_retired() -> None:
    check_registered(set(MTG.effects) | set(MTG.conditions), GENERAL_PIECES, RETIRED)
