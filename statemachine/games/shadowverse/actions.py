"""What a Shadowverse player does: play a card, evolve, attack — each a procedure of events.

Game rules SPEC does not number carry kifu's own ids (SV-GAME-..), listed in the game's README.
"""

from __future__ import annotations

import msgspec

from eventsource import events as ev
from projections.characteristics import view
from statemachine.cards import TriggerDef
from statemachine.decisions import Request
from statemachine.engine import Engine
from statemachine.games.shadowverse import board, statics
from statemachine.games.shadowverse.board import CASTING, FIELD, FIELD_LIMIT, HAND, LIMBO, PLAY, leader
from statemachine.games.shadowverse.effects.targets import Where
from statemachine.games.shadowverse.fire import fire, granted_instances, healed
from statemachine.games.shadowverse.invariants import FIELD_MARKS
from statemachine.games.shadowverse.queue import OrderedQueue
from statemachine.vocabulary import Procedure

OWN_PLAY = ("fanfare", "cast", "enters")
PLAY_AS = ("crystallize_", "accelerate_")  # keyword prefixes naming the card a card is played as (SV-O-63)
PLAYED_AS = "played_as"  # ZoneChanged.cause: the hand card set aside for the card it is played as


def queue(engine: Engine) -> OrderedQueue:
    policy = engine.policy
    assert isinstance(policy, OrderedQueue)
    return policy


# -- playing ----------------------------------------------------------------------------------------------------


def alternates(chars: ev.Characteristics) -> list[str]:
    """The cards a card may be played as (Crystallize, Accelerate), by definition id."""
    return [k.removeprefix(p) for k in chars.keywords for p in PLAY_AS if k.startswith(p)]


def played_as(engine: Engine, player: int, oid: int) -> str | None:
    """SV-O-63: a Crystallize or Accelerate card is played as a different card from the very start. [ext] It
    is played so when its controller has PP for the alternate's cost but not for its own; otherwise as itself."""
    st = engine.state
    pp = st.stat(player, "pp")
    chars = view(st, oid).chars
    if (chars.cost or 0) <= pp:
        return None
    for alt in alternates(chars):
        if (engine.profile.pool[alt].cost or 0) <= pp:
            return alt
    return None


def can_play(engine: Engine, player: int, oid: int) -> str | None:
    st = engine.state
    if oid not in st.zone(board.zone(player, HAND)):
        return "the card is not in your hand"
    chars = view(st, oid).chars
    alt = played_as(engine, player, oid)
    if alt is not None:
        chars = engine.profile.pool[alt].printed()
    cost, _ = play_cost(engine, player, oid, chars, own=alt is None)
    if cost > st.stat(player, "pp"):
        return f"not enough PP (cost {cost}, {st.stat(player, 'pp')} PP left)"
    if "spell" not in chars.types and len(board.field(st, player)) >= FIELD_LIMIT:
        return "your field is full (5 cards)"
    if "spell" in chars.types and engine.profile.rules.spell_needs_target:
        # SV-GAME-PLAY, SV-O-35 (rules 1.7): a spell's targets are chosen as it is played, so a spell that asks for
        # one is not playable while none can be chosen; a follower or amulet is, its Fanfare then does nothing.
        card = engine.profile.pool[alt if alt is not None else st.facts(oid).definition]
        for ability in card.abilities:
            if ability.trigger is not None and target_selector(ability.trigger) is not None \
                    and not play_targets(engine, player, oid, ability.trigger):
                return f"no target can be chosen for {chars.name} ({ability.trigger.filter['target']})"
    return None


def target_selector(trigger: TriggerDef) -> str | None:
    """What the player chooses as the card is played, if this own-play trigger asks for a target (SV-O-35)."""
    if trigger.subject != "self" or trigger.on not in OWN_PLAY or "target" not in trigger.filter:
        return None
    return str(trigger.filter["target"])


def play_targets(engine: Engine, player: int, oid: int, trigger: TriggerDef) -> list[int]:
    """What may be chosen now for a trigger that asks for a target: its selector's cards, within the bounds of its
    ``target_where`` (「体力3以下の相手のフォロワー」, SV-O-35)."""
    options = target_options(engine, player, oid, str(trigger.filter["target"]))
    if "target_where" in trigger.filter:
        where = msgspec.convert(trigger.filter["target_where"], Where)
        options = [o for o in options if where.admits(engine.state, o)]
    return options


