"""The random-playout check every game's tests run: play a seeded game from ``Engine.legal()`` to its end, then
prove the log — integrity, re-adjudication from setup and decisions, restoring from the log, and byte-identical
records when the same seed and decisions are played again."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from eventsource.integrity import Verified, verify
from eventsource.memory import MemoryStore
from eventsource.records import RawRecord
from eventsource.store import EventStore
from statemachine.decisions import Decision, Legal
from statemachine.engine import Engine
from statemachine.profile import RulesProfile
from tests.properties import GAMES_PLAYED

Chooser = Callable[[random.Random, Legal], Decision]
Invariant = Callable[[Engine], None]
GAME = "g"


def legal_deck(profile: RulesProfile, rng: random.Random, cards: Sequence[str], start: Sequence[str] = ()) -> list[str]:
    """A random deck of ``cards`` (after ``start``) that the game's deck-construction rule allows: its least
    size, at most the copies of one name it allows (``statemachine.decks``)."""
    rule = profile.deck_rule
    assert rule is not None
    pool = profile.pool
    counts = Counter(pool[c].name for c in start if not (rule.spared and rule.spared(pool[c])))
    deck = list(start)
    while len(deck) < rule.minimum:
        open_ = [c for c in cards if (rule.spared and rule.spared(pool[c])) or counts[pool[c].name] < rule.copies]
        assert open_, f"{profile.name}: too few cards to build a legal deck"
        card = rng.choice(open_)
        if not (rule.spared and rule.spared(pool[card])):
            counts[pool[card].name] += 1
        deck.append(card)
    return deck


def any_legal(rng: random.Random, legal: Legal) -> Decision:
    return rng.choice(legal.decisions)


def play(profile: RulesProfile, store: EventStore, seed: int, bot_seed: int, decks: Sequence[Sequence[str]], *,
         choose: Chooser = any_legal, limit: int = 3000,
         invariant: Invariant | None = None) -> tuple[Engine, list[Decision]]:
    """A game between seeded random players; ``invariant`` is checked after every decision."""
    engine = Engine.new(profile, ["p0", "p1"], decks, seed, store=store, game=GAME)
    GAMES_PLAYED[profile.name] += 1
    rng = random.Random(bot_seed)
    made: list[Decision] = []
    for _ in range(limit):
        legal = engine.legal()
        if legal.player is None:
            break
        d = choose(rng, legal)
        engine.decide(d)
        made.append(d)
        if invariant is not None:
            invariant(engine)
    return engine, made


def raw(store: EventStore) -> list[RawRecord]:
    return list(store.read_raw(GAME))


def prove(profile: RulesProfile, store: EventStore, engine: Engine, decisions: Sequence[Decision],
          decks: Sequence[Sequence[str]], seed: int) -> None:
    """The log verifies, re-adjudicates to the live state, restores to it, and replays to the same bytes."""
    records = raw(store)
    assert isinstance(verify(records), Verified)
    assert Engine.replay(profile, list(store.read(GAME))).state == engine.state
    loaded = Engine.load(profile, store, GAME)  # even a procedure waiting for a choice is restored
    assert loaded.state == engine.state and loaded.legal() == engine.legal()
    again = MemoryStore()
    twin = Engine.new(profile, ["p0", "p1"], decks, seed, store=again, game=GAME)
    for d in decisions:
        twin.decide(d)
    assert raw(again) == records
