"""Vision of Phantasm zones and the moves every rule is made of, as events.

Zones per player: deck (山札), hand (手札), node (ノード), field (場), discard (冥界, where 破棄 puts cards),
removed (ゲームから除外, pool 1.6).
The shared zone ``chain`` holds cards that were announced (played) and are not processed yet (VOP-I-09).
A card set under a spell card lies in the pseudo-zone "under".
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Final

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine import board as kit
from statemachine.board import is_tapped, kind_of, move, move_all, set_tapped, zone
from statemachine.board import player_ref as player_target
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.vocabulary import Answer

DECK, HAND, NODE, FIELD, DISCARD = "deck", "hand", "node", "field", "discard"
REMOVED: Final = "excluded"  # ゲームから除外 (pool 1.6): out of the game; nothing brings a card back (VOP-GAME-REMOVED)
CHAIN: Final = "chain"

CHARACTER, SPELL_CARD, COMMAND = "character", "spell_card", "command"
AMBUSH, HASTE = "ambush", "haste"  # 奇襲, 速攻

# Why a card moved (ZoneChanged.cause).
PLAY, ENTER, SET_NODE, DRAW, HAKI, RESOLVED, SET_UNDER, NEGATED, RETURNED = (
    "play", "enter", "set_node", "draw", "haki", "resolved", "set_under", "negated", "return")

# Continuous effects of pool 1.5 (durations.py): 戦闘修正's two halves; a prohibition (value: what it forbids,
# amount: the card); an ability of a card delayed to the end of the turn (amount: the card, value: the ability).
BATTLE_POWER, BATTLE_TOUGHNESS, PROHIBIT, DELAYED = "battle_power", "battle_toughness", "prohibit", "delayed"
HAKI_WHEN_DAMAGED = "haki_when_damaged"  # keyword: (自動γ) ダメージを受けた場合、破棄される
# Continuous effects of pool 1.7 (durations.py): 「戦闘修正の+を-に変更する」 on a character (amount 1: the
# changed modifiers alone never bring its toughness to 0 or below); 「ドローフェイズの規定の効果以外で…ドローする場合、
# そのドローを無効とし、代わりに手札をX枚破棄する」 on a player.
INVERT_BATTLE, DRAWS_TO_DISCARDS = "invert_battle", "draws_to_discards"
DRAW_REPLACED = "draw_replaced"  # ZoneChanged.cause: a card of the hand discarded instead of a draw

LIFE: Final = 20  # [assumed] a player loses once they have taken this much damage (VOP-GAME-LIFE)


def keyword_number(state: GameState, oid: int, word: str, default: int = 0) -> int:
    """The number of a keyword written ``word:N`` (``node:2`` = NODE 2, ``uses:3`` = three uses per card)."""
    for k in view(state, oid).chars.keywords:
        name, _, n = k.partition(":")
        if name == word and n.isdecimal():
            return int(n)
    return default


def types(state: GameState, oid: int) -> tuple[str, ...]:
    return view(state, oid).chars.types


def is_character(state: GameState, oid: int) -> bool:
    return CHARACTER in types(state, oid)


def characters(state: GameState, player: int | None = None) -> list[int]:
    players = range(len(state.players)) if player is None else (player,)
    return [o for p in players for o in state.zone(zone(p, FIELD)) if is_character(state, o)]


def on_field(state: GameState, oid: int) -> bool:
    return kit.is_in(state, oid, FIELD)


def untapped_nodes(state: GameState, player: int) -> list[int]:
    return [o for o in state.zone(zone(player, NODE)) if not is_tapped(state, o)]


def to_discard(engine: Engine, oids: Iterable[int], cause: str) -> None:
    """破棄: cards (and what lies under them) go to their owners' discard piles at the same time."""
    kit.put_into_owners(engine, oids, DISCARD, cause)


