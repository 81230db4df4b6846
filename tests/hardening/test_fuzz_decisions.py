"""Random decisions on a live game of each kind: each is refused with IllegalDecision and appends nothing (the
store's head, the engine's state and the log are as before), or it is legal and is played; never another
exception."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.memory import MemoryStore
from projections.state import snapshot
from projections.timeline import replay
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision
from statemachine.games import PROFILES
from tests.hardening.conftest import CASES, exercised, tried
from tests.hardening.gamelog import play
from tests.properties import examples

ACTIONS = ["charge", "summon", "cast", "attack", "end_step", "choose", "resolve", "pass", "declare", "block",
           "", "end", "concede", "play", "evolve", "activate", "end_turn", "node", "defend", "mana"]
GAMES = sorted(PROFILES)


@st.composite
def decisions(draw: st.DrawFn, objects: list[int], players: int) -> Decision:
    player = draw(st.one_of(st.integers(0, players - 1), st.integers(-3, 5), st.sampled_from([2**63, -(2**70)])))
    action = draw(st.one_of(st.sampled_from(ACTIONS), st.text(max_size=12)))
    arg = st.one_of(
        st.sampled_from(objects or [0]), st.integers(-5, 500), st.sampled_from([2**63, -(2**64), 10**30]),
        st.sampled_from(["player", "yes", "no", "", "@x"]), st.text(max_size=6),
    )
    return Decision(player, action, tuple(draw(st.lists(arg, max_size=4))))


GAMES_EACH = 12  # random games per kind of game, each given random decisions


@settings(max_examples=examples(GAMES_EACH), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def random_decisions(rules: str, seed: int, data: st.DataObject) -> None:
    tried(f"decision: game ({rules})")
    store = MemoryStore()
    engine = play(0, seed=seed, store=store, game="g", rules=rules)
    bot = RandomBot(seed)
    for _ in range(30):
        legal = engine.legal()
        if legal.player is None:
            break
        for _ in range(data.draw(st.integers(1, 3))):
            st_before = snapshot(engine.state)
            head = store.head("g")
            log = list(store.read_raw("g"))
            decision = data.draw(decisions(sorted(engine.state.objects), len(engine.state.players)))
            tried(f"decision ({rules})")
            try:
                engine.decide(decision)
            except IllegalDecision as exc:
                tried(f"decision, refused ({rules})")
                assert exc.rule and str(exc)
                assert store.head("g") == head, f"{decision} was refused but appended"
                assert list(store.read_raw("g")) == log
                assert snapshot(engine.state) == st_before, f"{decision} was refused but changed the state"
            else:
                assert store.head("g") > head
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bot.choose(legal))
    assert snapshot(replay(store, "g")) == snapshot(engine.state), "the engine's state is not its log's"


@pytest.mark.property
@pytest.mark.parametrize("rules", GAMES)
def test_a_random_decision_is_refused_whole_or_played(rules: str) -> None:
    decided, refused = f"decision ({rules})", f"decision, refused ({rules})"
    before = CASES[decided], CASES[refused]
    assert exercised(f"decision: game ({rules})", lambda: random_decisions(rules)) >= examples(GAMES_EACH)
    assert CASES[decided] - before[0] >= examples(GAMES_EACH), f"{rules}: too few random decisions tried"
    assert CASES[refused] - before[1] > 0, f"no random decision was refused in {rules}"
