"""``python -m bench.reliability``: concurrency and crash figures of the SQLite and PostgreSQL stores.

    python -m bench.reliability            # full run; writes bench/results/reliability.md
    python -m bench.reliability --quick    # a smaller run, results not written

**Concurrency.** N writer processes (multiprocessing, spawn) append decisions to the same games with
optimistic concurrency: each reads the head, appends with ``expected=head`` and, on ``ConcurrencyConflict``,
re-reads the head and tries again. Every attempt carries its own decision id, so the check afterwards can
prove that every append reported as a conflict stored nothing (the loser was told), every acknowledged
append is in the log exactly once and whole, each writer's decisions are in the order it made them, sequence
numbers run 1..n with no gap or repeat, and ``eventsource.integrity.verify`` accepts the chain.

**Crash safety.** A writer process appends decisions of 1-60 events and reports each one through a pipe
only after ``append`` returned (the commit is done); the parent kills it with SIGKILL at a random moment.
After every kill the log must pass ``verify``, hold every acknowledged decision whole, and hold no decision
in part (each event says which decision it belongs to and how many events that decision has).

The same functions back ``tests/eventsource/test_concurrency.py`` and ``tests/eventsource/test_crash.py``
with smaller numbers.
"""

from __future__ import annotations

import datetime
import multiprocessing as mp
import os
import platform
import queue
import random
import signal
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from eventsource import events as ev
from eventsource.errors import ConcurrencyConflict
from eventsource.integrity import Verified, verify
from eventsource.records import NewEvent, RawRecord
from eventsource.store import EventStore

Backend = tuple[str, str]  # ("sqlite", path) or ("postgresql", url)
RESULTS = Path(__file__).parent / "results" / "reliability.md"


def open_backend(backend: Backend) -> EventStore:
    kind, where = backend
    if kind == "sqlite":
        from eventsource.sqlite import SQLiteStore

        return SQLiteStore(where, timeout=60)
    if kind == "sqlite-group":
        from eventsource.groupcommit import GroupCommitSQLiteStore

        return GroupCommitSQLiteStore(where, timeout=60)
    from eventsource.postgres import PostgresStore

    return PostgresStore(where)


def decision(writer: int, did: int, size: int) -> list[NewEvent]:
    """A decision of ``size`` events; each names its decision id, its index and the decision's size."""
    return [NewEvent(ev.ChoiceMade(writer, "append", (did, i, size)), decision=did) for i in range(size)]


class Broken(AssertionError):
    """A reliability property does not hold; the message says which and where."""


def check_log(records: Sequence[RawRecord], game: str) -> dict[int, int]:
    """Verify the chain and that every decision is whole and contiguous; ``{decision id: first seq}``."""
    result = verify(records, game)
    if not isinstance(result, Verified):
        raise Broken(f"game {game}: integrity check failed: {result}")
    if [r.seq for r in records] != list(range(1, len(records) + 1)):
        raise Broken(f"game {game}: sequence numbers are not 1..{len(records)}")
    first: dict[int, int] = {}
    i = 0
    while i < len(records):
        event = ev.decode(records[i].body)
        assert isinstance(event, ev.ChoiceMade)
        did, index, size = event.args
        assert isinstance(did, int) and isinstance(size, int)
        if index != 0 or did in first:
            raise Broken(f"game {game}: decision {did} is split or repeated at record {records[i].seq}")
        part = records[i : i + size]
        for j, r in enumerate(part):
            e = ev.decode(r.body)
            if not (isinstance(e, ev.ChoiceMade) and e.args == (did, j, size) and r.decision == did):
                raise Broken(f"game {game}: decision {did} is present in part (record {r.seq} is not its #{j})")
        if len(part) != size:
            raise Broken(f"game {game}: decision {did} is present in part ({len(part)} of {size} events)")
        first[did] = records[i].seq
        i += size
    return first


# -- concurrency ----------------------------------------------------------------------------------------


