"""The game ends when it ends, and loops end (issue #22).

KIFU-END: once a game has ended no rules event follows it and no request is open — a kernel invariant the
engine checks (from the release that promises it) and the audit reports. Duel Masters 1.1 ran a winning attack on
past the end and checked the deck-out only once a whole pool was done; 1.2 does neither. A loop no player can
stop ends the game drawn, naming the game's rule, within its declared bound of events.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource.memory import MemoryStore
from eventsource.sqlite import SQLiteStore
from statemachine.bots import RandomBot, play_out
from statemachine.decisions import Decision, IllegalDecision
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.games import profile
from statemachine.scenario import load
from statemachine.scenario.model import Failure
from statemachine.scenario.run import Run
from tests.registry import NAMES as GAMES
from tests.registry import REGISTERED, seated_bots
from tests.statemachine.playouts import GAME, play
from tools.cli import main

DM_SCENARIOS = Path(__file__).parents[1] / "scenarios" / "duel_masters"


def _old_run(name: str, version: str) -> Run:
    path = DM_SCENARIOS / f"{name}.toml"
    return Run(load(path), str(path), version=version)


def test_dm_1_1_ran_a_winning_attack_on_past_the_end_of_the_game() -> None:
    """The reproduction: under 1.1 the attack that won still ended, after GameEnded (DM-END-S01 passes on 1.2)."""
    run = _old_run("DM-END-S01", "1.1")
    with pytest.raises(Failure, match="no_events"):
        run.run()
    st_ = run.engine.state
    assert st_.ended and st_.winner == 0 and st_.seq > st_.ended_at
    after = [r.event for r in run.engine.store.read(run.sc.id, st_.ended_at + 1)]
    kinds = [type(e).__name__ for e in after]
    assert kinds == ["ContinuousEffectEnded", "ZoneChanged", "ZoneChanged", "Triggered", "EffectPending"], kinds


def test_dm_1_1_checked_the_deck_out_only_once_the_pool_was_done() -> None:
    """The reproduction: under 1.1 the second ability still asked for its target after the deck ran out."""
    run = _old_run("DM-STATE-S01", "1.1")
    with pytest.raises(Failure, match="PlayerLost"):
        run.run()
    st_ = run.engine.state
    assert not st_.ended and st_.request is not None and st_.request.kind == "target"
    assert not st_.zone("0.deck")


def _dm_1_1_game_past_its_end(tmp_path: Path) -> tuple[str, int, int]:
    """A sample game recorded under 1.1 (seed 0, bots 1/2, the sample decks of 1.2) in which events follow
    GameEnded."""
    _, players, decks = sample("duel_masters")(0)
    db = str(tmp_path / "old.db")
    store = SQLiteStore(db)
    try:
        engine = Engine.new(profile("duel_masters", "1.1"), players, decks, 0, store=store, game="old")
        play_out(engine, [RandomBot(1), RandomBot(2)], 2000)
        ended_at, last = engine.state.ended_at, engine.state.seq
    finally:
        store.close()
    return db, ended_at, last


def test_a_log_with_events_after_the_end_verifies_under_its_release_and_the_audit_names_the_record(
        tmp_path: Path) -> None:
    db, ended_at, last = _dm_1_1_game_past_its_end(tmp_path)
    assert last > ended_at > 0
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", db, "old"])
    assert verified.exit_code == 0, verified.output  # older logs verify as recorded
    audited = runner.invoke(main, ["audit", db, "old"])
    assert audited.exit_code == 1, audited.output
    assert "KIFU-END" in audited.output and f"record {ended_at + 1} follows the end of the game" in audited.output


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16),
       deck_seed=st.integers(0, 2**16))
def test_random_playouts_of_every_game_stop_at_the_end(game: str, seed: int, bot_seed: int, deck_seed: int) -> None:
    """KIFU-END over random playouts of all four games: once ended, the last record is GameEnded, nothing is
    asked, nobody may decide, and a decision is refused naming KIFU-END with nothing appended."""
    rng = random.Random(deck_seed)
    store = MemoryStore()
    engine, _ = play(profile(game), store, seed, bot_seed, [REGISTERED[game].deck(rng), REGISTERED[game].deck(rng)],
                     choose=seated_bots(bot_seed), limit=1500)
    state = engine.state
    if not state.ended:
        return  # (the property is about games that ended)
    assert state.ended_at == state.seq and state.request is None and engine.request is None
    assert engine.flight is None and engine.legal().player is None
    with pytest.raises(IllegalDecision) as refused:
        engine.decide(Decision(state.active, "pass"))
    assert refused.value.rule == "KIFU-END"
    assert store.head(GAME) == state.seq


@pytest.mark.parametrize("game", GAMES)
def test_each_game_declares_its_loop_rule_and_a_bound_no_real_decision_reaches(game: str) -> None:
    rules = profile(game)
    assert rules.ends_at_game_end and rules.loop_bound >= 10000 and rules.loop_rule != "KIFU-LOOP"
    engine = play_out(Engine.new(rules, *sample(game)(7)[1:], 7), [RandomBot(15), RandomBot(16)], 2000)
    per_decision: dict[int, int] = {}
    for r in engine.store.read(engine.game):
        per_decision[r.decision] = per_decision.get(r.decision, 0) + 1
    per_decision.pop(0, None)  # (the set-up: every card of both decks)
    assert max(per_decision.values()) * 50 < rules.loop_bound


@pytest.mark.parametrize(("name", "game"), [("DM-LOOP-S01", "duel_masters"), ("SV-LOOP-S01", "shadowverse"),
                                          ("VOP-LOOP-S01", "vision")])
def test_a_loop_ends_drawn_within_the_bound(name: str, game: str) -> None:
    path = Path(__file__).parents[1] / "scenarios" / game / f"{name}.toml"
    run = Run(load(path), str(path))
    run.run()
    st_ = run.engine.state
    rules = run.engine.profile
    assert st_.ended and st_.winner is None and st_.end_reason.startswith(rules.loop_rule + ":")
    looped = st_.seq - st_.acted_at
    assert rules.loop_bound < looped <= rules.loop_bound + 20  # it stops within a group of events of the bound


def test_a_magic_loop_of_mandatory_actions_is_a_draw_within_the_bound() -> None:
    """MTG-LOOP-S01 played on: both players only pass priority (nothing else stops the loop, CR 732.2), and the
    game ends drawn naming CR 104.4b once the rules give more events than the bound since the last other act."""
    path = Path(__file__).parents[1] / "scenarios" / "magic" / "MTG-LOOP-S01.toml"
    run = Run(load(path), str(path))
    run.run()
    engine = run.engine
    rules = engine.profile
    acted = engine.state.acted_at
    passes = 0
    while not engine.state.ended:
        legal = engine.legal()
        assert legal.player is not None and Decision(legal.player, "pass") in legal.decisions
        engine.decide(Decision(legal.player, "pass"))
        passes += 1
        assert passes < rules.loop_bound  # every pass gives events: the bound is reached long before
    st_ = engine.state
    assert st_.acted_at == acted  # (passing is no act: the count ran on over every pass)
    assert st_.winner is None and st_.end_reason.startswith("CR 104.4b:")
    assert rules.loop_bound < st_.seq - acted <= rules.loop_bound + 20