def play_cost(engine: Engine, player: int, oid: int, chars: ev.Characteristics, *, own: bool = True
              ) -> tuple[int, bool]:
    """The PP playing ``oid`` costs now, and whether it is played enhanced.

    スペルブースト コスト-N (``spellboost_cost_<N>``, SV-GAME-SPELLBOOST): N less for each time the card was boosted
    in the hand, never below 0. エンハンス N (``enhance_<N>``, SV-GAME-ENHANCE): with N PP or more left, the card is
    played enhanced and N PP are paid instead of its cost — automatically, the player does not choose. A static
    ``costs_less`` of the card itself (``own``: not a card it is played as) lowers its cost (SV-GAME-STATIC)."""
    st = engine.state
    pp = st.stat(player, "pp")
    for n in keyword_numbers(chars.keywords, "enhance_"):
        if pp >= n:
            return n, True
    cost = chars.cost or 0
    boosts = st.objects[oid].status.get("spellboost", 0) if oid in st.objects else 0
    for n in keyword_numbers(chars.keywords, "spellboost_cost_"):
        cost -= n * boosts
    if own and oid in st.objects:
        cost -= statics.cost_cut(engine, oid)
    return max(0, cost), False


def keyword_numbers(keywords: tuple[str, ...], prefix: str) -> list[int]:
    """The N of every ``<prefix><N>`` keyword (``enhance_6``: 6)."""
    return [int(k.removeprefix(prefix)) for k in keywords
            if k.startswith(prefix) and k.removeprefix(prefix).isdecimal()]


def spellboosted(engine: Engine, player: int, played: int) -> list[ev.Event]:
    """SV-GAME-SPELLBOOST: playing a spell boosts every other card with スペルブースト in its player's hand once."""
    st = engine.state
    out: list[ev.Event] = []
    for o in board.hand(st, player):
        if o != played and any(k.startswith("spellboost") for k in view(st, o).chars.keywords):
            out.append(ev.StatusSet(o, "spellboost", st.objects[o].status.get("spellboost", 0) + 1))
    return out


def target_options(engine: Engine, player: int, oid: int, selector: str) -> list[int]:
    st = engine.state
    opp = 1 - player
    match selector:
        case "enemy_follower":
            return board.followers(st, opp)
        case "own_follower":
            return board.followers(st, player)
        case "any_follower":
            return board.followers(st, st.active) + board.followers(st, 1 - st.active)
        case "enemy_card":
            return board.field(st, opp)
        case "enemy":  # 「相手のフォロワー1体か相手のリーダー」: the leader is a target too (SV-O-35)
            return [leader(opp), *board.followers(st, opp)]
        case "own":  # 「自分のフォロワー1体か自分のリーダー」
            return [leader(player), *board.followers(st, player)]
        case "own_card":  # 「自分のフォロワーかアミュレット1つ」
            return board.field(st, player)
        case "own_amulet":  # 「自分のアミュレット1つ」
            return [o for o in board.field(st, player) if "amulet" in view(st, o).chars.types]
        case "hand_follower":
            return [o for o in board.hand(st, player) if o != oid and "follower" in view(st, o).chars.types]
        case _:
            raise ValueError(f"unknown play-time target {selector!r}")


