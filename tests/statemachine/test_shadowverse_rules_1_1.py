"""Shadowverse rules changed in 1.1 (releases.toml), each exercised on more than one card or board, and the
1.0 behaviour kept for logs recorded under 1.0.

- SV-GAME-EVOLVE: evolving opens on a player's 5th turn (4th going second) in a game a scenario started too.
- SV-O-98: an effect whose EP cost cannot be paid does nothing more.
- SV-O-100: whether the instances of one simultaneous group are one is stated by the card data (``bundle``).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from eventsource import events as ev
from statemachine.decisions import Decision, IllegalDecision
from statemachine.scenario import Run, Scenario


def run_at(setup: dict[str, Any], version: str | None = None, cards: list[dict[str, Any]] | None = None,
           options: dict[str, str] | None = None) -> Run:
    """A board from a scenario set-up, played under rules ``version`` (None: the newest) with its card pool."""
    sc = msgspec.convert({"id": "sv-1.1", "game": "shadowverse", "setup": setup, "card": cards or [],
                          "options": options or {}}, Scenario)
    return Run(sc, "<test>", version=version)


def board(stats: dict[str, int], cards: list[dict[str, Any]], turn: int = 9) -> dict[str, Any]:
    return {"turn": turn, "active": 0, "step": "main", "cards": cards,
            "stats": {"0.life": 20, "1.life": 20, **stats}}


def decide(run: Run, action: str, *handles: str) -> None:
    run.engine.decide(Decision(0, action, tuple(run.obj(h) for h in handles)))


def life(run: Run, player: int) -> int:
    return run.engine.state.stat(player, "life")


# -- SV-GAME-EVOLVE: the 5th turn (4th going second), in scenarios too ------------------------------------------


@pytest.mark.parametrize(("card", "turn", "legal"), [
    ("fighter", 7, False),  # player 0 went first (odd turns): turn 7 is its 4th
    ("fighter", 9, True),  # its 5th
    ("goblin", 6, False),  # player 0 went second (even turns): turn 6 is its 3rd
    ("goblin", 8, True),  # its 4th
])
def test_evolving_opens_on_the_fifth_turn_in_a_scenario(card: str, turn: int, legal: bool) -> None:
    """The turns each player has begun and who went second follow from the set-up's turn and active player."""
    run = run_at(board({"0.ep": 2}, [{"handle": "f", "card": card, "zone": "field"}], turn=turn))
    if legal:
        decide(run, "evolve", "f")
        assert run.engine.state.objects[run.obj("f")].status.get("evolved") == 1
    else:
        with pytest.raises(IllegalDecision) as refused:
            decide(run, "evolve", "f")
        assert refused.value.rule == "SV-GAME-EVOLVE"
        assert run.engine.state.stat(0, "ep") == 2  # nothing happened


@pytest.mark.parametrize("card", ["fighter", "goblin"])
def test_rules_1_0_let_a_scenario_evolve_at_any_turn(card: str) -> None:
    # Rules 1.0 read the label ``scenario`` the runner used to add to every scenario's options; the runner adds
    # no option any more (#22), so a scenario played under 1.0 states it (1.3 refuses it).
    run = run_at(board({"0.ep": 2}, [{"handle": "f", "card": card, "zone": "field"}], turn=1), "1.0",
                 options={"scenario": "sv-1.0"})
    decide(run, "evolve", "f")
    assert run.engine.state.objects[run.obj("f")].status.get("evolved") == 1


# -- SV-O-98: an unpaid EP cost stops the effect ------------------------------------------------------------------

EP_SCHOLAR = {
    "id": "ep_scholar", "name": "EP scholar (test card)", "types": ["follower"], "colors": ["neutral"], "cost": 1,
    "power": 1, "toughness": 1,
    "abilities": [{"id": "fanfare", "label": "EP消費",
                   "trigger": {"where": "field", "on": "fanfare", "subject": "self"},
                   "effects": [{"name": "spend_ep", "params": {"amount": 2}}, {"name": "draw", "params": {"count": 2}},
                               {"name": "damage", "params": {"amount": 1, "to": "enemy_leader"}}]}],
}


