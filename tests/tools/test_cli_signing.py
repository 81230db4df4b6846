"""Signed logs on the command line: kifu keys new, kifu demo --key, export and import keep signatures, and
kifu audit --key reports unsigned, wrongly signed, otherwise signed and cut-short logs."""

from __future__ import annotations

import base64
import json
import sqlite3
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import NewEvent, RawRecord, decode
from eventsource.signing import Signature, Signer, load_private, load_public
from eventsource.store import GameInfo
from tools.audit.signed import check_signatures
from tools.cli import main
from tools.logs.sources import LogSource

GAME = "demo-duel-masters"


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A demo game recorded with a private key, its export, and a second, unrelated key pair."""
    root = tmp_path_factory.mktemp("signed")
    assert invoke("keys", "new", str(root / "recorder")).exit_code == 0
    assert invoke("keys", "new", str(root / "stranger")).exit_code == 0
    assert invoke("demo", "--db", str(root / "signed.db"), "--key", str(root / "recorder")).exit_code == 0
    assert invoke("demo", "--db", str(root / "unsigned.db")).exit_code == 0
    out = root / "signed.jsonl"
    assert invoke("export", "--db", str(root / "signed.db"), "-o", str(out)).exit_code == 0
    return {"root": root, "db": root / "signed.db", "unsigned": root / "unsigned.db", "export": out,
            "key": root / "recorder", "pub": root / "recorder.pub", "other": root / "stranger.pub"}


def audit(log: Path, key: Path, *more: str) -> Any:
    return invoke("audit", "--no-rules", str(log), "--key", str(key), *more)


def findings(result: Any) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("finding: ")]


# -- keys ------------------------------------------------------------------------------------------------


def test_keys_new_writes_an_owner_only_private_key_and_a_public_key(tmp_path: Path) -> None:
    result = invoke("keys", "new", str(tmp_path / "k"))
    assert result.exit_code == 0
    assert stat.S_IMODE((tmp_path / "k").stat().st_mode) == 0o600
    key = load_private(tmp_path / "k").key.hex()
    assert load_public(tmp_path / "k.pub").key.hex() == key
    assert key in result.output


def test_keys_new_refuses_to_overwrite_a_key(tmp_path: Path) -> None:
    invoke("keys", "new", str(tmp_path / "k"))
    before = (tmp_path / "k").read_bytes()
    result = invoke("keys", "new", str(tmp_path / "k"))
    assert result.exit_code == 2
    assert "already exists" in result.output
    assert (tmp_path / "k").read_bytes() == before


# -- a signed game, end to end ----------------------------------------------------------------------------


def test_a_signed_demo_audits_clean_with_its_key_from_the_store_and_from_its_export(signed: dict[str, Path]) -> None:
    for log in (signed["db"], signed["export"]):
        result = audit(log, signed["pub"])
        assert result.exit_code == 0, result.output
        assert "signatures  ok" in result.output
        assert f"signed end at record {len(_lines(signed['export']))}" in result.output  # a record a line


def test_signatures_survive_export_and_import(signed: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "imported.db"
    result = invoke("import", str(signed["export"]), "--db", str(target))
    assert result.exit_code == 0, result.output
    assert f"{signed_lines(signed['export'])} signatures" in result.output
    assert audit(target, signed["pub"]).exit_code == 0
    again = tmp_path / "again.jsonl"
    invoke("export", "--db", str(target), "-o", str(again))
    assert again.read_bytes() == signed["export"].read_bytes()


def test_an_unsigned_log_is_a_finding_when_a_key_is_given(signed: dict[str, Path]) -> None:
    result = audit(signed["unsigned"], signed["pub"])
    assert result.exit_code == 1
    assert findings(result) and "unsigned" in findings(result)[0]
    assert "carries no signature" in result.output
    assert invoke("audit", "--no-rules", str(signed["unsigned"])).exit_code == 0  # without a key: no claim


def test_a_log_signed_by_another_key_is_a_finding(signed: dict[str, Path]) -> None:
    result = audit(signed["export"], signed["other"])
    assert result.exit_code == 1
    assert "foreign-key" in findings(result)[0]
    assert load_private(signed["key"]).key.hex() in findings(result)[0]
    assert load_public(signed["other"]).key.hex() in findings(result)[0]


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def signed_lines(path: Path) -> int:
    """How many records of an export carry a signature, read from it."""
    return sum(b'"signature"' in line for line in _lines(path))


def _resign(line: bytes, **change: Any) -> bytes:
    """A line whose signature is changed but which is still in canonical form (so only --key can tell)."""
    raw, signature = exchange.parse_signed(line.rstrip(b"\n"), 1)
    assert signature is not None
    return exchange.to_line(raw, msgspec.structs.replace(signature, **change)) + b"\n"


def test_a_wrongly_signed_head_is_a_finding_naming_its_record(signed: dict[str, Path], tmp_path: Path) -> None:
    lines = _lines(signed["export"])
    at = next(i for i, line in enumerate(lines) if b'"signature"' in line and i > 500)
    for change in ({"sig": bytes(64)}, {"end": True}):
        forged = list(lines)
        forged[at] = _resign(lines[at], **change)
        path = tmp_path / "forged.jsonl"
        path.write_bytes(b"".join(forged))
        result = audit(path, signed["pub"])
        assert result.exit_code == 1
        assert f"wrongly-signed at record {at + 1}" in result.output
        assert invoke("audit", "--no-rules", str(path)).exit_code == 0  # the chain alone cannot tell


def test_a_dropped_signature_is_a_finding(signed: dict[str, Path], tmp_path: Path) -> None:
    lines = _lines(signed["export"])
    at = next(i for i, line in enumerate(lines) if b'"signature"' in line and i > 300)
    raw, _ = exchange.parse_signed(lines[at].rstrip(b"\n"), 1)
    forged = [*lines[:at], exchange.to_line(raw) + b"\n", *lines[at + 1 :]]
    path = tmp_path / "dropped.jsonl"
    path.write_bytes(b"".join(forged))
    result = audit(path, signed["pub"])
    assert result.exit_code == 1
    assert f"unsigned at record {at + 1}" in result.output


@pytest.mark.parametrize("keep", [1, 107, 108, 109, 300, -1])
def test_an_export_cut_at_any_point_is_a_finding_with_the_key(signed: dict[str, Path], tmp_path: Path,
                                                              keep: int) -> None:
    """``keep`` records are kept (-1: all but the last)."""
    keep = keep if keep > 0 else len(_lines(signed["export"])) + keep
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(_lines(signed["export"])[:keep]))
    assert invoke("audit", "--no-rules", str(path)).exit_code == 0  # it still chains
    result = audit(path, signed["pub"])
    assert result.exit_code == 1
    first_signed = next(i for i, line in enumerate(_lines(signed["export"]), start=1) if b'"signature"' in line)
    if keep < first_signed:  # nothing signed is left: indistinguishable from a log never signed
        assert "unsigned at record 1" in result.output
    else:
        assert f"truncated at record {keep}" in result.output


def _store_source(raws: list[RawRecord], signatures: list[Signature]) -> LogSource:
    store = MemoryStore()
    store._write(raws[0].game, 0, raws, signatures)
    return LogSource("memory", "store", raws[0].game, store=store,
                     info=GameInfo(raws[0].game, len(raws), raws[-1].hash))


def _signed_game(decisions: int) -> tuple[list[RawRecord], list[Signature], Signer]:
    """A short log committed one decision at a time by a signing recorder (1-4 events each), ended and signed."""
    signer, store = Signer.generate(), MemoryStore()
    for d in range(decisions):
        batch = [NewEvent(ev.ChoiceMade(d % 2, "pass", ()), d + 1, 0)]
        batch += [NewEvent(ev.PriorityPassed(d % 2), d + 1, 0) for _ in range(d % 4)]
        store.append("g", batch, signer=signer)
    store.append("g", [NewEvent(ev.GameEnded(0, "conceded"), decisions, 0)], signer=signer, end=True)
    return list(store.read_raw("g")), store.signatures("g"), signer


def test_a_log_cut_after_any_record_is_a_finding() -> None:
    raws, signatures, signer = _signed_game(12)
    key = signer.public()
    assert check_signatures(_store_source(raws, signatures), key).status == "ok"
    for cut in range(1, len(raws)):
        kept = [s for s in signatures if s.seq <= cut]  # a truncated store loses the later signatures too
        result = check_signatures(_store_source(raws[:cut], kept), key)
        assert result.status == "finding", cut
        assert result.finding is not None and result.finding.kind == "truncated", cut
        # a log cut short but keeping the later signatures is just as much a finding
        result = check_signatures(_store_source(raws[:cut], signatures), key)
        assert result.finding is not None and result.finding.kind == "truncated", cut


def test_records_after_the_signed_end_are_a_finding(signed: dict[str, Path]) -> None:
    read = list(exchange.read_signed(signed["export"]))
    raws = [r for r, _ in read]
    signatures = [s for _, s in read if s is not None]
    store = MemoryStore()
    store._write(GAME, 0, raws, signatures)
    store.append(GAME, [NewEvent(ev.GameEnded(0, "a different winner"), 999, 0)])
    extended = list(store.read_raw(GAME))
    result = check_signatures(_store_source(extended, signatures), load_public(signed["pub"]))
    assert result.finding is not None and result.finding.kind == "extended"


# -- private keys stay private ------------------------------------------------------------------------------


def _secrets(private: Path) -> list[bytes]:
    """The private key as a file holds it, its base64 body, and its raw 32 bytes."""
    pem = private.read_bytes()
    body = b"".join(pem.splitlines()[1:-1])
    raw = base64.b64decode(body)[-32:]
    return [pem, body, raw, raw.hex().encode(), base64.b64encode(raw)]


def test_the_private_key_enters_no_store_no_export_and_no_message(signed: dict[str, Path], tmp_path: Path) -> None:
    secrets = _secrets(signed["key"])
    for artefact in (signed["db"], signed["export"]):
        data = artefact.read_bytes()
        assert not any(secret in data for secret in secrets)
    damaged = tmp_path / "damaged-key"
    damaged.write_bytes(signed["key"].read_bytes()[:-40])
    outputs = [
        invoke("audit", str(signed["export"]), "--key", str(signed["key"])),  # a private key given as public
        invoke("demo", "--db", str(tmp_path / "x.db"), "--key", str(signed["pub"])),  # public as private
        invoke("demo", "--db", str(tmp_path / "y.db"), "--key", str(damaged)),
        invoke("audit", str(signed["export"]), "--json", "--key", str(signed["key"])),
    ]
    for result in outputs:
        assert result.exit_code == 2
        text = result.output.encode()
        assert not any(secret in text for secret in secrets)
    assert "holds a private key" in outputs[0].output
    assert json.loads(outputs[3].stdout)["error"]
    assert not (tmp_path / "x.db").exists() and not (tmp_path / "y.db").exists()


def _a_decision_point(export: Path) -> int:
    """A point of the game where the rules wait for a decision, two thirds of the way through (read from the log)."""
    points = [r.seq - 1 for r in map(decode, exchange.read(export)) if isinstance(r.event, ev.ChoiceMade)]
    return points[2 * len(points) // 3]


def test_a_fork_and_its_decisions_are_signed_with_key(signed: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "whatif.db"
    at = _a_decision_point(signed["export"])
    result = invoke("fork", str(signed["export"]), str(at), "--db", str(db), "--as", "wi", "--key", str(signed["key"]))
    assert result.exit_code == 0, result.output
    assert invoke("decide", "--db", str(db), "wi", "0", "--key", str(signed["key"])).exit_code == 0
    result = audit(db, signed["pub"], "wi")
    # every head of the copied part, the branch point's and the decision's are signed; the game has not ended
    assert result.exit_code == 1
    assert [line.split(" (")[0] for line in findings(result)] == [f"finding: truncated at record {_last(db)}"]
    assert "FINDING" not in result.output.replace("signatures  FINDING", "")
    before = _last(db)
    assert invoke("decide", "--db", str(db), "wi", "0").exit_code == 0  # recorded without the key: not signed
    assert invoke("decide", "--db", str(db), "wi", "0", "--key", str(signed["key"])).exit_code == 0
    result = audit(db, signed["pub"], "wi")
    assert any(line.startswith("finding: unsigned at record") and int(line.split()[4]) > before
               for line in findings(result)), result.output


def _last(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        last: int = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    conn.close()
    return last