def _concurrent_writer(backend: Backend, games: list[str], writer: int, decisions: int, size: int,
                       barrier: Any, out: Any) -> None:
    rng = random.Random(writer)
    acked: list[tuple[str, int]] = []
    refused: list[tuple[str, int]] = []
    with open_backend(backend) as store:
        barrier.wait(timeout=120)  # a writer that failed to open breaks the barrier instead of hanging the rest
        for k in range(decisions):
            order = list(games)
            rng.shuffle(order)
            for game in order:
                attempt = 0
                while True:
                    did = (writer * 100_000 + k) * 1_000 + attempt
                    head = store.head(game)
                    try:
                        store.append(game, decision(writer, did, size), expected=head)
                    except ConcurrencyConflict:
                        refused.append((game, did))
                        attempt += 1
                        if attempt == 1_000:
                            raise Broken(f"writer {writer} lost 1000 races in a row on {game}") from None
                        continue
                    acked.append((game, did))
                    break
    out.put((writer, acked, refused))


def _result(out: Any, procs: list[Any], timeout: float = 600.0) -> Any:
    """The next writer's report; a writer that died without one is reported at once, not after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return out.get(timeout=1)
        except queue.Empty:
            dead = [p for p in procs if p.exitcode not in (None, 0)]
            if dead:
                raise Broken(f"writer process {dead[0].pid} died with exit code {dead[0].exitcode}") from None
            if time.monotonic() > deadline:
                raise Broken(f"no writer reported within {timeout:.0f} s") from None


@dataclass
class ConcurrencyResult:
    backend: str
    games: int
    writers: int
    decisions: int  # acknowledged, all games
    events: int
    conflicts: int
    seconds: float


def concurrency(backend: Backend, *, games: int, writers: int, decisions: int, size: int = 5,
                prefix: str = "c") -> ConcurrencyResult:
    """``writers`` processes each append ``decisions`` decisions to every one of ``games`` games."""
    ctx = mp.get_context("spawn")
    names = [f"{prefix}-{g}" for g in range(games)]
    barrier = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [ctx.Process(target=_concurrent_writer, args=(backend, names, w, decisions, size, barrier, out),
                         daemon=True)
             for w in range(writers)]
    started = time.perf_counter()
    for p in procs:
        p.start()
    try:
        results = [_result(out, procs) for _ in procs]
    finally:
        for p in procs:  # never leave a writer behind: the caller's process could not exit
            p.join(60)
            if p.is_alive():
                p.kill()
    for p in procs:
        if p.exitcode != 0:
            raise Broken(f"writer process {p.pid} exited with {p.exitcode}")
    seconds = time.perf_counter() - started
    acked: dict[str, list[int]] = defaultdict(list)
    refused: dict[str, set[int]] = defaultdict(set)
    conflicts = 0
    for _writer, got, lost in results:
        for game, did in got:
            acked[game].append(did)
        for game, did in lost:
            refused[game].add(did)
        conflicts += len(lost)
    events = 0
    with open_backend(backend) as store:
        for game in names:
            records = list(store.read_raw(game))
            events += len(records)
            first = check_log(records, game)
            stored = set(first)
            if stored != set(acked[game]):
                lost = set(acked[game]) - stored
                extra = stored - set(acked[game])
                raise Broken(f"game {game}: acknowledged but missing {sorted(lost)[:5]}, "
                             f"stored but never acknowledged {sorted(extra)[:5]}")
            if stored & refused[game]:
                raise Broken(f"game {game}: appends reported as conflicts were stored: "
                             f"{sorted(stored & refused[game])[:5]}")
            by_writer: dict[int, list[int]] = defaultdict(list)
            for did, _seq in sorted(first.items(), key=lambda item: item[1]):
                by_writer[did // 100_000_000].append(did)
            for w, dids in by_writer.items():
                if dids != sorted(dids):
                    raise Broken(f"game {game}: writer {w}'s decisions are out of order")
    return ConcurrencyResult(backend[0], games, writers, sum(len(v) for v in acked.values()), events, conflicts,
                             seconds)


# -- crash safety ---------------------------------------------------------------------------------------


WRITER_APP = "kifu-crash-writer"


def _crash_writer(backend: Backend, game: str, base: int, seed: int, conn: Connection) -> None:
    rng = random.Random(seed)
    kind, where = backend
    if kind == "postgresql":  # named, so the parent can wait until the server has let go of its session
        where += ("&" if "?" in where else "?") + f"application_name={WRITER_APP}"
    with open_backend((kind, where)) as store:
        conn.send(-1)  # ready: connected, about to append
        k = 0
        while True:
            did = base + k
            store.append(game, decision(0, did, rng.randint(1, 60)))
            conn.send(did)  # acknowledged: append returned, the transaction is committed
            k += 1


def _settle(store: EventStore, timeout: float = 30.0) -> None:
    """Wait until the killed writer's session is gone from the server.

    A client killed right after sending its COMMIT leaves the server to finish that transaction on its own:
    until the session ends, the decision may still appear (committed, never acknowledged), which is correct
    but would make a check that ran too early see it later. SQLite has no server: a killed writer is gone.
    """
    db = getattr(store, "_db", None)
    if db is None or not hasattr(db, "pgconn"):
        return
    deadline = time.monotonic() + timeout
    while True:
        row = db.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (WRITER_APP,)).fetchone()
        if not row[0]:
            return
        if time.monotonic() > deadline:
            raise Broken("the killed writer's session is still open on the server")
        time.sleep(0.005)


@dataclass
class CrashResult:
    backend: str
    kills: int = 0
    acked: int = 0  # decisions acknowledged to the writer before it was killed
    committed_unacked: int = 0  # stored whole, but the writer was killed before it could acknowledge
    nothing_unacked: int = 0  # kills after which nothing unacknowledged was stored (an append in flight rolled back)
    events: int = 0
    seconds: float = 0.0
    games: list[str] = field(default_factory=list)


def _kill_at_random(ctx: Any, writer: Any, args: tuple[Any, ...], delay: float, who: str) -> list[Any]:
    """Start ``writer(*args, pipe)``, let it run ``delay`` seconds after it says it is ready, SIGKILL it, and
    return what it acknowledged through the pipe before it died."""
    mine, theirs = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=writer, args=(*args, theirs), daemon=True)
    proc.start()
    theirs.close()
    if not mine.poll(60) or mine.recv() != -1:
        raise Broken(f"{who} did not start")
    time.sleep(delay)
    assert proc.pid is not None
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(30)
    if proc.exitcode != -signal.SIGKILL:
        raise Broken(f"{who} ended with {proc.exitcode}, not by SIGKILL")
    reports: list[Any] = []
    while mine.poll():
        try:
            reports.append(mine.recv())
        except EOFError:
            break
    mine.close()
    return reports


def crashes(backend: Backend, *, kills: int, games: int = 10, max_delay: float = 0.12, seed: int = 0,
            prefix: str = "k") -> CrashResult:
    """Kill a writer ``kills`` times at random moments, checking the log after every kill."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["bench.reliability", "eventsource.sqlite", "eventsource.postgres"])
    rng = random.Random(seed)
    res = CrashResult(backend[0])
    known: dict[str, set[int]] = defaultdict(set)  # decisions stored so far, per game
    started = time.perf_counter()
    for n in range(kills):
        game = f"{prefix}-{n % games}"
        reports = _kill_at_random(ctx, _crash_writer, (backend, game, (n + 1) * 1_000_000, rng.random()),
                                  rng.uniform(0, max_delay), f"crash writer {n}")
        acked: set[int] = set(reports)
        with open_backend(backend) as store:
            _settle(store)
            records = list(store.read_raw(game))
        first = check_log(records, game)  # verifies the chain; no decision in part
        missing = acked - set(first)
        if missing:
            raise Broken(f"kill {n}: acknowledged decisions missing from {game}: {sorted(missing)[:5]}")
        new = set(first) - known[game]
        if not all((n + 1) * 1_000_000 <= d < (n + 2) * 1_000_000 for d in new):
            raise Broken(f"kill {n}: decisions appeared in {game} that this writer did not make")
        extra = new - acked
        if len(extra) > 1:  # only the decision in flight when the kill landed may be stored unacknowledged
            raise Broken(f"kill {n}: {len(extra)} decisions stored without an acknowledgement")
        res.committed_unacked += len(extra)
        res.nothing_unacked += 0 if extra else 1
        res.acked += len(acked)
        res.kills += 1
        known[game] = set(first)
    res.seconds = time.perf_counter() - started
    with open_backend(backend) as store:
        res.games = [g.game for g in store.games() if g.game.startswith(prefix + "-")]
        res.events = sum(g.length for g in store.games() if g.game in res.games)
    return res


