"""Forgeries of real game logs, as an adversary would make them: each edits a log and re-seals every hash, so
the chain holds and only the rules can tell (``tests/tools/test_forgeries.py``).

Each forgery returns the forged records and what a judge must be told: the finding's kind, the record and
the field. Logs are the release fixtures of all four games (``tests/fixtures/releases``), and short games
played here by seeded bots, some under a card pool edited by the forger.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from eventsource import events as ev
from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import GENESIS, NewEvent, RawRecord, Record, decode, seal
from statemachine.bots import RandomBot, play_out
from statemachine.engine import SETUP_OPTION, Engine
from statemachine.games import PROFILES
from statemachine.games import profile as rules_of
from tests.eventsource.logs import rechained
from tests.tools.tamper import change_event

FIXTURES = Path(__file__).parents[1] / "fixtures" / "releases"


@dataclass(frozen=True)
class Expected:
    kind: str  # the audit finding's kind: card, version, envelope, divergent, given-setup, illegal, truncated
    seq: int  # the record it names
    field: str = ""  # the field it names (a prefix: "printed" matches printed.cost); "" = not checked
    check: str = "rules"
    at_least: bool = False  # the record is not known in advance, only that it is ``seq`` or later
    invariant: str = ""  # for an impossible board (check fold, kind impossible): the invariant it breaks
    rule: str = ""  # and the rule it names
    args: tuple[str, ...] = ()  # what the judge gives kifu audit besides the log (--head HEX)


Forged = tuple[list[Record], Expected]


@cache
def fixture(game: str) -> tuple[Record, ...]:
    return tuple(decode(r) for r in exchange.read(FIXTURES / f"{game}-1.0.jsonl"))


def log(game: str) -> list[Record]:
    return list(fixture(game))


def first(records: list[Record], kind: type[ev.Event], after: int = 0,
          where: Callable[[ev.Event], bool] = lambda e: True) -> Record:
    return next(r for r in records if r.seq > after and isinstance(r.event, kind) and where(r.event))


def opening_end(records: list[Record]) -> int:
    """The last record before the first decision."""
    return first(records, ev.ChoiceMade).seq - 1


def replace(records: list[Record], seq: int, **changes: object) -> list[Record]:
    return change_event(records, seq, msgspec.structs.replace(records[seq - 1].event, **changes))


def envelope(records: list[Record], seq: int, **changes: int) -> list[Record]:
    out = list(records)
    out[seq - 1] = msgspec.structs.replace(out[seq - 1], **changes)
    return out


def renumber(records: list[Record]) -> list[Record]:
    return [msgspec.structs.replace(r, seq=i) for i, r in enumerate(records, start=1)]


# -- games played under a card pool the forger edited, then passed off as the real pool ----------------------


def played(game: str, seed: int, decisions: int, edit: Callable[[Engine], dict[str, object]] | None = None,
           ) -> list[Record]:
    """A bot game of ``game``; with ``edit``, the pool's cards changed as ``edit`` says ({card id: CardDef})
    and the log then made to name the real pool (its digest), as a forger would."""
    module = PROFILES[game][0]
    profile, players, decks = importlib.import_module(f"{module}.demo").sample_game(seed)
    real = profile.pool
    if edit is not None:
        changed = edit(Engine(profile))
        profile = type(profile)(real.with_cards(changed))  # type: ignore[arg-type, call-arg]
    store, name = MemoryStore(), f"forged-{game}-{seed}"
    engine = Engine.new(profile, players, decks, seed, store=store, game=name)
    bots = [RandomBot(seed + i) for i in range(len(players))]
    for _ in range(decisions):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    records = list(store.read(name))
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    return change_event(records, 1, msgspec.structs.replace(started, card_pool_digest=real.digest))


def cheaper(card_ids: list[str], *, cost: int | None = None, power: int | None = None,
            ) -> Callable[[Engine], dict[str, object]]:
    def edit(engine: Engine) -> dict[str, object]:
        pool = engine.profile.pool
        out: dict[str, object] = {}
        for cid in card_ids:
            card = pool[cid]
            out[cid] = msgspec.structs.replace(
                card, cost=card.cost if cost is None else cost, power=card.power if power is None else power)
        return out

    return edit


def first_card(records: list[Record], owner: int, kind: str, cost: int = 0) -> str:
    """The first card of ``owner``'s deck list whose printed types include ``kind``, costing ``cost`` or more."""
    e = first(records, ev.ObjectCreated,
              where=lambda e: isinstance(e, ev.ObjectCreated) and e.owner == owner and kind in e.printed.types
              and (e.printed.cost or 0) >= cost).event
    assert isinstance(e, ev.ObjectCreated)
    return e.definition


def created(records: list[Record], definition: str) -> int:
    return first(records, ev.ObjectCreated,
                 where=lambda e: isinstance(e, ev.ObjectCreated) and e.definition == definition).seq


def unused_card(records: list[Record]) -> Record:
    """A card that never leaves its deck: the last ObjectCreated whose object never moves."""
    moved = {e.old for r in records if isinstance((e := r.event), ev.ZoneChanged)}
    shuffled = {o for r in records if isinstance(r.event, ev.Shuffled) for o in r.event.order}
    return [r for r in records if isinstance(r.event, ev.ObjectCreated) and r.event.obj not in moved
            and r.event.obj in shuffled][-1]


def with_setup(records: list[Record], count: int) -> list[Record]:
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    options = tuple(sorted({**dict(started.options), SETUP_OPTION: str(count)}.items()))
    return change_event(records, 1, msgspec.structs.replace(started, options=options))


