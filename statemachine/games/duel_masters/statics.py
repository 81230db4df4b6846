"""Static abilities (常在型能力, card pool 1.6): effects in force while their creature is in the battle zone.

A static ability is an ability of kind "static" whose steps are the static effects below. They start as the creature
enters the battle zone (``start``, called by ``actions.enter_battle`` and ``actions.evolve_onto``; a board set up as
given, by the state check) and end when it leaves (the projection ends every effect "while its source is in play").
An effect under a condition (「…なら、このクリーチャーは…」) is in force at each moment the condition holds, read by
the projection (``projections.state.WHILE``): nothing has to notice the condition change.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from eventsource import events as ev
from projections.state import WHILE, WHILE_SOURCE
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.effects import DM, NonNegative
from statemachine.loader import CardFileError
from statemachine.vocabulary import Keyword, Procedure

STATIC = "static"
STARTED = "statics"  # status of a creature whose static abilities' effects have started
DM.silent_kinds = frozenset({STATIC})  # a static effect asks nothing: a ``may`` on one is refused at load


class CreatureCount(Struct, frozen=True, forbid_unknown_fields=True):
    """「バトルゾーンに自分のクリーチャーが他にN体以上出ているなら」: at least N creatures of a side are in the battle
    zone."""

    whose: Literal["you", "opponent", "any"] = "you"
    other: bool = True  # 「他に」: this creature is not counted
    at_least: NonNegative = 1


class StaticKeywords(Struct, frozen=True, forbid_unknown_fields=True):
    keywords: tuple[Keyword, ...] = ()  # what this creature has
    while_creatures: CreatureCount | None = None  # only while this holds (none: always)

    def problems(self) -> list[tuple[str, str]]:
        return [] if self.keywords else [(".keywords", "a static keyword effect must give a keyword")]


@DM.effect("static_keywords", StaticKeywords, asks=False)
def static_keywords(ctx: EffectContext, p: StaticKeywords) -> Procedure:
    """Static: this creature has the keywords while it is in the battle zone, or only while at least N creatures of a
    side are there (DM-GAME-STATIC; 《トロピコ》: 「バトルゾーンに自分のクリーチャーが他に2体以上出ているなら、この
    クリーチャーはブロックされない」). The condition is read at each moment (a block is judged as it is declared)."""
    me = ctx.source
    events: list[ev.Event] = []
    for kw in p.keywords:
        eid = ctx.state.next_effect + len(events)
        if p.while_creatures is None:
            events.append(ev.ContinuousEffectStarted(eid, me, "grant_keyword", me, value=kw, until=WHILE_SOURCE))
            continue
        c = p.while_creatures
        sides = {"you": [ctx.controller], "opponent": [ctx.opponent], "any": [0, 1]}[c.whose]
        selector = ";".join(["zone=battle", "types=creature", "controller=" + "|".join(map(str, sides)),
                             *([f"not={me}"] if c.other else []), f"keyword={kw}"])
        events.append(ev.ContinuousEffectStarted(eid, me, WHILE + "grant_keyword", me, amount=c.at_least,
                                                 value=selector, until=WHILE_SOURCE))
    if events:
        ctx.engine.emit(*events)
    return
    yield


def start(engine: Engine, oid: int) -> None:
    """Start the static abilities' effects of the creature that has just entered the battle zone as ``oid`` (once:
    marked ``STARTED``)."""
    st = engine.state
    obj = st.objects[oid]
    card = engine.profile.pool.cards.get(st.cards[obj.card].definition)
    statics = [a for a in card.abilities if a.kind == STATIC] if card is not None else []
    if not statics or obj.status.get(STARTED):
        return
    engine.emit(ev.StatusSet(oid, STARTED, 1))
    for ability in statics:
        ctx = EffectContext(engine, controller=obj.controller, source=oid, source_card=obj.card, ability=ability.id)
        for step in ability.effects:
            for _ in DM.run_effect(ctx, step.name, step.params):
                raise AssertionError("a static effect does not ask")


def start_all(engine: Engine) -> None:
    """Start the static abilities of creatures in the battle zone whose effects have not started: those a board
    was set up with (a scenario, a reconstruction), which entered by no move. Run with the state check."""
    st = engine.state
    for p in range(len(st.players)):
        for oid in board.creatures(st, p):
            start(engine, oid)


def check_statics(pool: CardPool) -> CardPool:
    """A static ability's steps are static effects (``static_…``), and a static effect belongs to a static ability:
    refused at load otherwise, naming card, ability and step."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if (ability.kind == STATIC) != step.name.startswith("static_"):
                    want = "static effects (static_...)" if ability.kind == STATIC else "no static effect"
                    raise CardFileError("duel_masters", f"a {ability.kind} ability takes {want}", card.id,
                                        f"$.abilities[{n}].effects[{k}].name", ability.id)
    return pool
