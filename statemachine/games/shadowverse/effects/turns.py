"""Play points and turns: gaining a play point orb (PP最大値+N) and taking an extra turn (追加のターン); ``if``, a
condition on one sentence of a text; and ``let``, a value counted once that later steps read (``named``).

Both are general pieces a card composes: 《竜の託宣》 gains an empty orb, 《次元の超越》 takes an extra turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from eventsource import events as ev
from statemachine.amounts import NAMED, Amount, evaluate, peek
from statemachine.cards import CardPool
from statemachine.context import EffectContext
from statemachine.games.shadowverse.board import EXTRA_TURNS
from statemachine.games.shadowverse.effects.targets import SV, captured, step_effects
from statemachine.games.shadowverse.fire import fire
from statemachine.games.shadowverse.queue import captures
from statemachine.loader import CardFileError
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
    # When the condition is judged: when the ability triggers (SV-O-05), or as the step runs, for a count that
    # decides additional processing (SV-O-08: 「Xが3以上なら進化」, X counted at resolution).
    at: Literal["trigger", "resolution"] = "trigger"

    def judged(self) -> list[tuple[str, str, dict[str, object]]]:
        """The condition it judges, checked at load as a card's own conditions are (``statemachine.loader``)."""
        return [("condition", self.condition, self.condition_params)]

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effects it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)] + ([("else", self.otherwise, self.else_params)]
                                                     if self.otherwise else [])


@captures("if")
def _judged(ctx: EffectContext, params: dict[str, object]) -> str | None:
    """SV-O-05: the condition of 「…なら」 is judged when the effect triggers (「プレイするとき既に覚醒状態なら」)."""
    p: IfParams = SV.effects["if"].parse(params)
    if p.at == "resolution":
        return None  # judged as the step runs (SV-O-08)
    return "yes" if SV.check(ctx, p.condition, p.condition_params) else "no"


@SV.effect("if", IfParams)
def if_(ctx: EffectContext, p: IfParams) -> Procedure:
    """Carry out ``then`` if ``condition`` held when the ability triggered (SV-O-05), else ``else`` (if given); the
    rest of the text goes on either way (a condition on one sentence, not on the whole ability)."""
    n = ctx.bound.get("ifs_run", 0)
    ctx.bound["ifs_run"] = n + 1
    steps = [i for i, s in enumerate(step_effects(ctx)) if s.name == "if"]
    if p.at == "resolution":
        held = SV.check(ctx, p.condition, p.condition_params)
    else:
        held = n < len(steps) and captured(ctx, steps[n]) == "yes"
    if held:
        yield from SV.run_effect(ctx, p.then, p.params)
    elif p.otherwise:
        yield from SV.run_effect(ctx, p.otherwise, p.else_params)


# -- a value counted once ---------------------------------------------------------------------------------------


class LetParams(Struct, frozen=True, forbid_unknown_fields=True):
    name: Annotated[str, Meta(min_length=1)]  # what later steps call it: the amount { named = "<name>" }
    amount: Amount


@captures("let")
def _counted_at_trigger(ctx: EffectContext, params: dict[str, object]) -> str:
    """The count as it is when the effect triggers, recorded (SV-O-S03 shows it); used under the option
    ``count_timing = "trigger"`` (SV-O-08), else counted again at resolution."""
    p: LetParams = SV.effects["let"].parse(params)
    return str(peek(ctx, p.amount))


@SV.effect("let", LetParams, asks=False)
def let(ctx: EffectContext, p: LetParams) -> Procedure:
    """Count once what later steps read as ``{ named = "<name>" }`` (「+X/+Xする。Xが3以上なら…」): at the
    resolution stage (SV-O-08), or when the effect triggered under the option ``count_timing = "trigger"``."""
    n = ctx.bound.get("lets_run", 0)
    ctx.bound["lets_run"] = n + 1
    lets = [i for i, s in enumerate(step_effects(ctx)) if s.name == "let"]
    taken = captured(ctx, lets[n]) if n < len(lets) else None
    at_trigger = ctx.engine.options.count_timing == "trigger" and taken
    value = int(taken) if at_trigger and taken else evaluate(ctx, p.amount, p.name)
    ctx.bound.setdefault(NAMED, {})[p.name] = value
    return
    yield


def _names_read(raw: object) -> Iterator[str]:
    """Every ``{ named = ... }`` in a step's parameters."""
    if isinstance(raw, dict):
        if isinstance(raw.get("named"), str):
            yield raw["named"]
        for value in raw.values():
            yield from _names_read(value)
    elif isinstance(raw, list):
        for value in raw:
            yield from _names_read(value)


def check_named(pool: CardPool) -> None:
    """An amount ``{ named = "x" }`` reads a value an earlier ``let`` of the same ability counted: refused at load,
    naming card, ability and path, where nothing named it yet — in a condition judged when the ability triggers,
    or before the ``let`` (it would read nothing)."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            base = f"$.abilities[{n}]"
            for k, cond in enumerate(ability.conditions):
                for name in _names_read(cond.params):
                    raise CardFileError(pool.name, f"named {name!r} is read when the ability triggers, before any "
                                        "step counts it", card.id, f"{base}.conditions[{k}]", ability.id)
            named: set[str] = set()
            for k, step in enumerate(ability.effects):
                params = dict(step.params)
                if step.name == "if" and params.get("at", "trigger") == "trigger":
                    for name in _names_read(params.pop("condition_params", {})):
                        raise CardFileError(pool.name, f"named {name!r} is read when the ability triggers (say "
                                            "at = \"resolution\")", card.id, f"{base}.effects[{k}]", ability.id)
                for name in _names_read(params):
                    if name not in named:
                        raise CardFileError(pool.name, f"named {name!r}: no earlier let step of the ability "
                                            "counts it", card.id, f"{base}.effects[{k}]", ability.id)
                if step.name == "let":
                    named.add(str(params["name"]))
