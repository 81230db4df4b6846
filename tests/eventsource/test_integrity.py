"""The integrity check names the first altered, missing, duplicated, reordered or inserted record."""

from __future__ import annotations

import os

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from eventsource.integrity import ChainCheck, Finding, Verified, verify
from eventsource.records import GENESIS, RawRecord, record_hash
from tests.eventsource.logs import first_difference, logs, stored_log
from tests.properties import examples

PROPERTY = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def finding(records: list[RawRecord], **kwargs: object) -> Finding:
    result = verify(records, **kwargs)  # type: ignore[arg-type]
    assert isinstance(result, Finding), f"not caught: {result}"
    return result


def located(result: Finding, original: list[RawRecord], changed: list[RawRecord]) -> None:
    position = first_difference(original, changed)
    assert (result.position, result.seq) == (position, position + 1), str(result)


def replace(r: RawRecord, **change: object) -> RawRecord:
    return msgspec.structs.replace(r, **change)


# -- a clean log -----------------------------------------------------------------------------------


@PROPERTY
@given(logs())
def test_a_clean_log_verifies_with_its_count_and_head(log: list[RawRecord]) -> None:
    assert verify(log) == Verified(len(log), log[-1].hash)
    assert verify(log, "g") == Verified(len(log), log[-1].hash)
    assert verify(log, head=log[-1].hash) == Verified(len(log), log[-1].hash)


def test_an_empty_log_verifies_as_empty() -> None:
    assert verify([]) == Verified(0, GENESIS)


def test_the_chain_check_fed_as_read_names_the_first_break_and_goes_on_from_it() -> None:
    log = stored_log(7, 20)
    clean = ChainCheck("g")
    assert [clean.feed(r) for r in log] == [None] * len(log)
    assert (clean.prev, clean.expected) == (log[-1].hash, len(log) + 1)
    mid = ChainCheck("g", prev=log[9].hash, expected=11)  # started on a record already trusted
    assert [mid.feed(r) for r in log[10:]] == [None] * (len(log) - 10)
    for changed, want in ((replace(log[5], body=log[5].body + b"x"), "hash"),
                          (replace(log[5], seq=9), "sequence"),
                          (replace(log[5], game="h"), "foreign")):
        check = ChainCheck()  # the first record's game is the game
        found = [check.feed(r) for r in [*log[:5], changed, *log[6:]]]
        assert found[:6] == [None] * 5 + [want], want
        assert found[7:] == [None] * (len(log) - 7)  # after the break it goes on from the record read


def test_a_log_that_goes_on_past_the_head_held_is_extended_at_the_first_record_after_it() -> None:
    # The head held is the end of the game that was published: records after it are not that game's (#21).
    log = stored_log(1, 30)
    result = finding(log, head=log[9].hash)
    assert (result.problem, result.seq, result.position) == ("extended", 11, 10)
    assert f"is record 10's, but the log goes on for {len(log) - 10} records past it" in result.message


def test_a_head_that_is_no_record_s_is_unmatched_at_the_last_record() -> None:
    log = stored_log(1, 30)
    result = finding(log, head=bytes(16))
    assert (result.problem, result.seq) == ("unmatched", len(log))
    assert "records at its end are missing, or records were changed" in result.message


# -- single-byte changes -------------------------------------------------------------------------


@PROPERTY
@given(logs(), st.data())
def test_every_single_byte_change_in_a_body_or_hash_is_caught_as_altered(
    log: list[RawRecord], data: st.DataObject
) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="record")
    field = data.draw(st.sampled_from(["body", "hash"]), label="field")
    value: bytes = getattr(log[i], field)
    at = data.draw(st.integers(0, len(value) - 1), label="byte")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != value[at]), label="new value")
    changed = [
        *log[:i],
        replace(log[i], **{field: value[:at] + bytes([new]) + value[at + 1 :]}),
        *log[i + 1 :],
    ]
    result = finding(changed)
    assert result.problem == "altered"
    located(result, log, changed)


@PROPERTY
@given(logs(), st.data())
def test_a_changed_envelope_field_is_caught_as_altered(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="record")
    field = data.draw(st.sampled_from(["seq", "decision", "cause", "v"]), label="field")
    old: int = getattr(log[i], field)
    new = data.draw(st.integers(-5, 2**40).filter(lambda n: n != old), label="new value")
    changed = [*log[:i], replace(log[i], **{field: new}), *log[i + 1 :]]
    result = finding(changed)
    assert result.problem == "altered"
    located(result, log, changed)


# -- missing, duplicated, reordered, inserted records ----------------------------------------------


