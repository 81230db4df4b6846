"""Magic's effect steps that act on objects or players named by a selector (``select.On``): a chosen target,
this object, each permanent matching a filter, or players. Each is a primitive of the game (CR 701 keyword
actions and the plain verbs of card text); what a card does is which steps it lists, with which selectors.

Objects are read as they are now; an effect on "each" acts on all of them at once (one group of events).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import view
from statemachine.amounts import Amount, evaluate
from statemachine.board import to_owners
from statemachine.cards import EffectDef
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.games.magic import board, damage, lifegain
from statemachine.games.magic.board import BATTLEFIELD, DECK, GRAVEYARD, HAND, zone
from statemachine.games.magic.effects import EXILED, target
from statemachine.games.magic.select import Filter, On, each, is_player_selector, players
from statemachine.games.magic.statics import ATTACHED, DOESNT_UNTAP_NEXT, RETURNED_NOW
from statemachine.games.magic.targets import spell_mode
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Keyword, NoParams, Procedure

BOUNCED, SEARCHED, SACRIFICED, RETURNED, TOKEN = "bounce", "search", "sacrifice", "return", "token"


class Acts(Struct, frozen=True, forbid_unknown_fields=True):
    """What a step acts on: ``on`` (a selector), ``target`` (which target step, for "target"), ``filter``
    (for "each": which permanents; default every creature)."""

    on: On = "target"
    target: int = 0
    filter: Filter = field(default_factory=lambda: Filter(types=["creature"]))

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.on == "target" else []

    def problems(self) -> list[tuple[str, str]]:
        out = self.filter.problems(".filter")
        if self.on != "each" and self.filter != Filter(types=["creature"]):
            out.append((".filter", f"a filter is read only with on = \"each\", not {self.on!r}"))
        return out


def acted_on(ctx: EffectContext, p: Acts, *, players_too: bool = False) -> list[int]:
    """The objects (and, where the step allows, players as ``-1 - player``) the step acts on now."""
    st = ctx.state
    match p.on:
        case "target":
            ref = target(ctx, p.target)
            return [] if ref is None or (ref < 0 and not players_too) else [ref]
        case "this" | "subject":
            oid = ctx.source if p.on == "this" else ctx.subject
            if oid is None or oid not in st.objects:
                return []
            # "this" is also a card whose ability works from its graveyard, still there ("put ~ onto the
            # battlefield", rules 1.6): a card that moved is a new object (CR 400.7) and is not named
            in_graveyard = p.on == "this" and board.kind_of(st.objects[oid].zone) == GRAVEYARD
            here = board.on_battlefield(st, oid) or in_graveyard
            return [oid] if here else []
        case "each":
            return each(ctx, p.filter)
        case "attached":  # "enchanted creature": what the source is (or, if it left, was last) attached to
            seen = ctx.view(ctx.source)  # (last known information, CR 608.2h)
            host = seen.status.get(ATTACHED) if seen is not None else None
            return [host] if host is not None and host in st.objects and board.on_battlefield(st, host) else []
        case _:
            return [board.player_ref(q) for q in players(ctx, p.on)] if players_too else []


def _permanents(ctx: EffectContext, p: Acts) -> list[int]:
    return [o for o in acted_on(ctx, p) if o >= 0 and board.on_battlefield(ctx.state, o)]


# -- damage, destruction ------------------------------------------------------------------------------------


class DamageParams(Acts, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 1
    gain_life: bool = False  # "you gain life equal to the damage dealt this way"
    # "..., but not more than the player's life total before [it] dealt damage or the creature's toughness"
    gain_up_to_life_or_toughness: bool = False
    # "N damage divided evenly, rounded down, among any number of targets": the targets from ``target`` on,
    # each dealt N divided by how many were chosen (one made illegal gets nothing)
    divided: bool = False

    def problems(self) -> list[tuple[str, str]]:
        out = Acts.problems(self)
        if self.gain_up_to_life_or_toughness and not self.gain_life:
            out.append((".gain_up_to_life_or_toughness", "caps the life gained: say gain_life = true"))
        if self.divided and self.on != "target":
            out.append((".divided", "damage is divided among targets (on = \"target\")"))
        return out


def _divided(ctx: EffectContext, p: DamageParams, n: int) -> list[tuple[int, int]]:
    """CR 601.2d: the damage divided evenly among the targets chosen from ``target`` on, rounded down (CR
    107.1a: the card says so); a target illegal as it resolves is dealt nothing."""
    count = len(ctx.bound.get("targets", [])[p.target:])
    found = [target(ctx, i) for i in range(p.target, p.target + count)]
    return [(r, n // count) for r in found if r is not None and (r < 0 or board.on_battlefield(ctx.state, r))]


@MTG.effect("damage", DamageParams)
def deal_damage(ctx: EffectContext, p: DamageParams) -> Procedure:
    """This deals N damage to what ``on`` names — a target (a creature or a player), "each creature without
    flying", "each player", "this creature" — all at once (CR 120.3), or divided among targets; prevention,
    deathtouch and lifelink apply (``damage``); lethal damage is a state-based action, checked after the
    resolution. With ``gain_life`` you gain life equal to the damage dealt, capped if the card says by what each
    could lose: a player's life total, a creature's toughness, before the damage."""
    st = ctx.state
    refs = [] if p.divided else acted_on(ctx, p, players_too=True)
    if not refs and not (p.divided and ctx.bound.get("targets", [])[p.target:]):
        return  # (nothing to deal damage to: the amount is not even computed)
    n = evaluate(ctx, p.amount)
    hits = _divided(ctx, p, n) if p.divided else [(r, n) for r in refs]
    caps = {r: board.life(st, board.ref_player(r) or 0) if r < 0 else (view(st, r).chars.toughness or 0)
            for r, _ in hits}
    events, dealt = damage.damage_events(ctx.engine, ctx.source, hits)
    if events:
        lifegain.emit(ctx.engine, *events)
    if p.gain_up_to_life_or_toughness:
        dealt = sum(min(d.amount, max(0, caps.get(d.to, 0))) for d in events if isinstance(d, ev.DamageDealt))
    if p.gain_life and dealt:
        lifegain.emit(ctx.engine, ev.PlayerStat(ctx.controller, board.LIFE, board.life(st, ctx.controller) + dealt))
    return
    yield


class DestroyParams(Acts, frozen=True, forbid_unknown_fields=True):
    regenerate: bool = True  # false: "They can't be regenerated" (CR 701.15c)


@MTG.effect("destroy", DestroyParams)
def destroy(ctx: EffectContext, p: DestroyParams) -> Procedure:
    """Destroy what ``on`` names, all at once (CR 701.7): indestructible permanents stay, a regeneration shield
    replaces it (CR 701.15)."""
    found = _permanents(ctx, p)
    events = damage.destroy_events(ctx.engine, found, board.DESTROY, regenerate=p.regenerate)
    if events:
        ctx.engine.emit(*events)
    return
    yield


@MTG.effect("exile", Acts)
def exile(ctx: EffectContext, p: Acts) -> Procedure:
    """Exile what ``on`` names (CR 406.3), all at once: it leaves for its owner's exile zone."""
    found = [o for o in acted_on(ctx, p) if o >= 0 and o in ctx.state.objects]
    if len(found) == 1:
        owner = ctx.state.objects[found[0]].owner
        ctx.engine.emit(board.move(ctx.engine, found[0], zone(owner, board.EXILE), EXILED))
    elif found:
        ctx.engine.emit(*to_owners(ctx.engine, found, board.EXILE, EXILED))
    return
    yield


