"""Attacking, blocking, battles, breaking shields and S-Trigger."""

from __future__ import annotations

from collections.abc import Generator

from eventsource import events as ev
from projections.characteristics import view
from statemachine.amounts import evaluate
from statemachine.context import EffectContext
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.duel_masters import board
from statemachine.games.duel_masters.actions import cast_spell, declaration_window, enter_battle
from statemachine.games.duel_masters.board import (
    BATTLE,
    BATTLE_LOST,
    BREAK,
    GRAVEYARD,
    GRAVEYARD_AFTER_BATTLE,
    HAND,
    POWER_WHILE_ATTACKING,
    SHIELDS,
    TO_GRAVEYARD,
    zone,
)
from statemachine.games.duel_masters.triggers import fire_on
from statemachine.vocabulary import Answer, Procedure

DIRECT_ATTACK = "direct attack"


def can_attack(engine: Engine, player: int, attacker: int, target: int | None) -> str | None:
    st = engine.state
    if attacker not in board.creatures(st, player):
        return "the attacker must be one of your creatures in the battle zone"
    if board.is_tapped(st, attacker):
        return "a tapped creature cannot attack"
    v = view(st, attacker)
    # ダイヤモンド状態 (``lasting.lift_attack_limits``): this turn nothing stops the player's creatures attacking
    # players
    if target is None and board.attack_players_unrestricted(engine, player):
        return None
    if v.status.get("sick") and "speed_attacker" not in v.chars.keywords:
        return "a creature cannot attack the turn it was put into the battle zone (summoning sickness)"
    if "cant_attack" in v.chars.keywords:
        return "this creature cannot attack (攻撃できない)"
    if target is None and "cant_attack_players" in v.chars.keywords:
        return "this creature cannot attack players (相手プレイヤーを攻撃できない)"
    if target is not None:
        if target not in board.creatures(st, engine.opponent(player)):
            return "a creature can only attack an opposing creature"
        if not board.is_tapped(st, target) and ATTACKS_UNTAPPED not in v.chars.keywords:
            return "only a tapped creature can be attacked"
    return None


ATTACKS_UNTAPPED = "attacks_untapped"  # 「このクリーチャーは、タップされていないクリーチャーを攻撃できる」


ATTACKS_IF_ABLE = "attacks_if_able"
UNBLOCKABLE_BY_POWER = "unblockable_by_power_at_most_"  # + N: no creature of power N or less may block it


def must_attack(engine: Engine, player: int) -> list[int]:
    """可能であれば毎ターン攻撃する (DM-GAME-ATTACK): the player's creatures with ``attacks_if_able`` that could
    attack now, a player or a creature; the attack step cannot end while one is left (an attack taps it)."""
    st = engine.state
    return [a for a in board.creatures(st, player) if ATTACKS_IF_ABLE in view(st, a).chars.keywords
            and any(can_attack(engine, player, a, t) is None
                    for t in [None, *board.creatures(st, engine.opponent(player))])]


def current_attacker(engine: Engine, attacker: int) -> int | None:
    """The attacking creature now: the one on top if something evolved onto it (侵略), None if it left."""
    obj = engine.state.objects.get(attacker)
    while obj is not None and obj.on is not None:
        obj = engine.state.objects.get(obj.on)
    if obj is None or board.kind_of(obj.zone) != BATTLE:
        return None
    return obj.id


