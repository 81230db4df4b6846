"""Rules benchmarks: random legal playouts end to end, and trigger matching with 10 vs 200 objects in play.

    python -m bench.playouts [--games N] [--quick] [--jobs N]

Prints each figure beside its target in the same run and writes bench/results/playouts.{json,md}.
Playouts cover every game profile that ships a sample game (``demo.sample_game``); Duel Masters always.
``--jobs N`` also plays the in-memory games in N processes at once and reports the aggregate rate on the wall
clock, and that rate per process: what a simulator running many games on this machine sees.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games import PROFILES
from statemachine.games.duel_masters import DuelMasters
from statemachine.profile import RulesProfile

RESULTS = Path(__file__).parent / "results"
ARGENTUM_DECISIONS_PER_S = 3400  # the Argentum engine's published playout rate (JVM)
# Every game's rules at full speed (in memory): >= 10,000 decisions/s, or, where a game's decisions genuinely
# carry more work, >= 70,000 events/s.
DECISIONS_PER_S_TARGET = 10_000
EVENTS_PER_S_TARGET = 70_000
MATCHING_RATIO_TARGET = 1.5
MAX_DECISIONS = 3000

Setup = tuple[RulesProfile, Sequence[str], Sequence[Sequence[str]]]


def dm_sample(seed: int) -> Setup:
    from statemachine.games.duel_masters.demo import DECK_A, DECK_B, PLAYERS

    return DuelMasters(), PLAYERS, [DECK_A, DECK_B]


def samples() -> dict[str, Callable[[int], Setup]]:
    """Every game with a sample game: Duel Masters, and any game folder with demo.sample_game."""
    out: dict[str, Callable[[int], Setup]] = {"duel_masters": dm_sample}
    for name, (module, _) in sorted(PROFILES.items()):
        if name in out:
            continue
        try:
            demo = importlib.import_module(module + ".demo")
        except ModuleNotFoundError:
            continue
        if hasattr(demo, "sample_game"):
            out[name] = demo.sample_game
    return out


class Tally:
    def __init__(self) -> None:
        self.decisions = self.events = self.games = 0
        self.decide_s = self.total_s = 0.0


def play(setup: Setup, store: EventStore, seed: int, tally: Tally,
         clock: Callable[[], float] = time.process_time, invariants: str = "decision") -> None:
    """In memory the rules are timed in CPU seconds of this process (what they cost, whatever else the machine
    is doing); with a durable store on the wall clock, since waiting for the disk's flush is the point."""
    profile, players, decks = setup
    t0 = clock()
    engine = Engine.new(profile, players, decks, seed, store=store, game=f"g{seed}")
    if invariants != "decision":  # what the engine does: check the board each time the rules wait
        engine.checks = ()
    decide = clock() - t0
    bots = [RandomBot(seed * 7 + i) for i in range(len(players))]
    for _ in range(MAX_DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        choice = bots[legal.player].choose(legal)
        t = clock()
        engine.decide(choice)
        decide += clock() - t
        tally.decisions += 1
    tally.total_s += clock() - t0
    tally.decide_s += decide
    tally.events += engine.state.seq
    tally.games += 1


def playouts(games: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name, sample in samples().items():
        for store_name in ("memory", "sqlite"):
            tally = Tally()
            with tempfile.TemporaryDirectory() as tmp:
                for seed in range(1, games + 1):
                    store: EventStore = MemoryStore() if store_name == "memory" else SQLiteStore(Path(tmp) / "p.db")
                    play(sample(seed), store, seed, tally,
                         time.process_time if store_name == "memory" else time.perf_counter)
                    store.close()
            rows.append({
                "game": name, "store": store_name, "games": tally.games, "decisions": tally.decisions,
                "events": tally.events,
                "decisions_per_s": tally.decisions / tally.decide_s,
                "events_per_s": tally.events / tally.decide_s,
                "decisions_per_s_with_bots": tally.decisions / tally.total_s,
            })
    return rows


def invariant_cost(games: int) -> list[dict[str, Any]]:
    """In-memory playouts with the board invariants (``projections.invariants``) checked never, each time the
    rules wait for a decision (what the engine does), or after every event (measured only: inside a decision
    a board passes through states no invariant holds for, so breaches are counted, not raised)."""
    import projections.state as fold_module
    from projections.invariants import breaches

    rows: list[dict[str, Any]] = []
    original = fold_module.evolve
    for name, sample in samples().items():
        rates: dict[str, float] = {}
        for mode in ("off", "decision", "event"):
            checks = sample(1)[0].invariants()

            def checked(state: Any, seq: int, event: ev.Event, decision: int = 0, checks: Any = checks) -> Any:
                out = original(state, seq, event, decision)
                breaches(state, checks)
                return out

            fold_module.evolve = checked if mode == "event" else original  # type: ignore[assignment]
            try:
                tally = Tally()
                for seed in range(1, games + 1):
                    play(sample(seed), MemoryStore(), seed, tally, invariants=mode)
            finally:
                fold_module.evolve = original  # type: ignore[assignment]
            rates[mode] = tally.decisions / tally.decide_s
        rows.append({"game": name, **{f"decisions_per_s_{m}": r for m, r in rates.items()},
                     "cost_decision": 1 - rates["decision"] / rates["off"],
                     "cost_event": 1 - rates["event"] / rates["off"]})
    return rows


# -- many games at once -----------------------------------------------------------------------------------


def _play_seeds(name: str, seeds: list[int]) -> tuple[int, int, float]:
    """(decisions, events, seconds) of in-memory playouts of ``seeds`` (run in a worker process)."""
    sample = samples()[name]
    tally = Tally()
    for seed in seeds:
        play(sample(seed), MemoryStore(), seed, tally)
    return tally.decisions, tally.events, tally.total_s


def parallel(games: int, jobs: int) -> list[dict[str, Any]]:
    """Each game's playouts spread over ``jobs`` processes: aggregate decisions/s on the wall clock."""
    from concurrent.futures import ProcessPoolExecutor

    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_play_seeds, ["duel_masters"] * jobs, [[1]] * jobs))  # start and warm every worker
        for name in samples():
            seeds = list(range(1, games + 1))
            parts = [seeds[j::jobs] for j in range(jobs)]
            t0 = time.perf_counter()
            done = list(pool.map(_play_seeds, [name] * jobs, parts))
            wall = time.perf_counter() - t0
            decisions, events = sum(d for d, _, _ in done), sum(e for _, e, _ in done)
            rows.append({"game": name, "jobs": jobs, "games": games, "decisions": decisions, "events": events,
                         "decisions_per_s": decisions / wall, "events_per_s": events / wall,
                         "decisions_per_s_per_process": decisions / wall / jobs})
    return rows