@MTG.effect("return_to_hand", Acts)
def return_to_hand(ctx: EffectContext, p: Acts) -> Procedure:
    """Return what ``on`` names to its owner's hand: a permanent, or a card in a graveyard (CR 400.7)."""
    found = [o for o in acted_on(ctx, p) if o >= 0 and o in ctx.state.objects]
    if found:
        cause = BOUNCED if board.on_battlefield(ctx.state, found[0]) else RETURNED
        ctx.engine.emit(*to_owners(ctx.engine, found, HAND, cause))
    return
    yield


class ToBattlefield(Acts, frozen=True, forbid_unknown_fields=True):
    tapped: bool = False


@MTG.effect("put_onto_battlefield", ToBattlefield)
def put_onto_battlefield(ctx: EffectContext, p: ToBattlefield) -> Procedure:
    """Put the card ``on`` names (a card in a graveyard) onto the battlefield under your control (a creature
    summoning sick, CR 302.6)."""
    for o in acted_on(ctx, p):
        if o >= 0 and o in ctx.state.objects:
            moved = board.move(ctx.engine, o, zone(ctx.controller, BATTLEFIELD), board.ENTER, controller=ctx.controller)
            extra: list[ev.Event] = [ev.StatusSet(moved.new, "tapped", 1)] if p.tapped else []
            extra += board.entered(ctx.engine, moved.new, ctx.state.cards[moved.card].printed.types)  # CR 302.6
            ctx.engine.emit(moved, *extra)
            ctx.bound.setdefault(RETURNED_NOW, []).append(moved.new)  # what a later ``attach`` may name
    return
    yield


