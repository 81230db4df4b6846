"""Static abilities while a condition holds (SV-GAME-STATIC): 「復讐状態なら、疾走を持つ」 (ダークジェネラル),
「相手の場にフォロワーが2体以上いるなら、このフォロワーは相手のリーダーを攻撃できない」 (バハムート), 「覚醒 +2/+0」.

A card writes one as an ability of kind ``static`` with no trigger, whose steps are ``has_keyword`` or
``has_stats`` and whose ``conditions`` are any of the vocabulary's: while the card is on the field with its
abilities and every condition holds, it has those keywords and stats.

- Keywords start and end nothing: the condition is read each time the rules read the keyword (the attacks listed
  as legal, an attack declared), so it is never stale, and it records nothing — what it allows or forbids is the
  decision the log records.
- Stats are read everywhere (a clash, a count, the state check), so they are events: the state check (before each
  resolution and each decision, SV-O-27) starts the modification as the condition comes to hold and ends it as it
  stops holding (``reconcile``), before it looks for followers at 0 defense.
- A replacement (``replaces``, ブラッドムーン 「フォロワーが破壊されるかわりに消滅する」, from pool 1.6) is the kernel's
  replacement effect (``statemachine.replacements``), started and ended by the same state check, followers' and
  amulets' alike, and lost the moment its card leaves the field (``board.WHILE_ON``, SV-O-80).

- A cost (``costs_less``, マグナゼロ: 1 less for each time Resonance began or ended, from pool 1.7) is read in the hand,
  each time the rules read what playing the card costs (``actions.play_cost``): an amount, recording nothing.

``check_statics`` refuses, at load, a static step outside a static ability and a static ability with a step the
rules never read.
"""

from __future__ import annotations

import msgspec
from msgspec import Struct

from eventsource import events as ev
from projections.characteristics import view
from statemachine import replacements
from statemachine.amounts import Amount, peek
from statemachine.cards import AbilityDef, CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.effects.targets import SV
from statemachine.games.shadowverse.replacing import REPLACED_TYPES, StaticReplacesParams, replacement_value
from statemachine.loader import CardFileError
from statemachine.vocabulary import Procedure

STATIC = "static"
STATIC_STEPS = ("has_keyword", "has_stats", "replaces", "costs_less")  # the steps a static ability may have
STARTED_STEPS = ("has_stats", "replaces")  # those the state check starts and ends as events
MARK = "static:"  # ``value`` of the modifications ``reconcile`` starts: "static:<ability>"


def keywords(engine: Engine, oid: int) -> tuple[str, ...]:
    """The keywords ``oid`` has now: its own and granted ones, and those of its static abilities whose
    conditions hold (judged now, for the object's controller: SV-GAME-STATIC)."""
    st = engine.state
    seen = view(st, oid)
    own = seen.chars.keywords
    if seen.abilities_ignored or not board.on_field(st, oid):
        return own
    card = engine.profile.pool.cards.get(seen.definition)
    if card is None:
        return own
    extra: list[str] = []
    for ability in card.abilities:
        if not always_on(ability) or ability.id not in seen.chars.abilities:
            continue
        ctx = EffectContext(engine, controller=seen.controller, source=oid, source_card=seen.card,
                            ability=ability.id)
        if all(SV.check(ctx, c.name, c.params) for c in ability.conditions):
            extra += [str(step.params["keyword"]) for step in ability.effects if step.name == "has_keyword"]
    return own + tuple(dict.fromkeys(k for k in extra if k not in own))


class StaticCostParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: Amount  # how much less, computed as the cost is read (a counter: ``{ stat = "resonance_changes" }``)


@SV.effect("costs_less", StaticCostParams, asks=False)
def costs_less(ctx: EffectContext, p: StaticCostParams) -> Procedure:
    """Static (SV-GAME-STATIC, SV-GAME-PLAY): while the card is in its owner's hand and the ability's conditions hold,
    playing it costs ``amount`` less, never below 0 (マグナゼロ: 1 less for each time Resonance began or ended,
    SV-O-51). Read by ``actions.play_cost``; allowed only in an ability of kind ``static``, never carried out."""
    raise AssertionError(f"the static step costs_less ({p.amount}) is read, never resolved")
    yield


