"""Deck construction: what a legal deck of each game is, checked before a game starts from deck lists.

Each game states its rule as a ``DeckRule`` on its profile (``RulesProfile.deck_rule``): how many cards a deck
holds, how many copies of one name it may hold, and which cards the copy limit spares (Magic's basic lands).
Whether a rules version checks it is that version's switch ``decks_checked`` (releases before it took every deck as
given, and still do, so their logs verify as recorded). ``problems`` is the one entry point: ``Engine.new``
refuses a game whose decks break the rule (``IllegalDeck``, naming the rule), re-adjudication reports it as a
finding (``statemachine.rederive``), and a server or a game-AI adapter calls it on a deck list before it starts
a match.

A given set-up (a scenario's board, a judge's reconstruction: ``Engine.from_setup``) has no decks: it is a board,
its deck zones hold whatever the board needs, and nothing about deck construction is checked or claimed of it.
``taken_as_given`` says in words what was not checked, for every audit and verify summary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from msgspec import Struct

from eventsource.errors import KifuError
from statemachine.cards import CardDef, CardPool

__all__ = ["DeckProblem", "DeckRule", "IllegalDeck", "checks_decks", "problems", "refuse_illegal", "said",
           "taken_as_given"]


class DeckRule(Struct, frozen=True):
    """One game's deck-construction rule: ``rule`` its SPEC id, ``summary`` it in a few words."""

    rule: str
    summary: str
    minimum: int  # cards in a deck, at least
    maximum: int | None  # cards in a deck, at most (None: no upper limit)
    copies: int  # cards of one name, at most
    spared: Callable[[CardDef], bool] | None = None  # cards the copy limit does not count (Magic's basic lands)


class DeckProblem(Struct, frozen=True):
    """One way a deck breaks its game's rule: ``player`` the seat whose deck it is, ``rule`` the rule's id."""

    player: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"deck {self.player + 1}: {self.message} [{self.rule}]"


class IllegalDeck(KifuError):
    """A game refused before it starts: a deck breaks its game's construction rule."""

    def __init__(self, found: Sequence[DeckProblem]) -> None:
        super().__init__("; ".join(map(str, found)))
        self.problems = list(found)


class Profile(Protocol):
    """What a deck is checked against: one rules version of one game (``statemachine.profile.RulesProfile``)."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def rules(self) -> Any: ...

    @property
    def pool(self) -> CardPool: ...

    @property
    def deck_rule(self) -> DeckRule | None: ...


def checks_decks(profile: Profile) -> bool:
    """Whether ``profile``'s rules version checks deck construction (its switch ``decks_checked``)."""
    return profile.deck_rule is not None and bool(getattr(profile.rules, "decks_checked", False))


def check_deck(rule: DeckRule, pool: CardPool, player: int, cards: Sequence[str]) -> list[DeckProblem]:
    """What breaks ``rule`` in one deck (card ids, each in ``pool``): its size, then each name over the limit."""
    found: list[DeckProblem] = []
    n = len(cards)
    if n < rule.minimum or (rule.maximum is not None and n > rule.maximum):
        size = (f"exactly {rule.minimum}" if rule.maximum == rule.minimum else
                f"at least {rule.minimum}" if rule.maximum is None else f"{rule.minimum} to {rule.maximum}")
        found.append(DeckProblem(player, rule.rule, f"{n} cards; a deck holds {size}"))
    names = Counter(pool[c].name for c in cards if c in pool and not (rule.spared and rule.spared(pool[c])))
    for name, count in sorted(names.items()):
        if count > rule.copies:
            found.append(DeckProblem(player, rule.rule, f"{count} cards named {name}; at most {rule.copies} of "
                                                        f"one name"))
    return found


def problems(profile: Profile, decks: Sequence[Sequence[str]]) -> list[DeckProblem]:
    """Every way ``decks`` (one card-id list per seat) break the deck rule of ``profile``'s rules version; none
    when that version checks no deck construction."""
    rule = profile.deck_rule
    if rule is None or not checks_decks(profile):
        return []
    return [p for seat, deck in enumerate(decks) for p in check_deck(rule, profile.pool, seat, deck)]


def refuse_illegal(profile: Profile, decks: Sequence[Sequence[str]]) -> None:
    """Raise ``IllegalDeck`` naming the rule if ``decks`` break it."""
    found = problems(profile, decks)
    if found:
        raise IllegalDeck(found)


def taken_as_given(profile: Profile, *, given_board: bool) -> str | None:
    """What was not checked of the decks, in words, naming the rules version (None: they were checked)."""
    if given_board:
        return ("the deck lists were taken as given: the game began from a given board, not from decks, so no "
                f"deck construction was checked ({profile.name} rules {profile.version})")
    if not checks_decks(profile):
        return (f"the deck lists were taken as given: {profile.name} rules {profile.version} checks no deck "
                "construction")
    return None


def said(profile: Profile, *, given_board: bool) -> str:
    """What a judge is told of the decks: taken as given (and why), or checked against the rule."""
    unchecked = taken_as_given(profile, given_board=given_board)
    if unchecked is not None:
        return unchecked
    rule = profile.deck_rule
    assert rule is not None
    return (f"the deck lists were checked against {rule.rule} ({rule.summary}), as {profile.name} rules "
            f"{profile.version} requires")
