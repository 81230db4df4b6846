"""Effect steps that start replacement and prevention effects (CR 614, 615; the kernel's ``replacements``):
"prevent the next N damage", "the next time a source of your choice would deal damage, prevent it", "if it
would die this turn, exile it instead", "it can't be regenerated this turn". Each starts a continuous effect
that lasts until the cleanup (514.2); the damage and zone-change code asks what it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from msgspec import field

from eventsource import events as ev
from projections.characteristics import view
from statemachine import replacements
from statemachine.amounts import Amount, evaluate
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.games.magic import board
from statemachine.games.magic.board import STACK
from statemachine.games.magic.damage import CANT_REGENERATE
from statemachine.games.magic.select import CardType, Color
from statemachine.games.magic.verbs import Acts, acted_on
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Procedure


class PreventParams(Acts, frozen=True, forbid_unknown_fields=True):
    amount: Amount = 0  # "the next N damage" (0 with next_time: all the damage of the next time)
    next_time: bool = False  # "the next time ... would deal damage ..., prevent that damage"
    source: Literal["any", "chosen"] = "any"  # "a source of your choice", chosen as it resolves (CR 615.7)
    source_colors: list[Color] = field(default_factory=list)  # "a red source of your choice"
    source_types: list[CardType] = field(default_factory=list)  # "an artifact source of your choice"

    def problems(self) -> list[tuple[str, str]]:
        out = Acts.problems(self)
        if not self.next_time and isinstance(self.amount, int) and self.amount <= 0:
            out.append((".amount", "prevents nothing: give the damage to prevent (or next_time = true)"))
        for at, given in ((".source_colors", self.source_colors), (".source_types", self.source_types)):
            if given and self.source != "chosen":
                out.append((at, "a source's colours or types restrict a chosen source (source = \"chosen\")"))
        return out


def _sources(ctx: EffectContext, colors: list[Color], types: list[CardType]) -> list[int]:
    """The objects that may be chosen as "a source": permanents and spells on the stack (CR 609.7a), of those
    colours and card types if the card says."""
    st = ctx.state
    found = [o for o in sorted(st.objects) if board.on_battlefield(st, o) or st.objects[o].zone == STACK]
    return [o for o in found if (not colors or set(colors) & set(view(st, o).chars.colors))
            and (not types or set(types) & set(view(st, o).chars.types))]


@MTG.effect("prevent_damage", PreventParams)
def prevent_damage(ctx: EffectContext, p: PreventParams) -> Procedure:
    """Prevent the next N damage that would be dealt this turn to what ``on`` names — an object or a player
    (CR 615.7): a shield, used up by the damage it prevents. With ``next_time``, the next damage event, whatever
    its amount. With ``source = "chosen"``, only damage from a source the controller chooses as it resolves."""
    refs = acted_on(ctx, p, players_too=True)
    if not refs:
        return
    watching = ""
    if p.source == "chosen":
        options = _sources(ctx, p.source_colors, p.source_types)
        if not options:
            return  # no such source to choose: the effect does nothing
        answer = yield Request(ctx.controller, "source", "choose a source whose damage to prevent", tuple(options),
                               effect=ctx.effect, rule="CR 615.7")
        watching = f"source={int(answer[0])}"
    n = 0 if p.next_time else evaluate(ctx, p.amount)
    if n <= 0 and not p.next_time:
        return
    eid = ctx.state.next_effect
    ctx.engine.emit(*[replacements.shield(eid + k, ctx.source, ref, n, watching=watching, next_time=p.next_time)
                      for k, ref in enumerate(refs)])


class InsteadParams(Acts, frozen=True, forbid_unknown_fields=True):
    would: Literal["graveyard"] = "graveyard"  # "if it would die" (put into a graveyard from the battlefield)
    to: Literal["exile"] = "exile"  # "exile it instead"


def _start_on_each(ctx: EffectContext, p: Acts, make: Callable[[int, int], ev.ContinuousEffectStarted]) -> None:
    """Start one effect (``make(effect id, object)``) on each permanent ``on`` names."""
    eid = ctx.state.next_effect
    events = [make(eid + k, o) for k, o in enumerate(o for o in acted_on(ctx, p)
                                                     if o >= 0 and board.on_battlefield(ctx.state, o))]
    if events:
        ctx.engine.emit(*events)


@MTG.effect("instead", InsteadParams)
def instead(ctx: EffectContext, p: InsteadParams) -> Procedure:
    """"If [it] would die this turn, exile it instead" (CR 614.1a): a replacement effect on what ``on`` names
    until the cleanup; ``board.to_graveyards`` sends it to exile."""
    _start_on_each(ctx, p, lambda eid, o: replacements.replacement(eid, ctx.source, o, p.would, p.to))
    return
    yield


@MTG.effect("no_regeneration", Acts)
def no_regeneration(ctx: EffectContext, p: Acts) -> Procedure:
    """"It can't be regenerated this turn" (CR 701.15c): a regeneration shield no longer replaces its destruction
    until the cleanup."""
    _start_on_each(ctx, p, lambda eid, o: ev.ContinuousEffectStarted(eid, ctx.source, CANT_REGENERATE, o,
                                                                     until="end_of_turn"))
    return
    yield
