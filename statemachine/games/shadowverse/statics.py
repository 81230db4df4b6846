"""Static abilities while a condition holds (SV-GAME-STATIC): 「復讐状態なら、疾走を持つ」 (ダークジェネラル),
「相手の場にフォロワーが2体以上いるなら、このフォロワーは相手のリーダーを攻撃できない」 (バハムート).

A card writes one as an ability of kind ``static`` whose steps are ``has_keyword`` and whose ``conditions`` are
any of the vocabulary's: while the card is on the field with its abilities and every condition holds now, it has
those keywords. Nothing starts or ends: the condition is read each time the rules read the keyword (the attacks
listed as legal, an attack declared), so it is never stale, and it records nothing — what it allows or forbids is
the decision the log records. ``check_statics`` refuses, at load, a static step outside a static ability and a
static ability with a step the rules never read.
"""

from __future__ import annotations

from projections.characteristics import view
from statemachine.cards import AbilityDef, CardPool
from statemachine.context import EffectContext
from statemachine.engine import Engine
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.effects.targets import SV
from statemachine.loader import CardFileError

STATIC = "static"
STATIC_STEPS = ("has_keyword",)  # the steps a static ability may have (effects.basic)


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
