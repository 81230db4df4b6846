"""A short real game between two bots (Duel Masters unless another game is named), recorded and exported: the
material the fuzzers damage, one game of each kind."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from eventsource import exchange
from eventsource.memory import MemoryStore
from statemachine.bots import RandomBot, play_out
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.games.duel_masters import DuelMasters
from statemachine.games.duel_masters.demo import DECK_A, DECK_B, PLAYERS

GAME = "fuzz-dm"


def play(decisions: int, seed: int = 11, store: MemoryStore | None = None, game: str = GAME,
         rules: str = "duel_masters") -> Engine:
    if rules == "duel_masters":
        engine = Engine.new(DuelMasters(), PLAYERS, [list(DECK_A), list(DECK_B)], seed, store=store, game=game)
    else:
        profile, players, decks = sample(rules)(seed)
        engine = Engine.new(profile, players, decks, seed, store=store, game=game)
    return play_out(engine, [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)], decisions)


def _game(rules: str) -> str:
    return GAME if rules == "duel_masters" else f"fuzz-{rules}"


@functools.cache
def exported_lines(rules: str = "duel_masters") -> tuple[bytes, ...]:
    """The exported game, one record per line (each ending in a newline)."""
    engine = play(25, game=_game(rules), rules=rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        exchange.write(engine.store.read_raw(_game(rules)), path)
        return tuple(path.read_bytes().splitlines(keepends=True))


@functools.cache
def head_hex(rules: str = "duel_masters") -> str:
    engine = play(25, game=_game(rules), rules=rules)
    return engine.store.games()[0].head.hex()
