"""OpenSpiel's information-set MCTS against uniform random play, on each kifu game.

    python -m bench.ismcts [--games 100] [--simulations 16] [--game duel_masters ...] [--max-actions 4000]
    python -m bench.ismcts --game magic --simulations 2 --first 50 --games 50   # games 50..99, in another process
    python -m bench.ismcts --report                       # gathers every game played into ismcts.{json,md}

ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) searches from worlds drawn by
``resample_from_infostate`` — the searching player never sees the opponent's hand, any deck order or the seed —
and evaluates a leaf by a short heuristic of the drawn world (``evaluate``: no rollouts, which would cost a whole
game each). It plays seat 0 in even games and seat 1 in odd ones, game ``i`` dealt from seed ``i``; the opponent
picks uniformly among the legal actions. A game still going after ``--max-actions`` actions counts as unfinished.
Each game played is appended to bench/results/ismcts-<game>.jsonl as it ends (so processes can share the
games out); ``--report`` gathers them into ismcts.json and ismcts.md (per game: wins, losses, unfinished, win rate
with a 95% interval, CPU seconds per game and per search).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import tools.ai.spiel  # noqa: F401 - registers the games
from projections.state import GameState
from tools.ai.spiel import GAMES, KifuState, short_name

RESULTS = Path(__file__).parent / "results"
UCT_C = 2.0


def score(state: GameState, player: int) -> float:
    """How well ``player`` stands in a (drawn) world: life or shields, creatures in play, cards in hand."""
    def n(kind: str) -> int:
        return len(state.zones.get(f"{player}.{kind}", []))

    stats = state.players[player].stats
    match state.profile:
        case "duel_masters":
            return 1.0 * n("shields") + 0.5 * n("battle") + 0.15 * n("mana") + 0.1 * n("hand")
        case "magic":  # a spell of theirs on the stack is a card on its way into play
            mine = sum(1 for o in state.zones.get("stack", []) if state.objects[o].controller == player)
            return stats.get("life", 20) / 4 + 0.4 * n("battlefield") + 0.3 * mine + 0.1 * n("hand")
        case "shadowverse":
            return stats.get("life", 20) / 4 + 0.5 * n("field") + 0.1 * n("hand")
        case _:
            return -stats.get("damage", 0) / 2 + 0.5 * n("field") + 0.2 * n("node") + 0.1 * n("hand")


class Heuristic:
    """An OpenSpiel MCTS evaluator: the score difference in the drawn world, squashed into (-1, 1)."""

    def evaluate(self, state: KifuState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        st = state.match.engine.state
        v = math.tanh((score(st, 0) - score(st, 1)) / 3)
        return np.array([v, -v])

    def prior(self, state: KifuState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play(game: pyspiel.Game, seat: int, simulations: int, seed: int, max_actions: int) -> dict[str, Any]:
    rng = np.random.RandomState(seed)
    # Inconsistent action sets allowed: in a drawn world the opponent holds other cards, and an information state
    # of theirs reached there may (rarely) offer other actions than the same one reached in another world.
    bot = ismcts.ISMCTSBot(game, Heuristic(), UCT_C, simulations, random_state=np.random.RandomState(seed + 1),
                           allow_inconsistent_action_sets=True)
    state = game.new_initial_state()
    actions = searches = 0
    search_s = 0.0
    while not state.is_terminal() and actions < max_actions:
        legal = state.legal_actions()
        if state.current_player() == seat and len(legal) > 1:
            t0 = time.process_time()
            action = bot.step(state)
            search_s += time.process_time() - t0
            searches += 1
        else:
            action = legal[rng.randint(len(legal))]
        state.apply_action(action)
        actions += 1
    returns = state.returns() if state.is_terminal() else [0.0, 0.0]
    outcome = "unfinished" if not state.is_terminal() else ("win" if returns[seat] > 0 else
                                                           "loss" if returns[seat] < 0 else "draw")
    return {"seat": seat, "outcome": outcome, "actions": actions, "searches": searches, "search_s": search_s}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def run(name: str, first: int, games: int, simulations: int, max_actions: int, out: Path) -> None:
    for i in range(first, first + games):
        game = pyspiel.load_game(short_name(name), {"seed": i})
        t0 = time.process_time()
        r = play(game, i % 2, simulations, 1000 + i, max_actions)
        r.update(game=name, index=i, simulations=simulations, cpu_s=round(time.process_time() - t0, 3))
        with (out / f"ismcts-{name}.jsonl").open("a") as f:
            f.write(json.dumps(r) + "\n")
        print(f"{name} game {i}: seat {r['seat']} {r['outcome']} after {r['actions']} actions, "
              f"{r['searches']} searches, {r['search_s']:.1f}s", flush=True)


def summary(name: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    games = len(records)
    count = {k: sum(r["outcome"] == k for r in records) for k in ("win", "loss", "draw", "unfinished")}
    low, high = wilson(count["win"], games)
    searches = sum(r["searches"] for r in records)
    timed = [r["cpu_s"] for r in records if "cpu_s" in r]
    return {
        "game": name, "games": games, "simulations": records[0]["simulations"], **count,
        "win_rate": count["win"] / games, "win_rate_95": [round(low, 3), round(high, 3)],
        "cpu_s_per_game": round(sum(timed) / len(timed), 2) if timed else None,
        "ms_per_search": round(1000 * sum(r["search_s"] for r in records) / max(searches, 1), 1),
        "mean_actions": round(sum(r["actions"] for r in records) / games, 1),
        "wins_by_seat": {str(s): sum(r["outcome"] == "win" for r in records if r["seat"] == s) for s in (0, 1)},
    }


def report(rows: list[dict[str, Any]]) -> str:
    lines = ["| game | games | simulations/move | wins | losses | unfinished | win rate (95%) | CPU s/game | "
             "ms/search |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["win_rate_95"]
        lines.append(f"| {r['game']} | {r['games']} | {r['simulations']} | {r['win']} | {r['loss']} | "
                     f"{r['unfinished']} | {r['win_rate']:.0%} ({lo:.0%}–{hi:.0%}) | {r['cpu_s_per_game'] or '—'} | "
                     f"{r['ms_per_search']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--simulations", type=int, default=16)
    ap.add_argument("--game", action="append", choices=GAMES)
    ap.add_argument("--max-actions", type=int, default=4000)
    ap.add_argument("--first", type=int, default=0, help="the first game's index (its seed)")
    ap.add_argument("--results", default=str(RESULTS))
    ap.add_argument("--report", action="store_true", help="gather the games played into ismcts.json and .md")
    args = ap.parse_args()
    out = Path(args.results)
    if not args.report:
        for g in args.game or GAMES:
            run(g, args.first, args.games, args.simulations, args.max_actions, out)
        return
    rows = []
    for g in GAMES:
        path = out / f"ismcts-{g}.jsonl"
        if path.exists():  # one row per number of simulations tried
            records = {(r["simulations"], r["index"]): r for r in map(json.loads, path.read_text().splitlines())}
            for sims in sorted({k[0] for k in records}, reverse=True):
                rows.append(summary(g, [records[k] for k in sorted(records) if k[0] == sims]))
    (out / "ismcts.json").write_text(json.dumps(rows, indent=2) + "\n")
    (out / "ismcts.md").write_text(report(rows))
    print(report(rows))


if __name__ == "__main__":
    main()
