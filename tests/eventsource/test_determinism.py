"""The same inputs give the same bytes: under different PYTHONHASHSEED values, in separate interpreters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A scripted game (fixed decisions, seeded shuffles and random results recorded as events) written to a
# SQLite store, exported, and folded with snapshots; then the bytes of all three, and a run of raw draws.
PROGRAM = """
import hashlib, json, random, sys, tempfile
from pathlib import Path
from eventsource import exchange, randomness
from eventsource.sqlite import SQLiteStore
from projections.state import snapshot
from projections.timeline import Timeline
from tests.fixtures.scripted import record_game, scripted_game

batches = scripted_game(random.Random(2024), 400, seed=99)
with tempfile.TemporaryDirectory() as tmp:
    with SQLiteStore(Path(tmp) / "kifu.db") as store:
        record_game(store, "game-1", batches)
        raws = list(store.read_raw("game-1"))
        exchange.write(raws, Path(tmp) / "game.jsonl")
        exported = (Path(tmp) / "game.jsonl").read_bytes()
        state = Timeline(store, "game-1", every=37).state_at(None)
        head = store.games()[0].head
log = hashlib.sha256()
for r in raws:
    log.update(r.body)
    log.update(r.hash)
json.dump({
    "records": len(raws),
    "kinds": sorted({r.body[1] for r in raws}),
    "log": log.hexdigest(),
    "head": head.hex(),
    "export": hashlib.sha256(exported).hexdigest(),
    "state": hashlib.sha256(snapshot(state)).hexdigest(),
    "draws": [randomness.below(99, n, 1000) for n in range(20)],
    "shuffle": list(randomness.shuffled(99, 20, list(range(30)))),
}, sys.stdout)
"""


def run(hash_seed: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, object]]:
    return {seed: run(seed) for seed in ("0", "1", "12345")}


def test_the_log_is_byte_identical_under_every_hash_seed(runs: dict[str, dict[str, object]]) -> None:
    first = runs["0"]
    assert isinstance(first["records"], int) and first["records"] >= 400
    kinds = first["kinds"]
    assert isinstance(kinds, list) and len(kinds) >= 15  # a varied log, not a trivial one
    for seed, result in runs.items():
        assert result == first, f"PYTHONHASHSEED={seed} gave different bytes"


def test_the_random_draws_differ_from_draw_to_draw(runs: dict[str, dict[str, object]]) -> None:
    draws = runs["0"]["draws"]
    shuffle = runs["0"]["shuffle"]
    assert isinstance(draws, list) and isinstance(shuffle, list)
    assert len(set(draws)) > 10  # seeded per draw number, not one value repeated
    assert sorted(shuffle) == list(range(30))
    assert shuffle != list(range(30))
