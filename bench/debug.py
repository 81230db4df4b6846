"""``python -m bench.debug``: the debugger's answers on a long store — what one step, jump, board, timeline page
and provenance question costs on the server side, and the process's peak memory, beside the library's
``Timeline.state_at`` of the same points in the same run, and the machine's load average (on a shared machine the
worst cases follow the load).

    python -m bench.debug               # 1,000,000 events (kifu synth): a few minutes; writes bench/results/debug.*
    python -m bench.debug --events 100000 --quick   # results not written
    python -m bench.debug --store long.db           # ask a store made before (kifu synth --db long.db ...)

The store is made by ``kifu synth`` as a user would make one (with its snapshots every 256 records). The questions
run in a child process (``--child``) so its peak RSS is the debugger's alone; each is asked at seeded random points
through :class:`tools.debug.session.Session`, the object the web app calls — the HTTP layer adds a constant. The
issue's targets: every answer under 100 ms, the process under 200 MB.
"""

from __future__ import annotations

import argparse
import datetime
import gc
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
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"
TARGET_MS = 100.0
TARGET_MB = 200.0
SAMPLES = 30


CPU: dict[str, list[float]] = {}  # kind -> the CPU milliseconds of this thread per answer (the load aside)


def _timed(fn: Any, *args: Any, kind: str = "") -> float:
    began, cpu = time.perf_counter(), time.thread_time()
    fn(*args)
    if kind:
        CPU.setdefault(kind, []).append((time.thread_time() - cpu) * 1000)
    return (time.perf_counter() - began) * 1000


def child(store: str, samples: int) -> dict[str, Any]:
    """Questions at random points of ``store``: milliseconds (median, worst) per kind, and peak RSS."""
    from projections.timeline import Timeline
    from tools.debug.session import Session, Source
    from tools.logs.stores import open_store

    session = Session(Source(store, None), forks_db=str(Path(store).with_suffix(".forks.db")), warm=True)
    began = time.perf_counter()
    last = session.info()["last"]  # (opens the log, and the indices begin to fill in the background, as served)
    assert session.warming is not None
    session.warming.join()
    warm_ms = (time.perf_counter() - began) * 1000
    gc.freeze()  # (as the server does once started: tools.debug.serve)
    rng = random.Random(2026)
    points = [rng.randrange(1, last) for _ in range(samples)]
    times: dict[str, list[float]] = {k: [] for k in ("point", "step event", "step decision", "step turn",
                                                     "records page", "origin zone", "origin power",
                                                     "origin status", "origin pending", "origin stat")}
    for n in points:
        times["point"].append(_timed(session.point, n, None, None, kind="point"))
        times["step event"].append(_timed(session.step, n, "event", "next", None, kind="step event"))
        times["step decision"].append(_timed(session.step, n, "decision", "next", None, kind="step decision"))
        times["step turn"].append(_timed(session.step, n, "turn", "prev", None, kind="step turn"))
        times["records page"].append(_timed(session.records, n, 100, None, None, kind="records page"))
        board = session.point(n, None, None)
        objects = [c["obj"] for z in board["zones"].values() if isinstance(z, list) for c in z]
        if objects:
            obj = rng.choice(objects)
            for fld in ("zone", "power"):
                times[f"origin {fld}"].append(_timed(session.origin, n, {"kind": "object", "obj": obj, "field": fld},
                                                     None, None, kind=f"origin {fld}"))
        statused = [(c["obj"], key) for z in board["zones"].values() if isinstance(z, list) for c in z
                    for key in c.get("status", {})]
        if statused:
            obj, key = rng.choice(statused)
            times["origin status"].append(_timed(session.origin, n, {"kind": "object", "obj": obj, "field": "status",
                                                                     "key": key}, None, None, kind="origin status"))
        if board.get("pending"):
            effect = rng.choice(board["pending"])["effect"]
            times["origin pending"].append(_timed(session.origin, n, {"kind": "pending", "effect": effect}, None,
                                                  None, kind="origin pending"))
        if board["players"] and board["players"][0]["stats"]:
            key = sorted(board["players"][0]["stats"])[0]
            times["origin stat"].append(_timed(session.origin, n, {"kind": "player", "player": 0, "key": key},
                                               None, None, kind="origin stat"))
    session.close()
    with open_store(store) as st:
        game = st.games()[0].game
        timeline = Timeline(st, game)
        library = [_timed(timeline.state_at, n) for n in points]
    return {
        "events": last,
        "answers": {k: {"median_ms": statistics.median(v), "worst_ms": max(v), "n": len(v),
                        "cpu_median_ms": statistics.median(CPU[k]), "cpu_worst_ms": max(CPU[k])}
                    for k, v in times.items() if v},
        "library_state_at_ms": statistics.median(library),
        "indices_ms": warm_ms,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="fewer samples; results not written")
    parser.add_argument("--child", metavar="STORE", help=argparse.SUPPRESS)
    parser.add_argument("--store", metavar="STORE", help="an existing store to ask (instead of making one)")
    args = parser.parse_args()
    samples = 8 if args.quick else SAMPLES
    if args.child:
        print(json.dumps(child(args.child, samples)))
        return
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="kifu-bench-debug-") as folder:
        store = args.store or str(Path(folder) / "long.db")
        if args.store is None:
            subprocess.run([sys.executable, "-m", "tools.cli", "synth", "--db", store, "--events", str(args.events)],
                           check=True, stdout=subprocess.DEVNULL)
        out = subprocess.run([sys.executable, "-m", "bench.debug", "--child", store] + (["--quick"] if args.quick
                                                                                      else []),
                             check=True, capture_output=True, text=True).stdout
    result = json.loads(out.splitlines()[-1])
    result["load_average"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    lines = [f"kifu debug on a {result['events']:,}-event SQLite store (server side, {samples} random points; "
             f"library Timeline.state_at median {result['library_state_at_ms']:.1f} ms; load average "
             f"{result['load_average'][0]} before, {result['load_average'][1]} after, on {os.cpu_count()} cores)",
             f"{'answer':<16} {'median ms':>10} {'worst ms':>10} {'CPU median':>11} {'CPU worst':>10}   target "
             f"< {TARGET_MS:.0f} ms (wall; CPU: this thread's own time, the load aside)"]
    for kind, t in result["answers"].items():
        mark = "ok" if t["worst_ms"] < TARGET_MS else "MISSED"
        lines.append(f"{kind:<16} {t['median_ms']:>10.1f} {t['worst_ms']:>10.1f} {t['cpu_median_ms']:>11.1f} "
                     f"{t['cpu_worst_ms']:>10.1f}   {mark}")
    lines.append(f"(once) the indices of counters and continuous effects fill in the background in "
                 f"{result['indices_ms']:.0f} ms after the log opens (a question asked meanwhile reads what it needs)")
    mem = "ok" if result["peak_rss_mb"] < TARGET_MB else "MISSED"
    lines.append(f"peak RSS {result['peak_rss_mb']:.0f} MB   target < {TARGET_MB:.0f} MB   {mem}")
    print("\n".join(lines))
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        result["machine"] = {"python": platform.python_version(), "machine": platform.machine(),
                             "date": datetime.date.today().isoformat()}
        (RESULTS / "debug.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        (RESULTS / "debug.md").write_text("```\n" + "\n".join(lines) + "\n```\n", encoding="utf-8")


if __name__ == "__main__":
    main()
