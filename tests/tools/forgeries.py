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

import msgspec

from eventsource import events as ev
from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import Record, decode
from statemachine.bots import RandomBot
from statemachine.engine import SETUP_OPTION, Engine
from statemachine.games import PROFILES
from tests.tools.tamper import change_event

FIXTURES = Path(__file__).parents[1] / "fixtures" / "releases"
GAMES = ("duel_masters", "magic", "vision", "shadowverse")


@dataclass(frozen=True)
class Expected:
    kind: str  # the audit finding's kind: card, version, envelope, divergent, given-setup, illegal, truncated
    seq: int  # the record it names
    field: str = ""  # the field it names (a prefix: "printed" matches printed.cost); "" = not checked
    check: str = "rules"
    at_least: bool = False  # the record is not known in advance, only that it is ``seq`` or later
    invariant: str = ""  # for an impossible board (check fold, kind impossible): the invariant it breaks
    rule: str = ""  # and the rule it names


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

