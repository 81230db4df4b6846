"""``kifu schema messages``: the JSON Schema of kifu serve's WebSocket messages (``tools.serve.messages``). That
the server sends only what it names is checked on every message of the server's tests (``test_serve.until`` and a
whole match of each game decode each strictly, no field unknown); here, the document itself and what clients send."""

from __future__ import annotations

import json

import msgspec
import pytest
from click.testing import CliRunner

from tools.cli import main
from tools.serve import messages


def test_the_schema_names_every_message_each_way() -> None:
    printed = CliRunner().invoke(main, ["schema", "messages"])
    assert printed.exit_code == 0, printed.output
    document = json.loads(printed.output)
    sent, received = document["oneOf"]
    tags = {document["$defs"][ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["enum"][0]
            for ref in sent["anyOf"]}
    assert tags == {"hello", "records", "state", "ack", "refused", "stale", "error"}
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in received["anyOf"]] == ["SeatFirst", "SpectatorFirst", "Decide",
                                                                              "Sync"]
    state = document["$defs"]["State"]
    assert {"head", "to_act", "legal", "pick", "zones", "pending", "request"} <= set(state["required"])


@pytest.mark.parametrize("sent", [
    {"credential": "c" * 43, "since": 12}, {"spectate": True, "since": 0}, {"sync": True},
    {"decide": {"head": 7, "choice": 2}}, {"decide": {"head": 7, "pick": [0, 3]}},
    {"decide": {"head": 7, "action": "attack", "args": [12, "player"]}},
])
def test_what_a_client_sends_is_one_of_the_messages_it_may_send(sent: dict[str, object]) -> None:
    taken = [kind for kind in messages.RECEIVED if _decodes(sent, kind)]
    assert len(taken) == 1, (sent, taken)


def test_a_message_the_schema_does_not_name_is_refused_by_its_types() -> None:
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.convert({"type": "ack", "head": 3, "applied": True, "extra": 1}, messages.Sent, strict=True)
    assert not any(_decodes({"decide": {"choice": 1}}, kind) for kind in messages.RECEIVED)  # (no head)


def _decodes(value: object, kind: type[msgspec.Struct]) -> bool:
    try:
        msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError:
        return False
    return True