# -- trigger matching -------------------------------------------------------------------------------------


def board(n_objects: int) -> Engine:
    """A Duel Masters board with ``n_objects`` in the battle zones: the same three abilities watching other
    creatures (two 雷鳴の守護者ミスト・リエス, one クリーチャーA) whatever ``n``, the rest vanilla creatures and
    creatures whose abilities are only about themselves (pig)."""
    from statemachine.scenario import Run, Scenario

    cards = [
        {"handle": "rias0", "card": "mist_rias", "owner": 0},
        {"handle": "rias1", "card": "mist_rias", "owner": 1},
        {"handle": "a", "card": "creature_a", "owner": 0},
    ]
    for i in range(n_objects - len(cards)):
        cards.append({"card": "pig_creature" if i % 2 else "bronze_arm_tribe", "owner": i % 2})
    for i in range(40):
        cards.append({"handle": f"deck{i}", "card": "bronze_arm_tribe", "zone": "deck", "owner": i % 2})
    sc = msgspec.convert({"id": f"matching-{n_objects}", "game": "duel_masters", "setup": {"cards": cards}},
                         Scenario)
    return Run(sc, "<bench>").engine


def matching_cost(n_objects: int, rounds: int) -> float:
    """Seconds per event of emit() (fold, index upkeep, matching) over events that trigger nothing:
    draws, charging mana, tapping and untapping."""
    engine = board(n_objects)
    st = engine.state
    samples: list[float] = []
    for _ in range(rounds):
        engine.batch.clear()
        deck = st.zone("0.deck")
        if len(deck) < 2:
            break
        t = time.perf_counter()
        from statemachine.games.duel_masters import board as dm

        engine.emit(dm.move(engine, deck[0], "0.hand", dm.DRAW))
        hand = st.zone("0.hand")
        engine.emit(dm.move(engine, hand[-1], "0.mana", dm.CHARGE))
        mana = st.zone("0.mana")[-1]
        engine.emit(ev.StatusSet(mana, "tapped", 1))
        engine.emit(ev.StatusSet(mana, "tapped", 0))
        samples.append((time.perf_counter() - t) / 4)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.playouts", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="random games per game and store (default 30)")
    parser.add_argument("--quick", action="store_true", help="5 games per game and store")
    parser.add_argument("--jobs", type=int, default=0,
                        help="also play the in-memory games in this many processes at once (default: one per core)")
    args = parser.parse_args(argv)
    games = 5 if args.quick else args.games
    import os

    jobs = args.jobs or (os.cpu_count() or 1)

    rows = playouts(games)
    costs = invariant_cost(games)
    spread = parallel(games, jobs) if jobs > 1 else []
    small = matching_cost(10, 19)
    large = matching_cost(200, 19)
    ratio = large / small

    lines = [
        f"Rules benchmarks — `python -m bench.playouts --games {games}` (random legal playouts by seeded bots)",
        "",
        "| game | store | games | decisions | events | decisions/s (decide) | events/s | decisions/s incl. bots "
        "| target | met |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["store"] == "memory":
            target = f"≥ {DECISIONS_PER_S_TARGET:,} decisions/s or ≥ {EVENTS_PER_S_TARGET:,} events/s"
            ok = r["decisions_per_s"] >= DECISIONS_PER_S_TARGET or r["events_per_s"] >= EVENTS_PER_S_TARGET
        else:
            target = f"≥ {ARGENTUM_DECISIONS_PER_S:,} (Argentum)"
            ok = r["decisions_per_s"] >= ARGENTUM_DECISIONS_PER_S
        lines.append(
            f"| {r['game']} | {r['store']} | {r['games']} | {r['decisions']} | {r['events']} | "
            f"{r['decisions_per_s']:,.0f} | {r['events_per_s']:,.0f} | {r['decisions_per_s_with_bots']:,.0f} | "
            f"{target} | {'yes' if ok else 'no'} |"
        )
    lines += [
        "",
        "| game | board invariants: decisions/s unchecked | checked when the rules wait (the engine) | "
        "checked after every event |",
        "|---|---|---|---|",
    ]
    for c in costs:
        lines.append(f"| {c['game']} | {c['decisions_per_s_off']:,.0f} | {c['decisions_per_s_decision']:,.0f} "
                     f"(-{c['cost_decision']:.0%}) | {c['decisions_per_s_event']:,.0f} (-{c['cost_event']:.0%}) |")
    if spread:
        lines += [
            "",
            "| game | processes | games | decisions/s, all processes (wall, incl. bots) | per process | "
            "events/s, all processes |",
            "|---|---|---|---|---|---|",
        ]
        for r in spread:
            lines.append(f"| {r['game']} | {r['jobs']} | {r['games']} | {r['decisions_per_s']:,.0f} | "
                         f"{r['decisions_per_s_per_process']:,.0f} | {r['events_per_s']:,.0f} |")
    lines += [
        "",
        "| trigger matching, per event | 10 objects in play | 200 objects in play | ratio | target | met |",
        "|---|---|---|---|---|---|",
        f"| emit (fold + index + matching) | {small * 1e6:.1f} µs | {large * 1e6:.1f} µs | {ratio:.2f}× | "
        f"≤ {MATCHING_RATIO_TARGET}× | {'yes' if ratio <= MATCHING_RATIO_TARGET else 'no'} |",
    ]
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "playouts.md").write_text(text + "\n", encoding="utf-8")
    (RESULTS / "playouts.json").write_text(json.dumps(
        {"playouts": rows, "invariants": costs, "parallel": spread,
         "matching": {"10": small, "200": large, "ratio": ratio}},
        indent=2) + "\n")


if __name__ == "__main__":
    main()
