"""Effects that last (card pool 1.5): 「このターン」 grants of keywords and power, the rule of the turn that lifts the
restrictions on attacking players (ダイヤモンド状態), and 「破壊される時、墓地に置くかわりに…」 (破壊置換).

Each lasting effect is a continuous effect in force (``ContinuousEffectStarted``, a ``Modifier`` of the projection)
that the turn's end ends (``turn_ended``). Where a destroyed creature goes instead of the graveyard is read by
``board.destroyed_to``, through the kernel's replacement effects (``statemachine.replacements``).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from eventsource import events as ev
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.duel_masters.board import ATTACK_PLAYERS_UNRESTRICTED, END_OF_TURN, RULE
from statemachine.games.duel_masters.effects import DM
from statemachine.games.duel_masters.pieces import ActParams, acted_on
from statemachine.vocabulary import Keyword, Procedure


class GrantParams(ActParams, frozen=True, forbid_unknown_fields=True):
    """The creatures a grant acts on (as ``tap``: ``which``, ``what``, ``count``, ``may``) and what they get."""

    keywords: tuple[Keyword, ...] = ()  # keywords they have this turn (「…を得る」)
    power: int = 0  # more (or less) power this turn (「パワーを+N する」)
    signed = ("power",)  # the loader lets this one parameter be negative (a power minus)

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems()
        if not self.keywords and not self.power:
            found.append((".keywords", "a grant must give a keyword or power"))
        return found


@DM.effect("grant", GrantParams)
def grant(ctx: EffectContext, p: GrantParams) -> Procedure:
    """「このターン、そのクリーチャーは…を得る」: the selected creatures have the keywords and the power this turn
    (DM-GAME-GRANT; 《マグマ・ゲイザー》: パワーアタッカー+4000 and W・ブレイカー). Each is its own continuous effect,
    ended as the turn ends; one that leaves the battle zone loses them (a new object, DM-W-06)."""
    yield from acted_on(ctx, p, "give it this turn's effect")
    st = ctx.state
    chosen = [o for o in ctx.bound["chosen"] if o in st.objects]
    eid = st.next_effect
    out: list[ev.Event] = []
    for oid in chosen:
        for kw in p.keywords:
            out.append(ev.ContinuousEffectStarted(eid, ctx.source, "grant_keyword", oid, value=kw, until=END_OF_TURN))
            eid += 1
        if p.power:
            out.append(ev.ContinuousEffectStarted(eid, ctx.source, "power", oid, amount=p.power, until=END_OF_TURN))
            eid += 1
    if out:
        ctx.engine.emit(*out)


class WhoseTurnRule(Struct, frozen=True, forbid_unknown_fields=True):
    whose: Literal["you"] = "you"  # whose creatures (the controller's; the only one any card of the pool names)


@DM.effect("lift_attack_limits", WhoseTurnRule, asks=False)
def lift_attack_limits(ctx: EffectContext, _: WhoseTurnRule) -> Procedure:
    """「このターン、相手プレイヤーを攻撃することができない効果をすべて無視する」 (ダイヤモンド状態, DM-GAME-ATTACK;
    《ダイヤモンド・カッター》): this turn your creatures may attack players even when summoning sickness,
    「攻撃できない」 or 「相手プレイヤーを攻撃できない」 would stop them. It changes a rule, not creatures, so it holds
    for creatures put into the battle zone later in the turn too (dmwiki 《ダイヤモンド・カッター》, ルール・裁定)."""
    ctx.engine.emit(ev.ContinuousEffectStarted(ctx.state.next_effect, ctx.source, RULE, -1 - ctx.controller,
                                               value=ATTACK_PLAYERS_UNRESTRICTED, until=END_OF_TURN))
    return
    yield


def turn_ended(engine: Engine) -> None:
    """「このターン」 effects end as the turn ends (before the next turn's untap step)."""
    ended = [ev.ContinuousEffectEnded(m.effect) for m in engine.state.modifiers.values() if m.until == END_OF_TURN]
    if ended:
        engine.emit(*ended)