def removed_span(records: list[Record], seq: int) -> list[Record]:
    """Every record of the decision that begins at ``seq`` taken out, the rest renumbered."""
    decision = records[seq - 1].decision
    return renumber([r for r in records if not (r.seq >= seq and r.decision == decision)])



# -- forgeries below the event: the same events in other bytes, and what a held head or a fork's source proves --


def raws_of(records: list[Record]) -> list[RawRecord]:
    """``records`` sealed as the engine writes them (numbered from 1, chained from the start)."""
    return seal(records[0].game, 1, GENESIS, [NewEvent(r.event, r.decision, r.cause) for r in records])


def with_body(raws: list[RawRecord], seq: int, body: bytes, **envelope: int) -> list[RawRecord]:
    out = list(raws)
    out[seq - 1] = msgspec.structs.replace(out[seq - 1], body=body, **envelope)
    return rechained(out)


def elements(raw: RawRecord) -> list[Any]:
    return list(msgspec.msgpack.decode(raw.body))


def widened(body: bytes) -> bytes:
    """The same array with its first integer element after the tag written as an int32 (msgpack 0xd2)."""
    assert body[0] & 0xF0 == 0x90 and body[1] < 0x80 and body[2] < 0x80  # [fixint tag, fixint, ...]
    return body[:2] + b"\xd2" + body[2].to_bytes(4, "big") + body[3:]


RawForged = tuple[list[RawRecord], Expected]


def int_widened(game: str) -> RawForged:
    raws = raws_of(log(game))
    r = next(r for r in raws if r.seq > 1 and r.body[0] & 0xF0 == 0x90 and r.body[1] < 0x80 and r.body[2] < 0x80)
    assert ev.decode(widened(r.body)) == ev.decode(r.body)
    return with_body(raws, r.seq, widened(r.body)), Expected("non-canonical", r.seq, check="integrity")


def trailing_channel(game: str, size: int = 2048) -> RawForged:
    """2 KB carried after an event's last field: msgspec reads the event and drops them unseen."""
    records = log(game)
    raws = raws_of(records)
    seq = first(records, ev.ChoiceMade).seq
    body = msgspec.msgpack.encode([*elements(raws[seq - 1]), bytes(range(256)) * (size // 256)])
    assert ev.decode(body) == records[seq - 1].event
    return with_body(raws, seq, body), Expected("non-canonical", seq, check="integrity")


def printed_respelled(game: str, **extra: object) -> RawForged:
    """A card's printed characteristics with keys the engine does not write: a default spelled out, or a key no
    field holds."""
    records = log(game)
    raws = raws_of(records)
    r = unused_card(records)
    values = elements(raws[r.seq - 1])
    values[7] = {**values[7], **{k: v for k, v in extra.items() if k not in values[7]}}
    body = msgspec.msgpack.encode(values)
    assert ev.decode(body) == r.event
    return with_body(raws, r.seq, body), Expected("non-canonical", r.seq, check="integrity")


def published_head(records: list[Record], at: int) -> str:
    return raws_of(records[:at])[-1].hash.hex()


def played_on_past_head(game: str, decisions: int = 15) -> Forged:
    """A game adjourned where its head was published, then played on for ``decisions`` more decisions."""
    records = log(game)
    choices = [r.seq for r in records if isinstance(r.event, ev.ChoiceMade)]
    adjourned = choices[len(choices) // 3] - 1
    on = choices[len(choices) // 3 + decisions] - 1
    head = published_head(records, adjourned)
    return records[:on], Expected("extended", adjourned + 1, check="head", args=("--head", head))


def head_from_the_middle(game: str) -> Forged:
    records = log(game)
    at = first(records, ev.ChoiceMade, after=len(records) * 2 // 3).seq - 1
    return records, Expected("extended", at + 1, check="head", args=("--head", published_head(records, at)))


def head_of_the_real_game(game: str) -> Forged:
    """A re-sealed forgery (the first shuffle stacked) audited with the real game's head: the head is no
    record's, and the rules still name the record that was changed."""
    records = log(game)
    r = first(records, ev.Shuffled)
    assert isinstance(r.event, ev.Shuffled)
    forged = replace(records, r.seq, order=tuple(reversed(r.event.order)))
    return forged, Expected("divergent", r.seq, "order", args=("--head", published_head(records, len(records))))


# -- forks ----------------------------------------------------------------------------------------------------


def forked(game: str, decisions: int = 6) -> list[Record]:
    """A what-if fork of ``game``'s release log at a decision in its second half, played on by bots."""
    raws = list(exchange.read(FIXTURES / f"{game}-1.0.jsonl"))
    records = [decode(r) for r in raws]
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    rules = rules_of(started.profile, started.profile_version)
    at = first(records, ev.ChoiceMade, after=len(records) // 2).seq - 1
    source, store = MemoryStore(), MemoryStore()
    source.append_raw(records[0].game, raws, expected=0)
    engine = Engine.fork(rules, source, records[0].game, at, store=store, game="what-if")
    play_out(engine, [RandomBot(7), RandomBot(8)], decisions)
    return list(store.read("what-if"))


def branch_point_envelope(game: str, field: str) -> Forged:
    records = forked(game)
    mark = first(records, ev.Forked)
    return envelope(records, mark.seq, **{field: getattr(mark, field) + 1}), Expected("envelope", mark.seq, field)
