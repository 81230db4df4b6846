"""Search benchmarks: what game-playing programs spend their time in, per game, side by side in one run.

    python -m bench.search [--games N] [--quick]

For each game: actions/s of a random playout through the OpenSpiel API (``legal_actions`` then ``apply_action``
of a uniformly random one, to the end; through ``tools.ai.actions``' numbering on the engine where the OpenSpiel
game is not installed), the cost of a clone (``statemachine.cloning.clone``, and OpenSpiel's ``clone`` when
there) at every decision point of those games — between decisions, and while a choice is awaited mid-procedure,
whose procedure the clone runs again — the cost of ``resample_from_infostate`` (when the OpenSpiel game offers
it), beside kifu's native playout rate (``bench.playouts``: seeded bots, ``Engine.legal`` and ``Engine.decide``).
Every figure is CPU time of this process. Prints each beside its target and writes bench/results/search.{json,md}.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import time
from typing import Any

from bench.playouts import RESULTS, Tally, play, samples
from eventsource.branching import BranchLog
from eventsource.memory import MemoryStore
from statemachine.cloning import clone
from statemachine.engine import Engine
from tools.ai.actions import numbering

ACTIONS_PER_S_TARGET = 2000  # Duel Masters through the OpenSpiel API: the Argentum engine's rate per thread
CLONE_US_TARGET = 50.0  # Duel Masters
MAX_ACTIONS = 20_000
clock = time.process_time


def spiel_game(name: str) -> Any | None:
    """The OpenSpiel game of ``name``, or None where ``tools.ai.spiel`` is not installed."""
    try:
        spiel = importlib.import_module("tools.ai.spiel")
    except ModuleNotFoundError:
        return None
    import pyspiel

    return pyspiel.load_game(spiel.short_name(name))


def native(name: str, games: int) -> float:
    """kifu's own playout rate (bench.playouts): decisions per CPU second of ``Engine.decide``, in memory."""
    tally = Tally()
    for seed in range(1, games + 1):
        play(samples()[name](seed), MemoryStore(), seed, tally)
    return tally.decisions / tally.decide_s


def engine_playouts(name: str, games: int, clones: list[float], waiting: list[float]) -> tuple[int, float]:
    """Random playouts through the numbering on the engine (the API's work without OpenSpiel), timing a clone at
    every decision point: (actions, CPU seconds of legal_actions and apply)."""
    actions, spent = 0, 0.0
    num = numbering(name)
    for seed in range(1, games + 1):
        profile, players, decks = samples()[name](seed)
        engine = Engine.new(profile, players, decks, seed, store=BranchLog(), game="g")
        rng = random.Random(seed)
        picked: tuple[int, ...] = ()
        while not engine.state.ended and actions < MAX_ACTIONS * seed:
            if not picked:
                clone(engine)  # the first clone on a procedure finds where it began: not what the others cost
                t = clock()
                clone(engine)
                (waiting if engine.request is not None else clones).append(clock() - t)
            t = clock()
            legal = engine.legal()
            out = num.apply(engine, picked, rng.choice(num.legal_actions(engine, picked, legal)), legal)
            if isinstance(out, tuple):
                picked = out
            else:
                engine.decide(out)
                picked = ()
            spent += clock() - t
            actions += 1
    return actions, spent


def spiel_playouts(game: Any, games: int, clones: list[float], resamples: list[float]) -> tuple[int, float]:
    """Random playouts through the OpenSpiel API, timing ``clone`` and ``resample_from_infostate`` on the way."""
    actions, spent = 0, 0.0
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and actions < MAX_ACTIONS * seed:
            player = state.current_player()
            t = clock()
            state.clone()
            clones.append(clock() - t)
            sample = _resample_cost(state, player, rng)
            if sample is not None:
                resamples.append(sample)
            t = clock()
            state.apply_action(rng.choice(state.legal_actions()))
            spent += clock() - t
            actions += 1
    return actions, spent