def attack(engine: Engine, player: int, attacker: int, target: int | None) -> Procedure:
    defender = engine.opponent(player)
    board.set_tapped(engine, [attacker], True)
    engine.emit(ev.Attacked(attacker, None if target is not None else defender, target))
    yield from declaration_window(engine)
    yield from engine.policy.settle(engine)  # type: ignore[attr-defined]  # "when attacks" resolves first
    now = current_attacker(engine, attacker)
    if now is None:
        return
    blocked = yield from block(engine, defender, now)
    if blocked is not None and fire_on(engine, "blocks", blocked):
        # 「ブロックした時」 (DM-GAME-BLOCK): the blocker's abilities resolve before the battle
        yield from engine.policy.settle(engine)  # type: ignore[attr-defined]
        now = current_attacker(engine, attacker)
        if now is None:
            after_attack(engine, attacker)
            return
    foe = blocked if blocked is not None else target
    if foe is not None and foe in engine.state.objects and fire_on(engine, "battles", now, foe):
        # 「バトルする時」 (DM-GAME-BATTLE): both creatures' abilities resolve before the battle
        yield from engine.policy.settle(engine)  # type: ignore[attr-defined]
        now = current_attacker(engine, attacker)  # (the attacker may have left meanwhile)
        if now is None:
            after_attack(engine, attacker)
            return
    if blocked is not None:
        battle(engine, now, blocked, attacking=True)
    elif target is not None:
        if target in engine.state.objects:
            battle(engine, now, target, attacking=True)
    else:
        yield from hit_player(engine, player, defender, now)
    yield from engine.policy.settle(engine)  # type: ignore[attr-defined]
    after_attack(engine, attacker)


def block(engine: Engine, defender: int, attacker: int) -> Generator[Request, Answer, int | None]:
    """The defender may block with an untapped blocker; returns the blocker, if any."""
    st = engine.state
    keywords = view(st, attacker).chars.keywords
    if "unblockable" in keywords:
        return None  # DM-GAME-BLOCK: 「このクリーチャーはブロックされない」
    # DM-GAME-BLOCK (pool 1.6): 「パワーN以下のクリーチャーにブロックされない」
    weak = max((int(k.removeprefix(UNBLOCKABLE_BY_POWER)) for k in keywords if k.startswith(UNBLOCKABLE_BY_POWER)),
               default=-1)
    blockers = [o for o in board.creatures(st, defender)
                if not board.is_tapped(st, o) and "blocker" in view(st, o).chars.keywords and view(st, o).power > weak]
    if not blockers:
        return None
    answer = yield Request(defender, "block", "you may block with one of your blockers", tuple(blockers), 0, 1,
                           rule="DM-GAME-BLOCK")
    if not answer:
        return None
    chosen = int(answer[0])
    board.set_tapped(engine, [chosen], True)
    return chosen


def battle(engine: Engine, a: int, b: int, *, attacking: bool = False) -> None:
    """The creature with the lower power is destroyed; with equal power both are, at the same time.

    ``attacking``: ``a`` is the attacking creature, so パワーアタッカー+N adds N to its power
    (DM-GAME-POWER-ATTACKER). スレイヤー (DM-GAME-SLAYER): after the battle, the creature a slayer battled is
    destroyed, whether the slayer won or lost (both read as they were in the battle)."""
    st = engine.state
    if a not in st.objects or b not in st.objects:
        return
    va, vb = view(st, a), view(st, b)
    pa, pb = va.power + (power_attacker(va.chars.keywords) + power_while_attacking(engine, a) if attacking
                         else 0), vb.power
    losers = [a, b] if pa == pb else [b] if pa > pb else [a]
    slain = [o for o, v in ((b, va), (a, vb)) if "slayer" in v.chars.keywords]
    board.destroy(engine, losers, BATTLE_LOST)
    left = [o for o in slain if o not in losers and o in st.objects and board.kind_of(st.objects[o].zone) == BATTLE]
    if left:
        board.destroy(engine, left)
    _ended(engine, "end_of_battle", "destroy_after_battle", {a, b})


def _ended(engine: Engine, until: str, doom: str, only: set[int] | None = None) -> None:
    """Marks that last until ``until`` end (those on ``only``, if given); creatures marked ``doom`` that are still in
    the battle zone are destroyed (「攻撃の後」/「バトルの後、このクリーチャーを破壊する」, ``steps.destroy_after``);
    after a battle, those marked to go to the graveyard go there (``steps.put_into_graveyard_after_battle``)."""
    st = engine.state
    marks = [m for m in st.modifiers.values() if m.until == until and (only is None or m.target in only)]
    here = [m for m in marks if m.target in st.objects and board.kind_of(st.objects[m.target].zone) == BATTLE]
    doomed = [m.target for m in here if m.value == doom]
    buried = [m.target for m in here if doom and m.value == GRAVEYARD_AFTER_BATTLE and m.target not in doomed]
    if marks:
        engine.emit(*[ev.ContinuousEffectEnded(m.effect) for m in marks])
    if doomed:
        board.destroy(engine, doomed)
    if buried:
        board.to_owner(engine, [o for o in buried if o in st.objects], GRAVEYARD, TO_GRAVEYARD)


