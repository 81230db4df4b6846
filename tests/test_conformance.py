"""The conformance battery: the same checks over every game of the registry and the toy game (``tests/registry``),
as OpenSpiel runs its basic tests over every game.

- random playouts from ``Engine.legal()``: no crash, the games that surely end do, every log verifies,
  re-adjudicates from setup and decisions to the live state, restores to it, and the same seed and decisions
  give byte-identical records (``tests/statemachine/playouts.py``);
- board invariants after every decision, and on the log's fold where each decision begins;
- a game restored from its log before every decision records what one engine playing throughout does;
- search clones go on apart from their engine and give the records it would have given
  (``tests/statemachine/test_cloning.py`` holds the checks of clones that are not per game);
- versions: every pinned card-pool version loads with its digest, and a version not installed is refused
  naming those that are (``tests/test_releases.py`` replays the recorded fixtures of every release);
- OpenSpiel's and PettingZoo's own API tests, over the registered games (the toy game has no action numbering,
  so no adapter of ``tools.ai``).
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pyspiel
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

import tools.ai.spiel  # noqa: F401 - registers the games
from eventsource.branching import BranchLog
from eventsource.memory import MemoryStore
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore
from projections.invariants import Guard, breaches
from projections.state import GameState, evolve
from statemachine.bots import RandomBot
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.games.vision.chain import InterferenceChain
from statemachine.releases import UnknownVersion
from tests.properties import games
from tests.registry import GAMES, NAMES, TestGame, invariants_of, seated_bots
from tests.statemachine.playouts import GAME, legal_deck, play, prove
from tests.statemachine.test_cloning import Setup, check_clones
from tools.ai.actions import numbering
from tools.ai.pettingzoo import env
from tools.ai.spiel import short_name

ALL = sorted(GAMES)
SEEDS = st.integers(0, 2**32)
SMALL = st.integers(0, 2**16)


def _store(game: TestGame, tmp: Path, name: str) -> EventStore:
    return SQLiteStore(tmp / f"{name}.db") if game.durable else MemoryStore()


def _playout(game: TestGame, tmp: Path, seed: int, bot_seed: int, decks: list[list[str]], name: str) -> None:
    store = _store(game, tmp, name)
    rules = game.profile()
    engine, decisions = play(rules, store, seed, bot_seed, decks, choose=game.choose, limit=game.limit,
                             invariant=game.invariant)
    if game.ends:
        assert engine.state.ended, "a game between two random players ends"
    prove(rules, store, engine, decisions, decks, seed)
    if isinstance(store, SQLiteStore):
        store.close()


@pytest.mark.parametrize("name", ALL)
def test_random_games_end_cleanly_and_replay_byte_for_byte(name: str, tmp_path: Path) -> None:
    game = GAMES[name]

    @settings(max_examples=games(*game.examples), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS, bot_seed=SMALL, deck_seed=SMALL)
    def playout(seed: int, bot_seed: int, deck_seed: int) -> None:
        rng = random.Random(deck_seed)
        _playout(game, tmp_path, seed, bot_seed, [game.deck(rng), game.deck(rng)], f"{seed}-{bot_seed}-{deck_seed}")

    for seed, bot_seed, deck_seed in game.pinned:  # each failure a soak found, played again every run
        playout = example(seed=seed, bot_seed=bot_seed, deck_seed=deck_seed)(playout)
    playout()


@pytest.mark.parametrize("name", [n for n in ALL if GAMES[n].sample_examples[0]])
def test_the_sample_game_plays_and_replays(name: str, tmp_path: Path) -> None:
    game = GAMES[name]

    @settings(max_examples=games(*game.sample_examples), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS, bot_seed=SMALL)
    def playout(seed: int, bot_seed: int) -> None:
        _, _, decks = game.sample(seed)
        _playout(game, tmp_path, seed, bot_seed, decks, f"{seed}-{bot_seed}-sample")

    playout()


def test_the_vision_sample_game_plays_to_an_end_through_its_chain() -> None:
    profile, players, decks = GAMES["vision"].sample(3)
    assert isinstance(profile.make_policy(), InterferenceChain)
    engine = Engine.new(profile, players, decks, 3)
    rng = random.Random(3)
    for _ in range(5000):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(rng.choice(legal.decisions))
    assert engine.state.ended
    kinds = {type(r.event).__name__ for r in engine.store.read("game")}
    assert {"EffectPending", "PriorityPassed", "EffectResolved", "Attacked"} <= kinds


# -- board invariants (``projections.invariants``, each game's ``invariants.py``) --------------------------------


def _no_breach(engine: Engine) -> None:
    found = breaches(engine.state, engine.profile.invariants())
    assert not found, f"after record {engine.state.seq}: " + "; ".join(map(str, found))


@pytest.mark.parametrize("name", ALL)
def test_random_playouts_keep_every_invariant(name: str) -> None:
    """Every invariant holds on every board the rules wait on, and the log's fold (checked where each decision
    begins, as an audit folds it) agrees."""
    game = GAMES[name]

    # 24 games among the four registered, as when one property drew the game (their share of a soak: 0.35)
    share = 0.35 / len(NAMES) if name in NAMES else 0.0

    @settings(max_examples=games(6, share), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS, bot_seed=SMALL, deck_seed=SMALL)
    def playout(seed: int, bot_seed: int, deck_seed: int) -> None:
        rng = random.Random(deck_seed)
        decks = [game.deck(rng), game.deck(rng)]
        store = MemoryStore()
        engine, _ = play(game.profile(), store, seed, bot_seed, decks, choose=seated_bots(bot_seed), limit=400,
                         invariant=_no_breach)
        _no_breach(engine)
        state, guard = GameState(), Guard(invariants_of)
        for r in store.read(GAME):
            guard.before(state, r.decision)
            evolve(state, r.seq, r.event, r.decision)
        guard.finish(state)
        assert state == engine.state

    playout()


# -- reloading: a game restored from its log before every decision (as ``kifu decide`` does) --------------------


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_reloaded_before_every_decision_records_what_one_engine_does(name: str, seed: int) -> None:
    """The envelope too is byte for byte the same, so re-adjudication, which compares it, finds nothing."""
    rules, players, decks = GAMES[name].sample(seed)
    whole, pieces = MemoryStore(), MemoryStore()
    engine = Engine.new(rules, players, decks, seed, store=whole, game=GAME)
    Engine.new(rules, players, decks, seed, store=pieces, game=GAME)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    made: list[Decision] = []
    for _ in range(30):
        legal = engine.legal()
        if legal.player is None:
            break
        d = bots[legal.player].choose(legal)
        engine.decide(d)
        made.append(d)
        Engine.load(rules, pieces, GAME).decide(d)
    assert made
    assert list(pieces.read_raw(GAME)) == list(whole.read_raw(GAME))
    replayed = Engine.replay(rules, list(pieces.read(GAME)))
    assert replayed.state.seq == engine.state.seq


# -- search clones (``statemachine.cloning``) -------------------------------------------------------------------


def _setup(game: TestGame, seed: int, random_decks: bool) -> Setup:
    rules, players, decks = game.sample(seed)
    if random_decks:  # every card of the pool, not only the sample decks' (stacks, reveals, tokens ...)
        rng, cards = random.Random(seed), sorted(rules.pool.cards)
        decks = [legal_deck(rules, rng, cards) if rules.deck_rule else [rng.choice(cards) for _ in deck]
                 for deck in decks]  # the toy game has no deck-construction rule
    return rules, list(players), decks


@pytest.mark.parametrize("name", ALL)
def test_a_clone_goes_on_apart_and_gives_the_same_records(name: str) -> None:
    game, waiting = GAMES[name], 0
    for seed, random_decks in ((1, False), (2, True)):
        waiting += check_clones(_setup(game, seed, random_decks), seed, BranchLog(), every=3, ahead=6, limit=240)
    if game.asks_mid_procedure:
        assert waiting, "some clones were taken while a choice was awaited mid-procedure"
    else:
        assert waiting == 0


@pytest.mark.parametrize("name", ALL)
def test_an_engine_on_any_store_can_be_cloned(name: str) -> None:
    """The original keeps its own store (here in memory, so durable ones alike): the clone copies its records once
    and continues on a branch log; a clone mid-procedure is made from the log the first time."""
    assert check_clones(_setup(GAMES[name], 3, False), 3, MemoryStore(), every=4, ahead=4, limit=120) >= 0


# -- versions (``statemachine/releases.py``) --------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_every_pinned_pool_version_loads_with_its_digest(name: str) -> None:
    cls = GAMES[name].profile
    for version, digest in cls.releases.pool_digests.items():
        assert cls.card_pool(version).digest == digest
    for release in cls.releases.releases:
        assert release.pool in cls.releases.pool_digests or release is cls.releases.latest


@pytest.mark.parametrize("name", ALL)
def test_a_version_not_installed_is_refused_naming_those_that_are(name: str) -> None:
    cls = GAMES[name].profile
    with pytest.raises(UnknownVersion) as refused:
        cls(version="0.9")
    for version in cls.releases.versions:
        assert version in str(refused.value)


# -- the AI adapters (``tools.ai``): OpenSpiel's and PettingZoo's own tests --------------------------------------

@pytest.mark.parametrize("game", NAMES)
def test_pettingzoo_api_test_passes_without_a_warning(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of PettingZoo's test fails this one
        api_test(env(game), num_cycles=400)



@pytest.mark.parametrize("game", NAMES)
def test_the_game_is_registered_as_an_imperfect_information_game(game: str) -> None:
    g = pyspiel.load_game(short_name(game))
    t = g.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert g.num_distinct_actions() == numbering(game).num_distinct_actions
    assert g.num_players() == 2 and g.min_utility() == -1 and g.max_utility() == 1


@pytest.mark.parametrize("game", NAMES)
def test_openspiels_random_simulation_test(game: str) -> None:
    # serialize=False: OpenSpiel's SerializeGameAndState asks a sampled-stochastic game for its generator's
    # state (Game::GetRNGState), which a Python game cannot give; the state's own serialization is checked below.
    pyspiel.random_sim_test(pyspiel.load_game(short_name(game), {"seed": 11}), num_sims=1, serialize=False,
                            verbose=False)