def play(engine: Engine, player: int, oid: int) -> Procedure:
    """Play a card from the hand: choose its targets (SV-O-35), pay, put it into play (a spell into
    ``casting``), then resolve the queue (SV-O-61, SV-O-62).

    A card played as another (Crystallize, Accelerate, SV-O-63) is that other card from the start: the hand
    card is set aside and the other card, made for it, is what is played — so its type, its abilities and
    "the card played last" (ローフラッド) are the other card's.
    """
    st = engine.state
    alt = played_as(engine, player, oid)
    if alt is not None:
        engine.emit(board.move(engine, oid, board.zone(player, LIMBO), PLAYED_AS))
        oid = board.create(engine, alt, player, LIMBO)
    card = engine.profile.pool[st.facts(oid).definition]
    chars = view(st, oid).chars
    chosen: list[str] = []
    for ability in card.abilities:
        t = ability.trigger
        if t is None or target_selector(t) is None:
            continue
        options = play_targets(engine, player, oid, t)
        if not options:
            continue
        answer = yield Request(player, "target", f"choose a target for {chars.name}", tuple(options), 1, 1,
                               rule="SV-O-35")
        picked = tuple(int(a) for a in answer)
        engine.emit(ev.Chosen(player, picked), *chosen_count(engine, player, picked))
        chosen += [f"target={a}" for a in picked]
    spell = "spell" in chars.types
    cost, enhanced = play_cost(engine, player, oid, chars)
    dst = board.zone(player, CASTING if spell else FIELD)
    grants = [(m.value, m.amount, m.since) for m in sorted(st.modifiers.values(), key=lambda m: (m.since, m.effect))
              if m.target == oid and m.kind == "grant_ability"]
    boosts = st.objects[oid].status.get("spellboost", 0)
    moved = board.move(engine, oid, dst, PLAY)
    queue(engine).declared[moved.card] = tuple(chosen)
    events: list[ev.Event] = [
        ev.PlayerStat(player, "pp", st.stat(player, "pp") - cost),
        moved,
        ev.PlayerStat(player, "played_turn", st.stat(player, "played_turn") + 1),
        ev.PlayerStat(player, "last_played", moved.card),
    ]
    if enhanced:
        events.append(ev.StatusSet(moved.new, "enhanced", 1))
    if boosts and engine.profile.rules.spellboost_kept:
        # SV-GAME-SPELLBOOST (rules 1.4): the card played keeps how often it was boosted, which its text may read
        # (「スペルブースト ダメージ+1」: amount ``status_of``); under 1.3 the count stayed with the hand card.
        events.append(ev.StatusSet(moved.new, "spellboost", boosts))
    if spell:
        events += spellboosted(engine, player, oid)
    if not spell:
        events.append(ev.StatusSet(moved.new, "sick", 1))
        events.append(ev.PlayerStat(player, "entered", st.stat(player, "entered") + 1))
        cd = countdown_of(chars.keywords)
        if cd:
            events.append(ev.StatusSet(moved.new, "countdown", cd))
    last = st.seq + len(events)
    engine.emit(*events)
    if grants and moved.new in st.objects:
        # SV-O-14/31: a granted Fanfare joins the same group, after the printed ones, in grant order.
        found = granted_instances(engine, moved.new, grants, "fanfare", last)
        if found:
            queue(engine).triggered(engine, found)
    queue(engine).declared.pop(moved.card, None)
    yield from queue(engine).settle(engine)
    if spell and moved.new in st.objects and board.kind_of(st.objects[moved.new].zone) == CASTING:
        # A spell whose text triggered nothing (or nothing any more) still ends in the cemetery.
        engine.emit(board.move(engine, moved.new, board.zone(player, board.CEMETERY), "resolved"))


def chosen_count(engine: Engine, player: int, picked: tuple[int, ...]) -> list[ev.Event]:
    """SV-O-87 (rules 1.7): the followers on the field a player chose as targets count in the player's ``chosen``,
    whatever the effect then does to them (ウルズ: choosing is enough)."""
    st = engine.state
    n = sum(1 for o in picked if o >= 0 and o in board.followers(st, st.objects[o].controller))
    if not n or not engine.profile.rules.counts_chosen:
        return []
    return [ev.PlayerStat(player, "chosen", st.stat(player, "chosen") + n)]


def countdown_of(keywords: tuple[str, ...]) -> int:
    for k in keywords:
        if k.startswith("countdown_"):
            return int(k.removeprefix("countdown_"))
    return 0


# -- evolving -----------------------------------------------------------------------------------------------------


def can_evolve(engine: Engine, player: int, oid: int) -> str | None:
    st = engine.state
    if oid not in board.followers(st, player):
        return "only your follower on the field can evolve"
    if st.objects[oid].status.get("evolved"):
        return "it has already evolved"
    if st.stat(player, "evolved_turn"):
        return "you have already evolved this turn"
    if st.stat(player, "ep") < 1:
        return "no evolution points left"
    # Rules 1.0 only: a game a scenario started could evolve at any turn (switch scenario_evolves_early).
    early = engine.profile.rules.scenario_evolves_early and bool(getattr(engine.options, "scenario", None))
    if st.stat(player, "turns") < (4 if st.stat(player, "second") else 5) and not early:
        return "evolving is possible from your 5th turn (4th when going second)"
    return None


