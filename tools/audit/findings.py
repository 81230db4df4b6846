"""What one audit check found (``tools.audit.checks`` runs the checks; ``tools.audit.rules`` is two of them)."""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

Status = Literal["ok", "finding", "skipped"]


class AuditFinding(Struct, frozen=True):
    """What a check found: where the log stops being trustworthy and why."""

    check: str  # the check that found it: integrity, fold, ...
    kind: str  # altered, missing, reordered, ... (integrity.Problem), malformed, truncated, inconsistent
    seq: int  # the sequence number where the log stops being trustworthy
    position: int  # 0-based position of the offending record in the log as read
    message: str
    rule: str = ""  # the SPEC rule a decision broke (legality)
    decision: int | None = None  # the decision number it belongs to (rules, legality)
    field: str = ""  # the field of the record that differs (rules): printed.cost, cause, card_pool_digest, ...
    invariant: str = ""  # the board invariant an impossible board breaks (fold; projections.invariants)

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        field = f", {self.field}" if self.field else ""
        return f"{self.kind} at record {self.seq}{field} (position {self.position}): {self.message}{rule}"


class CheckResult(Struct, frozen=True):
    check: str
    status: Status
    summary: str  # one line for people
    finding: AuditFinding | None = None
    more: list[AuditFinding] = msgspec.field(default_factory=list)  # further findings of the same check
    notes: list[str] = msgspec.field(default_factory=list)  # what a person should know (versions, ...)
    ended: bool = False  # fold: the log ends the game (GameEnded)