def _group_writer(backend: Backend, games: list[str], base: int, seed: int, conn: Connection) -> None:
    """One thread per game appending through one group-commit store; each decision is reported (game, id)
    only after its ``append`` returned, i.e. after the commit of the group that held it."""
    import threading

    lock = threading.Lock()
    with open_backend(backend) as store:
        def play(g: int) -> None:
            rng = random.Random(seed * 1000 + g)
            k = 0
            while True:
                did = base + g * 100_000 + k
                store.append(games[g], decision(g, did, rng.randint(1, 30)))
                with lock:
                    conn.send((g, did))
                k += 1

        threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in range(len(games))]
        conn.send(-1)
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def group_crashes(path: str, *, kills: int, threads: int = 8, max_delay: float = 0.12, seed: int = 0,
                  prefix: str = "gk") -> CrashResult:
    """Kill a group-commit writer (``threads`` games appending at once) ``kills`` times at random moments.

    After every kill: the chain of every game verifies, no decision is there in part, every acknowledged one is
    there whole, and per game at most the one decision in flight is stored unacknowledged — so no decision of
    a group that did not flush was ever acknowledged.
    """
    backend = ("sqlite-group", path)
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["bench.reliability", "eventsource.groupcommit"])
    rng = random.Random(seed)
    res = CrashResult("sqlite-group")
    known: dict[str, set[int]] = defaultdict(set)
    started = time.perf_counter()
    for n in range(kills):
        # Ten sets of games in turn: each log grows over the run, but checking it after a kill stays cheap.
        names = [f"{prefix}-{n % 10}-{g}" for g in range(threads)]
        base = (n + 1) * 10_000_000
        reports = _kill_at_random(ctx, _group_writer, (backend, names, base, rng.randrange(2**31)),
                                  rng.uniform(0, max_delay), f"group writer {n}")
        acked: dict[int, set[int]] = defaultdict(set)
        for g, did in reports:
            acked[g].add(did)
        with open_backend(("sqlite", path)) as store:
            logs = {g: list(store.read_raw(name)) for g, name in enumerate(names)}
        for g, name in enumerate(names):
            first = check_log(logs[g], name)
            missing = acked[g] - set(first)
            if missing:
                raise Broken(f"kill {n}: acknowledged decisions missing from {name}: {sorted(missing)[:5]}")
            new = set(first) - known[name]
            if not all(base <= d < base + 10_000_000 for d in new):
                raise Broken(f"kill {n}: decisions appeared in {name} that this writer did not make")
            extra = new - acked[g]
            if len(extra) > 1:
                raise Broken(f"kill {n}: {len(extra)} decisions of {name} stored without an acknowledgement")
            res.committed_unacked += len(extra)
            res.acked += len(acked[g])
            known[name] = set(first)
        res.kills += 1
    res.seconds = time.perf_counter() - started
    with open_backend(("sqlite", path)) as store:
        res.games = [g.game for g in store.games() if g.game.startswith(prefix + "-")]
        res.events = sum(g.length for g in store.games() if g.game in res.games)
    return res


