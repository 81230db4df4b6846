"""Duel Masters rules 1.1 against 1.0 on the same boards: extra turns, stacking onto an evolution.

Each test plays one board under both versions (``Run(..., version=...)``): 1.1 plays by the rule the change
names (statemachine/games/duel_masters/releases.toml), 1.0 as it was recorded.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from projections.invariants import ImpossibleBoard
from statemachine.decisions import Decision
from statemachine.games.duel_masters import DuelMasters
from statemachine.scenario import Run, Scenario

MANA = [{"card": "dark_soldier", "zone": "mana"} for _ in range(8)]
# Each player's deck holds cards to draw: a Duel Masters player with an empty deck loses (the real rule).
DECKS = [{"card": "dark_soldier", "owner": p, "zone": "deck"} for p in (0, 1) for _ in range(4)]


def board(cards: list[dict[str, Any]], version: str, *, active: int = 0, step: str = "main") -> Run:
    sc = msgspec.convert({"id": "test", "game": "duel_masters",
                          "setup": {"turn": 5, "active": active, "step": step, "cards": [*cards, *DECKS]}},
                         Scenario)
    return Run(sc, "<test>", version=version)


def do(run: Run, player: int, action: str, *args: Any) -> None:
    run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))


def turn_order(run: Run, turns: int) -> list[int]:
    """The players of the next ``turns`` turns, each ending every step at once (nothing else to do)."""
    st = run.engine.state
    out: list[int] = []
    while len(out) < turns:
        start = st.turn
        while st.turn == start:
            legal = run.engine.legal()
            assert legal.request is None and legal.player == st.active, legal
            run.engine.decide(Decision(st.active, "end_step"))
        out.append(st.active)
    return out


def to_step(run: Run, step: str) -> None:
    """The active player ends steps until ``step`` begins."""
    st = run.engine.state
    while st.step != step:
        run.engine.decide(Decision(st.active, "end_step"))


def jewel_on_gaiginga(version: str) -> Run:
    """Player 0 casts 支配のオラクルジュエル, which must choose (and destroys) the opposing シン・ガイギンガ:
    player 1 gains an extra turn in player 0's turn (DM-W-S04's board)."""
    run = board([{"handle": "jewel", "card": "oracle_jewel", "zone": "hand"},
                 {"handle": "gaiginga", "card": "shin_gaiginga", "owner": 1}, *MANA], version)
    do(run, 0, "cast", "@jewel")
    do(run, 0, "choose", "@gaiginga")
    assert run.engine.state.stat(1, "extra_turns") == 1
    return run


@pytest.mark.parametrize(("version", "order"), [("1.1", [1, 1, 0]), ("1.0", [1, 0, 1])])
def test_an_extra_turn_gained_in_the_opponents_turn_comes_before_the_players_own(version: str,
                                                                              order: list[int]) -> None:
    """DM-GAME-EXTRA-TURN: Gaiginga's controller gains an extra turn in player 0's turn 5. It is added after
    turn 5; then the normal order resumes with player 1's own turn: turns 6 and 7 are both player 1's. Under
    1.0 the extra turn replaced player 1's normal turn."""
    run = jewel_on_gaiginga(version)
    assert turn_order(run, 3) == order


@pytest.mark.parametrize(("version", "order"), [("1.1", [1, 1, 0]), ("1.0", [1, 0, 1])])
def test_two_extra_turns_are_both_added_before_the_normal_order_resumes(version: str, order: list[int]) -> None:
    """Player 1 gains an extra turn in player 0's turn 5, and in that extra turn (6) a second one: player 1
    attacks, player 0's shield 支配のオラクルジュエル (S-Trigger) must choose player 1's other Gaiginga. Under
    1.1 turns 7 and 8 are player 1's (the second extra turn, then the normal turn owed since turn 5), then
    player 0's; under 1.0 player 1's normal turn was lost."""
    run = board([{"handle": "jewel", "card": "oracle_jewel", "zone": "hand"},
                 {"handle": "gaiginga", "card": "shin_gaiginga", "owner": 1},
                 {"handle": "gaiginga2", "card": "shin_gaiginga", "owner": 1},
                 {"handle": "attacker", "card": "bronze_arm_tribe", "owner": 1},
                 {"handle": "shield", "card": "oracle_jewel", "zone": "shields"}, *MANA], version)
    do(run, 0, "cast", "@jewel")
    do(run, 0, "choose", "@gaiginga")
    assert turn_order(run, 1) == [1]
    to_step(run, "attack")
    do(run, 1, "attack", "@attacker", "player")
    do(run, 0, "choose", "yes")
    do(run, 0, "choose", "@gaiginga2")
    assert run.engine.state.stat(1, "extra_turns") == 1
    assert turn_order(run, 3) == order
    assert [run.engine.state.stat(p, "turn_owed") for p in (0, 1)] == [0, 0]


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_an_extra_turn_gained_in_ones_own_turn_follows_it(version: str) -> None:
    """Player 0 attacks; player 1's shield is 支配のオラクルジュエル, cast by S-Trigger, and it must choose
    player 0's untapped シン・ガイギンガ: player 0 gains an extra turn in their own turn, so turn 6 is player
    0's and turn 7 player 1's — the same under both versions."""
    run = board([
        {"handle": "attacker", "card": "bronze_arm_tribe", "zone": "battle"},
        {"handle": "gaiginga", "card": "shin_gaiginga", "zone": "battle"},
        {"handle": "shield", "card": "oracle_jewel", "owner": 1, "zone": "shields"},
    ], version, step="attack")
    do(run, 0, "attack", "@attacker", "player")
    assert run.engine.legal().request is not None
    do(run, 1, "choose", "yes")
    do(run, 1, "choose", "@gaiginga")
    assert run.engine.state.stat(0, "extra_turns") == 1
    assert turn_order(run, 3) == [0, 1, 0]