@MTG.effect("regenerate", Acts)
def regenerate(ctx: EffectContext, p: Acts) -> Procedure:
    """"Regenerate": the next time it would be destroyed this turn, instead tap it, remove its damage and remove
    it from combat (CR 701.15, a shield that lasts until the cleanup)."""
    st = ctx.state
    found = _permanents(ctx, p)
    if found:
        ctx.engine.emit(*[ev.StatusSet(o, damage.REGENERATION, st.objects[o].status.get(damage.REGENERATION, 0) + 1)
                          for o in found])
    return
    yield


@MTG.effect("prevent_combat_damage")
def prevent_combat_damage(ctx: EffectContext, _: NoParams) -> Procedure:
    """"Prevent all combat damage that would be dealt this turn" (CR 615.1: a prevention effect, in force until
    the cleanup step)."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, "set_flag",
                                               board.player_ref(ctx.controller), value=damage.PREVENT_COMBAT_DAMAGE,
                                               until="end_of_turn"))
    return
    yield


# -- characteristics until end of turn, counters, tapping ---------------------------------------------------


class PumpAll(Acts, frozen=True, forbid_unknown_fields=True):
    signed = ("power", "toughness")  # "-1/-1" is written as it is printed
    power: Amount = 0
    toughness: Amount = 0
    minus: bool = False  # "-X/-X": the amounts are taken away (an amount is never below zero, CR 107.1b)
    until: Literal["end_of_turn", "end_of_combat"] = "end_of_turn"  # "until end of combat" (CR 511.2, rules 1.6)


@MTG.effect("pump", PumpAll)
def pump(ctx: EffectContext, p: PumpAll) -> Procedure:
    """What ``on`` names gets +P/+T (or -P/-T) until end of turn: a continuous effect the projection applies in
    timestamp order (CR 611.2, 613.4c); it ends at the cleanup (514.2)."""
    found = _permanents(ctx, p)
    if not found:
        return
    sign = -1 if p.minus else 1
    power, toughness = sign * evaluate(ctx, p.power, "power"), sign * evaluate(ctx, p.toughness, "toughness")
    eid = ctx.state.next_effect
    events: list[ev.Event] = []
    for o in found:
        for kind, n in (("power", power), ("toughness", toughness)):
            if n:
                events.append(ev.ContinuousEffectStarted(eid, ctx.source, kind, o, amount=n, until=p.until))
                eid += 1
    if events:
        ctx.engine.emit(*events)
    return
    yield


class GrantParams(Acts, frozen=True, forbid_unknown_fields=True):
    keyword: Keyword = "flying"


@MTG.effect("grant", GrantParams)
def grant(ctx: EffectContext, p: GrantParams) -> Procedure:
    """What ``on`` names gains a keyword until end of turn (CR 611.2, 613.1f)."""
    eid = ctx.state.next_effect
    events = [ev.ContinuousEffectStarted(eid + k, ctx.source, "grant_keyword", o, value=p.keyword, until="end_of_turn")
              for k, o in enumerate(_permanents(ctx, p))]
    if events:
        ctx.engine.emit(*events)
    return
    yield


class CounterParams(Acts, frozen=True, forbid_unknown_fields=True):
    count: Amount = 1


@MTG.effect("plus_one_counters", CounterParams)
def plus_one_counters(ctx: EffectContext, p: CounterParams) -> Procedure:
    """Put N +1/+1 counters on what ``on`` names (CR 122.1a): each adds +1/+1 for as long as the permanent stays
    on the battlefield (it becomes a new object if it leaves, CR 400.7)."""
    found = _permanents(ctx, p)
    n = evaluate(ctx, p.count, "count") if found else 0
    if n <= 0:
        return
    eid = ctx.state.next_effect
    events: list[ev.Event] = []
    for o in found:
        events.append(ev.StatusSet(o, "+1/+1", ctx.state.objects[o].status.get("+1/+1", 0) + n))
        for kind in ("power", "toughness"):
            events.append(ev.ContinuousEffectStarted(eid, ctx.source, kind, o, amount=n, value="+1/+1 counters"))
            eid += 1
    ctx.engine.emit(*events)
    return
    yield


class TapParams(Acts, frozen=True, forbid_unknown_fields=True):
    untap: bool = False


@MTG.effect("tap", TapParams)
def tap(ctx: EffectContext, p: TapParams) -> Procedure:
    """Tap (or, with ``untap``, untap) what ``on`` names (CR 701.21)."""
    st = ctx.state
    events = [ev.StatusSet(o, "tapped", 0 if p.untap else 1) for o in _permanents(ctx, p)
              if board.is_tapped(st, o) == p.untap]
    if events:
        ctx.engine.emit(*events)
    return
    yield


@MTG.effect("skip_next_untap", Acts)
def skip_next_untap(ctx: EffectContext, p: Acts) -> Procedure:
    """What ``on`` names doesn't untap during its controller's next untap step (CR 502.3): an effect that ends
    with that untap step (``statics.skipped_untap_ends``)."""
    eid = ctx.state.next_effect
    events = [ev.ContinuousEffectStarted(eid + k, ctx.source, "set_flag", o, value=DOESNT_UNTAP_NEXT)
              for k, o in enumerate(_permanents(ctx, p))]
    if events:
        ctx.engine.emit(*events)
    return
    yield


# -- players ------------------------------------------------------------------------------------------------


class PlayerAmount(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 1
    on: On = "target"  # "target" (a player target), "you", "each_player", "each_opponent"
    target: int = 0

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.on == "target" else []

    def problems(self) -> list[tuple[str, str]]:
        ok = self.on == "target" or is_player_selector(self.on)
        return [] if ok else [(".on", f"{self.on!r} names objects; this step acts on players")]


def acted_players(ctx: EffectContext, on: On, index: int) -> list[int]:
    if on == "target":
        ref = target(ctx, index)
        player = board.ref_player(ref) if ref is not None else None
        return [player] if player is not None else []
    return players(ctx, on)


@MTG.effect("lose_life", PlayerAmount)
def lose_life(ctx: EffectContext, p: PlayerAmount) -> Procedure:
    """Those players lose N life (CR 119.3)."""
    who = acted_players(ctx, p.on, p.target)
    n = evaluate(ctx, p.amount) if who else 0
    if n > 0:
        ctx.engine.emit(*[ev.PlayerStat(q, board.LIFE, board.life(ctx.state, q) - n) for q in who])
    return
    yield


@MTG.effect("poison", PlayerAmount)
def poison(ctx: EffectContext, p: PlayerAmount) -> Procedure:
    """Those players get N poison counters (CR 122.1f); one with ten or more loses the game, a state-based
    action (CR 704.5c, ``sba``)."""
    who = acted_players(ctx, p.on, p.target)
    n = evaluate(ctx, p.amount) if who else 0
    if n > 0:
        ctx.engine.emit(*[ev.PlayerStat(q, board.POISON, ctx.state.stat(q, board.POISON) + n) for q in who])
    return
    yield


@MTG.effect("discard_hand", PlayerAmount)
def discard_hand(ctx: EffectContext, p: PlayerAmount) -> Procedure:
    """Those players discard their hands (``amount`` is not read)."""
    st = ctx.state
    cards = [o for q in acted_players(ctx, p.on, p.target) for o in st.zone(zone(q, HAND))]
    if cards:
        ctx.engine.emit(*board.to_graveyards(ctx.engine, cards, board.DISCARD))
    return
    yield


class SacrificeParams(Struct, frozen=True, forbid_unknown_fields=True):
    on: On = "you"  # who sacrifices: "you", "each_player", "each_opponent", or a player "target"
    target: int = 0
    filter: Filter = field(default_factory=lambda: Filter(types=["creature"]))
    count: int = 1
    # "If you can't, ...": steps done instead when you control nothing the filter names (Lord of the Pit)
    otherwise: list[EffectDef] = field(default_factory=list)

    def target_refs(self) -> list[tuple[str, int]]:
        return [(".target", self.target)] if self.on == "target" else []

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        return [(f"otherwise[{k}]", e.name, e.params) for k, e in enumerate(self.otherwise)]

    def problems(self) -> list[tuple[str, str]]:
        out = self.filter.problems(".filter")
        if self.on not in ("target", "attached") and not is_player_selector(self.on):
            out.append((".on", f"{self.on!r} names objects; a player sacrifices (or: the attached creature)"))
        if self.otherwise and self.on != "you":
            out.append((".otherwise", "\"if you can't\" is said of your own sacrifice: on = \"you\""))
        if any(e.name == "target" for e in self.otherwise):
            out.append((".otherwise", "names no target (targets are chosen as the ability is put on the stack)"))
        return out


@MTG.effect("sacrifice", SacrificeParams)
def sacrifice(ctx: EffectContext, p: SacrificeParams) -> Procedure:
    """Each player named sacrifices N permanents matching the filter that they control, chosen by them, in turn
    order; the chosen ones go to the graveyard together (CR 701.17). With ``otherwise``, "if you can't": those
    steps are done when you control none. ``on = "attached"``: the permanent this aura is (or was last) attached
    to is sacrificed by its controller."""
    st = ctx.state
    chosen: list[int] = []
    if p.on == "attached":  # "that creature's controller sacrifices it": the permanent the aura was attached to
        chosen = acted_on(ctx, Acts(on="attached"))
    for q in acted_players(ctx, p.on, p.target) if p.on != "attached" else []:
        mine = [o for o in each(ctx, p.filter) if st.objects[o].controller == q]
        for k in range(min(p.count, len(mine))):
            options = [o for o in mine if o not in chosen]
            if len(options) == 1 and p.count >= len(mine):
                chosen.append(options[0])
                continue
            answer = yield Request(q, "sacrifice", f"sacrifice a permanent ({k + 1} of {p.count})", tuple(options),
                                   effect=ctx.effect, rule="MTG-GAME-SACRIFICE")
            chosen.append(int(answer[0]))
    if chosen:
        ctx.engine.emit(*board.to_graveyards(ctx.engine, chosen, SACRIFICED))
    elif p.otherwise:  # "If you can't": nothing of yours matched the filter (CR 701.17a: you can't sacrifice it)
        vocab = ctx.engine.profile.vocabulary
        for step in p.otherwise:
            yield from vocab.run_effect(ctx, step.name, step.params)


class SearchParams(Struct, frozen=True, forbid_unknown_fields=True):
    filter: Filter = field(default_factory=Filter)  # what may be found ("a basic land card")
    to: Literal["hand", "battlefield"] = "hand"
    tapped: bool = False  # put onto the battlefield tapped

    def problems(self) -> list[tuple[str, str]]:
        return self.filter.problems(".filter")


@MTG.effect("search_library", SearchParams)
def search_library(ctx: EffectContext, p: SearchParams) -> Procedure:
    """Search your library for a card matching the filter (you may fail to find it, CR 701.19b), put it into
    your hand or onto the battlefield, then shuffle."""
    st = ctx.state
    me = ctx.controller
    from statemachine.games.magic.select import matches

    found = [o for o in st.zone(zone(me, DECK)) if matches(ctx, _printed(p.filter), view(st, o))]
    answer = yield Request(me, "search", "choose a card to find (none: find nothing)", tuple(found), 0, 1,
                           effect=ctx.effect, rule="MTG-GAME-SEARCH")
    if answer:
        oid = int(answer[0])
        moved = board.move(ctx.engine, oid, zone(me, HAND if p.to == "hand" else BATTLEFIELD), SEARCHED)
        extra = [ev.StatusSet(moved.new, "tapped", 1)] if p.to == "battlefield" and p.tapped else []
        ctx.engine.emit(moved, *extra)
    ctx.engine.shuffle(zone(me, DECK))


def _printed(f: Filter) -> Filter:
    """A card in a library has no controller, status or combat: only its characteristics are read."""
    import msgspec

    return msgspec.structs.replace(f, controller="any", tapped=None, attacking=None)


class TokenParams(Struct, frozen=True, forbid_unknown_fields=True):
    card: str  # the token's definition: a card of the pool
    count: Amount = 1
    on: On = "you"  # who creates it: "you" or "each_player"...

    def problems(self) -> list[tuple[str, str]]:
        return [] if is_player_selector(self.on) else [(".on", "a token is created by players")]


@MTG.effect("create_token", TokenParams)
def create_token(ctx: EffectContext, p: TokenParams) -> Procedure:
    """Those players create N tokens of ``card`` on the battlefield (CR 111.1); a token is summoning sick."""
    engine = ctx.engine
    for q in players(ctx, p.on):
        for _ in range(evaluate(ctx, p.count, "count")):
            st = engine.state
            card = engine.profile.pool[p.card]
            oid, cid = st.next_object, max(st.cards, default=0) + 1
            z = zone(q, BATTLEFIELD)
            engine.emit(ev.ObjectCreated(oid, cid, card.id, q, z, len(st.zone(z)), card.printed()),
                        *board.entered(engine, oid, card.types))
    return
    yield


# -- choices ------------------------------------------------------------------------------------------------


class Mode(Struct, frozen=True, forbid_unknown_fields=True):
    label: str
    effects: list[EffectDef]


class ChooseParams(Struct, frozen=True, forbid_unknown_fields=True):
    modes: list[Mode]
    chooser: Literal["you", "opponent"] = "you"  # "an opponent chooses one"
    # CR 700.2a: the mode is chosen as the spell is cast, before its targets (601.2b-c), and each mode may name
    # its own targets ("Choose one — Target player gains 3 life; or prevent the next 3 damage ... to any target")
    as_cast: bool = False

    def nested(self) -> list[tuple[str, str, dict[str, object], int]]:
        # A mode chosen as it is cast adds its own targets, counted after the ability's (``targets.specs``).
        return [(f"modes[{m}].effects[{k}]", e.name, e.params, self._own_targets(mode)) for m, mode in
                enumerate(self.modes) for k, e in enumerate(mode.effects)]

    def _own_targets(self, mode: Mode) -> int:
        return sum(1 for e in mode.effects if e.name == "target") if self.as_cast else 0

    def problems(self) -> list[tuple[str, str]]:
        out = [] if len(self.modes) >= 2 else [(".modes", "choose one of at least two modes")]
        if not self.as_cast:
            out += [(f".modes[{m}]", "a mode chosen as it resolves names no target (choose targets on the stack, "
                                     "or as_cast = true)") for m, mode in enumerate(self.modes)
                    if any(e.name == "target" for e in mode.effects)]
        elif self.chooser != "you":
            out.append((".chooser", "a mode chosen as the spell is cast is chosen by its caster (CR 700.2a)"))
        return out


@MTG.effect("choose_one", ChooseParams)
def choose_one(ctx: EffectContext, p: ChooseParams) -> Procedure:
    """Choose one of the modes (you, or an opponent: "target opponent chooses one") as it resolves, then do its
    steps; with ``as_cast``, do the steps of the mode chosen as the spell was cast (CR 700.2a)."""
    vocab = ctx.engine.profile.vocabulary
    if p.as_cast:
        chosen = spell_mode(ctx.state, ctx.bound.get("spell"))
        steps = p.modes[chosen].effects if chosen is not None else []
    else:
        who = ctx.controller if p.chooser == "you" else ctx.opponent
        answer = yield Request(who, "mode", "choose one: " + " / ".join(
            f"{i}: {m.label}" for i, m in enumerate(p.modes)), tuple(range(len(p.modes))), effect=ctx.effect,
            rule="MTG-GAME-MODE")
        steps = p.modes[int(answer[0])].effects
    for step in steps:
        yield from vocab.run_effect(ctx, step.name, step.params)


__all__ = ["GRAVEYARD", "acted_on"]
