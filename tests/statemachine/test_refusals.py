"""A refusal names the rule the decision breaks, not the rule of whatever request is open.

Each case is an illegal decision on a board with some request open or none; the rule named must be the one the
decision itself breaks (ending a step with abilities pending: DM-W-19, whatever the pending pool is asking;
paying life you do not have: MTG-C-05, whichever way the mana ability is offered), and nothing is appended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from statemachine.decisions import Decision, IllegalDecision
from statemachine.scenario import Run, Scenario


def board(game: str, setup: dict[str, Any], steps: list[tuple[int, str, tuple[Any, ...]]]) -> Run:
    run = Run(msgspec.convert({"id": "test", "game": game, "setup": setup}, Scenario), "<test>")
    for player, action, args in steps:
        run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))
    return run


# -- Duel Masters: ミスト・リエス in the battle zone, アクア・ハルカス summoned: two draws pending for player 0 ----

DM_CARDS = [{"handle": "rias", "card": "mist_rias", "zone": "battle"},
            {"handle": "hulcus", "card": "aqua_hulcus", "zone": "hand"},
            *[{"card": "aqua_hulcus", "zone": "mana"} for _ in range(3)],
            *[{"card": "bronze_arm_tribe", "owner": p, "zone": "deck"} for p in (0, 1) for _ in range(3)]]


def dm_choosing_next() -> Run:
    """Two of player 0's abilities pending: the pool asks which resolves next (DM-W-09)."""
    run = board("duel_masters", {"turn": 5, "step": "main", "cards": DM_CARDS}, [(0, "summon", ("@hulcus",))])
    assert run.engine.legal().request.kind == "resolve_next"  # type: ignore[union-attr]
    return run


def dm_mid_resolution() -> Run:
    """The Hulcus's draw resolves first and asks "may" (no rule of its own); the Rias's draw still waits."""
    run = dm_choosing_next()
    hulcus = next(p.effect for p in run.engine.state.pending.values() if p.source == run.obj("hulcus"))
    run.engine.decide(Decision(0, "resolve", (hulcus,)))
    assert run.engine.legal().request.kind == "may" and run.engine.state.pending  # type: ignore[union-attr]
    return run


def dm_idle() -> Run:
    """Nothing pending, nothing asked: player 0's main step."""
    return board("duel_masters", {"turn": 5, "step": "main", "cards": DM_CARDS}, [])


# -- Magic: player 0 at 0 life, kept in the game by プラチナの天使, with マナの合流点 (pay 1 life) ----------------

MTG_CARDS = [{"handle": "angel", "card": "platinum_angel", "zone": "battlefield"},
             {"handle": "confluence", "card": "mana_confluence", "zone": "battlefield"},
             {"handle": "mountain", "card": "mountain", "zone": "battlefield"},
             {"handle": "forest", "card": "forest", "zone": "battlefield", "tapped": True},
             {"handle": "bolt", "card": "lightning_bolt", "zone": "hand"},
             {"handle": "rot", "card": "mind_rot", "owner": 1, "zone": "hand"},
             *[{"card": "swamp", "owner": 1, "zone": "battlefield"} for _ in range(3)]]


def mtg(life: int = 0, steps: list[tuple[int, str, tuple[Any, ...]]] | None = None) -> Run:
    run = board("magic", {"turn": 3, "step": "main1", "cards": MTG_CARDS,
                          "stats": {"0.life": life, "1.life": 20}}, steps or [])
    run.run()
    return run


def mtg_priority() -> Run:
    """Player 0 holds priority in their main phase, at 0 life."""
    run = mtg()
    assert run.engine.state.priority == 0 and not run.engine.state.ended
    return run


def mtg_paying() -> Run:
    """Player 0 casts Lightning Bolt at player 1 and is asked to pay {R} (a payment: MTG-P-06)."""
    run = mtg(steps=[(0, "cast", ("@bolt",)), (0, "choose", (-2,))])
    assert run.engine.legal().request.kind == "pay_mana"  # type: ignore[union-attr]
    return run


def mtg_opponent_priority() -> Run:
    """Player 0 passed on an empty stack: player 1 holds priority in player 0's main phase."""
    return mtg(20, steps=[(0, "pass", ())])


CASES: list[tuple[str, Callable[[], Run], tuple[int, str, tuple[Any, ...]], str]] = [
    ("end the step while the pool asks for the next", dm_choosing_next, (0, "end_step", ()), "DM-W-19"),
    ("end the step mid-resolution, another pending", dm_mid_resolution, (0, "end_step", ()), "DM-W-19"),
    ("the non-turn player ends the step", dm_choosing_next, (1, "end_step", ()), "DM-GAME-TURN"),
    ("the non-turn player resolves first", dm_choosing_next, (1, "resolve", (1,)), "DM-W-14"),
    ("resolve with nothing pending", dm_idle, (0, "resolve", (1,)), "DM-W-03"),
    ("pay 1 life at 0 life, with priority", mtg_priority, (0, "mana", ("@confluence",)), "MTG-C-05"),
    ("tap a tapped land, with priority", mtg_priority, (0, "mana", ("@forest",)), "MTG-C-06"),
    ("pay 1 life at 0 life, while paying", mtg_paying, (0, "mana", ("@confluence",)), "MTG-C-05"),
    ("tap a tapped land, while paying", mtg_paying, (0, "mana", ("@forest",)), "MTG-C-06"),
    ("a sorcery in the opponent's main phase", mtg_opponent_priority, (1, "cast", ("@rot",)), "MTG-P-03"),
    ("act without priority", mtg_opponent_priority, (0, "cast", ("@bolt",)), "MTG-P-01"),
]


@pytest.mark.parametrize(("make", "decision", "rule"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_refusal_names_the_rule_the_decision_breaks(make: Callable[[], Run],
                                                      decision: tuple[int, str, tuple[Any, ...]], rule: str) -> None:
    run = make()
    head = run.engine.store.head(run.sc.id)
    player, action, args = decision
    with pytest.raises(IllegalDecision) as refused:
        run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))
    assert refused.value.rule == rule, str(refused.value)
    assert run.engine.store.head(run.sc.id) == head  # nothing appended


def test_the_same_boards_accept_the_legal_decisions_beside_them() -> None:
    """The boards are not refusing everything: the pool's pick, paying from an untapped Mountain, and player 1's
    instant-speed pass are all accepted."""
    run = dm_choosing_next()
    rias = next(p.effect for p in run.engine.state.pending.values() if p.source == run.obj("rias"))
    run.engine.decide(Decision(0, "resolve", (rias,)))
    run = mtg_paying()
    run.engine.decide(Decision(0, "mana", (run.obj("mountain"),)))
    assert run.engine.state.priority == 0
    run = mtg_opponent_priority()
    run.engine.decide(Decision(1, "pass"))
