"""Magic rules 1.1 against 1.0 on the same boards: the intervening "if" (CR 603.4).

A triggered ability worded "when/whenever/at ..., if ..., ..." triggers only if its condition holds when the
event happens, and checks it again as it resolves. Rules 1.0 checked it on resolution only.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from eventsource import events as ev
from statemachine.decisions import Decision
from statemachine.games import profile
from statemachine.scenario import Run, Scenario


def board(cards: list[dict[str, Any]], version: str, *, step: str, life: int = 20) -> Run:
    """The board under rules ``version``; a card added in pool 1.1 is given inline to play it under 1.0."""
    newer = profile("magic").pool
    inline = [{k: v for k, v in msgspec.to_builtins(newer[c]).items() if k not in ("since", "until")}
              for c in sorted({spec["card"] for spec in cards}) if c not in profile("magic", version).pool]
    sc = msgspec.convert({"id": "test", "game": "magic", "card": inline, "setup": {
        "turn": 3, "active": 0, "step": step, "cards": cards, "stats": {"0.life": life, "1.life": 20}}}, Scenario)
    run = Run(sc, "<test>", version=version)
    run.run()
    return run


def do(run: Run, player: int, action: str, *args: Any) -> None:
    run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))


def triggered(run: Run) -> list[str]:
    return [r.event.ability for r in run.engine.store.read(run.sc.id) if isinstance(r.event, ev.Triggered)]


def stack(run: Run) -> list[str]:
    from statemachine.games.magic.stack import items

    return [p.ability or p.label for p in items(run.engine.state)]


LIBRARY = [{"card": "forest", "zone": "deck"}, {"card": "forest", "zone": "deck"}]


def howling_mine(version: str, tapped: bool) -> Run:
    """Player 0's upkeep; both pass, so the draw step begins with ハウリング・マイン on the battlefield."""
    run = board([{"handle": "mine", "card": "howling_mine", "zone": "battlefield", "tapped": tapped}, *LIBRARY],
                version, step="upkeep")
    do(run, 0, "pass")
    do(run, 1, "pass")
    assert run.engine.state.step == "draw"
    return run


def felidar(version: str, life: int) -> Run:
    """フェリダーの君主 on player 0's battlefield as player 0's upkeep begins, at ``life`` life."""
    return board([{"handle": "felidar", "card": "felidar_sovereign", "zone": "battlefield"}, *LIBRARY],
                 version, step="untap", life=life)


def test_a_tapped_howling_mine_does_not_trigger() -> None:
    """CR 603.4: "if it is untapped" is false as the draw step begins: nothing triggers, nothing goes on the
    stack, and player 0 receives priority on an empty stack."""
    run = howling_mine("1.1", tapped=True)
    assert (triggered(run), stack(run), run.engine.state.priority) == ([], [], 0)


def test_a_false_intervening_if_does_not_trigger_felidar_sovereign() -> None:
    """CR 603.4, another card and trigger: at 39 life Felidar Sovereign's "if you have 40 or more life" is false
    as the upkeep begins: it does not trigger."""
    run = felidar("1.1", life=39)
    assert run.engine.state.step == "upkeep"
    assert (triggered(run), stack(run), run.engine.state.priority) == ([], [], 0)


@pytest.mark.parametrize("make", [lambda v: howling_mine(v, tapped=True), lambda v: felidar(v, life=39)],
                         ids=["howling_mine", "felidar_sovereign"])
def test_under_1_0_the_false_condition_was_checked_only_on_resolution(make: Any) -> None:
    """Rules 1.0: the ability triggered, went on the stack, players got priority with it there, and it did
    nothing as it resolved (603.4 checked then)."""
    run = make("1.0")
    assert len(triggered(run)) == 1 and len(stack(run)) == 1 and run.engine.state.priority == 0
    do(run, 0, "pass")
    do(run, 1, "pass")
    fizzled = [r.event for r in run.engine.store.read(run.sc.id) if isinstance(r.event, ev.EffectFizzled)]
    assert len(fizzled) == 1 and "603.4" in fizzled[0].reason


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_a_true_intervening_if_triggers_and_the_ability_resolves(version: str) -> None:
    """An untapped Howling Mine triggers as the draw step begins; as it resolves the active player draws."""
    run = howling_mine(version, tapped=False)
    assert triggered(run) == ["extra_draw"] and len(stack(run)) == 1
    hand = len(run.engine.state.zone("0.hand"))
    do(run, 0, "pass")
    do(run, 1, "pass")
    assert len(run.engine.state.zone("0.hand")) == hand + 1


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_the_condition_is_checked_again_as_the_ability_resolves(version: str) -> None:
    """At 40 life Felidar Sovereign triggers; in response player 1 casts Lightning Bolt at player 0 (37 life):
    as the ability resolves its "if" is false, so it does nothing and nobody wins (CR 603.4)."""
    run = board([{"handle": "felidar", "card": "felidar_sovereign", "zone": "battlefield"},
                 {"handle": "bolt", "card": "lightning_bolt", "owner": 1, "zone": "hand"},
                 {"card": "mountain", "owner": 1, "zone": "battlefield"}, *LIBRARY], version, step="untap", life=40)
    assert triggered(run) == ["win"] and len(stack(run)) == 1
    do(run, 0, "pass")
    do(run, 1, "cast", "@bolt")
    do(run, 1, "choose", -1)
    do(run, 1, "mana", "auto")
    for player in (1, 0):  # the Bolt resolves
        do(run, player, "pass")
    assert run.engine.state.stat(0, "life") == 37 and stack(run) == ["win"]
    for player in (0, 1):  # then Felidar Sovereign's ability
        do(run, player, "pass")
    st = run.engine.state
    fizzled = [r.event for r in run.engine.store.read(run.sc.id) if isinstance(r.event, ev.EffectFizzled)]
    assert not st.ended and stack(run) == [] and len(fizzled) == 1 and "603.4" in fizzled[0].reason


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_at_forty_life_felidar_sovereign_wins_the_game(version: str) -> None:
    run = felidar(version, life=40)
    do(run, 0, "pass")
    do(run, 1, "pass")
    st = run.engine.state
    assert (st.ended, st.winner, st.players[1].lost) == (True, 0, "you won the game (104.2b)")
