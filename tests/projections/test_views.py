"""Per-player views hide the opponent's hand, every deck and face-down cards, until a Revealed event shows them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from projections.state import GameState, fold
from projections.views import HIDDEN, can_see, player_view, redact_event
from statemachine.games import hidden_zones
from tests.fixtures.scripted import events_of, scripted_game
from tests.properties import examples


def card(obj: int, zone: str, name: str, position: int = -1, face_down: bool = False) -> ev.ObjectCreated:
    return ev.ObjectCreated(
        obj, obj, name.lower(), int(zone[0]), zone, position, ev.Characteristics(name, power=1000), face_down
    )


def board() -> list[ev.Event]:
    return [
        ev.GameStarted("test", "1", ("Aoi", "Ren"), 1, "pool", "1", "00"),
        card(1, "0.hand", "Aoi-Hand-A"),
        card(2, "0.hand", "Aoi-Hand-B"),
        card(3, "1.hand", "Ren-Hand-A"),
        card(4, "1.hand", "Ren-Hand-B"),
        card(5, "1.hand", "Ren-Hand-C"),
        card(6, "0.deck", "Aoi-Deck-A"),
        card(7, "0.deck", "Aoi-Deck-B"),
        card(8, "1.deck", "Ren-Deck-A"),
        card(9, "0.battle", "Aoi-Battle"),
        card(10, "1.battle", "Ren-Battle"),
        card(11, "1.battle", "Ren-Face-Down", face_down=True),
        card(12, "0.shields", "Aoi-Shield"),
        card(13, "1.grave", "Ren-Grave"),
    ]


def names(data: Any) -> set[str]:
    """Every card name anywhere in a view."""
    if isinstance(data, dict):
        found = {data["name"]} if isinstance(data.get("name"), str) and "obj" in data else set()
        return found.union(*(names(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(names(v) for v in data))
    return set()


def test_a_player_sees_their_own_hand_and_only_the_count_of_the_opponents() -> None:
    state = fold(board())
    mine = player_view(state, 0)["zones"]
    assert [c["name"] for c in mine["0.hand"]] == ["Aoi-Hand-A", "Aoi-Hand-B"]
    assert mine["1.hand"] == {"count": 3, "visible": []}
    theirs = player_view(state, 1)["zones"]
    assert [c["name"] for c in theirs["1.hand"]] == ["Ren-Hand-A", "Ren-Hand-B", "Ren-Hand-C"]
    assert theirs["0.hand"] == {"count": 2, "visible": []}


@pytest.mark.parametrize("player", [0, 1])
def test_no_one_sees_into_a_deck_or_the_shields_not_even_their_owner(player: int) -> None:
    # Duel Masters names its shields hidden (RulesProfile.hidden_zones); every deck is hidden in any game.
    zones = player_view(fold(board()), player, hidden=hidden_zones("duel_masters"))["zones"]
    assert zones["0.deck"] == {"count": 2, "visible": []}
    assert zones["1.deck"] == {"count": 1, "visible": []}
    assert zones["0.shields"] == {"count": 1, "visible": []}


@pytest.mark.parametrize("player", [0, 1])
def test_a_zone_is_hidden_only_where_the_game_says_so(player: int) -> None:
    # A game without shields hides its decks only: a face-up card in a zone it calls "shields" is public.
    zones = player_view(fold(board()), player, hidden=hidden_zones("magic"))["zones"]
    assert zones["0.deck"] == {"count": 2, "visible": []}
    assert [c["name"] for c in zones["0.shields"]] == ["Aoi-Shield"]
    assert hidden_zones("duel_masters") == {"deck", "shields"} and hidden_zones("vision") == {"deck"}


@pytest.mark.parametrize("player", [0, 1])
def test_a_face_down_card_is_a_placeholder_for_everyone(player: int) -> None:
    zones = player_view(fold(board()), player)["zones"]
    assert zones["1.battle"]["count"] == 2
    assert [c["name"] for c in zones["1.battle"]["visible"]] == ["Ren-Battle"]


@pytest.mark.parametrize("player", [0, 1])
def test_public_zones_are_seen_by_everyone(player: int) -> None:
    zones = player_view(fold(board()), player)["zones"]
    assert [c["name"] for c in zones["0.battle"]] == ["Aoi-Battle"]
    assert [c["name"] for c in zones["1.grave"]] == ["Ren-Grave"]


@pytest.mark.parametrize("player", [0, 1])
def test_nothing_hidden_appears_anywhere_in_the_view(player: int) -> None:
    hidden = {
        0: {
            "Ren-Hand-A",
            "Ren-Hand-B",
            "Ren-Hand-C",
            "Aoi-Deck-A",
            "Aoi-Deck-B",
            "Ren-Deck-A",
            "Ren-Face-Down",
            "Aoi-Shield",
        },
        1: {"Aoi-Hand-A", "Aoi-Hand-B", "Aoi-Deck-A", "Aoi-Deck-B", "Ren-Deck-A", "Ren-Face-Down", "Aoi-Shield"},
    }[player]
    view = player_view(fold(board()), player, hidden=hidden_zones("duel_masters"))  # a board with shields
    assert not names(view) & hidden
    assert names(view) == {e.printed.name for e in board() if isinstance(e, ev.ObjectCreated)} - hidden


def test_the_judge_sees_everything() -> None:
    view = player_view(fold(board()), None)
    assert names(view) == {e.printed.name for e in board() if isinstance(e, ev.ObjectCreated)}
    assert all(isinstance(cards, list) for cards in view["zones"].values())


def test_a_revealed_card_is_seen_by_those_it_was_shown_to_and_no_one_else() -> None:
    state = fold(
        [
            *board(),
            ev.Revealed(4, (0,), 4, "ren-hand-b"),
            ev.Revealed(7, (1,), 7, "aoi-deck-b"),
            ev.Revealed(11, (0, 1), 11, "ren-face-down"),
        ]
    )
    aoi, ren = player_view(state, 0)["zones"], player_view(state, 1)["zones"]
    assert aoi["1.hand"]["count"] == 3
    assert [c["name"] for c in aoi["1.hand"]["visible"]] == ["Ren-Hand-B"]
    assert aoi["0.deck"] == {"count": 2, "visible": []}  # shown to Ren, not to its owner
    assert [c["name"] for c in ren["0.deck"]["visible"]] == ["Aoi-Deck-B"]
    assert [c["name"] for c in aoi["1.battle"]] == ["Ren-Battle", "Ren-Face-Down"]
    assert [c["name"] for c in ren["1.battle"]] == ["Ren-Battle", "Ren-Face-Down"]


def test_a_revealed_card_that_moves_is_a_new_object_and_hidden_again() -> None:
    state = fold(
        [
            *board(),
            ev.Revealed(4, (0,), 4, "ren-hand-b"),
            ev.ZoneChanged(4, 20, 4, "1.hand", 1, "1.deck", 0, "shuffled in"),
        ]
    )
    zones = player_view(state, 0)["zones"]
    assert zones["1.hand"] == {"count": 2, "visible": []}
    assert zones["1.deck"] == {"count": 2, "visible": []}
    assert not can_see(state, 0, 20)


def test_a_card_played_from_hand_is_seen_by_all() -> None:
    state = fold([*board(), ev.ZoneChanged(3, 20, 3, "1.hand", 0, "1.battle", 0, "summon")])
    assert [c["name"] for c in player_view(state, 0)["zones"]["1.battle"]["visible"]] == ["Ren-Hand-A", "Ren-Battle"]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(20, 200), st.sampled_from([0, 1]))
def test_in_any_game_a_view_shows_exactly_what_the_player_may_see(seed: int, length: int, player: int) -> None:
    state = fold(events_of(scripted_game(random.Random(seed), length)))
    view = player_view(state, player)
    visible: set[str] = set()
    hidden: set[str] = set()
    for zone, ids in state.zones.items():
        entry = view["zones"][zone]
        assert (len(entry) if isinstance(entry, list) else entry["count"]) == len(ids)
        for oid in ids:
            name = state.cards[state.objects[oid].card].printed.name
            (visible if can_see(state, player, oid) else hidden).add(name)
            owner, _, kind = zone.partition(".")
            if kind == "deck" or (kind == "hand" and int(owner) != player):
                assert can_see(state, player, oid) == bool(state.objects[oid].status.get(f"seen_by_{player}"))
    assert names(view) == visible  # every card the scripted game makes has a name of its own
    assert not names(view) & hidden


# -- events as a player sees them ----------------------------------------------------------------------------


def test_a_card_created_where_a_player_may_not_see_it_is_redacted() -> None:
    state = GameState()
    deck, opp_hand, own_hand = card(1, "0.deck", "Secret"), card(2, "1.hand", "Theirs"), card(3, "0.hand", "Mine")
    for player in (0, 1):
        hidden = redact_event(deck, player, state)
        assert isinstance(hidden, ev.ObjectCreated)
        assert (hidden.card, hidden.definition, hidden.printed.name) == (-1, HIDDEN, HIDDEN)
        assert (hidden.obj, hidden.zone, hidden.position) == (1, "0.deck", -1)
    assert redact_event(own_hand, 0, state) == own_hand
    assert redact_event(opp_hand, 1, state) == opp_hand
    assert redact_event(opp_hand, 0, state).printed.name == HIDDEN  # type: ignore[union-attr]
    assert redact_event(card(4, "1.battle", "Down", face_down=True), 1, state).printed.name == HIDDEN  # type: ignore[union-attr]
    assert redact_event(deck, None, state) == deck


def test_a_shuffle_hides_its_order_and_a_reveal_reaches_only_its_audience() -> None:
    state = GameState()
    assert redact_event(ev.Shuffled("0.deck", (3, 1, 2)), 0, state) == ev.Shuffled("0.deck", ())
    assert redact_event(ev.Shuffled("0.deck", (3, 1, 2)), None, state) == ev.Shuffled("0.deck", (3, 1, 2))
    shown = ev.Revealed(5, (1,), 5, "bolshack")
    assert redact_event(shown, 1, state) == shown
    assert redact_event(shown, 0, state) is None


def test_an_amount_that_read_hidden_cards_shows_its_value_only_to_those_who_could_see_them() -> None:
    """A computed amount that read a card in a hand, a deck or face down (``SecretAmountComputed``): the players it
    names see the expression (printed text) but neither the value nor the objects read; the others and the judge
    see it all. An amount that read nothing hidden (``AmountComputed``) is public."""
    state = GameState()
    secret = ev.SecretAmountComputed(7, "spell", "amount", "count(hand, opponent, types=follower)", 3, (12,), (0,))
    hidden = redact_event(secret, 0, state)
    assert isinstance(hidden, ev.SecretAmountComputed)
    assert (hidden.value, hidden.looked_back, hidden.redacted) == (0, (), True)
    assert (hidden.expression, hidden.param, hidden.effect) == (secret.expression, "amount", 7)
    assert redact_event(secret, 1, state) == secret
    assert redact_event(secret, None, state) == secret
    public = ev.AmountComputed(7, "spell", "amount", "count(hand, opponent)", 3)
    assert all(redact_event(public, p, state) == public for p in (0, 1, None))


def test_a_trace_line_of_a_redacted_amount_says_it_is_hidden() -> None:
    from tools.travel.trace import render

    state = GameState()
    secret = ev.SecretAmountComputed(None, "spell", "amount", "cost of target", 4, (), (1,))
    assert render(state, secret).startswith("amount = cost of target = 4")
    shown = redact_event(secret, 1, state)
    assert shown is not None
    assert render(state, shown).startswith("amount = cost of target = (hidden)")
