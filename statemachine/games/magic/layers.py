"""Effects that change what a permanent is (CR 613.1d-e, 613.4b): its card types, its land type, its colours, its
base power and toughness. The projection applies them in layer order, in timestamp order within a layer (CR
613.7; ``projections.state.retyped``, ``projections.characteristics.compute``).

``becomes`` is the one-shot form ("target creature becomes 0/2 until end of turn", "target spell or permanent
becomes red"), for as long as its duration says; ``static_attached_becomes`` the aura's ("Enchanted land is a
Swamp") and ``static_each_becomes`` the one that names each permanent a filter names ("All Forests are 1/1
creatures that are still lands"), in force while their source is on the battlefield. A land whose land type is
set loses the abilities of its rules text and has the mana ability of its new basic land type (CR 305.7,
``mana.intrinsic``). A permanent that stops being a creature leaves combat (CR 506.4, ``sba.leave_combat``); one
that becomes a creature is summoning sick unless its controller has controlled it since the turn began (CR 302.6:
from rules 1.6 every permanent that comes under a player's control is marked, ``board.entered``).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import SET_POWER, SET_TOUGHNESS
from projections.state import ADD_TYPES, EACH, SET_COLORS, SET_SUBTYPES, UNLESS_CREATURE, WHILE_SOURCE
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic.select import CardType, Color, Filter
from statemachine.games.magic.statics import ATTACHED, Selects
from statemachine.games.magic.verbs import Acts, acted_on
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Procedure

# How long a one-shot change lasts: until the cleanup step (CR 514.2); until its controller's next upkeep begins
# ("until your next upkeep"); or, with no duration, for as long as the object stays where it is (CR 611.2a).
Duration = Literal["end_of_turn", "your_next_upkeep", "indefinite"]
NEXT_UPKEEP = "next_upkeep:"  # a Modifier's ``until``: ends as that player's upkeep step begins
LandType = Literal["Plains", "Island", "Swamp", "Mountain", "Forest"]
SUPERTYPES = ("Basic", "Legendary", "Snow", "World")  # kept when a land type is set (kifu lists them as subtypes)


class Change(Struct, frozen=True, forbid_unknown_fields=True):
    """What a permanent becomes: card types it gains (layer 4: "becomes an artifact creature", "are creatures
    that are still lands"), its land type (layer 4, CR 305.7), its colours (layer 5), its base power and
    toughness (layer 7b: "becomes 0/2"; ``pt_mana_value``: "with power and toughness each equal to its mana
    value")."""

    add_types: list[CardType] = field(default_factory=list)
    land_type: LandType | None = None
    new_colors: list[Color] | None = None  # [] is colourless
    power: int | None = None
    toughness: int | None = None
    pt_mana_value: bool = False
    # "as long as it isn't a creature" (Animate Artifact): the card types and the base power and toughness apply
    # only while the other effects leave it no creature
    unless_creature: bool = False

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if not (self.add_types or self.land_type or self.new_colors is not None or self.power is not None
                or self.toughness is not None or self.pt_mana_value):
            out.append(("", "becomes nothing: say add_types, land_type, new_colors, power and toughness, "
                            "or pt_mana_value"))
        if self.pt_mana_value and (self.power is not None or self.toughness is not None):
            out.append((".pt_mana_value", "sets power and toughness already: leave out power and toughness"))
        if (self.power is None) != (self.toughness is None):
            out.append((".power", "a base power and toughness are set together (\"becomes 0/2\"): say both"))
        if self.unless_creature and (self.land_type or self.new_colors is not None or "creature" not in self.add_types):
            out.append((".unless_creature", "\"as long as it isn't a creature, it's a creature\": add_types holds "
                                            "creature, and no land type or colours are set"))
        return out

    def modifiers(self, ctx: EffectContext, oid: int, until: str, eid: int) -> list[ev.Event]:
        """The continuous effects that make ``oid`` what this says, numbered from ``eid``."""
        st = ctx.state
        printed = st.cards[st.objects[oid].card].printed
        found: list[tuple[str, int, str]] = []
        if self.add_types:
            found.append((ADD_TYPES, int(self.unless_creature), "|".join(self.add_types)))
        if self.land_type:  # CR 305.7: the new land type replaces the old, and the rules text's abilities go
            kept = [s for s in printed.subtypes if s in SUPERTYPES]
            found.append((SET_SUBTYPES, 1, "|".join([*kept, self.land_type])))
        if self.new_colors is not None:
            found.append((SET_COLORS, 0, "|".join(self.new_colors)))
        power, toughness = (printed.cost or 0,) * 2 if self.pt_mana_value else (self.power, self.toughness)
        if power is not None and toughness is not None:
            condition = UNLESS_CREATURE if self.unless_creature else ""
            found += [(SET_POWER, power, condition), (SET_TOUGHNESS, toughness, condition)]
        return [ev.ContinuousEffectStarted(eid + k, ctx.source, kind, oid, amount=n, value=value, until=until)
                for k, (kind, n, value) in enumerate(found)]


class Becomes(Change, frozen=True, forbid_unknown_fields=True):
    """``Change`` on what ``on`` names (as ``Acts``), for ``until``."""

    on: Literal["target", "this", "each", "attached"] = "target"
    target: int = 0
    filter: Filter = field(default_factory=lambda: Filter(types=["creature"]))
    until: Duration = "end_of_turn"

    def acts(self) -> Acts:
        return Acts(self.on, self.target, self.filter)

    def target_refs(self) -> list[tuple[str, int]]:
        return self.acts().target_refs()

    def problems(self) -> list[tuple[str, str]]:
        return Change.problems(self) + self.acts().problems()


@MTG.effect("becomes", Becomes)
def becomes(ctx: EffectContext, p: Becomes) -> Procedure:
    """What ``on`` names (a permanent, or a spell on the stack) becomes what the step says, until end of turn,
    until your next upkeep, or with no duration (CR 611.2a; layers 4, 5 and 7b, CR 613.1d-e, 613.4b). A spell's
    change ends as it leaves the stack: the permanent it becomes is a new object (CR 400.7)."""
    st = ctx.state
    until = {"end_of_turn": "end_of_turn", "your_next_upkeep": f"{NEXT_UPKEEP}{ctx.controller}",
             "indefinite": "indefinite"}[p.until]
    found = [o for o in acted_on(ctx, p.acts()) if o >= 0 and o in st.objects]
    events: list[ev.Event] = []
    for o in found:
        events += p.modifiers(ctx, o, until, st.next_effect + len(events))
    if events:
        ctx.engine.emit(*events)
    return
    yield


@MTG.effect("static_attached_becomes", Change)
def attached_becomes(ctx: EffectContext, p: Change) -> Procedure:
    """Static: the permanent this aura is attached to is what the step says ("Enchanted land is a Swamp";
    "enchanted artifact is an artifact creature ...") while this is on the battlefield (CR 303.4, 611.3a)."""
    st = ctx.state
    host = st.objects[ctx.source].status.get(ATTACHED) if ctx.source in st.objects else None
    if host is None or host not in st.objects:
        return
    ctx.engine.emit(*p.modifiers(ctx, host, WHILE_SOURCE, st.next_effect))
    return
    yield


class EachBecomes(Selects, frozen=True, forbid_unknown_fields=True):
    """What each permanent the filter names is ("All Forests are 1/1 creatures that are still lands"; "All Swamps
    are 1/1 black creatures that are still lands"): card types it gains, its colours, its base power and
    toughness."""

    add_types: list[CardType] = field(default_factory=list)
    new_colors: list[Color] | None = None  # [] is colourless ("colors" is the filter's)
    power: int | None = None
    toughness: int | None = None

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if not (self.add_types or self.new_colors is not None or self.power is not None):
            out.append(("", "makes them nothing: say add_types, new_colors, or power and toughness"))
        if (self.power is None) != (self.toughness is None):
            out.append((".power", "a base power and toughness are set together (\"1/1\"): say both"))
        return out


@MTG.effect("static_each_becomes", EachBecomes)
def each_becomes(ctx: EffectContext, p: EachBecomes) -> Procedure:
    """Static: each permanent the filter names is what the step says while this is on the battlefield, as
    permanents come and go (CR 611.3a; layers 4, 5 and 7b, CR 613.1d-e, 613.4b). The filter reads a permanent as
    the effects aimed at it leave it: "Enchanted land is a Swamp" applies first (CR 613.8a, dependency)."""
    selector = p.selector(ctx)
    found: list[tuple[str, int, str]] = []
    if p.add_types:
        found.append((EACH + ADD_TYPES, 0, f"{selector};set={'|'.join(p.add_types)}"))
    if p.new_colors is not None:
        found.append((EACH + SET_COLORS, 0, f"{selector};set={'|'.join(p.new_colors)}"))
    if p.power is not None and p.toughness is not None:
        found += [(EACH + SET_POWER, p.power, selector), (EACH + SET_TOUGHNESS, p.toughness, selector)]
    eid = ctx.state.next_effect
    ctx.engine.emit(*[ev.ContinuousEffectStarted(eid + k, ctx.source, kind, ctx.source, amount=n, value=value,
                                                 until=WHILE_SOURCE) for k, (kind, n, value) in enumerate(found)])
    return
    yield


def ended_at_upkeep(engine: Engine, player: int) -> list[ev.Event]:
    """The "until your next upkeep" effects of ``player`` that end as that player's upkeep step begins."""
    mark = f"{NEXT_UPKEEP}{player}"
    return [ev.ContinuousEffectEnded(m.effect) for m in sorted(engine.state.modifiers.values(),
                                                                key=lambda m: m.effect) if m.until == mark]