def power_attacker(keywords: tuple[str, ...]) -> int:
    """パワーアタッカー+N: the N of a ``power_attacker_<N>`` keyword (0 without one)."""
    return sum(int(k.removeprefix("power_attacker_")) for k in keywords if k.startswith("power_attacker_"))


def power_while_attacking(engine: Engine, attacker: int) -> int:
    """攻撃中、このクリーチャーのパワーは+N (card field ``power_while_attacking``, DM-GAME-POWER-ATTACKER): N is
    an amount computed as the battle is fought (《ボルシャック・ドラゴン》: 1000 for each fire card in your graveyard),
    recorded as an AmountComputed event; 0 for a card without the field."""
    st = engine.state
    card = engine.profile.pool[st.facts(attacker).definition]
    amount = card.fields.get(POWER_WHILE_ATTACKING)
    if amount is None:
        return 0
    ctx = EffectContext(engine, controller=st.objects[attacker].controller, source=attacker,
                        source_card=st.objects[attacker].card, ability=POWER_WHILE_ATTACKING)
    return evaluate(ctx, amount, POWER_WHILE_ATTACKING)


def breaker_count(engine: Engine, attacker: int) -> int:
    keywords = view(engine.state, attacker).chars.keywords
    return 3 if "t_breaker" in keywords else 2 if "w_breaker" in keywords else 1


def hit_player(engine: Engine, player: int, defender: int, attacker: int) -> Procedure:
    st = engine.state
    shields = list(st.zone(zone(defender, SHIELDS)))
    if not shields:
        engine.emit(ev.PlayerLost(defender, DIRECT_ATTACK), ev.GameEnded(player, DIRECT_ATTACK))
        return
    n = min(breaker_count(engine, attacker), len(shields))
    if n < len(shields):
        answer = yield Request(player, "shields", f"choose {n} shield(s) to break", tuple(shields), n, n,
                               rule="DM-GAME-BREAK")
        chosen = [int(a) for a in answer]
    else:
        chosen = shields
    broken = board.move_all(engine, [(o, zone(defender, HAND)) for o in chosen], BREAK)
    engine.emit(*broken)
    yield from shield_triggers(engine, defender, [e.new for e in broken])


def shield_triggers(engine: Engine, owner: int, cards: list[int]) -> Procedure:
    """S-Trigger: a broken shield with S-Trigger may be used at once, for free (DM-W-12 (a))."""
    for oid in cards:
        st = engine.state
        if oid not in st.zone(zone(owner, HAND)):
            continue
        v = view(st, oid)
        if "s_trigger" not in v.chars.keywords:
            continue
        answer = yield Request(owner, "may", f"use the S-Trigger of {v.chars.name}?", ("yes", "no"),
                               rule="DM-W-12")
        if answer and answer[0] == "yes":
            if "spell" in v.chars.types:
                yield from cast_spell(engine, owner, oid)
            else:
                enter_battle(engine, oid, owner, board.PUT)


def after_attack(engine: Engine, attacker: int) -> None:
    """「攻撃の後」 effects happen now; marks made for this attack end."""
    st = engine.state
    marks = [m for m in st.modifiers.values() if m.until == "end_of_attack"]
    doomed = [m.target for m in marks if m.value == "destroy_after_attack" and m.target in st.objects]
    if marks:
        engine.emit(*[ev.ContinuousEffectEnded(m.effect) for m in marks])
    if doomed:
        board.destroy(engine, doomed)
    _ended(engine, "end_of_battle", "")  # a 「バトルの後」 mark whose battle never came

