"""The games the conformance battery (``tests/test_conformance.py``) runs: every game of the registry
(``statemachine.games.PROFILES``) and the toy game of the tests, which joins here as a test game (the kernel
does not know it).

Each entry says what a random playout of its game needs: a random deck, how a seeded player chooses, how many
decisions a game may take, whether such a game surely ends, the store it is recorded on, what must hold after
every decision, and how many examples the battery draws (each game's share of the suite's time, and of a soak's games).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from projections.invariants import Invariant as BoardInvariant
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, Legal
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile_class
from statemachine.profile import RulesProfile
from tests.statemachine.playouts import Chooser, Invariant, any_legal, legal_deck
from tests.statemachine.toy_game import Toy

Setup = tuple[RulesProfile, Sequence[str], list[list[str]]]
Deck = Callable[[random.Random], list[str]]


@dataclass(frozen=True)
class TestGame:
    name: str
    profile: type[RulesProfile]
    deck: Deck  # a random deck of the game's pool
    choose: Chooser = any_legal  # a seeded player's choice
    limit: int = 1500  # decisions a random playout may take
    ends: bool = False  # a random playout surely ends within ``limit``
    durable: bool = False  # playouts are recorded on SQLite (else in memory)
    invariant: Invariant | None = None  # what must hold after every decision, besides the board invariants
    examples: tuple[int, float] = (10, 0.0)  # random playouts the battery draws, and their share of a soak's
    sample_examples: tuple[int, float] = (0, 0.0)  # (``tests.properties.games``); the same of the demo's sample game
    pinned: tuple[tuple[int, int, int], ...] = ()  # (seed, bot seed, deck seed) of playouts that once failed
    asks_mid_procedure: bool = True  # some procedure waits on a player's choice (the toy game's never do)

    __test__ = False  # not a pytest class

    def sample(self, seed: int) -> Setup:
        """The demo's sample game (a registered game's ``demo.sample_game``; two random toy decks)."""
        if self.name not in PROFILES:
            rng = random.Random(seed)
            return self.profile(), ("p0", "p1"), [self.deck(rng), self.deck(rng)]
        rules, players, decks = importlib.import_module(f"{PROFILES[self.name][0]}.demo").sample_game(seed)
        return rules, players, [list(d) for d in decks]


# -- Duel Masters: the shipped bot's choice, 40-card decks of any card; a game ends (a win or a deck out) ------

def _dm_deck(rng: random.Random) -> list[str]:
    return legal_deck(_profile("duel_masters"), rng, cards("duel_masters"))


def shipped_bot(rng: random.Random, legal: Legal) -> Decision:
    """The shipped bot's choice, seeded from the playout's generator."""
    return RandomBot(rng.randrange(2**32)).choose(legal)


# -- Magic: two colours of basic lands and Mana Confluence, then spells; passing half the time so games move on --

LANDS = ["plains", "island", "swamp", "mountain", "forest"]


def _magic_deck(rng: random.Random) -> list[str]:
    colors = rng.sample(LANDS, 2)
    lands = [rng.choice(colors) for _ in range(23)] + ["mana_confluence"]
    return legal_deck(_profile("magic"), rng, cards("magic"), lands)  # 24 lands, 36 spells (MTG-GAME-DECK)


def passing_half_the_time(rng: random.Random, legal: Legal) -> Decision:
    """A seeded choice among the legal decisions, passing half the time so that games move on."""
    passes = [d for d in legal.decisions if d.action == "pass"]
    if passes and rng.random() < 0.5:
        return passes[0]
    return rng.choice(legal.decisions)


# -- Shadowverse: 30 cards, not those that end a game on the spot; choices of several options drawn at random --

def _sv_deck(rng: random.Random) -> list[str]:
    return legal_deck(_profile("shadowverse"), rng, cards("shadowverse"))


def several_at_once(rng: random.Random, legal: Legal) -> Decision:
    req = legal.request
    if req is not None and req.minimum > 1:
        k = rng.randint(req.minimum, min(req.maximum, len(req.options)))
        return Decision(req.player, req.action, tuple(rng.sample(list(req.options), k)))
    return rng.choice(legal.decisions)


# -- Vision of Phantasm: 30 cards of any kind; nothing waits outside the interference chain -------------------

def _vision_deck(rng: random.Random) -> list[str]:
    return legal_deck(_profile("vision"), rng, cards("vision"))


def waits_only_in_the_chain(engine: Engine) -> None:
    """What must hold at every decision: someone decides, and nothing waits outside the chain."""
    st_ = engine.state
    assert all(p.holder in ("chain", "") for p in st_.pending.values())
    assert st_.priority is not None or engine.request is not None or st_.ended


def seated_bots(seed: int) -> Chooser:
    """A shipped bot in each seat (seeded ``seed`` and ``seed + 1``), each choosing for its own player."""
    players = [RandomBot(seed + i) for i in range(2)]

    def choose(rng: random.Random, legal: Legal) -> Decision:
        assert legal.player is not None
        return players[legal.player].choose(legal)

    return choose


# -- the toy game: nine cards of its three; it ends on points or with both decks empty ------------------------

TOY_CARDS = ("blank", "flare", "spark")


def _toy_deck(rng: random.Random) -> list[str]:
    return [rng.choice(TOY_CARDS) for _ in range(9)]


_CARDS: dict[str, list[str]] = {}


@cache
def _profile(name: str) -> RulesProfile:
    return profile_class(name)()


def cards(name: str) -> list[str]:
    """The cards a random deck of ``name`` draws from."""
    if name not in _CARDS:
        pool = _profile(name).pool.cards
        if name == "magic":  # no lands; and a player who cannot lose would keep a random game going forever
            _CARDS[name] = sorted(c for c, d in pool.items() if "land" not in d.types and c != "platinum_angel")
        elif name == "shadowverse":  # not the cards that end a game on the spot, which make games too short
            _CARDS[name] = sorted(c for c, d in pool.items() if not {"victory_card", "death_card"} & set(d.keywords))
        else:
            _CARDS[name] = sorted(pool)
    return _CARDS[name]


REGISTERED: dict[str, TestGame] = {
    "duel_masters": TestGame("duel_masters", profile_class("duel_masters"), _dm_deck, shipped_bot, limit=3000,
                             ends=True, durable=True, examples=(12, 0.2)),
    "magic": TestGame("magic", profile_class("magic"), _magic_deck, passing_half_the_time, limit=4000, ends=True,
                      durable=True, examples=(6, 0.05), sample_examples=(2, 0.01)),
    "shadowverse": TestGame("shadowverse", profile_class("shadowverse"), _sv_deck, several_at_once,
                            examples=(10, 0.2), sample_examples=(5, 0.04),
                            pinned=((1, 407, 65535),)),  # a transformed vehicle's pilot left under nothing (SV 1.3)
    "vision": TestGame("vision", profile_class("vision"), _vision_deck, invariant=waits_only_in_the_chain,
                       examples=(15, 0.15)),
}
assert sorted(REGISTERED) == sorted(PROFILES), "every registered game has its entry here"
TOY = TestGame("toy", Toy, _toy_deck, limit=200, ends=True, examples=(8, 0.0), asks_mid_procedure=False)
GAMES: dict[str, TestGame] = {**REGISTERED, "toy": TOY}
NAMES = sorted(REGISTERED)  # the registered games, for the tests of what only they have (demos, AI adapters)


def invariants_of(name: str) -> tuple[BoardInvariant, ...]:
    """The board invariants of a game of the battery, the toy game's too (for ``projections.invariants.Guard``)."""
    return GAMES[name].profile.invariants()
