"""Real game logs from every registered game that ships a sample (``statemachine/games/<game>/demo.py``),
played by seeded bots, for the time-travel and audit tests."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import RawRecord
from statemachine.bots import RandomBot, play_out
from statemachine.engine import Engine
from statemachine.games import PROFILES

SEED = 2026
MAX_DECISIONS = 400


def sampled_games() -> list[str]:
    """Every registered game with a ``demo.sample_game``."""
    out = []
    for name, (module, _) in sorted(PROFILES.items()):
        try:
            demo = importlib.import_module(f"{module}.demo")
        except ModuleNotFoundError:
            continue
        if hasattr(demo, "sample_game"):
            out.append(name)
    return out


@cache
def play(name: str, seed: int = SEED) -> tuple[RawRecord, ...]:
    """The records of a bot game of ``name``, at most MAX_DECISIONS decisions long."""
    module = PROFILES[name][0]
    profile, players, decks = importlib.import_module(f"{module}.demo").sample_game(seed)
    store = MemoryStore()
    game = f"sample-{name}"
    engine = Engine.new(profile, players, decks, seed, store=store, game=game)
    play_out(engine, [RandomBot(seed * 2 + 1 + i) for i in range(len(players))], MAX_DECISIONS)
    return tuple(store.read_raw(game))


def export(name: str, path: Path, seed: int = SEED) -> Path:
    exchange.write(play(name, seed), path)
    return path