def _resample_cost(state: Any, player: int, rng: random.Random) -> float | None:
    """CPU seconds of one ``resample_from_infostate`` for ``player``; None where the game does not offer it."""
    t = clock()
    try:
        state.resample_from_infostate(player, rng.random)
    except (NotImplementedError, AttributeError):
        return None
    return clock() - t


def measure(name: str, games: int) -> dict[str, Any]:
    clones: list[float] = []
    waiting: list[float] = []
    actions, spent = engine_playouts(name, games, clones, waiting)
    row: dict[str, Any] = {
        "game": name, "games": games, "native_decisions_per_s": native(name, games),
        "engine_actions": actions, "engine_actions_per_s": actions / spent,
        "clone_us_median": statistics.median(clones) * 1e6, "clone_us_mean": statistics.mean(clones) * 1e6,
        "clone_points": len(clones),
        "clone_waiting_us_median": statistics.median(waiting) * 1e6 if waiting else None,
        "clone_waiting_points": len(waiting),
        "spiel": False,
    }
    game = spiel_game(name)
    if game is not None:
        spiel_clones: list[float] = []
        resamples: list[float] = []
        n, s = spiel_playouts(game, games, spiel_clones, resamples)
        row.update(spiel=True, spiel_actions=n, spiel_actions_per_s=n / s,
                   spiel_clone_us_median=statistics.median(spiel_clones) * 1e6,
                   resample_us_median=statistics.median(resamples) * 1e6 if resamples else None)
    return row


def _us(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f} µs" if value >= 100 else f"{value:.1f} µs"


def table(rows: list[dict[str, Any]], games: int) -> str:
    lines = [
        f"Search benchmarks — `python -m bench.search --games {games}` (random playouts; CPU time of this process)",
        "",
        "| game | native playout, decisions/s | random playout through the OpenSpiel API, actions/s | "
        "through the numbering on the engine, actions/s | clone, between decisions (median) | "
        "clone, mid-procedure (median) | OpenSpiel clone (median) | resample (median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        spiel = f"{r['spiel_actions_per_s']:,.0f}" if r["spiel"] else "— (OpenSpiel game not installed)"
        lines.append(
            f"| {r['game']} | {r['native_decisions_per_s']:,.0f} | {spiel} | {r['engine_actions_per_s']:,.0f} | "
            f"{_us(r['clone_us_median'])} ({r['clone_points']} points) | {_us(r['clone_waiting_us_median'])} "
            f"({r['clone_waiting_points']} points) | {_us(r.get('spiel_clone_us_median'))} | "
            f"{_us(r.get('resample_us_median'))} |")
    dm = next((r for r in rows if r["game"] == "duel_masters"), None)
    if dm is not None:
        rate = dm["spiel_actions_per_s"] if dm["spiel"] else dm["engine_actions_per_s"]
        how = "through the OpenSpiel API" if dm["spiel"] else "through the numbering on the engine"
        lines += [
            "",
            "| target (Duel Masters) | measured | met |",
            "|---|---|---|",
            f"| ≥ {ACTIONS_PER_S_TARGET:,} actions/s per core ({how}) | {rate:,.0f} | "
            f"{'yes' if rate >= ACTIONS_PER_S_TARGET else 'no'} |",
            f"| clone ≤ {CLONE_US_TARGET:.0f} µs (the engine's, between decisions, median) | "
            f"{_us(dm['clone_us_median'])} | {'yes' if dm['clone_us_median'] <= CLONE_US_TARGET else 'no'} |",
        ]
        if dm["spiel"]:
            spiel_clone = dm["spiel_clone_us_median"]
            lines.append(f"| clone ≤ {CLONE_US_TARGET:.0f} µs (OpenSpiel's, every point, median) | "
                         f"{_us(spiel_clone)} | {'yes' if spiel_clone <= CLONE_US_TARGET else 'no'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games per game (default 10)")
    parser.add_argument("--quick", action="store_true", help="3 games per game")
    args = parser.parse_args(argv)
    games = 3 if args.quick else args.games
    rows = [measure(name, games) for name in samples()]
    text = table(rows, games)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "search.md").write_text(text + "\n", encoding="utf-8")
    (RESULTS / "search.json").write_text(json.dumps({"search": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
