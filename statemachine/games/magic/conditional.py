"""Steps that carry other steps, done or not as a player chooses or as a condition holds (rules 1.6).

- ``may``: "you may [steps]" (CR 603.5: the choice is made as the ability resolves), or, with ``pay``, "[that
  player] may pay {N}. If they do, [steps]" (the payment is optional and made with mana abilities as any payment,
  MTG-P-06).
- ``if``: "if [condition], [steps]; otherwise [steps]", and "[steps] unless [condition]" (a condition of the
  vocabulary, judged as the step is carried out, CR 608.2c: the instructions are followed in order).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct, field

from statemachine.cards import EffectDef
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.games.magic import mana
from statemachine.games.magic.select import players
from statemachine.games.magic.vocab import MTG
from statemachine.vocabulary import Procedure

YES, NO = "yes", "no"


def _carried(name: str, steps: list[EffectDef]) -> list[tuple[str, str, dict[str, object]]]:
    return [(f"{name}[{k}]", e.name, e.params) for k, e in enumerate(steps)]


def _no_targets(name: str, steps: list[EffectDef]) -> list[tuple[str, str]]:
    return [(f".{name}", "names no target (targets are chosen as the ability is put on the stack)")] if any(
        e.name == "target" for e in steps) else []


class MayParams(Struct, frozen=True, forbid_unknown_fields=True):
    then: list[EffectDef]  # what is done if the player chooses to (and pays)
    # who chooses (and pays): you, or the player whose turn it is ("that player" of an upkeep trigger)
    who: Literal["you", "active"] = "you"
    pay: str = ""  # mana symbols the player may pay ("4"); empty: a plain "you may"

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        return _carried("then", self.then)

    def problems(self) -> list[tuple[str, str]]:
        out = [] if self.then else [(".then", "says what is done: one step or more")]
        if self.pay:
            try:
                mana.parse(self.pay)
            except ValueError as exc:
                out.append((".pay", str(exc)))
        return out + _no_targets("then", self.then)


@MTG.effect("may", MayParams)
def may(ctx: EffectContext, p: MayParams) -> Procedure:
    """"You may [steps]" (CR 603.5), or "[that player] may pay {N}. If they do, [steps]": the player chooses as
    it resolves (and pays, activating mana abilities as in any payment); declined or unpaid, nothing of it is
    done."""
    found = players(ctx, p.who)
    if not found:
        return
    player = found[0]
    if p.pay:
        cost = mana.parse(p.pay)
        done = yield from mana.pay(ctx.engine, player, cost, ctx.effect, optional=True,
                                   prompt=f"you may pay {cost} (decline: it is not done)")
    else:
        answer = yield Request(player, "may", "you may: " + ", then ".join(e.name for e in p.then), (YES, NO),
                               effect=ctx.effect, rule="CR 603.5")
        done = str(answer[0]) == YES
    if done:
        vocab = ctx.engine.profile.vocabulary
        for step in p.then:
            yield from vocab.run_effect(ctx, step.name, step.params)


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    condition: str  # a condition of the vocabulary
    condition_params: dict[str, Any] = field(default_factory=dict)
    then: list[EffectDef] = field(default_factory=list)  # done if it holds
    otherwise: list[EffectDef] = field(default_factory=list)  # done if it does not ("unless": only these)

    def judged(self) -> list[tuple[str, str, dict[str, Any]]]:
        return [("condition", self.condition, self.condition_params)]

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        return _carried("then", self.then) + _carried("otherwise", self.otherwise)

    def problems(self) -> list[tuple[str, str]]:
        out = [] if self.then or self.otherwise else [("", "does nothing either way: say then or otherwise")]
        return out + _no_targets("then", self.then) + _no_targets("otherwise", self.otherwise)


@MTG.effect("if", IfParams)
def if_(ctx: EffectContext, p: IfParams) -> Procedure:
    """"If [condition], [steps]; otherwise [steps]" — "[steps] unless [condition]" is its ``otherwise`` alone: the
    condition is judged as the step is carried out (CR 608.2c), not as the ability triggered."""
    vocab = ctx.engine.profile.vocabulary
    steps = p.then if vocab.check(ctx, p.condition, p.condition_params) else p.otherwise
    for step in steps:
        yield from vocab.run_effect(ctx, step.name, step.params)
