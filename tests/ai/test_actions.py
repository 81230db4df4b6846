"""The action numbering (tools.ai.actions): every legal decision is one action (or, answering a request, one
sequence of picks) and back, in random playouts of all four games; a request's picks lead only to valid answers
and reach every valid one."""

from __future__ import annotations

import importlib
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from statemachine.decisions import Decision, Request
from statemachine.engine import Engine
from statemachine.games import PROFILES
from tests.properties import SOAK, examples
from tools.ai.actions import DONE, FIRST_SHAPE, MAX_OPTIONS, ActionSpaceExceeded, numbering

GAMES = sorted(PROFILES)


def new_game(game: str, seed: int) -> Engine:
    demo = importlib.import_module(PROFILES[game][0] + ".demo")
    profile, players, decks = demo.sample_game(seed)
    return Engine.new(profile, players, decks, seed)


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_decision_maps_to_actions_and_back(game: str) -> None:
    num = numbering(game)
    seen_shapes: set[str] = set()
    multi_picks = 0
    for seed in range(4):
        engine, rng = new_game(game, seed), random.Random(seed)
        picked: tuple[int, ...] = ()
        for _ in range(1500):
            legal = engine.legal()
            if legal.player is None:
                break
            actions = num.legal_actions(engine, picked, legal)
            assert actions == sorted(set(actions)) and actions
            assert all(0 <= a < num.num_distinct_actions for a in actions)
            if not picked:
                for d in legal.decisions:
                    steps = num.actions_of(engine, d, legal)
                    assert steps[0] in actions
                    got: Decision | tuple[int, ...] = ()
                    for a in steps:
                        assert isinstance(got, tuple)
                        got = num.apply(engine, got, a, legal)
                    assert got == d, (d, steps, got)
                    if legal.request is None:
                        seen_shapes.add(num.action_name(steps[0]).split()[0])
                if legal.request is None:
                    assert sorted(num.encode(engine, d) for d in legal.decisions) == actions
                    assert all(a >= FIRST_SHAPE for a in actions)
            out = num.apply(engine, picked, rng.choice(actions), legal)
            if isinstance(out, tuple):
                picked = out
                multi_picks += 1
                continue
            picked = ()
            engine.decide(out)
    expected = {"duel_masters": {"end_step", "charge", "summon", "cast", "attack"},
                "magic": {"pass", "play", "cast", "mana", "activate"},
                "shadowverse": {"end_turn", "play", "evolve", "attack"},
                "vision": {"pass", "node", "play", "activate", "attack", "defend"}}[game]
    assert seen_shapes == expected


def test_the_numbering_is_the_same_in_every_run() -> None:
    sizes = {g: numbering(g).num_distinct_actions for g in GAMES}
    assert sizes == {g: numbering(g).num_distinct_actions for g in GAMES}
    dm = numbering("duel_masters")
    assert dm.action_name(DONE) == "done"
    assert dm.action_name(3) == "pick 3"
    names = [dm.action_name(a) for a in range(FIRST_SHAPE, dm.num_distinct_actions)]
    assert len(set(names)) == len(names)
    assert "attack battle[1] player" in names and "attack battle[0] op.battle[2]" in names


def test_a_decision_no_shape_describes_is_refused_by_name() -> None:
    engine = new_game("duel_masters", 1)
    with pytest.raises(ActionSpaceExceeded, match="fits no action shape"):
        numbering("duel_masters").encode(engine, Decision(0, "teleport", (1,)))
    with pytest.raises(ActionSpaceExceeded, match="fits no action shape"):
        numbering("magic").encode(engine, Decision(0, "charge", (1, 2, 3)))


def test_a_request_with_too_many_options_is_refused_by_name() -> None:
    from tools.ai.actions import _request_actions

    with pytest.raises(ActionSpaceExceeded, match="beyond"):
        _request_actions(Request(0, "target", "", tuple(range(MAX_OPTIONS + 1))), ())


@st.composite
def requests(draw: st.DrawFn) -> Request:
    n = draw(st.integers(0, 6))
    options = tuple(draw(st.permutations(range(100, 100 + n))))
    lo = draw(st.integers(0, n))
    hi = draw(st.integers(max(lo, 1), max(n, 1)))
    weighted = draw(st.booleans())
    weights = tuple(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))) if weighted else ()
    total = draw(st.integers(0, 10)) if weighted else None
    return Request(0, "targets", "", options, lo, hi, weights=weights, max_total=total)


def _answers(req: Request) -> set[tuple[int | str, ...]]:
    """Every answer reachable pick by pick."""
    from tools.ai.actions import _request_actions

    out: set[tuple[int | str, ...]] = set()
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        picked = frontier.pop()
        for a in _request_actions(req, picked):
            if a == DONE:
                out.add(tuple(req.options[i] for i in picked))
                continue
            now = (*picked, a)
            if len(now) >= min(req.maximum, len(req.options)):
                out.add(tuple(req.options[i] for i in now))
            else:
                frontier.append(now)
    return out


@settings(max_examples=examples(300), deadline=None, derandomize=not SOAK)
@given(requests())
def test_picks_reach_exactly_the_valid_answers(req: Request) -> None:
    reachable = _answers(req)
    valid = {
        combo for k in range(len(req.options) + 1)
        for combo in itertools.permutations(req.options, k) if req.accepts(combo) is None
    }
    assert reachable == valid
