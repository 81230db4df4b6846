"""``python -m bench.commands``: the command line end to end on long logs — each command's process wall time and
peak memory, beside what the library takes for the same question.

    python -m bench.commands            # 10k, 100k and 1M events: about 10 minutes; writes bench/results/commands.*
    python -m bench.commands --quick    # 10k and 100k, one run per question: results not written

For each length, ``kifu synth`` writes the generated game (``tools.logs.synthetic``, the log ``python -m bench``
measures) to a fresh SQLite store, as a user would make one. Every command then runs as its own process
(``python -m tools.cli``, so process start and imports count), its wall time taken around it and its peak RSS
from ``os.wait4``'s resource usage of that child. ``at``, ``why``, ``why-not`` and ``diff`` are asked about seeded
random points (median and worst of the runs); the library figure beside them is ``Timeline.state_at`` of the same
point in this process (median), what the question costs without a process. Each child runs under a memory
limit (RLIMIT_AS) and a time limit, so a command that cannot cope is reported as such, not waited for.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from eventsource import events as ev
from eventsource.sqlite import SQLiteStore
from projections.timeline import Timeline

RESULTS = Path(__file__).parent / "results"
LENGTHS = (10_000, 100_000, 1_000_000)
GAME = "bench"
# The targets (never lowered; a miss is reported): time travel well under a second end to end in at most
# 150 MB at any length; the streaming commands at most 200 MB at 1,000,000 events.
TRAVEL = ("at", "why", "why-not", "diff")
TRAVEL_SECONDS = 1.0
TRAVEL_MB = 150.0
STREAM = ("audit", "verify", "replay")
STREAM_MB = 200.0
LIMIT_BYTES = 6 << 30  # a child's address space: a command that needs more is reported as failing
TIMEOUT = 900.0


@dataclass
class Run:
    command: str
    events: int
    args: list[str]
    seconds: list[float]
    peak_mb: float
    exits: list[int]
    cpu: list[float]
    library_ms: float | None = None  # Timeline.state_at of the same point(s), median
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def worst(self) -> float:
        return max(self.seconds)

    def target(self) -> tuple[str, bool | None]:
        if self.command in TRAVEL:
            ok = self.worst < TRAVEL_SECONDS and self.peak_mb <= TRAVEL_MB
            return f"< {TRAVEL_SECONDS:g} s, ≤ {TRAVEL_MB:g} MB", ok
        if self.command in STREAM and self.events >= 1_000_000:
            return f"≤ {STREAM_MB:g} MB", self.peak_mb <= STREAM_MB
        return "", None


def say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def run_child(args: list[str]) -> tuple[float, float, int, float]:
    """One ``kifu`` process: (wall seconds, peak RSS in MB, exit status, CPU seconds); -9 when it ran out of
    time. The CPU time (user + system, from the child's resource usage) is what the command needed whatever
    else keeps the machine busy; the wall time is what its user waits."""
    command = [sys.executable, "-m", "tools.cli", *args]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_limit)
    deadline = start + TIMEOUT
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            child.returncode = -9
            return time.perf_counter() - start, usage.ru_maxrss / 1024, -9, usage.ru_utime + usage.ru_stime
        time.sleep(0.002)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, child.returncode, usage.ru_utime + usage.ru_stime


def make_store(folder: Path, events: int, seed: int) -> Path:
    db = folder / f"synth-{events}.db"
    wall, _, code, _ = run_child(["synth", "--db", str(db), "--events", str(events), "--seed", str(seed), "--as", GAME])
    if code != 0:
        raise SystemExit(f"kifu synth failed ({code})")
    say(f"{events:,} events written by kifu synth in {wall:.1f} s")
    return db


def questions(db: Path, events: int, rng: random.Random, runs: int) -> dict[str, list[tuple[list[str], int]]]:
    """Seeded random points for each time-travel command, with the state each asks about (for the library)."""
    out: dict[str, list[tuple[list[str], int]]] = {c: [] for c in TRAVEL}
    with SQLiteStore(db) as store:
        for _ in range(runs):
            n = rng.randint(events // 10, events - 50)
            out["at"].append((["at", str(db), str(n)], n))
            out["diff"].append((["diff", str(db), str(max(0, n - 1_000)), str(n)], n))
            trig = next(r for r in store.read(GAME, n) if isinstance(r.event, ev.Triggered))
            assert isinstance(trig.event, ev.Triggered)
            out["why"].append((["why", str(db), str(trig.seq)], trig.seq))
            out["why-not"].append((["why-not", str(db), str(trig.event.by), f"#{trig.event.source}"], trig.event.by))
    return out


def library_ms(db: Path, points: list[int]) -> float:
    """``Timeline.state_at`` of each point in this process, with the store's snapshots (median ms)."""
    times = []
    with SQLiteStore(db) as store:
        timeline = Timeline(store, GAME)
        for n in points:
            start = time.perf_counter()
            timeline.state_at(n)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(db: Path, folder: Path, events: int, rng: random.Random, runs: int) -> list[Run]:
    out = []
    for command, asked in questions(db, events, rng, runs).items():
        results = [run_child(args) for args, _ in asked]
        out.append(Run(command, events, asked[0][0], [r[0] for r in results], max(r[1] for r in results),
                       [r[2] for r in results], [r[3] for r in results], library_ms(db, [n for _, n in asked])))
        say(f"{events:,} {command}: median {out[-1].median:.2f} s, {out[-1].peak_mb:.0f} MB")
    whole = {
        "audit": ["audit", str(db)],
        "verify": ["verify", str(db)],
        "replay": ["replay", str(db)],
        "view": ["view", str(db), "-o", str(folder / f"view-{events}.html")],
    }
    for command, args in whole.items():
        wall, peak, code, cpu = run_child(args)
        note = "ran out of time" if code == -9 else ""
        out.append(Run(command, events, args, [wall], peak, [code], [cpu], None, note))
        say(f"{events:,} {command}: {wall:.1f} s, {peak:.0f} MB, exit {code}")
    return out


def table(runs: list[Run]) -> list[str]:
    lines = [
        "| command | events | wall, median (worst) | CPU, median | peak RSS | exit | library: Timeline.state_at "
        "| target | met |",
        "|---|---:|---:|---:|---:|---|---:|---|---|",
    ]
    for r in runs:
        target, ok = r.target()
        wall = f"{r.median:.2f} s" + (f" ({r.worst:.2f} s)" if len(r.seconds) > 1 else "")
        lib = f"{r.library_ms:.2f} ms" if r.library_ms is not None else "—"
        exits = ", ".join(str(c) for c in sorted(set(r.exits)))
        met = "" if ok is None else ("yes" if ok else "NO")
        note = f" {r.note}" if r.note else ""
        lines.append(f"| `{r.command}` | {r.events:,} | {wall} | {statistics.median(r.cpu):.2f} s | {r.peak_mb:.0f} MB "
                     f"| {exits}{note} | {lib} | {target or '—'} | {met} |")
    return lines


def meta(started: float, seed: int, runs: int) -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "load_average": os.getloadavg(),
        "seed": seed,
        "runs_per_question": runs,
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.commands", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10k and 100k events, one run per question")
    parser.add_argument("--lengths", type=int, nargs="*", default=None, help="log lengths [10k, 100k, 1M]")
    parser.add_argument("--runs", type=int, default=None, help="random points per time-travel command [5]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="where to write commands.{json,md}")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    lengths = args.lengths or (LENGTHS[:2] if args.quick else LENGTHS)
    runs = args.runs or (1 if args.quick else 5)
    out = args.out if args.out is not None else (None if args.quick else RESULTS)
    rng = random.Random(args.seed)
    results: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="kifu-bench-commands-") as tmp:
        for events in lengths:
            db = make_store(Path(tmp), events, args.seed)
            results += measure(db, Path(tmp), events, rng, runs)
    info = meta(started, args.seed, runs)
    command = "python -m bench.commands" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    lines = [
        f"Commands end to end — `{command}` on {info['machine']}, Python {info['python']}, {info['date']}, "
        f"load average {info['load_average'][0]:.1f} at the end",
        "",
        *table(results),
        "",
        "Each command is one `python -m tools.cli` process on a SQLite store written by `kifu synth` (snapshots "
        "every 256 records, as every kifu writer leaves them); wall time includes process start and imports, peak "
        "RSS is the child's (`os.wait4`). at / why / why-not / diff: the median and worst of seeded random points; "
        "the library figure is `Timeline.state_at` of the same points in one process. The generated game has no "
        "installed rules (profile `synthetic`): `verify` refuses it (exit 2) and `why` / `why-not` say what the "
        "log says.",
    ]
    text = "\n".join(lines)
    print(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "commands.md").write_text(text + "\n", encoding="utf-8")
        payload = {"meta": info, "runs": [asdict(r) for r in results]}
        (out / "commands.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"results written to {out}/commands.json and {out}/commands.md")


if __name__ == "__main__":
    main()