def evolve(engine: Engine, player: int, oid: int) -> Procedure:
    st = engine.state
    engine.emit(ev.PlayerStat(player, "ep", st.stat(player, "ep") - 1), ev.PlayerStat(player, "evolved_turn", 1))
    evolve_group(engine, [oid])
    yield from queue(engine).settle(engine)


def evolve_group(engine: Engine, oids: list[int]) -> None:
    """Evolve followers at once: +2/+2 and able to attack followers this turn; one simultaneous group."""
    st = engine.state
    if not oids:
        return
    events: list[ev.Event] = []
    eid = st.next_effect
    for o in oids:
        up, down = evolved_gain(engine, o)
        events += [ev.ContinuousEffectStarted(eid, o, "power", o, amount=up),
                   ev.ContinuousEffectStarted(eid + 1, o, "toughness", o, amount=down),
                   ev.StatusSet(o, "evolved", 1)]
        eid += 2
    p = st.objects[oids[0]].controller
    events.append(ev.PlayerStat(p, "evolutions", st.stat(p, "evolutions") + len(oids)))
    engine.emit(*events)


def evolved_gain(engine: Engine, oid: int) -> tuple[int, int]:
    """What evolving adds to attack and defense (SV-GAME-EVOLVE): the printed evolved stats (進化後) less the
    printed ones, for a card that states them; +2/+2 for one that does not."""
    card = engine.profile.pool[engine.state.facts(oid).definition]
    power, toughness = card.fields.get("evolved_power"), card.fields.get("evolved_toughness")
    up = 2 if power is None else power - (card.power or 0)
    down = 2 if toughness is None else toughness - (card.toughness or 0)
    return up, down


# -- attacking ------------------------------------------------------------------------------------------------------


def can_attack(engine: Engine, player: int, attacker: int, target: int | None,
               wards: list[int] | None = None) -> str | None:
    """Why ``attacker`` may not attack ``target`` (None: the enemy leader), or None if it may. ``wards``: the
    enemy followers with Ward, when the caller has them already (``attack_targets``)."""
    st = engine.state
    if attacker not in board.followers(st, player):
        return "only your follower on the field can attack"
    obj = st.objects[attacker]
    kw = statics.keywords(engine, attacker)  # its own, granted, and static while a condition holds
    if obj.status.get("attacked", 0) >= attacks_per_turn(kw):
        return "it has already attacked this turn" + (" twice" if "attacks_twice" in kw else "")
    storm = "storm" in kw
    rush = storm or "rush" in kw or bool(obj.status.get("evolved"))
    if obj.status.get("sick") and not (storm or (rush and target is not None)):
        return "a follower cannot attack the turn it comes into play (unless Storm, or Rush against followers)"
    enemies = board.followers(st, 1 - player)
    if wards is None:
        wards = ward_followers(engine, 1 - player)
    if target is not None and target not in enemies:
        return "only an enemy follower or the enemy leader can be attacked"
    if target is None and "cant_attack_leader" in kw:
        return "this follower cannot attack the enemy leader now (相手のリーダーを攻撃できない)"
    if target is not None and "attacks_only_ward" in kw and target not in wards:
        return "this follower cannot attack a follower without Ward (守護を持たないフォロワーを攻撃不能)"
    if wards and target not in wards:
        return "a follower with Ward must be attacked first"
    return None


def attacks_per_turn(keywords: tuple[str, ...]) -> int:
    """SV-GAME-ATTACK: a follower attacks once a turn; 「1ターンに2回攻撃できる」 (``attacks_twice``) twice."""
    return 2 if "attacks_twice" in keywords else 1


def ward_followers(engine: Engine, player: int) -> list[int]:
    st = engine.state
    return [o for o in board.followers(st, player) if "ward" in statics.keywords(engine, o)]


def attack_targets(engine: Engine, player: int, attacker: int) -> list[int | None]:
    """What ``attacker`` may attack now, in the order of the legal decisions: the enemy leader (None), then
    the enemy followers left to right — ``can_attack`` for each, Ward read once."""
    wards = ward_followers(engine, 1 - player)
    targets: list[int | None] = [None, *board.followers(engine.state, 1 - player)]
    return [t for t in targets if can_attack(engine, player, attacker, t, wards) is None]


