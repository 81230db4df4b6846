"""Every event type round-trips through its canonical bytes and through the readable exchange form."""

from __future__ import annotations

import types
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventsource import events as ev
from tests.properties import examples

INT64 = st.integers(-(2**63), 2**63 - 1)


def strategy_for(tp: Any) -> st.SearchStrategy[Any]:
    """Values of a field type as events declare them (ints bounded to what msgpack holds)."""
    if tp is int:
        return st.one_of(st.integers(-3, 300), INT64)
    if tp is str:
        return st.text(max_size=12)
    if tp is bool:
        return st.booleans()
    if tp is type(None):
        return st.none()
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return st.builds(tp, **{f.name: strategy_for(f.type) for f in msgspec.structs.fields(tp)})
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(strategy_for(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy_for(args[0]), max_size=4).map(tuple)
    if origin is tuple:
        return st.tuples(*(strategy_for(a) for a in args))
    raise AssertionError(f"no strategy for field type {tp!r}: teach this test about it")


def events_of(cls: type[Any]) -> st.SearchStrategy[Any]:
    return st.builds(cls, **{f.name: strategy_for(f.type) for f in msgspec.structs.fields(cls)})


any_event = st.one_of(*(events_of(cls) for cls in ev.EVENT_TYPES))


@pytest.mark.parametrize("cls", ev.EVENT_TYPES, ids=lambda c: c.__name__)
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_every_event_type_round_trips(cls: type[Any], data: st.DataObject) -> None:
    event = data.draw(events_of(cls))
    # Through its canonical bytes: decoding and encoding again gives the same bytes.
    body = ev.encode(event)
    back = ev.decode(body)
    assert type(back) is cls
    assert back == event
    assert ev.encode(back) == body
    # Through the readable form, and through JSON as an exported file carries it (tuples come back as lists).
    readable = ev.to_builtins(event)
    assert readable["kind"] == cls.__name__
    assert ev.from_builtins(readable) == event
    assert ev.from_builtins(msgspec.json.decode(msgspec.json.encode(readable))) == event


@settings(max_examples=examples(100), deadline=None)
@given(any_event)
def test_the_union_decoder_tells_every_kind_apart(event: ev.Event) -> None:
    assert type(ev.decode(ev.encode(event))) is type(event)


def test_tags_are_unique_and_every_kind_is_named() -> None:
    tags = [cls.__struct_config__.tag for cls in ev.EVENT_TYPES]
    assert len(set(tags)) == len(tags)
    assert {ev.KIND_OF_TAG[ev.TAG_OF[cls.__name__]] for cls in ev.EVENT_TYPES} == {c.__name__ for c in ev.EVENT_TYPES}
    assert set(ev.__all__) >= {cls.__name__ for cls in ev.EVENT_TYPES}


def test_no_readable_field_hides_the_event_kind() -> None:
    for cls in ev.EVENT_TYPES:
        assert "kind" not in cls.__struct_encode_fields__, cls.__name__


def test_events_are_frozen() -> None:
    event = ev.StatusSet(1, "tapped", 1)
    with pytest.raises(AttributeError):
        event.value = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "NoSuchEvent", "x": 1}, "unknown event kind 'NoSuchEvent'"),
        ({"obj": 1}, "unknown event kind None"),
        ({"kind": "StatusSet", "obj": 1, "key": "tapped"}, "missing required field `value`"),
        (
            {"kind": "StatusSet", "obj": 1, "key": "tapped", "value": "yes"},
            "Expected `int`, got `str` - at `$.value`",
        ),
        (
            {"kind": "StatusSet", "obj": 1, "key": "tapped", "value": 1, "colour": "red"},
            "unknown field `colour`",
        ),
    ],
)
def test_a_bad_readable_event_is_refused_naming_the_problem(data: dict[str, object], message: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=message.replace("$", r"\$")):
        ev.from_builtins(data)


def test_the_encoding_is_a_compact_array_led_by_the_tag() -> None:
    body = ev.encode(ev.ZoneChanged(5, 9, 2, "0.hand", 1, "0.battle", 0, "summon"))
    assert msgspec.msgpack.decode(body) == [11, 5, 9, 2, "0.hand", 1, "0.battle", 0, "summon", False, None]
