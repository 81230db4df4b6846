"""The resolution-policy contract: written once, run against every policy (STYLE 8, as the store contract is).

Each policy is exercised through its game: seeded bots play the game's sample decks, and at every decision the
contract of ``statemachine.policy.ResolutionPolicy`` is checked — what ``awaits_decision``, ``legal`` and
``decide`` answer, that a refused decision names a rule and appends nothing, and that a game restored from its
log in the middle of a choice asks the same and goes on the same. A new policy joins by adding its game to
``POLICIES``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from eventsource.memory import MemoryStore
from eventsource.records import NewEvent
from projections.state import GameState
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.policy import ResolutionPolicy

POLICIES = {"pending pool": "duel_masters", "stack": "magic", "chain": "vision", "queue": "shadowverse"}
SEEDS = (3, 11)
DECISIONS = 120


def playout(game: str, seed: int) -> Iterator[tuple[Engine, Legal]]:
    """The engine at each decision point of a seeded bot game, with what may be decided there."""
    profile, players, decks = sample(game)(seed)
    engine = Engine.new(profile, players, decks, seed, game=f"contract-{game}")
    bots = [RandomBot(seed * 7 + i) for i in range(len(players))]
    for _ in range(DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            return
        yield engine, legal
        engine.decide(bots[legal.player].choose(legal))


@pytest.fixture(params=sorted(POLICIES), ids=sorted(POLICIES))
def game(request: pytest.FixtureRequest) -> str:
    return POLICIES[str(request.param)]


def restored(engine: Engine) -> Engine:
    """The game restored from a copy of its log (so the live game goes on in its own store)."""
    store = MemoryStore()
    store.append(engine.game, [NewEvent(r.event, r.decision, r.cause) for r in engine.store.read(engine.game)],
                 expected=0)
    return Engine.load(engine.profile, store, engine.game)


def refused(engine: Engine, decision: Decision) -> IllegalDecision:
    """Decide ``decision``, which must be refused with a rule and leave the log as it was."""
    head = engine.store.head(engine.game)
    with pytest.raises(IllegalDecision) as err:
        engine.decide(decision)
    assert err.value.rule, f"{decision} was refused without naming a rule"
    assert engine.store.head(engine.game) == head, f"{decision} was refused but appended events"
    return err.value


def test_the_four_games_have_four_policies() -> None:
    policies = [sample(game)(1)[0].make_policy() for game in POLICIES.values()]
    assert all(isinstance(p, ResolutionPolicy) for p in policies)
    assert len({type(p) for p in policies}) == len(POLICIES)
    assert sorted(p.holder for p in policies) == ["chain", "pool", "queue", "stack"]


def test_awaits_decision_agrees_with_legal(game: str) -> None:
    for seed in SEEDS:
        for engine, _ in playout(game, seed):
            if engine.request is None:
                assert engine.policy.awaits_decision(engine) == (engine.policy.legal(engine) is not None)


def test_what_legal_offers_is_accepted(game: str) -> None:
    """Every decision the engine offers (a policy's, an answer to its request, a player action) is legal: each one
    is tried on a copy restored from the log, which must accept it."""
    tried = 0
    for n, (engine, legal) in enumerate(playout(game, SEEDS[0])):
        if n % 3:
            continue
        for decision in (legal.decisions[0], legal.decisions[-1]):
            restored(engine).decide(decision)
            tried += 1
    assert tried > 20


def test_a_decision_no_policy_knows_is_left_to_the_game_which_refuses_it(game: str) -> None:
    for engine, legal in playout(game, SEEDS[1]):
        assert legal.player is not None
        nonsense = Decision(legal.player, "no_such_action", (1,))
        if engine.request is None:
            assert engine.policy.decide(engine, nonsense) is None, "a policy claimed a decision not about waiting"
        refused(engine, nonsense)


def test_a_request_refuses_the_wrong_player_and_an_answer_not_offered(game: str) -> None:
    asked = 0
    for seed in SEEDS:
        for engine, legal in playout(game, seed):
            req = engine.request
            if req is None:
                continue
            asked += 1
            other = 1 - req.player
            refused(engine, Decision(other, req.action, req.options[:1]))
            outside = max([o for o in req.options if isinstance(o, int)], default=0) + 10_000
            refused(engine, Decision(req.player, req.action, (outside,)))
            assert legal.request == req and all(d.player == req.player for d in legal.decisions)
    assert asked >= 3, f"the {game} sample games asked too few choices to check the contract"


def test_a_game_restored_in_the_middle_of_a_choice_asks_the_same_and_goes_on_the_same(game: str) -> None:
    profile, players, decks = sample(game)(SEEDS[0])
    engine = Engine.new(profile, players, decks, SEEDS[0], game=f"contract-{game}")
    bots = [RandomBot(SEEDS[0] * 7 + i) for i in range(len(players))]
    checked = 0
    for _ in range(DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        answer = bots[legal.player].choose(legal)
        if engine.request is None or checked >= 6:
            engine.decide(answer)
            continue
        copy = restored(engine)
        assert copy.request == engine.request
        assert copy.legal() == legal
        assert isinstance(copy.policy, ResolutionPolicy) and isinstance(engine.policy, ResolutionPolicy)
        assert [r.event for r in copy.decide(answer)] == [r.event for r in engine.decide(answer)]
        checked += 1
    assert checked >= 1


def test_every_waiting_effect_names_a_source_or_none(game: str) -> None:
    for engine, _ in playout(game, SEEDS[1]):
        st: GameState = engine.state
        assert isinstance(engine.policy, ResolutionPolicy)
        for pend in st.pending.values():
            source = engine.policy.source_of(st, pend)
            assert source is None or source >= 0
