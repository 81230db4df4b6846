"""Static abilities (CR 604, 611.3): effects in force while their source is on the battlefield, applied by the
projection (``projections.state``: an effect "while its source is in play" ends when the source leaves; an
"each_" effect applies to every object its selector names, now and as objects come and go).

A static ability is an ability of kind "static" whose effect steps are the static effects below. They start
as soon as the rules look at the game after the permanent arrives (``start``, before anyone would receive
priority, with the state-based actions); the projection ends them. Auras (CR 303.4) are attached to what
their spell targeted as they enter (``attach``); "enchanted creature" is what the aura is attached to.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.state import CONTROL, COUNTED_PT, WHILE_SOURCE, GameState
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.games.magic.select import CardType, Color, Whose
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Keyword, NoParams, Procedure

ATTACHED = "attached"  # status of an aura or equipment: the object it is attached to
ATTACH_TO = "attach_to"  # status of an aura spell as it resolves: what it will be attached to
STARTED = "statics"  # status of a permanent whose static abilities' effects have started
CANT_ATTACK, CANT_BLOCK, CANT_LOSE = "cant_attack", "cant_block", "cant_lose"  # flags (set_flag effects)
CANT_BE_BLOCKED = "cant_be_blocked"  # flag: "can't be blocked" (CR 509.1b), this turn or while an effect lasts
EQUIPMENT = "Equipment"  # the artifact subtype of CR 301.5: attached by its equip ability, unattached (704.5n)
DOESNT_UNTAP = "doesnt_untap"  # flag: "doesn't untap during its controller's untap step" (CR 502.3)
# flag: "doesn't untap during its controller's next untap step" (CR 502.3): ends with that untap step (rules 1.4)
DOESNT_UNTAP_NEXT = "doesnt_untap_next"


class Selects(Struct, frozen=True, forbid_unknown_fields=True):
    """Which permanents a static effect names, without targeting ("creatures you control", "white creatures",
    "other Goblins", "untapped creatures", "Swamps you control"), as they are now and as they come and go."""

    types: list[CardType] = field(default_factory=lambda: ["creature"])
    subtypes: list[str] = field(default_factory=list)
    colors: list[Color] = field(default_factory=list)
    controller: Whose = "any"
    other: bool = False  # "other creatures": not the source
    tapped: bool | None = None  # "untapped creatures" (false): read as the state changes (Castle)
    same_name: bool = False  # "named [this card's name]" (Plague Rats: "creatures named Plague Rats")

    def selector(self, ctx: EffectContext) -> str:
        """The selector the projection reads (``projections.state.names``)."""
        parts = ["zone=battlefield", "types=" + "|".join(self.types)]
        parts += [f"{k}={'|'.join(v)}" for k, v in (("subtypes", self.subtypes), ("colors", self.colors)) if v]
        if self.controller != "any":
            parts.append(f"controller={ctx.controller if self.controller == 'you' else ctx.opponent}")
        if self.other:
            parts.append(f"not={ctx.source}")
        if self.tapped is not None:
            parts.append(f"tapped={int(self.tapped)}")
        if self.same_name:
            parts.append(f"name={ctx.state.cards[ctx.source_card].printed.name}")
        return ";".join(parts)


class EachGets(Selects, frozen=True, forbid_unknown_fields=True):
    """What each permanent named gets: +P/+T, a keyword, or an activated ability of this card that it gives."""

    signed = ("power", "toughness")
    power: int = 0
    toughness: int = 0
    keyword: Keyword | None = None
    ability: str | None = None  # the id of this card's "granted" ability each of them has (CR 613.1f)

    def problems(self) -> list[tuple[str, str]]:
        if not (self.power or self.toughness or self.keyword or self.ability):
            return [("", "gives nothing: say power, toughness, keyword or ability")]
        return []

    def ability_refs(self) -> list[tuple[str, str]]:
        return [(".ability", self.ability)] if self.ability else []


@MTG.effect("static_each_gets", EachGets)
def each_gets(ctx: EffectContext, p: EachGets) -> Procedure:
    """Static: each permanent the filter names gets +P/+T, the keyword and the ability, for as long as this is
    on the battlefield (CR 611.3a; layer 7c for power and toughness, 6 for the keyword and the ability, CR
    613.1); a filter on tapped is read as the state changes (CR 611.3a: the effect applies at each moment to
    what it names then)."""
    selector = p.selector(ctx)
    eid = ctx.state.next_effect
    events: list[ev.Event] = []
    for kind, n in (("each_power", p.power), ("each_toughness", p.toughness)):
        if n:
            events.append(ev.ContinuousEffectStarted(eid + len(events), ctx.source, kind, ctx.source, amount=n,
                                                     value=selector, until=WHILE_SOURCE))
    for kind, grant, what in (("each_grant_keyword", "keyword", p.keyword), ("each_granted_ability", "ability",
                                                                              p.ability)):
        if what:
            events.append(ev.ContinuousEffectStarted(eid + len(events), ctx.source, kind, ctx.source,
                                                     value=f"{selector};{grant}={what}", until=WHILE_SOURCE))
    ctx.engine.emit(*events)
    return
    yield


class CountedPT(Selects, frozen=True, forbid_unknown_fields=True):
    """The permanents counted: "the number of Swamps you control" is types = ["land"], subtypes = ["Swamp"],
    controller = "you"."""


@MTG.effect("static_counted_pt", CountedPT)
def counted_pt(ctx: EffectContext, p: CountedPT) -> Procedure:
    """Static, characteristic-defining: this creature's power and toughness are each equal to the number of
    permanents the filter names, counted as the projection reads the creature (CR 604.3; layer 7a, applied
    before every other change to power and toughness, CR 613.4a). kifu applies it on the battlefield only."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, COUNTED_PT, ctx.source,
                                               value=p.selector(ctx), until=WHILE_SOURCE))
    return
    yield