def attack(engine: Engine, player: int, attacker: int, target: int | None) -> Procedure:
    """Declare; Strike, Clash and "another attacks" resolve in full (SV-O-69); then the clash or the hit."""
    st = engine.state
    opp = 1 - player
    # The clash partner (SV-O-67); attacking the leader clears an earlier one.
    partner = [ev.StatusSet(attacker, "clash_with", target), ev.StatusSet(target, "clash_with", attacker)] \
        if target is not None else ([ev.StatusSet(attacker, "clash_with", 0)]
                                    if st.objects[attacker].status.get("clash_with") else [])
    # The attacks made this turn: 1 after a follower's first (as ever), 2 after a second (``attacks_twice``).
    engine.emit(ev.StatusSet(attacker, "attacked", st.objects[attacker].status.get("attacked", 0) + 1), *partner,
                ev.Attacked(attacker, opp if target is None else None, target))
    policy = queue(engine)
    yield from policy.settle(engine)
    if not board.on_field(st, attacker) or st.ended:
        return
    clashed = False
    if target is None:
        dealt = board.deal_damage(engine, leader(opp), view(st, attacker).power, player)
        drain(engine, player, attacker, dealt)
    elif board.on_field(st, target):
        clashed = True
        clash(engine, player, attacker, target)
    yield from policy.settle(engine)
    if clashed and board.on_field(st, attacker) and not st.ended:
        # SV-O-74/75: "if this survived the attack" after everything the clash caused; no clash, no effect.
        fire(engine, "survived_attack", subject=attacker)
        lk = st.last_known.get(target) if target is not None else None
        if lk is not None and st.objects.get(lk.moved_to) is not None and \
                board.kind_of(st.objects[lk.moved_to].zone) == board.CEMETERY:
            fire(engine, "destroyed_by_attack", subject=attacker)  # SV-O-76: banished is not destroyed
        yield from policy.settle(engine)


def clash(engine: Engine, player: int, attacker: int, target: int) -> None:
    """Both deal damage; Drain heals by what was dealt, before any destruction (SV-O-70/71); Bane marks for
    destruction by the state check, with the defense left as it is (SV-O-73)."""
    st = engine.state
    a_power, t_power = view(st, attacker).power, view(st, target).power
    to_target = board.deal_damage(engine, target, a_power, player)
    to_attacker = board.deal_damage(engine, attacker, t_power, 1 - player)
    drain(engine, player, attacker, to_target)
    marks: list[ev.Event] = []
    if board.has(st, attacker, "bane") and board.on_field(st, target):
        marks.append(ev.StatusSet(target, "bane", 1))
    if board.has(st, target, "bane") and board.on_field(st, attacker):
        marks.append(ev.StatusSet(attacker, "bane", 1))
    if marks:
        engine.emit(*marks)
    del to_attacker


def drain(engine: Engine, player: int, attacker: int, dealt: int) -> None:
    if dealt > 0 and board.has(engine.state, attacker, "drain"):
        board.heal(engine, leader(player), dealt)
        healed(engine, player)


# -- maneuver -------------------------------------------------------------------------------------------------------


def board_onto(engine: Engine, pilot: int, vehicle: int) -> None:
    """The pilot goes under the vehicle (not leaving, SV-O-37); its damage reductions end (SV-O-38), and from 1.3
    (switch ``boarding_clears_marks``) so do the statuses only a card on the field carries (invariants.py: damage,
    SV-O-27; evolved), which a card under a vehicle is not."""
    st = engine.state
    cuts = [m.effect for m in st.modifiers.values() if m.target == pilot and m.kind == "damage_cut"]
    marks = [k for k in FIELD_MARKS if k in st.objects[pilot].status] if engine.profile.rules.boarding_clears_marks \
        else []
    engine.emit(*[ev.ContinuousEffectEnded(e) for e in cuts], *[ev.StatusSet(pilot, k, 0) for k in marks],
                ev.Stacked(vehicle, pilot))
    fire(engine, "maneuver", subject=vehicle)  # SV-O-39


__all__ = ["alternates", "attack", "attack_targets", "can_attack", "can_evolve", "can_play", "evolve", "evolve_group",
           "play", "played_as", "ward_followers"]
