"""Static abilities (常在型能力, card pool 1.6): effects in force while their creature is in the battle zone.

A static ability is an ability of kind "static" whose steps are the static effects below. They start as the creature
enters the battle zone (``board.start_statics``, called by ``actions.enter_battle`` and ``actions.evolve_onto``; a board
set up as given, by the state check) and end when it leaves (the projection ends every effect "while its source is in
play").
An effect under a condition (「…なら、このクリーチャーは…」) is in force at each moment the condition holds, read by
the projection (``projections.state.WHILE``): nothing has to notice the condition change.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import view
from projections.state import AT_LEAST, WHILE, WHILE_SOURCE
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.effects import DM, NonNegative
from statemachine.loader import CardFileError
from statemachine.vocabulary import Keyword, Procedure

STATIC = board.STATIC
DM.silent_kinds = frozenset({STATIC})  # a static effect asks nothing: a ``may`` on one is refused at load


class CreatureCount(Struct, frozen=True, forbid_unknown_fields=True):
    """「バトルゾーンに自分の<race>のクリーチャーが他にN体以上出ているなら」: at least N creatures of a side (of one of
    the races, if any are named) are in the battle zone."""

    whose: Literal["you", "opponent", "any"] = "you"
    other: bool = True  # 「他に」: this creature is not counted
    subtypes: tuple[str, ...] = ()  # races, any of them (empty: any creature)
    at_least: NonNegative = 1

    def problems(self) -> list[tuple[str, str]]:
        bad = [r for r in self.subtypes if not r or set(r) & set(";|=")]
        return [(".subtypes", f"a race is a name without ';', '|' or '=': {bad}")] if bad else []

    def selector(self, ctx: EffectContext) -> str:
        """The creatures counted, as the projection names them (``projections.state.names``)."""
        sides = {"you": [ctx.controller], "opponent": [ctx.opponent], "any": [0, 1]}[self.whose]
        return ";".join(["zone=battle", "types=creature", "controller=" + "|".join(map(str, sides)),
                         *([f"not={ctx.source}"] if self.other else []),
                         *([f"subtypes={'|'.join(self.subtypes)}"] if self.subtypes else []),
                         f"{AT_LEAST}{self.at_least}"])

    def holds(self, ctx: EffectContext) -> bool:
        st = ctx.state
        me = ctx.source_now() if self.other else None
        sides = {"you": [ctx.controller], "opponent": [ctx.opponent], "any": [0, 1]}[self.whose]
        found = [o for p in sides for o in board.creatures(st, p) if o != me
                 and (not self.subtypes or set(self.subtypes) & set(view(st, o).chars.subtypes))]
        return len(found) >= self.at_least


class StaticGets(Struct, frozen=True, forbid_unknown_fields=True):
    """What this creature has while it is in the battle zone: keywords and more (or less) power."""

    signed = ("power",)
    keywords: tuple[Keyword, ...] = ()
    power: int = 0  # 「このクリーチャーのパワーは+N される」
    while_creatures: CreatureCount | None = None  # only while this holds (none: always)

    def problems(self) -> list[tuple[str, str]]:
        return [] if self.keywords or self.power else [("", "gives nothing: say keywords or power")]


@DM.effect("static_gets", StaticGets, asks=False)
def static_gets(ctx: EffectContext, p: StaticGets) -> Procedure:
    """Static: this creature has the keywords and the power while it is in the battle zone, or only while at least N
    creatures of a side (of given races) are there (DM-GAME-STATIC; 《トロピコ》: 「バトルゾーンに自分のクリーチャーが
    他に2体以上出ているなら、このクリーチャーはブロックされない」). The condition is read at each moment, by the
    projection (a block is judged as it is declared, a power as it is read)."""
    me = ctx.source
    cond = p.while_creatures.selector(ctx) if p.while_creatures is not None else None
    # (kind, amount, value) of each effect: as it applies, or under the condition (``projections.state.WHILE``)
    changes = [("grant_keyword", 0, kw if cond is None else f"{cond};keyword={kw}") for kw in p.keywords]
    if p.power:
        changes.append(("power", p.power, cond or ""))
    eid = ctx.state.next_effect
    ctx.engine.emit(*[ev.ContinuousEffectStarted(eid + k, me, kind if cond is None else WHILE + kind, me,
                                                 amount=amount, value=value, until=WHILE_SOURCE)
                      for k, (kind, amount, value) in enumerate(changes)])
    return
    yield


@DM.condition("creatures_at_least", CreatureCount)
def creatures_at_least(ctx: EffectContext, p: CreatureCount) -> bool:
    """「バトルゾーンに自分の<race>のクリーチャーがN体以上あれば」: checked when the ability resolves (DM-W-17); unmet,
    the ability does nothing (DM-W-18)."""
    return p.holds(ctx)


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
