"""The shipped sample game for ``kifu demo``: a seeded Duel Masters game between two bots.

Both decks carry 雷鳴の守護者ミスト・リエス (so abilities of both sides wait in the pool together) and creatures
whose "is destroyed" abilities are checked by looking back (飛行男, クリーチャーA, ジャババ・ハット).
"""

from __future__ import annotations

from collections.abc import Callable

from eventsource.sqlite import SQLiteStore
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games.duel_masters import DuelMasters

SEED = 2026
GAME = "demo-duel-masters"
PLAYERS = ("Alice", "Bob")

DECK_A = (
    ["mist_rias"] * 4 + ["hikou_otoko"] * 4 + ["creature_a"] * 4 + ["jababa_hat"] * 3 + ["dark_soldier"] * 6
    + ["miele"] * 3 + ["heavens_force"] * 3 + ["aqua_hulcus"] * 4 + ["light_blocker"] * 4 + ["magnum"] * 3
    + ["oracle_jewel"] * 2
)
DECK_B = (
    ["mist_rias"] * 4 + ["magnum"] * 4 + ["mackallan"] * 4 + ["fire_command"] * 4 + ["fire_non_command"] * 4
    + ["bolshack_dragon"] * 3 + ["red_zone"] * 3 + ["pig_creature"] * 4 + ["creature_a"] * 3
    + ["raiya"] * 3 + ["bronze_arm_tribe"] * 4
)

MAX_DECISIONS = 2000


def play(store: SQLiteStore | None = None, seed: int = SEED, game: str = GAME) -> Engine:
    """Play the sample game to its end (or MAX_DECISIONS) and return the engine."""
    profile = DuelMasters()
    engine = Engine.new(profile, PLAYERS, [DECK_A, DECK_B], seed, store=store, game=game)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    for _ in range(MAX_DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    return engine


def run(db_path: str, echo: Callable[[str], None]) -> str:
    """Record the sample game in ``db_path`` (replacing an earlier demo game) and return its id."""
    store = SQLiteStore(db_path)
    try:
        game = GAME
        n = 1
        while store.head(game):
            n += 1
            game = f"{GAME}-{n}"
        engine = play(store, game=game)
        st = engine.state
        winner = PLAYERS[st.winner] if st.winner is not None else "nobody"
        echo(f"kifu demo: Duel Masters, seed {SEED}: {st.seq} events over {st.turn} turns; {winner} won "
             f"({st.end_reason or 'unfinished'}). Recorded as game {game!r} in {db_path}.")
        return game
    finally:
        store.close()
