"""A small Duel Masters-like game log, built event by event into a SQLite store, and its export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import NewEvent
from eventsource.sqlite import SQLiteStore

GAME = "g1"
BOLSHACK = "ボルシャック・ドラゴン"
HULCUS = "アクア・ハルカス"


def sample_events() -> list[NewEvent]:
    """Two turns: a summon whose trigger destroys a creature, whose own trigger then fizzles."""
    bolshack = ev.Characteristics(BOLSHACK, ("creature",), cost=6, power=6000)
    hulcus = ev.Characteristics(HULCUS, ("creature",), cost=3, power=2000, abilities=("when_destroyed",))
    spark = ev.Characteristics("ホーリー・スパーク", ("spell",))
    e: list[tuple[ev.Event, int, int]] = [  # (event, decision, cause)
        (ev.GameStarted("duel_masters", "0.1", ("Alice", "Bob"), 7, "dm-sample", "1", "abc123"), 0, 0),
        (ev.ObjectCreated(1, 1, "bolshack_dragon", 0, "0.hand", 0, bolshack), 0, 1),
        (ev.ObjectCreated(2, 2, "aqua_hulcus", 1, "1.battle", 0, hulcus), 0, 1),
        (ev.ObjectCreated(3, 3, "holy_awe", 1, "1.shields", 0, spark, face_down=True), 0, 1),
        (ev.TurnBegan(1, 0), 0, 0),  # 5
        (ev.StepBegan("main"), 0, 5),
        (ev.ChoiceMade(0, "summon", (1,)), 7, 0),  # 7: Alice's decision
        (ev.CostPaid(0, "mana", 6), 7, 7),
        (ev.ZoneChanged(1, 4, 1, "0.hand", 0, "0.battle", 0, "summon"), 7, 7),
        (ev.Triggered(1, "when_summoned", 4, 1, 0, 9, ev.AFTER), 7, 9),  # 10
        (ev.EffectPending(1, "pool", 0, "destroy a creature"), 7, 10),
        (ev.ChoiceRequested(0, "target", (2,), 1, 1, effect=1), 7, 11),
        (ev.ChoiceMade(0, "target", (2,)), 13, 12),  # 13
        (ev.EffectResolving(1), 13, 13),
        (ev.ZoneChanged(2, 5, 2, "1.battle", 0, "1.graveyard", 0, "destroyed"), 13, 14),  # 15
        (ev.Triggered(2, "when_destroyed", 2, 2, 1, 15, ev.BEFORE), 13, 15),
        (ev.EffectResolved(1), 13, 14),
        (ev.EffectPending(2, "pool", 1, "return a creature to hand"), 13, 16),
        (ev.EffectFizzled(2, "no creature in the graveyard to return"), 13, 18),
        (ev.TurnBegan(2, 1), 0, 0),  # 20
        (ev.StepBegan("main"), 0, 20),
        (ev.PlayerStat(1, "shields", 1), 0, 20),
        (ev.GameEnded(0, "Bob conceded"), 0, 0),
    ]
    return [NewEvent(event, decision, cause) for event, decision, cause in e]


def build_store(path: Path, game: str = GAME) -> Path:
    with SQLiteStore(path) as store:
        events = sample_events()
        store.append(game, events[:6])  # set-up, then one decision at a time
        store.append(game, events[6:12])
        store.append(game, events[12:19])
        store.append(game, events[19:])
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_store(tmp_path / "kifu.db")


@pytest.fixture
def exported(tmp_path: Path, db: Path) -> Path:
    out = tmp_path / "g1.jsonl"
    with SQLiteStore(db) as store:
        exchange.write(store.read_raw(GAME), out)
    return out


@pytest.fixture
def lines(exported: Path) -> Iterator[list[bytes]]:
    yield exported.read_bytes().splitlines(keepends=True)
