"""Cost increases (CR 601.2f): "White spells cost {3} more to cast. Activated abilities of white enchantments
cost {3} more to activate." (Gloom). A static effect in force while its source is on the battlefield
(``statics``); the increase is added to the total cost as a spell is cast or an ability activated (601.2f),
only a total that can be paid is accepted (601.2g-h), and it is paid with the mana of that cost.

kifu does not raise the cost of mana abilities (activated while paying, MTG-P-06): no card of the pools that
an increase names has one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from eventsource import events as ev
from projections.characteristics import view
from projections.state import WHILE_SOURCE
from statemachine.cards import EffectDef
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic.mana import ManaCost, parse
from statemachine.games.magic.select import Filter, matches
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Procedure

COST_INCREASE = "cost_increase"  # a continuous effect: amount = generic mana more, value = "<of>;<filter>"
Of = Literal["spells", "abilities"]


class CostIncrease(Filter, frozen=True, forbid_unknown_fields=True):
    # "spells": spells the filter names cost more to cast; "abilities": activated abilities of the permanents
    # it names cost more to activate (the filter reads the spell, or the permanent whose ability it is)
    of: Of = "spells"
    mana: str = "1"  # the generic mana more ("3": {3})

    def problems(self, at: str = "") -> list[tuple[str, str]]:
        out = Filter.problems(self, at)
        if not (self.mana.isdecimal() and int(self.mana) > 0):
            out.append((f"{at}.mana", "an increase is generic mana, one or more (\"3\")"))
        return out


@MTG.effect("static_cost_increase", CostIncrease)
def cost_increase(ctx: EffectContext, p: CostIncrease) -> Procedure:
    """Static: the spells (or the activated abilities of the permanents) the filter names cost N generic mana
    more, for as long as this is on the battlefield (CR 601.2f, 611.3a); the filter's controller is relative to
    this permanent's controller ("spells your opponents cast": controller = "opponent")."""
    spec = msgspec.json.encode(Filter(**{f: getattr(p, f) for f in Filter.__struct_fields__})).decode()
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, COST_INCREASE, ctx.source,
                                               amount=int(p.mana), value=f"{p.of};{spec}", until=WHILE_SOURCE))
    return
    yield


def increase(engine: Engine, of: Of, oid: int) -> int:
    """The generic mana more that the spell ``oid`` costs to cast, or the activated abilities of the permanent
    ``oid`` cost to activate, now (the sum of every increase in force that names it, CR 601.2f)."""
    st = engine.state
    total = 0
    for m in sorted(st.modifiers.values(), key=lambda m: m.effect):
        if m.kind != COST_INCREASE or m.source not in st.objects or not m.value.startswith(of + ";"):
            continue
        flt = msgspec.json.decode(m.value.partition(";")[2], type=Filter)
        src = st.objects[m.source]
        ctx = EffectContext(engine, controller=src.controller, source=m.source, source_card=src.card)
        if matches(ctx, flt, view(st, oid)):
            total += m.amount
    return total


def raised(cost: ManaCost, more: int) -> ManaCost:
    """The cost with ``more`` generic mana added (CR 601.2f)."""
    return cost._replace(generic=cost.generic + more) if more else cost


def mana_part(costs: Sequence[EffectDef]) -> ManaCost:
    """The mana of an ability's costs, as one cost (its {X}s are not counted: no activated ability has one)."""
    found = [parse(str(c.params["mana"])) for c in costs if c.name == "mana"]
    return ManaCost(sum(c.generic for c in found), tuple(p for c in found for p in c.pips))
