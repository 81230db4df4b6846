"""Duel Masters zones and the moves every rule is made of (draw, tap, destroy, put), as events.

Zones: deck, hand, mana, battle, shields, graveyard, and hold — where cards used together by one effect wait
to be processed one at a time (DM-W-36). A card under an evolution creature is in the pseudo-zone "under".
"""

from __future__ import annotations

from collections.abc import Iterable

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine import board as kit
from statemachine import replacements
from statemachine.board import draw, in_zone, is_tapped, kind_of, move, move_all, set_tapped, views, zone
from statemachine.context import EffectContext
from statemachine.engine import Engine

DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD = "deck", "hand", "mana", "battle", "shields", "graveyard", "hold"
ZONES = (DECK, HAND, MANA, BATTLE, SHIELDS, GRAVEYARD, HOLD)
# A card field: 攻撃中、このクリーチャーのパワーは+N (an amount computed as it battles; combat.power_while_attacking)
POWER_WHILE_ATTACKING = "power_while_attacking"
# A card field: 「このクリーチャーが破壊される時、墓地に置くかわりに<zone>に置く」 (破壊置換, DM-GAME-REPLACE)
DESTROYED_TO = "destroyed_to"
EXTRA_TURNS = "extra_turns"  # a player's counter of extra turns waiting (DM-GAME-EXTRA-TURN)
END_OF_TURN = "end_of_turn"  # a Modifier's ``until``: 「このターン」, ended as the turn ends (``lasting.turn_ended``)
# A player's rule for the turn: their creatures ignore the effects that stop them attacking players (ダイヤモンド状態)
ATTACK_PLAYERS_UNRESTRICTED = "attack_players_unrestricted"
RULE = "rule"  # the Modifier kind of a rule of the turn, on a player (``target`` = -1 - player)
# A Modifier kind: a creature watched this turn by an ability of the effect's card (``value``), for its controller
# (``amount``): 「このターン、…した時」 (``steps.watch_this_turn``); the triggers it may watch, fired by the game itself
WATCH, WATCHABLE = "watch", ("blocks", "battles")
GRAVEYARD_AFTER_BATTLE = "graveyard_after_battle"  # a mark: put into the graveyard after its next battle (pool 1.6)

# Why a card moved: ZoneChanged.cause. "summon" is the only way into the battle zone that taps mana for it.
SUMMON, PUT, DESTROY, BATTLE_LOST, BREAK, BOUNCE, DRAW, CHARGE, CAST, DISCARD = (
    "summon", "put", "destroy", "battle", "break", "bounce", "draw", "charge", "cast", "discard")
TO_GRAVEYARD = "to_graveyard"  # 「墓地に置く」: put into the graveyard by an effect, not destroyed (pool 1.6)


def creatures(state: GameState, player: int) -> list[int]:
    return [o for o in state.zone(zone(player, BATTLE)) if "creature" in state.facts(o).printed.types]


def race_fits(races: Iterable[str], words: Iterable[str], subtypes: Iterable[str]) -> bool:
    """進化—自分の<race>1体の上に置く (DM-GAME-EVOLVE): one of ``subtypes`` is one of ``races`` (``evolves_from``) or
    holds one of ``words`` as a whole word of its name (``evolves_from_word``: 「ドラゴン」 is アーマード・ドラゴン,
    Armored Dragon, but not ドラゴノイド, Dragonoid, whose name does not hold the word ドラゴン)."""
    have = tuple(subtypes)
    return bool(set(races) & set(have)) or any(f" {w} " in f" {race} " for w in words for race in have)


def destroy(engine: Engine, oids: Iterable[int], cause: str = DESTROY) -> None:
    """Destroy creatures at the same time: they and the cards under them go to their owners' graveyards, or where a
    replacement effect sends them instead (``destroyed_to``), all as one group of moves."""
    st = engine.state
    moving = [(o, kit.owner_zone(st, o, where)) for top in oids if top in st.objects
              for where in (destroyed_to(engine, top),) for o in kit.with_under(st, [top])]
    if moving:
        engine.emit(*kit.move_all(engine, moving, cause))


def destroyed_to(engine: Engine, oid: int) -> str:
    """Where a creature being destroyed goes (DM-GAME-REPLACE, 破壊置換): the graveyard, or what a replacement effect
    in force says instead (the kernel's ``instead`` effects, "graveyard><zone>"), or its own printed 「破壊される時、
    墓地に置くかわりに…」 (card field ``destroyed_to``) unless its abilities are ignored. The cards under it go with it
    (SPEC Part 4 #16). It is still destroyed: 「破壊された時」 abilities trigger (``triggers._destroyed``)."""
    st = engine.state
    instead = replacements.instead(st, oid, GRAVEYARD)
    if instead:
        return instead
    own = engine.profile.pool[st.facts(oid).definition].fields.get(DESTROYED_TO)
    return str(own) if own and not view(st, oid).abilities_ignored else GRAVEYARD


def to_owner(engine: Engine, oids: Iterable[int], where: str, cause: str) -> None:
    """Put creatures (with the cards under them) into their owners' ``where`` zones at the same time."""
    kit.put_into_owners(engine, oids, where, cause)



STATIC = "static"  # the ability kind of a static ability (常在型能力, ``statics.py``)
STARTED = "statics"  # status of a creature whose static abilities' effects have started


def start_statics(engine: Engine, oid: int) -> None:
    """Start the static abilities' effects of the creature that has just entered the battle zone as ``oid`` (once:
    marked ``STARTED``; DM-GAME-STATIC)."""
    st = engine.state
    obj = st.objects[oid]
    card = engine.profile.pool.cards.get(st.cards[obj.card].definition)
    statics = [a for a in card.abilities if a.kind == STATIC] if card is not None else []
    if not statics or obj.status.get(STARTED):
        return
    engine.emit(ev.StatusSet(oid, STARTED, 1))
    for ability in statics:
        ctx = EffectContext(engine, controller=obj.controller, source=oid, source_card=obj.card, ability=ability.id)
        for step in ability.effects:
            for _ in engine.profile.vocabulary.run_effect(ctx, step.name, step.params):
                raise AssertionError("a static effect does not ask")


def start_all_statics(engine: Engine) -> None:
    """Start the static abilities of creatures in the battle zone whose effects have not started: those a board was
    set up with (a scenario, a reconstruction), which entered by no move. Run with the state check."""
    st = engine.state
    for p in range(len(st.players)):
        for oid in creatures(st, p):
            start_statics(engine, oid)


def attack_players_unrestricted(engine: Engine, player: int) -> bool:
    """Whether a rule of the turn lets ``player``'s creatures ignore what stops them attacking players."""
    return any(m.kind == RULE and m.target == -1 - player and m.value == ATTACK_PLAYERS_UNRESTRICTED
               for m in engine.state.modifiers.values())


# The kernel's board toolkit (statemachine.board), named here so Duel Masters' rules read board.move(...).
__all__ = ["draw", "in_zone", "is_tapped", "kind_of", "move", "move_all", "set_tapped", "views", "zone"]