def cost_cut(engine: Engine, oid: int) -> int:
    """How much less playing ``oid`` costs now by its static ``costs_less`` abilities (conditions judged now, for its
    controller; nothing recorded: what it allows is the decision the log records)."""
    st = engine.state
    seen = view(st, oid)
    card = engine.profile.pool.cards.get(seen.definition)
    if card is None or seen.abilities_ignored:
        return 0
    cut = 0
    for ability in card.abilities:
        steps = [step for step in ability.effects if step.name == "costs_less"]
        if not steps or not always_on(ability) or ability.id not in seen.chars.abilities:
            continue
        ctx = EffectContext(engine, controller=seen.controller, source=oid, source_card=seen.card, ability=ability.id)
        if all(SV.check(ctx, c.name, c.params) for c in ability.conditions):
            cut += sum(peek(ctx, msgspec.convert(step.params, StaticCostParams).amount) for step in steps)
    return cut


def always_on(ability: AbilityDef) -> bool:
    """A static ability with no trigger: in force while its card is on the field (a static ability with a
    trigger is one a card gives its leader, ``grant_leader``)."""
    return ability.kind == STATIC and ability.trigger is None


def check_statics(pool: CardPool) -> None:
    """A static step belongs to a static ability with no trigger, and such an ability holds static steps only
    (checked at load, naming card, ability and path): elsewhere neither would ever be read."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if (step.name in STATIC_STEPS) != always_on(ability):
                    why = (f"{step.name!r} is read only in a static ability with no trigger"
                           if not always_on(ability) else
                           f"a static ability with no trigger holds only {', '.join(STATIC_STEPS)}, not "
                           f"{step.name!r}")
                    raise CardFileError(pool.name, why, card.id, f"$.abilities[{n}].effects[{k}].name",
                                        ability.id)


def _started(pool: CardPool) -> dict[str, list[AbilityDef]]:
    """The cards of a pool with static stats or replacements, and those abilities (computed once per pool)."""
    memo: tuple[CardPool, dict[str, list[AbilityDef]]] | None = _MEMO.get(id(pool))
    if memo is None or memo[0] is not pool:
        found = {c.id: [a for a in c.abilities if always_on(a) and any(s.name in STARTED_STEPS for s in a.effects)]
                 for c in pool.cards.values()}
        memo = (pool, {k: v for k, v in found.items() if v})
        _MEMO[id(pool)] = memo
    return memo[1]


_MEMO: dict[int, tuple[CardPool, dict[str, list[AbilityDef]]]] = {}


def reconcile(engine: Engine) -> None:
    """Start the static stats and replacements whose conditions hold now and end those whose conditions no longer
    hold (the turn player's cards first, left to right). A pool without them is not looked at."""
    cards = _started(engine.profile.pool)
    if not cards:
        return
    st = engine.state
    for p in (st.active, 1 - st.active):
        for o in board.field(st, p):
            seen = view(st, o)
            for ability in cards.get(seen.definition, ()):
                mark = MARK + ability.id
                running = sorted(m.effect for m in st.modifiers.values()
                                 if m.source == o and m.value in (mark, *map(replacement_value, _replacing(ability))))
                ctx = EffectContext(engine, controller=seen.controller, source=o, source_card=seen.card,
                                    ability=ability.id)
                holds = not seen.abilities_ignored and ability.id in seen.chars.abilities and all(
                    SV.check(ctx, c.name, c.params) for c in ability.conditions)
                if holds and not running:
                    _start(engine, o, ability, mark)
                elif running and not holds:
                    engine.emit(*[ev.ContinuousEffectEnded(e) for e in running])


def _replacing(ability: AbilityDef) -> list[StaticReplacesParams]:
    return [msgspec.convert(step.params, StaticReplacesParams) for step in ability.effects if step.name == "replaces"]


def _start(engine: Engine, oid: int, ability: AbilityDef, mark: str) -> None:
    events: list[ev.Event] = []
    eid = engine.state.next_effect
    for p in _replacing(ability):  # every follower (or amulet) on either side, while this is on the field
        events.append(replacements.replacement(eid, oid, replacements.ANY, p.what, p.instead, board.WHILE_ON,
                                               only=REPLACED_TYPES[p.of]))
        eid += 1
    for step in ability.effects:
        if step.name != "has_stats":
            continue
        for kind, key in (("power", "attack"), ("toughness", "defense")):
            amount = int(step.params.get(key, 0))
            if amount:
                events.append(ev.ContinuousEffectStarted(eid, oid, kind, oid, amount=amount, value=mark))
                eid += 1
    if events:
        engine.emit(*events)
