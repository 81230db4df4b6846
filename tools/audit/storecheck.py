"""The audit's ``store`` check, run first when the log is read from a store: is the store itself sound?

A damaged database file can answer queries without an error and still hold less than it claims: a broken page
can drop records from a scan while the index still finds the game's last record. So before the log is judged,
the store is asked to check itself (SQLite's own ``PRAGMA integrity_check``), and the game is read through once
and compared with the length and head hash the store lists for it (what ``kifu games`` prints). Any mismatch,
any record that cannot be read and any value of the wrong type is a finding naming the record; the later checks
are then not run, since they would judge a log that is not the one the store holds.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from eventsource.errors import CorruptLog
from tools.audit.findings import AuditFinding, CheckResult
from tools.logs.sources import LogSource

CHECK: Final = "store"


def check_store(source: LogSource) -> CheckResult:
    store, info = source.store, source.info
    assert store is not None and info is not None
    own_check = getattr(store, "integrity_problems", None)
    problems: list[str] = own_check() if callable(own_check) else []
    read, last = 0, 0
    failure: str | None = None
    try:
        for raw in store.read_raw(source.game):
            if raw.seq != read + 1:
                failure = f"record {read + 1} cannot be read (the next record read is {raw.seq})"
                break
            if raw.seq == info.length and raw.hash != info.head:
                failure = (f"record {raw.seq} has hash {raw.hash.hex()}, but the store lists head "
                           f"{info.head.hex()} for the game")
                break
            read, last = read + 1, raw.seq
        store.signatures(source.game)
    except CorruptLog as exc:
        failure = str(exc).removeprefix(f"record {exc.seq}: ")
        read = exc.seq - 1 if exc.seq is not None else read
    except sqlite3.DatabaseError as exc:
        failure = f"record {read + 1} cannot be read: {exc}"
    if failure is None and (read != info.length or last != info.length):
        failure = (f"the store lists {info.length} records (head {info.head.hex()}), but reading the game stops "
                   f"after record {last}")
    if failure is None and not problems:
        what = "SQLite's integrity check passed; " if callable(own_check) else ""
        return CheckResult(CHECK, "ok", f"{what}{read} records read, as the store lists them")
    sqlite_said = f"SQLite's integrity check: {'; '.join(problems[:3])}" if problems else ""
    message = "; ".join(part for part in (failure or "", sqlite_said) if part)
    found = AuditFinding(CHECK, "damaged", read + 1, read,
                         f"{message} (the store lists {info.length} records)")
    return CheckResult(CHECK, "finding", str(found), found)
