"""Time travel on a store (tools.travel.points): at, why, why-not and diff read the nearest keyed snapshot and the
records after it, give what the whole log read into memory gives, check the chain over what they read and the
head, and pass over a snapshot that does not belong to the log."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.records import RawRecord
from eventsource.sqlite import SQLiteStore
from projections.state import snapshot
from projections.timeline import SNAPSHOT_EVERY, Timeline, key_of, pack, replay, unpack
from tests.fixtures.golden import golden, read
from tools.cli import main
from tools.logs.stores import open_store, pick_game
from tools.travel.loaded import load_log
from tools.travel.points import StoreLog

LONG = 6_000  # events of the generated game: 23 snapshots
DEMO = golden("duel_masters")  # what ``kifu demo`` records (tests/fixtures/golden.py)


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Duel Masters game in a store (snapshots left by the engine as it committed) and its export."""
    folder = tmp_path_factory.mktemp("travel")
    db, out = folder / "demo.db", folder / "demo.jsonl"
    assert invoke("demo", "--db", str(db)).exit_code == 0
    assert invoke("export", "--db", str(db), "-o", str(out)).exit_code == 0
    return db, out


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("travel-long") / "long.db"
    assert invoke("synth", "--db", str(db), "--events", str(LONG), "--as", "long").exit_code == 0
    return db


def same_answer(db: Path, out: Path, *args: str) -> None:
    """The command on the store and on the export: the same words (but for the log's name), the same exit."""
    a, b = invoke(args[0], str(db), *args[1:]), invoke(args[0], str(out), *args[1:])
    assert (a.exit_code, a.output.replace(str(db), "LOG")) == (b.exit_code, b.output.replace(str(out), "LOG")), args


def test_the_demo_plays_its_golden_playthrough(demo: tuple[Path, Path]) -> None:
    """The demo records what its golden playthrough says (else: ``python -m tests.fixtures.golden``, on purpose)."""
    db, _ = demo
    assert read(db) == DEMO


def test_the_engine_leaves_keyed_snapshots_as_it_commits(demo: tuple[Path, Path]) -> None:
    db, _ = demo
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, state FROM snapshots ORDER BY seq").fetchall()
        hashes = dict(conn.execute("SELECT seq, hash FROM events"))
    conn.close()
    assert len(rows) >= DEMO.records // SNAPSHOT_EVERY  # about one per SNAPSHOT_EVERY records
    store = SQLiteStore(db)
    for seq, blob in rows:
        assert key_of(blob) == hashes[seq]
        assert snapshot(unpack(blob)) == snapshot(replay(store, DEMO.game, seq))
    store.close()