class AttachedGets(Struct, frozen=True, forbid_unknown_fields=True):
    signed = ("power", "toughness")
    power: int = 0
    toughness: int = 0
    keyword: Keyword | None = None
    cant_attack: bool = False
    cant_block: bool = False
    doesnt_untap: bool = False  # "doesn't untap during its controller's untap step"
    control: bool = False  # "You control enchanted creature" (CR 613.1b, layer 2)
    cant_be_blocked: bool = False  # "Equipped creature can't be blocked" (CR 509.1b)

    def problems(self) -> list[tuple[str, str]]:
        if not (self.power or self.toughness or self.keyword or self.cant_attack or self.cant_block
                or self.doesnt_untap or self.control or self.cant_be_blocked):
            return [("", "gives nothing")]
        return []


@MTG.effect("static_attached_gets", AttachedGets)
def attached_gets(ctx: EffectContext, p: AttachedGets) -> Procedure:
    """Static: the permanent this aura or Equipment is attached to ("enchanted creature", "equipped creature")
    gets +P/+T, a keyword, can't attack, block or be blocked, doesn't untap in its controller's untap step, or
    is controlled by this aura's controller, for as long as this is on the battlefield and attached to it (CR
    303.4, 301.5, 611.3a, 502.3, 509.1b, 613.1b)."""
    st = ctx.state
    host = st.objects[ctx.source].status.get(ATTACHED) if ctx.source in st.objects else None
    if host is None or host not in st.objects:
        return
    eid = st.next_effect
    events: list[ev.Event] = []

    def add(kind: str, amount: int = 0, value: str = "") -> None:
        events.append(ev.ContinuousEffectStarted(eid + len(events), ctx.source, kind, host, amount=amount,
                                                 value=value, until=WHILE_SOURCE))

    for kind, n in (("power", p.power), ("toughness", p.toughness)):
        if n:
            add(kind, n)
    if p.keyword:
        add("grant_keyword", value=p.keyword)
    for flag, on in ((CANT_ATTACK, p.cant_attack), (CANT_BLOCK, p.cant_block), (DOESNT_UNTAP, p.doesnt_untap),
                     (CANT_BE_BLOCKED, p.cant_be_blocked)):
        if on:
            add("set_flag", value=flag)
    if p.control and st.objects[host].controller != ctx.controller:
        # CR 613.1b: the aura's controller controls it (the projection changes its controller while this lasts);
        # CR 302.6: a creature just gained control of has not been controlled continuously since the turn began.
        add(CONTROL, ctx.controller, str(st.objects[host].controller))
        events += board.entered(ctx.engine, host, ("creature",) if board.has_type(st, host, "creature") else ())
    ctx.engine.emit(*events)
    return
    yield