@PROPERTY
@given(logs(), st.data())
def test_every_deletion_is_caught_as_missing(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="deleted")
    changed = log[:i] + log[i + 1 :]
    # The end of a log is only missing relative to a head someone holds: pass the one ``kifu games`` printed.
    result = finding(changed, head=log[-1].hash)
    if i < len(log) - 1:
        assert result.problem == "missing"
        located(result, log, changed)
        assert verify(changed) == result  # in the middle, the chain alone is enough
    else:  # the last record gone: the chain ends earlier, and the head held is no record's
        assert (result.problem, result.seq) == ("unmatched", max(len(changed), 1))


def test_without_a_held_head_a_cut_tail_verifies_to_a_different_head() -> None:
    log = stored_log(2, 30)
    result = verify(log[:-3])
    assert result == Verified(len(log) - 3, log[-4].hash)
    assert result.head != log[-1].hash  # which is why an auditor compares it, or passes ``head``


@PROPERTY
@given(logs(), st.data())
def test_every_deletion_of_a_run_is_caught_as_missing(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 2), label="from")
    j = data.draw(st.integers(i + 1, len(log) - 1), label="to")
    changed = log[:i] + log[j:]
    result = finding(changed)
    assert result.problem == "missing"
    assert f"{i + 1}" in result.message
    located(result, log, changed)


@PROPERTY
@given(logs(), st.data())
def test_every_duplication_is_caught_as_duplicated(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="copied")
    at = data.draw(st.integers(0, len(log)), label="inserted at")
    changed = [*log[:at], log[i], *log[at:]]
    result = finding(changed)
    assert result.problem == "duplicated"
    located(result, log, changed)


@PROPERTY
@given(logs(), st.data())
def test_every_swap_of_two_records_is_caught_as_reordered(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 2), label="first")
    j = data.draw(st.integers(i + 1, len(log) - 1), label="second")
    changed = list(log)
    changed[i], changed[j] = changed[j], changed[i]
    result = finding(changed)
    assert result.problem == "reordered"
    located(result, log, changed)


@PROPERTY
@given(logs(), st.data())
def test_every_record_moved_elsewhere_is_caught_as_reordered(log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="moved")
    rest = log[:i] + log[i + 1 :]
    at = data.draw(st.integers(0, len(rest)).filter(lambda a: a != i), label="to")
    changed = [*rest[:at], log[i], *rest[at:]]
    result = finding(changed)
    assert result.problem == "reordered"
    located(result, log, changed)


@PROPERTY
@given(logs(), st.data())
def test_a_record_from_another_game_is_caught_as_foreign(log: list[RawRecord], data: st.DataObject) -> None:
    other = stored_log(data.draw(st.integers(0, 1000), label="other seed"), 20, game="other")
    stranger = data.draw(st.sampled_from(other), label="foreign record")
    at = data.draw(st.integers(0, len(log)), label="inserted at")
    changed = [*log[:at], stranger, *log[at:]]
    result = finding(changed, game="g")
    assert result.problem == "foreign"
    located(result, log, changed)
    assert isinstance(verify(changed), Finding)  # without naming the game, it is still caught


@st.composite
def made_up(draw: st.DrawFn, log_length: int) -> RawRecord:
    kinds: list[ev.Event] = [
        ev.PriorityGiven(0),
        ev.StatusSet(3, "tapped", 1),
        ev.PlayerStat(1, "life", 0),
        ev.RandomDrawn("die", 6, 6),
    ]
    event = draw(st.sampled_from(kinds))
    return RawRecord(
        "g",
        draw(st.integers(1, log_length + 2), label="claimed seq"),
        draw(st.integers(0, 50)),
        draw(st.integers(0, 50)),
        1,
        ev.encode(event),
        draw(st.binary(min_size=16, max_size=16), label="hash"),
    )


@PROPERTY
@given(logs(), st.data())
def test_a_made_up_record_is_caught_where_it_was_inserted(log: list[RawRecord], data: st.DataObject) -> None:
    forged = data.draw(made_up(len(log)), label="forged")
    at = data.draw(st.integers(0, len(log)), label="inserted at")
    changed = [*log[:at], forged, *log[at:]]
    result = finding(changed)
    located(result, log, changed)
    if at < len(log):
        assert result.problem == "inserted", str(result)


def test_a_record_whose_body_cannot_be_read_but_chains_is_undecodable() -> None:
    log = stored_log(3, 20)
    body = os.urandom(3) + b"\xc1"  # 0xc1 is never valid msgpack
    bad = replace(
        log[5],
        body=body,
        hash=record_hash(log[4].hash, "g", 6, log[5].decision, log[5].cause, log[5].v, body),
    )
    result = finding([*log[:5], bad])
    assert (result.problem, result.seq, result.position) == ("undecodable", 6, 5)
    assert "cannot be read" in result.message


def test_a_finding_reads_well() -> None:
    log = stored_log(4, 20)
    result = finding(log[:3] + log[4:])
    assert str(result) == "missing at record 4 (position 3): record 4 is missing"
