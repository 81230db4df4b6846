"""The audit's ``signatures`` check (``kifu audit --key PUBLIC``): who recorded the log, and is it whole.

A recorder that signs (``Engine`` with a signer, ``kifu demo --key``) signs the head of every committed decision
and the head after the game ended as its signed end (``eventsource.signing``). With the recorder's public key,
each of these is a finding:

- ``unsigned``: the log carries no signature at all, or the head that ends a decision is not signed;
- ``foreign-key``: a head is signed by another key than the one given;
- ``wrongly-signed``: a signature that does not verify over its game, record, head and end;
- ``truncated``: the log does not end in its signed end (cut after a decision, or mid-decision), or a signature
  names a record beyond the log's end;
- ``extended``: records follow the signed end.

The check runs after integrity (the chain holds), so each record's hash is the one the recorder sealed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from eventsource.records import RawRecord
from eventsource.signing import PublicKey, Signature
from tools.audit.findings import AuditFinding, CheckResult
from tools.logs.sources import LogSource

CHECK: Final = "signatures"
MAX_LISTED: Final = 20  # findings of one kind listed one by one; the rest are counted


def _heads(records: Iterator[RawRecord], signed: set[int],
           wanted: set[int]) -> tuple[dict[int, tuple[int, bytes]], list[int], int, int]:
    """Read once, keeping only what the signatures ask about: the (position, hash) of each record in
    ``wanted``, the records that end a decision (the last before a new decision begins) but are not ``signed``
    with theirs too, the last sequence number and how many records there are."""
    hashes: dict[int, tuple[int, bytes]] = {}
    ends: list[int] = []
    previous: RawRecord | None = None
    count = 0
    for position, raw in enumerate(records):
        if previous is not None and raw.decision != previous.decision and previous.seq not in signed:
            ends.append(previous.seq)
            hashes[previous.seq] = (position - 1, previous.hash)
        if raw.seq in wanted:
            hashes.setdefault(raw.seq, (position, raw.hash))
        previous, count = raw, count + 1
    last = previous.seq if previous is not None else 0
    if previous is not None:
        hashes.setdefault(last, (count - 1, previous.hash))
    return hashes, ends, last, count


def check_signatures(source: LogSource, key: PublicKey) -> CheckResult:
    signatures = source.signatures()
    who = f"key {key.key.hex()}"
    if not signatures:
        found = AuditFinding(CHECK, "unsigned", 1, 0,
                             f"the log carries no signature: nothing says who recorded it ({who} was given)")
        return CheckResult(CHECK, "finding", str(found), found)
    final = [s for s in signatures if s.end]
    signed = {s.seq for s in signatures}
    hashes, ends, last, count = _heads(source.records(), signed, signed | ({final[-1].seq + 1} if final else set()))
    findings: list[AuditFinding] = []

    def add(kind: str, seq: int, message: str) -> None:
        position = hashes[seq][0] if seq in hashes else count
        findings.append(AuditFinding(CHECK, kind, seq, position, message))

    by_seq = {s.seq: s for s in signatures}
    others: dict[bytes, list[int]] = {}
    for s in signatures:
        if s.key != key.key and s.seq in hashes:
            others.setdefault(s.key, []).append(s.seq)
        else:
            _judge(s, key, hashes, last, add)
    for other, seqs in sorted(others.items(), key=lambda item: item[1][0]):
        heads = f"the head at record {seqs[0]} is" if len(seqs) == 1 else \
            f"{len(seqs)} heads (records {seqs[0]} to {seqs[-1]}) are"
        add("foreign-key", seqs[0], f"{heads} signed by key {other.hex()}, not by key {key.key.hex()}")
    for seq in ends:
        if seq not in by_seq:
            add("unsigned", seq, f"the head after record {seq}, which ends a decision, is not signed")
    if not final or final[-1].seq < last:
        signed_end = f"its signed end is record {final[-1].seq}" if final else "it has no signed end"
        if final and final[-1].seq in hashes:
            add("extended", final[-1].seq + 1, f"records follow the signed end: {signed_end}, but the log goes "
                f"on to record {last}")
        else:
            add("truncated", last, f"the log ends at record {last} and {signed_end}: it was cut short "
                "(or the game was still being played when it was copied)")
    findings.sort(key=lambda f: (f.seq, f.kind))
    if not findings:
        return CheckResult(CHECK, "ok", f"{len(signatures)} heads signed by {who}, ending in the signed end "
                           f"at record {last}")
    return CheckResult(CHECK, "finding", _summary(findings), findings[0], _listed(findings[1:]))


def _judge(s: Signature, key: PublicKey, hashes: dict[int, tuple[int, bytes]], last: int,
           add: Callable[[str, int, str], None]) -> None:
    if s.seq not in hashes:
        add("truncated", s.seq, f"a signature covers record {s.seq}, but the log ends at record {last}: records "
            "at its end are missing")
    elif s.head != hashes[s.seq][1] or not key.verifies(s):
        add("wrongly-signed", s.seq, f"the signature over the head at record {s.seq} does not verify with key "
            f"{key.key.hex()}")


def _listed(findings: list[AuditFinding]) -> list[AuditFinding]:
    """At most MAX_LISTED findings of each kind, in order."""
    out: list[AuditFinding] = []
    seen: dict[str, int] = {}
    for f in findings:
        seen[f.kind] = seen.get(f.kind, 0) + 1
        if seen[f.kind] <= MAX_LISTED:
            out.append(f)
    return out


def _summary(findings: list[AuditFinding]) -> str:
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.kind] = counts.get(f.kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in counts.items()) + f", first at record {findings[0].seq}"