def under(run: Run, handle: str) -> list[str]:
    st = run.engine.state
    return [run.handle_of_card(st.objects[o].card) for o in st.objects[run.obj(handle)].under]


def double_invasion(version: str) -> Run:
    """Player 0's fire Command attacks with two 轟く侵略 レッドゾーン in hand; both 侵略 are declared together
    and player 0 resolves the first one's first."""
    run = board([{"handle": "command", "card": "fire_command"},
                 {"handle": "rz1", "card": "red_zone", "zone": "hand"},
                 {"handle": "rz2", "card": "red_zone", "zone": "hand"},
                 *[{"card": "bronze_arm_tribe", "owner": 1, "zone": "shields"} for _ in range(3)]],
                version, step="attack")
    do(run, 0, "attack", "@command", "player")
    do(run, 0, "choose", "@rz1", "@rz2")
    first = next(p.effect for p in run.engine.state.pending.values() if p.source == run.obj("rz1"))
    do(run, 0, "resolve", first)
    return run


def test_two_invasions_declared_together_stack_one_on_the_other() -> None:
    """DM-GAME-EVOLVE (1.1): the second レッドゾーン goes on top of the first, which keeps the Command under it:
    one creature in the battle zone, the attacker and the first invader under it, bottom first."""
    run = double_invasion("1.1")
    st = run.engine.state
    assert [run.handle_of_card(st.objects[o].card) for o in st.zone("0.battle")] == ["rz2"]
    assert under(run, "rz2") == ["command", "rz1"]
    assert st.objects[run.obj("rz1")].under == []


def test_under_1_0_the_fold_refuses_the_board_the_second_invasion_made() -> None:
    """Rules 1.0 put the second invader on the card under the first, taking it from under the first, an
    evolution creature left in the battle zone with nothing under it: the fold refuses that board."""
    with pytest.raises(ImpossibleBoard, match=r"evolution-under \[DM-GAME-EVOLVE\]: evolution creature \d+ in "
                       r"0\.battle has nothing under it"):
        double_invasion("1.0")


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_an_evolution_summoned_onto_an_evolution_goes_on_top_of_the_whole_stack(version: str) -> None:
    """サイバー・G・ホーガン summoned onto 甲型龍帝式 キリコ³ (itself evolved from アクア・ハルカス): under 1.1
    both cards lie under Hogan, bottom first; 1.0 nested them (Kiriko under Hogan, the Hulcus under Kiriko)."""
    run = board([{"handle": "kiriko", "card": "kiriko3", "under": ["hulcus"]},
                 {"handle": "hulcus", "card": "aqua_hulcus", "zone": "battle"},
                 {"handle": "hogan", "card": "cyber_g_hogan", "zone": "hand"},
                 *[{"card": "aqua_hulcus", "zone": "mana"} for _ in range(8)]], version)
    do(run, 0, "summon", "@hogan", "@kiriko")
    st = run.engine.state
    assert [run.handle_of_card(st.objects[o].card) for o in st.zone("0.battle")] == ["hogan"]
    if version == "1.1":
        assert (under(run, "hogan"), under(run, "kiriko")) == (["hulcus", "kiriko"], [])
    else:
        assert (under(run, "hogan"), under(run, "kiriko")) == (["kiriko"], ["hulcus"])


def test_the_fold_refuses_a_card_taken_from_under_an_evolution_to_lie_under_another() -> None:
    """The impossible board itself, folded directly and checked as a log's fold checks it: two evolution
    creatures, the only card under the first put under the second."""
    from eventsource import events as ev
    from projections.invariants import enforce
    from projections.state import fold

    def card(oid: int, types: tuple[str, ...]) -> ev.ObjectCreated:
        return ev.ObjectCreated(oid, oid, "x", 0, "0.battle", -1, ev.Characteristics("x", types), False)

    board_events: list[ev.Event] = [ev.GameStarted("duel_masters", "1.1", ("a", "b"), 1, "p", "1.0", "d"),
                                    card(1, ("creature",)), card(2, ("creature", "evolution")),
                                    card(3, ("creature", "evolution")), ev.Stacked(2, 1)]
    checks = DuelMasters.invariants()
    state = fold(board_events)
    with pytest.raises(ImpossibleBoard, match=r"evolution creature 2 in 0\.battle has nothing under it") as caught:
        enforce(fold([ev.Stacked(3, 1)], state), checks)
    assert (caught.value.seq, caught.value.breach.rule, caught.value.breach.objects) == (6, "DM-GAME-EVOLVE", (2,))
    state = fold(board_events)
    enforce(fold([ev.Stacked(3, 2), ev.Stacked(3, 1)], state), checks)  # the whole stack, base first: legal
    assert state.objects[3].under == [2, 1]