# -- the command ----------------------------------------------------------------------------------------


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    from tests import pgserver

    scale: dict[str, tuple[int, int, int]] = {  # games, writers, decisions per writer and game
        "same_game": (1, 8, 25 if quick else 150),
        "many_games": (8 if quick else 32, 8, 3 if quick else 10),
    }
    kills = 30 if quick else 300
    conc: list[ConcurrencyResult] = []
    crash: list[CrashResult] = []
    with tempfile.TemporaryDirectory(prefix="kifu-rel-") as tmp, pgserver.running() as server:
        for kind in ("sqlite", "postgresql"):
            def backend(name: str, kind: str = kind) -> Backend:
                if kind == "sqlite":
                    return ("sqlite", str(Path(tmp) / f"{name}.db"))
                return ("postgresql", server.create_database(name))

            for label in ("same_game", "many_games"):
                games, writers, decisions = scale[label]
                r = concurrency(backend(label), games=games, writers=writers, decisions=decisions)
                print(f"{kind:10} {label:10} {r.games} games x {r.writers} writers: {r.decisions} decisions, "
                      f"{r.conflicts} conflicts reported, {r.seconds:.1f} s: held", flush=True)
                conc.append(r)
            c = crashes(backend("crash"), kills=kills)
            print(f"{kind:10} crash      {c.kills} SIGKILLs: {c.acked} acknowledged decisions all present, "
                  f"{c.committed_unacked} committed before the ack, "
                  f"{c.nothing_unacked} with nothing unacknowledged stored, "
                  f"0 in part, chain intact after every kill ({c.seconds:.1f} s)", flush=True)
            crash.append(c)
    report = _report(conc, crash, quick)
    print()
    print(report)
    if not quick:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(report + "\n", encoding="utf-8")
        print(f"\nwritten to {RESULTS}")
    return 0


