"""Play points and turns: gaining a play point orb (PP最大値+N) and taking an extra turn (追加のターン); and
``if``, a condition on one sentence of a text.

Both are general pieces a card composes: 《竜の託宣》 gains an empty orb, 《次元の超越》 takes an extra turn."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

from eventsource import events as ev
from statemachine.context import EffectContext
from statemachine.games.shadowverse.board import EXTRA_TURNS
from statemachine.games.shadowverse.effects.targets import SV, captured, step_effects
from statemachine.games.shadowverse.fire import fire
from statemachine.games.shadowverse.queue import captures
from statemachine.vocabulary import NoParams, Procedure

MAX_PP = 10  # SV-O-55: maximum PP never exceeds 10


class OrbParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Annotated[int, Meta(ge=0)] = 1  # how many orbs; a negative number is refused when the card loads


@SV.effect("gain_pp_orb", OrbParams)
def gain_pp_orb(ctx: EffectContext, p: OrbParams) -> Procedure:
    """PP最大値を+Nする (SV-GAME-PP-ORB): maximum PP goes up by N, to 10 at most; the new orbs are empty (PP is not
    refilled). Reaching 7 is Overflow (覚醒): its triggers fire as at the start of a turn (SV-O-113)."""
    st = ctx.state
    me = ctx.controller
    before = st.stat(me, "max_pp")
    top = min(MAX_PP, before + p.amount)
    if top != before:
        ctx.engine.emit(ev.PlayerStat(me, "max_pp", top))
        if top >= 7 > before:
            fire(ctx.engine, "overflow", player=me)
    return
    yield


@SV.effect("extra_turn")
def extra_turn(ctx: EffectContext, _: NoParams) -> Procedure:
    """このターンのあと、自分の追加のターンを行う (SV-GAME-EXTRA-TURN): the controller takes a turn after this one;
    then the normal order of turns resumes."""
    n = ctx.state.stat(ctx.controller, EXTRA_TURNS)
    ctx.engine.emit(ev.PlayerStat(ctx.controller, EXTRA_TURNS, n + 1))
    return
    yield


# -- a condition on part of a text ----------------------------------------------------------------------------

ConditionName = Annotated[str, Meta(extra={"names": "condition"})]


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    condition: ConditionName  # a condition of the vocabulary (``overflow``, ``vengeance``, ``enhanced``, ...)
    then: str  # the effect carried out when it holds
    params: dict[str, object] = field(default_factory=dict)
    condition_params: dict[str, object] = field(default_factory=dict)
    otherwise: str = field(default="", name="else")  # carried out when it does not hold (「そうでないなら」)
    else_params: dict[str, object] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effects it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)] + ([("else", self.otherwise, self.else_params)]
                                                     if self.otherwise else [])


@captures("if")
def _judged(ctx: EffectContext, params: dict[str, object]) -> str:
    """SV-O-05: the condition of 「…なら」 is judged when the effect triggers (「プレイするとき既に覚醒状態なら」)."""
    p: IfParams = SV.effects["if"].parse(params)
    return "yes" if SV.check(ctx, p.condition, p.condition_params) else "no"


@SV.effect("if", IfParams)
def if_(ctx: EffectContext, p: IfParams) -> Procedure:
    """Carry out ``then`` if ``condition`` held when the ability triggered (SV-O-05), else ``else`` (if given); the
    rest of the text goes on either way (a condition on one sentence, not on the whole ability)."""
    n = ctx.bound.get("ifs_run", 0)
    ctx.bound["ifs_run"] = n + 1
    steps = [i for i, s in enumerate(step_effects(ctx)) if s.name == "if"]
    held = n < len(steps) and captured(ctx, steps[n]) == "yes"
    if held:
        yield from SV.run_effect(ctx, p.then, p.params)
    elif p.otherwise:
        yield from SV.run_effect(ctx, p.otherwise, p.else_params)
