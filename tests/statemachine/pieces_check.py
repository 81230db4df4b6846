"""What each game's pieces test asks of a card pool (#25): every step and condition name its cards use, the names
only one card uses, and which of those are not listed as general pieces (a verb shaped to one card)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from statemachine.cards import CardPool


def own_name(step: Any) -> list[str]:
    """A step or condition that carries nothing stands for its own name only."""
    return [step.name]


def users(pool: CardPool, names: Callable[[Any], Iterable[str]] = own_name) -> dict[str, set[str]]:
    """Every step and condition name of the pool's cards (with ``names``, those a step carries too), with the cards
    using it."""
    used: dict[str, set[str]] = defaultdict(set)
    for card in pool.cards.values():
        for ability in card.abilities:
            for step in (*ability.effects, *ability.conditions):
                for name in names(step):
                    used[name].add(card.id)
    return used


def single_card(used: dict[str, set[str]]) -> dict[str, set[str]]:
    """The names exactly one card uses."""
    return {name: cards for name, cards in used.items() if len(cards) == 1}


def not_general(single: dict[str, set[str]], general: Iterable[str]) -> dict[str, list[str]]:
    """The single-card names not listed as general pieces, with their card: what the pieces test refuses."""
    listed = set(general)
    return {name: sorted(cards) for name, cards in single.items() if name not in listed}


def check_registered(known: set[str], general: Iterable[str], retired: set[str]) -> None:
    """The general pieces listed are registered and none is retired; the retired verbs stay registered for the
    logs of the old pools that used them."""
    assert set(general) <= known
    assert not set(general) & retired
    assert known >= retired