def battle_bonus(state: GameState, oid: int, kind: str, base: int = 0) -> int:
    """What the battle modifiers in force add to a character's attack (BATTLE_POWER) or toughness (of ``base``).

    Under 「戦闘修正の+を-に変更する」 (INVERT_BATTLE, pool 1.7) every + modifier counts as -; with its floor, the
    changed modifiers alone never bring the toughness to 0 or below (it is then at least 1)."""
    if not state.modifiers:
        return 0
    mods = [m for m in state.modifiers.values() if m.target == oid]
    amounts = [m.amount for m in mods if m.kind == kind]
    inverted = [m for m in mods if m.kind == INVERT_BATTLE]
    if not inverted:
        return sum(amounts)
    kept = sum(a for a in amounts if a < 0)
    bonus = kept - sum(a for a in amounts if a > 0)
    if kind == BATTLE_TOUGHNESS and any(m.amount for m in inverted) and base + kept > 0:
        bonus = max(bonus, 1 - base)
    return bonus


def prohibition(state: GameState, player: int, what: str) -> str | None:
    """The name of the card whose prohibition in force forbids ``player`` to do ``what`` (VOP-GAME-PROHIBIT)."""
    ref = player_target(player)
    for m in sorted(state.modifiers.values(), key=lambda m: m.effect):
        if m.kind == PROHIBIT and m.target == ref and m.value == what:
            return state.cards[m.amount].printed.name if m.amount in state.cards else "an effect"
    return None


def draw(engine: Engine, player: int, count: int = 1) -> None:
    """Draw one card at a time; trying to draw from an empty deck is remembered: it loses (VOP-GAME-LIFE)."""
    kit.draw(engine, player, count, mark_empty=True)


def draw_by_effect(engine: Engine, player: int, count: int) -> Generator[Request, Answer, None]:
    """An effect's 「Nドローする」 (not the draw phase's prescribed draw). While a DRAWS_TO_DISCARDS effect is on the
    player (pool 1.7), the draw is not made and they discard N cards of their hand instead, choosing them one at a
    time (all of them, without a choice, when they hold no more than are left to discard)."""
    st = engine.state
    if not any(m.kind == DRAWS_TO_DISCARDS and m.target == player_target(player) for m in st.modifiers.values()):
        draw(engine, player, count)
        return
    hand = list(st.zone(zone(player, HAND)))
    chosen: list[int] = []
    while len(chosen) < count and len(chosen) < len(hand):
        left = tuple(o for o in hand if o not in chosen)
        if len(left) <= count - len(chosen):
            chosen += left
            break
        answer = yield Request(player, "discard", f"discard a card of your hand instead of drawing "
                               f"({len(chosen) + 1} of {count})", left, rule="VOP-GAME-DRAW")
        chosen.append(int(answer[0]))
    to_discard(engine, chosen, DRAW_REPLACED)


def damage(engine: Engine, hits: list[tuple[int, int]]) -> None:
    """Deal damage at the same time: ``(target, amount)``; a target below 0 is a player (-1 - player)."""
    st = engine.state
    events: list[ev.Event] = []
    for target, amount in hits:
        if amount <= 0:
            continue
        if target < 0:
            p = -1 - target
            events.append(ev.PlayerStat(p, "damage", st.stat(p, "damage") + amount))
        elif on_field(st, target):
            events.append(ev.StatusSet(target, "damage", st.objects[target].status.get("damage", 0) + amount))
            if HAKI_WHEN_DAMAGED in view(st, target).chars.keywords:  # granted 自動γ: 破棄 arises (VOP-I-16)
                events.append(ev.StatusSet(target, "haki", 1))
    if events:
        engine.emit(*events)


# -- what resolving does to the board (the chain and combat share it) --------------------------------------


def fizzle(engine: Engine, eid: int, reason: str) -> None:
    if eid in engine.state.pending:
        engine.emit(ev.EffectFizzled(eid, reason))


def enter_field(engine: Engine, oid: int, controller: int) -> int:
    """A character enters tapped unless it has 速攻 (Haste: it enters active); a spell card enters active."""
    st = engine.state
    chars = view(st, oid).chars
    moved = move(engine, oid, zone(st.objects[oid].owner, FIELD), ENTER, controller=controller)
    rested = CHARACTER in chars.types and HASTE not in chars.keywords
    engine.emit(moved, *([ev.StatusSet(moved.new, "tapped", 1)] if rested else []))
    return moved.new


# The kernel's board toolkit (statemachine.board), named here so Vision's rules read board.move(...).
__all__ = ["is_tapped", "kind_of", "move", "move_all", "player_target", "set_tapped", "zone"]
