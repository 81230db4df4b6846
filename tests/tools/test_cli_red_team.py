"""The red team's inputs of #21 that ended in a traceback: each is now a clean answer or a clean refusal.

A snapshot is derived data in a file anyone can edit: one whose state is not a BLOB, names an object that is
not in the game, or inflates to gigabytes is passed over (the command folds from an older one or from record
1); a store without a snapshots table folds from record 1 (README). An option that looks like a number to
``str.isdigit`` but not to ``int`` ('²'), and a scenario nested deeper than the TOML reader can follow, are bad
input, never a crash.
"""

from __future__ import annotations

import ast
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from projections.timeline import MAX_SNAPSHOT, key_of, pack, unpack
from tests.tools.forgeries import log, with_setup
from tests.tools.tamper import reseal
from tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
READING = [["at", "{db}", "300"], ["at", "{db}", "300", "--player", "0"], ["diff", "{db}", "260", "300"],
           ["why-not", "{db}", "300", "#1"], ["why", "{db}", "261"], ["snapshot", "--db", "{db}"]]


def kifu(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    assert kifu("demo", "--db", str(db)).exit_code == 0
    assert kifu("snapshot", "--db", str(db)).exit_code == 0
    return db


def _first_snapshot(db: sqlite3.Connection) -> tuple[int, bytes]:
    seq, blob = db.execute("SELECT seq, state FROM snapshots ORDER BY seq LIMIT 1").fetchone()
    return seq, blob


def _text_state(db: sqlite3.Connection) -> None:
    db.execute("UPDATE snapshots SET state = 'not a snapshot'")


def _missing_object(db: sqlite3.Connection) -> None:
    seq, blob = _first_snapshot(db)
    state = unpack(blob)
    next(ids for ids in state.zones.values() if ids).append(999_999)  # keyed as before: only its content lies
    db.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (pack(state, key_of(blob)), seq))


def _inflates_past_the_bound(db: sqlite3.Connection) -> None:
    seq, blob = _first_snapshot(db)
    inflater = zlib.compressobj(9)
    chunk = b"\0" * (1 << 20)
    body = b"".join(inflater.compress(chunk) for _ in range(MAX_SNAPSHOT // len(chunk) + 16)) + inflater.flush()
    key = key_of(blob)
    assert key is not None
    db.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (b"\x01" + key + body, seq))


def _no_snapshots_table(db: sqlite3.Connection) -> None:
    db.execute("DROP TABLE snapshots")


@pytest.mark.parametrize("damage", [_text_state, _missing_object, _inflates_past_the_bound, _no_snapshots_table],
                         ids=["text-state", "missing-object", "inflates", "no-snapshots-table"])
@pytest.mark.parametrize("command", READING, ids=lambda c: "-".join(a for a in c if "{" not in a))
def test_a_damaged_snapshot_is_passed_over_and_the_answer_is_the_logs(
        demo: Path, tmp_path: Path, damage: object, command: list[str]) -> None:
    db = tmp_path / "damaged.db"
    shutil.copy(demo, db)
    with sqlite3.connect(db) as conn:
        damage(conn)  # type: ignore[operator]
    args = [a.replace("{db}", str(db)) for a in command]
    result, truth = kifu(*args), kifu(*[a.replace("{db}", str(demo)) for a in command])
    no_traceback(result)
    assert (result.exit_code, result.stdout.replace(str(db), "DB")) == (truth.exit_code,
                                                                         truth.stdout.replace(str(demo), "DB"))


def test_a_snapshot_inflating_past_the_bound_is_refused_without_inflating_it() -> None:
    body = zlib.compress(b"\0" * (MAX_SNAPSHOT + 1), 9)
    with pytest.raises(ValueError, match="inflates past"):
        unpack(body)


@pytest.mark.parametrize("command", [["audit"], ["verify"], ["replay"], ["at", "{log}", "5"]],
                         ids=["audit", "verify", "replay", "at"])
def test_a_setup_option_no_integer_reads_is_no_traceback(tmp_path: Path, command: list[str]) -> None:
    forged = reseal(with_setup(log("duel_masters"), 5), tmp_path / "setup.jsonl")

    superscript = tmp_path / "superscript.jsonl"
    from tests.tools.forgeries import replace
    from tests.tools.tamper import records_of
    records = records_of(forged)
    started = records[0].event
    options = tuple((k, "\u00b2" if k == "setup" else v) for k, v in started.options)  # type: ignore[attr-defined]
    reseal(replace(records, 1, options=options), superscript)

    args = [a.replace("{log}", str(superscript)) for a in command]
    if "{log}" not in " ".join(command):
        args.append(str(superscript))
    result = kifu(*args)
    no_traceback(result)
    assert result.exit_code in (0, 1, 2)


def test_no_module_reads_a_number_with_isdigit() -> None:
    """'²'.isdigit() is True and int('²') raises: a number is read only where ``str.isdecimal`` (what ``int``
    accepts) said it is one."""
    found = []
    for package in ("eventsource", "projections", "statemachine", "tools"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "isdigit":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_a_scenario_nested_200000_deep_is_refused_cleanly(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    result = kifu("scenario", "run", str(deep))
    no_traceback(result)
    assert result.exit_code == 2 and "nested too deeply to read" in result.output