def _report(conc: list[ConcurrencyResult], crash: list[CrashResult], quick: bool) -> str:
    rows = [["store", "games x writers", "decisions acknowledged", "events", "conflicts reported to the loser",
             "lost / duplicated / reordered", "chain", "time"]]
    for r in conc:
        rows.append([r.backend, f"{r.games} x {r.writers}", str(r.decisions), str(r.events), str(r.conflicts),
                     "0 / 0 / 0", "intact", f"{r.seconds:.1f} s"])
    krows = [["store", "SIGKILLs", "acknowledged decisions (all present whole)", "committed, killed before ack",
              "kills with nothing unacknowledged stored", "decisions in part", "integrity check", "time"]]
    for c in crash:
        krows.append([c.backend, str(c.kills), str(c.acked), str(c.committed_unacked), str(c.nothing_unacked), "0",
                      f"passed after all {c.kills}", f"{c.seconds:.1f} s"])
    when = datetime.date.today().isoformat()
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    return "\n".join([
        "## Reliability" + (" (quick run)" if quick else ""),
        "",
        f"`python -m bench.reliability` ({when}; {machine}; SQLite in WAL mode with synchronous=FULL, "
        "PostgreSQL with fsync on, a throwaway local server on loopback).",
        "",
        "Concurrency: writer processes append decisions of 5 events to the same games with optimistic "
        "concurrency (read the head, append with `expected=head`, re-read and retry on a conflict).",
        "",
        _table(rows),
        "",
        "Crash safety: a writer appending decisions of 1-60 events, killed with SIGKILL at a random moment, "
        "reports each decision only after the commit returned; the log is checked after every kill.",
        "",
        _table(krows),
    ])


if __name__ == "__main__":
    # Run the importable module's main, so the writer functions the processes receive are
    # ``bench.reliability``'s (not ``__main__``'s, which each spawned child would have to re-run).
    from bench import reliability

    raise SystemExit(reliability.main())