def test_store_and_export_give_the_same_answers(demo: tuple[Path, Path]) -> None:
    db, out = demo
    log = load_log(str(out))
    last = DEMO.records
    for n in (0, 1, 41, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, last // 2, last - 1, last):
        same_answer(db, out, "at", str(n))
        same_answer(db, out, "at", str(n), "--player", "1")
    explained = [r.seq for r in log.records if isinstance(r.event, ev.Triggered | ev.EffectFizzled | ev.EffectResolved)]
    assert len(explained) > 20
    for n in explained:
        same_answer(db, out, "why", str(n))
    for n in (2, SNAPSHOT_EVERY + 7, last // 2, last * 2 // 3, last * 3 // 4, last - 30, last - 1, last):
        same_answer(db, out, "why-not", str(n), "jababa_hat")
        same_answer(db, out, "diff", str(n // 3), str(n))
    same_answer(db, out, "why", "5")  # not an effect: the same refusal (exit 2)
    same_answer(db, out, "at", str(last + 1))


def counting(store: Any) -> list[int]:
    """Every record the store reads, from now on."""
    reads: list[int] = []
    real = store.read_span

    def read_span(game: str, start: int, stop: int) -> Iterator[RawRecord]:
        for raw in real(game, start, stop):
            reads.append(raw.seq)
            yield raw

    store.read_span = read_span
    return reads


def test_a_point_costs_a_snapshot_and_the_records_after_it_wherever_it_is(long_db: Path) -> None:
    store = open_store(str(long_db))
    log = StoreLog(str(long_db), store, pick_game(store, None, "long"))
    reads = counting(store)
    whole = SQLiteStore(long_db)
    for n in (5, 1_000, 2_999, 4_100, LONG):
        reads.clear()
        state = log.state_at(n)
        assert snapshot(state) == snapshot(replay(whole, "long", n))
        # the record a snapshot is keyed to, then the records after it (and the one before the first, for its hash)
        assert len(reads) <= SNAPSHOT_EVERY + 2, (n, len(reads))
    whole.close()
    store.close()


def _forge_snapshot(db: Path, seq: int, blob: bytes) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (blob, seq))
    conn.close()


def test_a_snapshot_not_keyed_to_the_log_is_passed_over(long_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "stale.db"
    db.write_bytes(long_db.read_bytes())
    store = SQLiteStore(db)
    right = replay(store, "long", 3 * SNAPSHOT_EVERY + 10)
    other = replay(store, "long", 2 * SNAPSHOT_EVERY)  # another state, keyed to another record's hash
    wrong = pack(other, store.read_span("long", 3 * SNAPSHOT_EVERY, 3 * SNAPSHOT_EVERY).__next__().hash[::-1])
    store.close()
    _forge_snapshot(db, 3 * SNAPSHOT_EVERY, wrong)
    _forge_snapshot(db, 2 * SNAPSHOT_EVERY, pack(other))  # unkeyed (an older kifu's): not used either
    with SQLiteStore(db) as again:
        assert snapshot(Timeline(again, "long").state_at(3 * SNAPSHOT_EVERY + 10)) == snapshot(right)
    plain = invoke("at", str(long_db), str(3 * SNAPSHOT_EVERY + 10))
    assert invoke("at", str(db), str(3 * SNAPSHOT_EVERY + 10)).output == plain.output


def test_a_forged_snapshot_with_the_right_key_changes_time_travel_never_a_verdict(
    long_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "forged.db"
    db.write_bytes(long_db.read_bytes())
    seq = 4 * SNAPSHOT_EVERY
    with SQLiteStore(db) as store:
        state = replay(store, "long", seq)
        head = next(store.read_span("long", seq, seq)).hash
    state.players[0].stats["life"] = 99
    _forge_snapshot(db, seq, pack(state, head))
    assert "life 99" in invoke("at", str(db), str(seq)).output  # time travel trusts a snapshot whose key holds
    audit_clean = invoke("audit", "--no-rules", str(long_db))
    audit_forged = invoke("audit", "--no-rules", str(db))
    assert audit_forged.exit_code == audit_clean.exit_code == 0
    assert audit_forged.output.replace(str(db), "LOG") == audit_clean.output.replace(str(long_db), "LOG")
    assert "life 99" not in invoke("replay", str(db)).output


def _alter(db: Path, seq: int) -> None:
    """Record ``seq`` names another cause: it still reads, but no longer matches its hash."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET cause = cause + 1 WHERE seq = ?", (seq,))
    conn.close()


def test_the_chain_is_checked_over_the_records_read_and_the_head(long_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "altered.db"
    db.write_bytes(long_db.read_bytes())
    altered = 10 * SNAPSHOT_EVERY + 7
    _alter(db, altered)
    near = invoke("at", str(db), str(altered + 3))  # reads the altered record: answers, warns, exits 1
    assert near.exit_code == 1
    assert f"the hash chain breaks at record {altered}" in near.output and "run kifu audit" in near.output
    assert invoke("diff", str(db), "1", str(altered)).exit_code == 1
    far = invoke("at", str(db), str(2 * SNAPSHOT_EVERY + 3))  # does not: what it read is sound
    assert far.exit_code == 0
    assert invoke("audit", "--no-rules", str(db)).exit_code == 1  # the whole chain is audit's
    head = tmp_path / "head.db"
    head.write_bytes(long_db.read_bytes())
    _alter(head, LONG)
    result = invoke("at", str(head), "5")  # the head is checked whatever the point
    assert result.exit_code == 1 and f"the hash chain breaks at record {LONG}" in result.output


def test_a_store_without_snapshots_is_folded_from_its_start_and_says_so(long_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "bare.db"
    db.write_bytes(long_db.read_bytes())
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()
    result = CliRunner().invoke(main, ["at", str(db), str(LONG)])
    assert result.exit_code == 0
    assert result.stdout == invoke("at", str(long_db), str(LONG)).stdout
    assert "no usable snapshot" in result.stderr and "kifu snapshot" in result.stderr
    assert invoke("snapshot", "--db", str(db)).exit_code == 0
    again = CliRunner().invoke(main, ["at", str(db), str(LONG)])
    assert again.stdout == result.stdout and again.stderr == ""


def test_why_and_why_not_on_a_game_whose_rules_are_not_installed_say_what_the_log_says(long_db: Path) -> None:
    store = SQLiteStore(long_db)
    trig = next(r for r in store.read("long", 3_000) if isinstance(r.event, ev.Triggered))
    store.close()
    assert isinstance(trig.event, ev.Triggered)
    why = invoke("why", str(long_db), str(trig.seq))
    assert why.exit_code == 0
    assert "the rules of 'synthetic' are not installed" in why.output
    assert f"caused by record {trig.event.by}" in why.output
    assert "it resolved" in why.output or "FIZZLED" in why.output
    source = f"#{trig.event.source}"
    why_not = invoke("why-not", str(long_db), str(trig.event.by), source)
    assert why_not.exit_code == 0
    assert f"{trig.event.ability}: it DID trigger: record {trig.seq}" in why_not.output
    assert invoke("why-not", str(long_db), str(trig.event.by), source, "no_such_ability").exit_code == 2


def test_a_postgresql_store_is_read_at_points_the_same_way(demo: tuple[Path, Path], postgres_url: str) -> None:
    _, out = demo
    assert invoke("import", str(out), "--db", postgres_url).exit_code == 0  # import keeps snapshots
    with open_store(postgres_url) as store:
        assert store.load_snapshot(DEMO.game, DEMO.records) is not None
        log = StoreLog(postgres_url, store, pick_game(store, None, postgres_url))
        reads = counting(store)
        near_end = DEMO.records * 9 // 10
        state = log.state_at(near_end)
        assert len(reads) <= SNAPSHOT_EVERY + 2
        assert snapshot(state) == snapshot(load_log(str(out)).state_at(near_end))
    half, end = str(DEMO.records // 2), str(near_end)
    for args in (["at", end], ["why", "268"], ["why-not", half, "jababa_hat"], ["diff", "300", end]):
        a, b = invoke(args[0], postgres_url, *args[1:]), invoke(args[0], str(out), *args[1:])
        assert (a.exit_code, a.output.replace(postgres_url, "LOG")) == (b.exit_code, b.output.replace(str(out), "LOG"))