@MTG.effect("static_cant_lose")
def cant_lose(ctx: EffectContext, _: NoParams) -> Procedure:
    """Static: "You can't lose the game and your opponents can't win the game" (CR 104.3, 104.2b), while this
    is on the battlefield."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, "set_flag",
                                               board.player_ref(ctx.controller), value=CANT_LOSE, until=WHILE_SOURCE))
    return
    yield


RETURNED_NOW = "returned"  # ctx.bound: the permanent an earlier step of the effect put onto the battlefield


class AttachParams(Struct, frozen=True, forbid_unknown_fields=True):
    # "target": its (first) target; "returned": the creature an earlier put_onto_battlefield step of the same
    # spell returned ("return enchanted creature card to the battlefield ... and attach Animate Dead to it")
    to: Literal["target", "returned"] = "target"

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".to", 0)] if self.to == "target" else []  # (an attach with no target step is refused at load)


@MTG.effect("attach", AttachParams)
def attach(ctx: EffectContext, p: AttachParams) -> Procedure:
    """An aura spell: as it resolves it enters attached to its (first) target, or to the permanent an earlier
    step returned to the battlefield (CR 303.4f). An ability of a permanent (equip, CR 702.6a) attaches that
    permanent to its target at once (CR 701.3a): the effects of its static abilities end and start again on
    the new object as the rules next look at the game (``start``); attaching it to what it is already
    attached to does nothing (CR 701.3b)."""
    spell = ctx.bound.get("spell")
    chosen: list[int] = ctx.bound.get("targets", []) if p.to == "target" else ctx.bound.get(RETURNED_NOW, [])
    if spell is not None and spell in ctx.state.objects and chosen and chosen[0] >= 0:
        ctx.engine.emit(ev.StatusSet(spell, ATTACH_TO, chosen[0]))
    elif spell is None and chosen and chosen[0] >= 0:
        _attach_source(ctx, chosen[0])
    return
    yield


def _attach_source(ctx: EffectContext, host: int) -> None:
    st = ctx.state
    src = ctx.source
    if not board.on_battlefield(st, src) or not board.on_battlefield(st, host) or st.objects[src].status.get(
            ATTACHED) == host:
        return
    ended = [ev.ContinuousEffectEnded(m.effect) for m in sorted(st.modifiers.values(), key=lambda m: m.effect)
             if m.source == src and m.until == WHILE_SOURCE]
    ctx.engine.emit(*ended, ev.StatusSet(src, ATTACHED, host), ev.StatusSet(src, STARTED, 0))


def flagged(state: GameState, ref: int, flag: str) -> bool:
    """Whether a "set_flag" effect ``flag`` applies to an object or player now."""
    return any(m.kind == "set_flag" and m.value == flag and m.target == ref for m in state.modifiers.values())


def skipped_untap_ends(state: GameState, untapping: list[int]) -> list[ev.Event]:
    """The "next untap step" effects that end with this untap step: those on the permanents that untap in it,
    and those on objects no longer on the battlefield (their next untap step never comes)."""
    return [ev.ContinuousEffectEnded(m.effect) for m in sorted(state.modifiers.values(), key=lambda m: m.effect)
            if m.kind == "set_flag" and m.value == DOESNT_UNTAP_NEXT
            and (m.target in untapping or m.target not in state.objects or not board.on_battlefield(state, m.target))]


def start(engine: Engine) -> None:
    """Start the static abilities' effects of permanents that have arrived since the rules last looked."""
    st = engine.state
    pool = engine.profile.pool
    for oid in board.permanents(st):
        obj = st.objects[oid]
        if obj.status.get(STARTED):
            continue
        card = pool.cards.get(st.cards[obj.card].definition)
        statics = [a for a in card.abilities if a.kind == "static" and a.effects] if card is not None else []
        if not statics:
            continue
        engine.emit(ev.StatusSet(oid, STARTED, 1))
        for ability in statics:
            ctx = EffectContext(engine, controller=obj.controller, source=oid, source_card=obj.card,
                                ability=ability.id)
            for step in ability.effects:
                for _ in MTG.run_effect(ctx, step.name, step.params):
                    raise AssertionError("a static effect does not ask")