@pytest.mark.parametrize(("ep", "life_after"), [(0, 20), (1, 18)])
def test_sylvia_deals_damage_only_if_her_ep_is_paid(ep: int, life_after: int) -> None:
    run = run_at(board({"0.pp": 4, "0.ep": ep}, [{"handle": "s", "card": "sylvia", "zone": "hand"}]))
    decide(run, "play", "s")
    assert (life(run, 1), run.engine.state.stat(0, "ep")) == (life_after, max(ep - 1, 0))


@pytest.mark.parametrize(("ep", "drawn", "life_after"), [(1, 0, 20), (2, 2, 19)])
def test_an_unpaid_cost_stops_every_later_step(ep: int, drawn: int, life_after: int) -> None:
    deck = [{"card": "goblin", "zone": "deck"} for _ in range(3)]
    run = run_at(board({"0.pp": 1, "0.ep": ep}, [{"handle": "s", "card": "ep_scholar", "zone": "hand"}, *deck]),
                 cards=[EP_SCHOLAR])
    decide(run, "play", "s")
    st = run.engine.state
    assert (len(st.zone("0.hand")), life(run, 1), st.stat(0, "ep")) == (drawn, life_after, ep - 2 if drawn else ep)


def test_rules_1_0_let_sylvia_deal_damage_at_0_ep() -> None:
    run = run_at(board({"0.pp": 4, "0.ep": 0}, [{"handle": "s", "card": "sylvia", "zone": "hand"}]), "1.0")
    decide(run, "play", "s")
    assert life(run, 1) == 18


# -- SV-O-100: bundling is stated by the card data ---------------------------------------------------------------


def evolving(n: int) -> list[dict[str, Any]]:
    names = ["fighter", "goblin", "fighter"]
    return [{"handle": f"f{i}", "card": names[i], "zone": "field"} for i in range(n)] + [
        {"handle": "spell", "card": "evolve_all_spell", "zone": "hand"}]


def hits(run: Run) -> list[int]:
    """The damage of each hit on player 1's leader, in order."""
    out, last = [], 20
    for r in run.all_events:
        if isinstance(r.event, ev.PlayerStat) and r.event.player == 1 and r.event.key == "life" and r.decision:
            out.append(last - r.event.value)
            last = r.event.value
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_piercy_deals_one_hit_of_the_total(n: int) -> None:
    run = run_at(board({"0.pp": 2}, [{"handle": "piercy", "card": "piercy", "zone": "field",
                                      "status": {"evolved": 1}}, *evolving(n)]))
    decide(run, "play", "spell")
    run._collect()
    assert hits(run) == [n]


@pytest.mark.parametrize(("bundle", "expected"), [(True, [3]), (False, [1, 1, 1])])
def test_the_card_data_says_whether_an_ability_bundles(bundle: bool, expected: list[int]) -> None:
    watcher = {"id": "watcher", "name": "watcher (test card)", "types": ["follower"], "colors": ["forest"],
               "cost": 2, "power": 1, "toughness": 3,
               "abilities": [{"id": "other_evolves", "label": "進化時", "bundle": bundle,
                              "trigger": {"where": "field", "on": "evolves", "subject": "other", "whose": "you"},
                              "effects": [{"name": "damage", "params": {"amount": 1, "to": "enemy_leader"}}]}]}
    run = run_at(board({"0.pp": 2}, [{"handle": "w", "card": "watcher", "zone": "field", "status": {"evolved": 1}},
                                     *evolving(3)]), cards=[watcher])
    decide(run, "play", "spell")
    run._collect()
    assert hits(run) == expected


def test_rules_1_0_bundle_piercy_by_its_effect() -> None:
    run = run_at(board({"0.pp": 2}, [{"handle": "piercy", "card": "piercy", "zone": "field",
                                      "status": {"evolved": 1}}, *evolving(2)]), "1.0")
    decide(run, "play", "spell")
    events = [r.event for r in run.engine.store.read("sv-1.1")]
    assert [e.captured for e in events if isinstance(e, ev.Triggered) and e.ability == "other_evolves"] == [("0:2",)]
    assert life(run, 1) == 18
