"""A body is held to the engine's own encoding of its event, byte for byte (#21): other msgpack forms of the
same event, and trailing elements no field holds, are findings even in a log whose chain was re-sealed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from eventsource import exchange
from eventsource.canonical import non_canonical
from eventsource.integrity import Finding, verify
from eventsource.records import RawRecord
from eventsource.upcast import decode_body
from tests.eventsource.logs import logs, rechained, stored_log

V1 = Path(__file__).parents[1] / "fixtures" / "v1_game.jsonl"
CARD = ev.ObjectCreated(1, 2, "x", 0, "0.deck", 3, ev.Characteristics("n", cost=3))


def with_body(raws: list[RawRecord], i: int, body: bytes) -> list[RawRecord]:
    out = list(raws)
    out[i] = msgspec.structs.replace(out[i], body=body)
    return rechained(out)


def test_the_engine_s_own_bodies_and_a_v1_log_s_are_canonical() -> None:
    assert non_canonical(1, ev.encode(CARD), CARD) is None
    raws = list(exchange.read(V1))
    assert {r.v for r in raws} == {1}
    assert all(non_canonical(r.v, r.body, decode_body(r.v, r.body)) is None for r in raws)


def test_an_int_in_a_wider_encoding_is_the_same_event_in_another_form() -> None:
    body = ev.encode(CARD)
    wide = body[:2] + b"\xd2\x00\x00\x00\x01" + body[3:]  # obj 1 as an int32
    assert ev.decode(wide) == CARD
    reason = non_canonical(1, wide, CARD)
    assert reason is not None and "other msgpack forms" in reason and "ObjectCreated" in reason


def test_a_map_key_no_field_holds_and_a_default_spelled_out_are_other_forms() -> None:
    for printed in ({"name": "n", "cost": 3, "zzz": "hidden"}, {"name": "n", "cost": 3, "power": None}):
        body = msgspec.msgpack.encode([10, 1, 2, "x", 0, "0.deck", 3, printed, False])
        assert ev.decode(body) == CARD
        assert non_canonical(1, body, CARD) is not None


def test_trailing_elements_are_a_hidden_channel() -> None:
    body = msgspec.msgpack.encode([10, 1, 2, "x", 0, "0.deck", 3, {"name": "n", "cost": 3}, False, b"\0" * 2048])
    assert ev.decode(body) == CARD
    reason = non_canonical(1, body, CARD)
    assert reason is not None and "1 trailing element that no field of ObjectCreated at schema v1 holds" in reason


def test_a_v2_body_labelled_v1_is_not_a_v1_body() -> None:
    move = ev.ZoneChanged(1, 2, 1, "0.hand", 0, "0.battle", 0, "played")
    assert non_canonical(2, ev.encode(move), move) is None
    assert non_canonical(1, ev.encode(move), move) is not None


def test_an_older_body_without_trailing_defaults_is_canonical_and_with_other_values_is_not() -> None:
    short: list[Any] = [10, 1, 2, "x", 0, "0.deck", 3, {"name": "n", "cost": 3}]  # face_down not yet written
    assert non_canonical(1, msgspec.msgpack.encode(short), CARD) is None
    face_down = msgspec.structs.replace(CARD, face_down=True)
    assert non_canonical(1, msgspec.msgpack.encode(short), face_down) is not None


def test_the_integrity_check_names_the_re_sealed_record_whose_body_is_not_canonical() -> None:
    raws = stored_log(3, 20)
    body = raws[7].body + msgspec.msgpack.encode(b"")  # not a valid body: an extra value after the array
    padded = msgspec.msgpack.encode([*msgspec.msgpack.decode(raws[7].body), "x" * 2048])
    result = verify(with_body(raws, 7, padded))
    assert isinstance(result, Finding)
    assert (result.problem, result.seq, result.position) == ("non-canonical", 8, 7), result
    assert "trailing element" in result.message
    assert isinstance(verify(with_body(raws, 7, body)), Finding)


# Values msgpack holds: whatever a forger hides after an event's last field.
HIDDEN = st.recursive(st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text() | st.binary(),
                      lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.data())
def test_any_trailing_value_on_any_record_is_caught_though_the_event_reads_the_same(
        log: list[RawRecord], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(log) - 1), label="record")
    hidden = data.draw(st.lists(HIDDEN, min_size=1, max_size=3), label="hidden")
    body = msgspec.msgpack.encode([*msgspec.msgpack.decode(log[i].body), *hidden])
    assert decode_body(log[i].v, body) == decode_body(log[i].v, log[i].body)  # msgspec drops them unseen
    result = verify(with_body(log, i, body))
    assert isinstance(result, Finding)
    assert (result.problem, result.seq) == ("non-canonical", i + 1), result
