"""What a Vision of Phantasm player does: set a node, play a card, use an activated effect, attack, defend.

Every one of them is *announced* and not processed (VOP-I-09): the card goes to the shared ``chain`` zone or
the effect is noted, costs are paid, targets are chosen, and the entry joins the interference; the other
player then receives priority. What each entry does when the interference resolves is ``resolve_entry``.

Game rules SPEC does not number carry kifu's own ids (VOP-GAME-..), listed in the game's README.
"""

from __future__ import annotations

from typing import NamedTuple

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState, Pending
from statemachine.cards import AbilityDef, CardDef
from statemachine.context import Body, EffectContext, context_of, run_steps
from statemachine.decisions import Decision, IllegalDecision, Request
from statemachine.decisions import object_arg as _obj
from statemachine.engine import Engine
from statemachine.games.vision import board, combat, statics
from statemachine.games.vision.board import (
    AMBUSH,
    CHAIN,
    CHARACTER,
    COMMAND,
    FIELD,
    HAND,
    HASTE,
    NODE,
    SPELL_CARD,
    enter_field,
    fizzle,
    zone,
)
from statemachine.games.vision.effects import (
    ANNOUNCED,
    VOP,
    TargetParams,
    chain_entries,
    target_options,
    target_spec,
)
from statemachine.games.vision.union import pay_union
from statemachine.vocabulary import Procedure

PLAY, NODE_SET, ATTACK, DEFEND, ACTIVATE, PASS = "play", "node", "attack", "defend", "activate", "pass"
X_COST = "cost:X"  # COST(X) (《月の間諜》): the cost is the X the player declares
MAINTENANCE_ONLY, MAINTENANCE_STEP = "maintenance_only", "active"  # (pool 1.4: ``timing``)
OWN_TURN_ONLY = "own_turn_only"  # 【自分ターン制限】: played only in its player's own turn
OWN_TURN_ONCE = "own_turn_once"  # 【自分ターン1枚制限】: and one card of that name a turn
PLAYED_TURN = "played_turn"  # status: the turn a character was played and entered the field (rules 1.3)
ATTACKED_TURN = "attacked_turn"  # player counter: the last turn one of their characters attacked (rules 1.7)
UNTIL_ATTACKS = "until_attacks"  # a duration: until its player attacks, or else the end of the turn (pool 1.7)
OPPONENT_TURN_ONLY = "opponent_turn_only"  # 【相手ターン制限】: played only in an opponent's turn (pool 1.7)


def once_key(state: GameState, oid: int) -> str:
    """The player counter that remembers the turn a 【自分ターン1枚制限】 card of this name was last played."""
    return f"once:{state.facts(oid).definition}"
ANNOUNCEMENTS = (PLAY, NODE_SET, ATTACK, DEFEND, ACTIVATE)

Why = tuple[str, str] | None  # (SPEC id, reason) a decision breaks, or None


# -- reading the interference -------------------------------------------------------------------------------


def unplaced(engine: Engine) -> list[Pending]:
    """Automatic effects that arose and wait to be placed in the interference, in the order they arose."""
    return sorted((p for p in engine.state.pending.values() if p.holder == ""), key=lambda p: p.effect)


def resolving(engine: Engine) -> bool:
    """The interference resolution has begun (VOP-I-11): nobody holds priority and something is in it."""
    st = engine.state
    return st.priority is None and any(p.holder in (CHAIN, "") for p in st.pending.values())


def next_key(engine: Engine) -> tuple[int]:
    entries = chain_entries(engine)
    return ((entries[-1].key[0] + 1) if entries and entries[-1].key else 1,)


def card_def(engine: Engine, oid: int) -> CardDef:
    return engine.profile.pool[engine.state.facts(oid).definition]


def text_ability(card: CardDef) -> AbilityDef | None:
    """A command card's text: its "spell" ability, carried out in printed order when the card resolves."""
    return next((a for a in card.abilities if a.kind == "spell"), None)


class Cost(NamedTuple):
    nodes: int = 0
    rest: bool = False


def cost_of(ability: AbilityDef) -> Cost:
    """An activated effect's costs: nodes to tap and whether the card itself is tapped."""
    nodes, rest = 0, False
    for c in ability.costs:
        _, params = VOP.cost_entry(c.name, c.params)
        if c.name == "nodes":
            nodes += params.count
        elif c.name == "rest":
            rest = True
    return Cost(nodes, rest)


# -- who may announce what ----------------------------------------------------------------------------------


def why_not_priority(engine: Engine, player: int) -> Why:
    st = engine.state
    if st.priority is None:
        if resolving(engine):
            return "VOP-I-12", "no new interrupt once the interference resolution has begun"
        return "VOP-I-07", "nobody holds priority now"
    if st.priority != player:
        return "VOP-I-10", f"player {st.priority} holds priority"
    return None


def _own_empty(engine: Engine, player: int, step: str, what: str) -> Why:
    """Actions that only originate an interference: the turn player's, in one phase, with nothing announced."""
    st = engine.state
    if st.active != player:
        return "VOP-GAME-TIMING", f"{what} only in your own turn"
    if st.step != step:
        return "VOP-GAME-TIMING", f"{what} only in the {step} phase"
    if chain_entries(engine):
        return "VOP-GAME-TIMING", f"{what} cannot be done as an interrupt (SPEC Part 4 #22, README)"
    return None


def play_cost(engine: Engine, player: int, oid: int) -> tuple[int, int]:
    """The NODE and COST ``player`` needs to play ``oid``: as printed, less what static effects in force take off
    (pool 1.7, ``statics.discount``; never below 0)."""
    st = engine.state
    off = statics.discount(st, engine.profile.pool, player, oid)
    node, cost = board.keyword_number(st, oid, "node"), view(st, oid).chars.cost or 0
    return max(0, node - off.node), max(0, cost - off.cost)


def why_not_pay(engine: Engine, player: int, oid: int) -> Why:
    st = engine.state
    need, c = play_cost(engine, player, oid)
    have = len(st.zone(zone(player, NODE)))
    if have < need:
        return "VOP-GAME-COST", f"NODE {need} needs {need} nodes; you have {have}"
    if len(board.untapped_nodes(st, player)) < c:
        return "VOP-GAME-COST", f"COST {c} needs {c} untapped nodes"
    return None


def why_not_node(engine: Engine, player: int, oid: int) -> Why:
    st = engine.state
    if oid not in st.zone(zone(player, HAND)):
        return "VOP-GAME-NODE", "the card is not in your hand"
    if st.stat(player, "node_set"):
        return "VOP-GAME-NODE", "only one node may be set per turn"
    why = why_prohibited(engine, player, "set_node")  # 《西蔵人形》 (pool 1.7)
    if why:
        return why
    return _own_empty(engine, player, "node", "setting a node")


def why_prohibited(engine: Engine, player: int, what: str) -> Why:
    """A prohibition in force (``durations.prohibit``, pool 1.5) forbids ``player`` to do ``what``."""
    by = board.prohibition(engine.state, player, what)
    return ("VOP-GAME-PROHIBIT", f"{by} forbids it ({what}) until the end of the turn") if by else None


def why_not_play(engine: Engine, player: int, oid: int) -> Why:
    st = engine.state
    if oid not in st.zone(zone(player, HAND)):
        return "VOP-GAME-PLAY", "the card is not in your hand"
    chars = view(st, oid).chars
    kind = next((t for t in (CHARACTER, SPELL_CARD, COMMAND) if t in chars.types), None)
    why = why_prohibited(engine, player, f"play_{kind}") if kind else None
    if why:
        return why
    command_timing = COMMAND in chars.types or (CHARACTER in chars.types and AMBUSH in chars.keywords)
    if not command_timing:
        why = _own_empty(engine, player, "main", "playing a character or spell card")
        if why:
            return why
    why = why_not_pay(engine, player, oid)
    if why:
        return why
    if (OWN_TURN_ONLY in chars.keywords or OWN_TURN_ONCE in chars.keywords) and st.active != player:
        return "VOP-GAME-TIMING", "【自分ターン制限】: only in your own turn"
    if OPPONENT_TURN_ONLY in chars.keywords and st.active == player:
        return "VOP-GAME-TIMING", "【相手ターン制限】: only in an opponent's turn"
    if MAINTENANCE_ONLY in chars.keywords and st.step != MAINTENANCE_STEP:
        return "VOP-GAME-TIMING", "メンテナンスフェイズにしかプレイ出来ない: only in the maintenance phase"
    if OWN_TURN_ONCE in chars.keywords and st.stat(player, once_key(st, oid)) == st.turn:
        return "VOP-GAME-TIMING", "【自分ターン1枚制限】: one card of that name a turn"
    if statics.EXCLUDES_NODE in chars.keywords and st.stat(player, "node_set"):
        return "VOP-GAME-NODE", ("手札を直接ノードにセットしていない場合のみプレイ出来る: "
                                 "you set a node from your hand this turn")
    ability = text_ability(card_def(engine, oid))
    spec = target_spec(ability.effects) if ability is not None and CHARACTER not in chars.types else None
    if spec is not None and not target_options(engine, player, spec):
        return "VOP-GAME-TARGET", "it has no proper target"
    return None


def why_not_activate(engine: Engine, player: int, oid: int, ability_id: str) -> Why:
    st = engine.state
    if oid not in st.zone(zone(player, FIELD)):
        return "VOP-GAME-ACTIVATE", "only a card on your field can use its activated effects"
    card = card_def(engine, oid)
    ability = next((a for a in card.abilities if a.id == ability_id and a.kind == "activated"), None)
    if ability is None or ability.id not in view(st, oid).chars.abilities:
        return "VOP-GAME-ACTIVATE", f"the card has no activated effect {ability_id!r}"
    why = why_prohibited(engine, player, "activate")
    if why:
        return why
    # VOP-I-21 / VOP-I-22: one use per source (per card, whatever the effect: Part 4 #23) per interference.
    if any(p.source == oid and p.holder == CHAIN for p in st.pending.values()):
        if board.keyword_number(st, oid, "uses") > 1:
            return "VOP-I-22", "this card may be used several times, but only once within one interference"
        return "VOP-I-21", "effects of the same source may be used only once during one interference"
    ctx = EffectContext(engine, controller=player, source=oid, source_card=st.objects[oid].card, ability=ability.id)
    for cond in ability.conditions:
        if not VOP.check(ctx, cond.name, cond.params):
            return "VOP-GAME-TIMING", f"it cannot be used now ({cond.name})"
    c = cost_of(ability)
    if c.rest and board.is_tapped(st, oid):
        return "VOP-GAME-COST", "the card is already tapped"
    if len(board.untapped_nodes(st, player)) < c.nodes:
        return "VOP-GAME-COST", f"it needs {c.nodes} untapped nodes"
    spec = target_spec(ability.effects)
    if spec is not None and not target_options(engine, player, spec):
        return "VOP-GAME-TARGET", "it has no proper target"
    return None


def why_not_attack(engine: Engine, player: int, oid: int) -> Why:
    st = engine.state
    why = _own_empty(engine, player, "battle", "declaring an attack")
    if why:
        return why
    if oid not in board.characters(st, player):
        return "VOP-GAME-ATTACK", "only your character on the field can attack"
    if board.is_tapped(st, oid):
        return "VOP-GAME-ATTACK", "a tapped character cannot attack"
    return why_prohibited(engine, player, "attack")


def attack_to_defend(engine: Engine, player: int) -> Pending | None:
    """The attack ``player`` may defend against: the top of the interference, and against them (VOP-I-19)."""
    entries = chain_entries(engine)
    if not entries or entries[-1].ability != ATTACK or entries[-1].controller == player:
        return None
    return entries[-1]


def why_not_defend(engine: Engine, player: int, oid: int) -> Why:
    st = engine.state
    if attack_to_defend(engine, player) is None:
        if any(p.ability == ATTACK and p.controller != player for p in chain_entries(engine)):
            return ("VOP-I-19", "defense is only possible as a direct interrupt to the attack; something else "
                    "has been stacked on it (VOP-I-20: also when playing a character with 奇襲 and 速攻)")
        return "VOP-I-19", "defense is an interrupt to an attack against you; there is none"
    why = why_prohibited(engine, player, "defend")
    if why:
        return why
    if oid in st.zone(zone(player, HAND)):
        chars = view(st, oid).chars
        if CHARACTER not in chars.types or AMBUSH not in chars.keywords or HASTE not in chars.keywords:
            return "VOP-I-20", "only a character with 奇襲 and 速攻 can be played to defend"
        return why_not_pay(engine, player, oid)
    if oid not in board.characters(st, player):
        return "VOP-GAME-DEFEND", "only your character on the field (or one with 奇襲 and 速攻 in hand) can defend"
    if board.is_tapped(st, oid):
        return "VOP-GAME-DEFEND", "only an active (untapped) character can defend"
    return None


def available(engine: Engine, player: int) -> list[Decision]:
    """Every announcement ``player`` (holding priority) may make now."""
    st = engine.state
    out: list[Decision] = []
    hand = st.zone(zone(player, HAND))
    for o in hand:
        if why_not_node(engine, player, o) is None:
            out.append(Decision(player, NODE_SET, (o,)))
        if why_not_play(engine, player, o) is None:
            out.append(Decision(player, PLAY, (o,)))
    for o in st.zone(zone(player, FIELD)):
        for a in card_def(engine, o).abilities:
            if a.kind == "activated" and why_not_activate(engine, player, o, a.id) is None:
                out.append(Decision(player, ACTIVATE, (o, a.id)))
    for o in board.characters(st, player):
        if why_not_attack(engine, player, o) is None:
            out.append(Decision(player, ATTACK, (o,)))
    if attack_to_defend(engine, player) is not None:
        for o in [*board.characters(st, player), *hand]:
            if why_not_defend(engine, player, o) is None:
                out.append(Decision(player, DEFEND, (o,)))
    return out


# -- announcing -------------------------------------------------------------------------------------------


def act(engine: Engine, decision: Decision) -> Procedure:
    """Check an announcement and return the procedure that makes it; raise IllegalDecision naming the rule."""
    p = decision.player
    if decision.action not in ANNOUNCEMENTS:
        raise IllegalDecision(decision, "KIFU-ACTION", f"'{decision.action}' is not a Vision of Phantasm action")
    why = why_not_priority(engine, p)
    if why is None:
        oid = _obj(decision, 0)
        match decision.action:
            case "node":
                why = why_not_node(engine, p, oid)
            case "play":
                why = why_not_play(engine, p, oid)
            case "activate":
                if len(decision.args) < 2:
                    raise IllegalDecision(decision, "KIFU-ARGS", "activate needs the card and the ability id")
                why = why_not_activate(engine, p, oid, str(decision.args[1]))
            case "attack":
                why = why_not_attack(engine, p, oid)
            case _:
                why = why_not_defend(engine, p, oid)
    if why is not None:
        raise IllegalDecision(decision, why[0], why[1])
    return _announce(engine, decision)


def _announce(engine: Engine, decision: Decision) -> Procedure:
    st = engine.state
    p, oid = decision.player, int(decision.args[0])
    name = view(st, oid).chars.name
    match decision.action:
        case "node":
            engine.emit(ev.PlayerStat(p, "node_set", 1))
            yield from announce(engine, p, oid, NODE_SET, "ノードのセット", to_chain=True)
        case "play":
            card = card_def(engine, oid)
            ability = text_ability(card)
            spec = target_spec(ability.effects) if ability is not None and CHARACTER not in card.types else None
            x = None
            if X_COST in card.keywords:
                # COST(X): X is declared as the card is played, then paid in untapped nodes (VoP play procedure
                # 6-7: the declaration, then the cost); the card carries X while it waits and resolves.
                answer = yield Request(p, "x", f"choose X (the cost of {name})",
                                       tuple(range(len(board.untapped_nodes(st, p)) + 1)), rule="VOP-GAME-COST")
                x = int(answer[0])
            nodes = play_cost(engine, p, oid)[1] if x is None else x
            if OWN_TURN_ONCE in card.keywords:  # 【自分ターン1枚制限】: remembered for this turn
                engine.emit(ev.PlayerStat(p, once_key(st, oid), st.turn))
            if statics.EXCLUDES_NODE in card.keywords:  # no node from the hand this turn once it is played
                engine.emit(ev.ContinuousEffectStarted(st.next_effect, oid, board.PROHIBIT, board.player_target(p),
                                                       st.objects[oid].card, "set_node", "end_of_turn"))
            yield from announce(engine, p, oid, PLAY, f"{name}のプレイ", to_chain=True, nodes=nodes, spec=spec, x=x)
        case "activate":
            ability = card_def(engine, oid).ability(str(decision.args[1]))
            c = cost_of(ability)
            yield from announce(engine, p, oid, ability.id, ability.label, nodes=c.nodes, rest=c.rest,
                                spec=target_spec(ability.effects))
        case "attack":
            board.set_tapped(engine, [oid], True)
            engine.emit(ev.Attacked(oid, engine.opponent(p)))
            if engine.profile.rules.attack_turn_marked and st.stat(p, ATTACKED_TURN) != st.turn:
                engine.emit(ev.PlayerStat(p, ATTACKED_TURN, st.turn))  # rules 1.7: 「このターン…攻撃を行」った
            # 「…攻撃を行うまで」 (pool 1.7): an effect lasting until this player attacks ends as the attack is made
            ending = [m.effect for m in st.modifiers.values()
                      if m.until == UNTIL_ATTACKS and m.target == board.player_target(p)]
            if ending:
                engine.emit(*[ev.ContinuousEffectEnded(e) for e in sorted(ending)])
            yield from announce(engine, p, oid, ATTACK, f"{name}の攻撃", subject=oid)
        case _:
            attack = attack_to_defend(engine, p)
            assert attack is not None
            if oid in st.zone(zone(p, HAND)):  # VOP-I-20: playing a character with 奇襲 and 速攻 to defend
                yield from announce(engine, p, oid, DEFEND, f"{name}のプレイによる防御", to_chain=True,
                                    nodes=view(st, oid).chars.cost or 0, subject=attack.subject)
            else:
                yield from announce(engine, p, oid, DEFEND, f"{name}の防御", rest=True, subject=attack.subject)


def announce(engine: Engine, player: int, source: int, ability: str, label: str, *, to_chain: bool = False,
             nodes: int = 0, rest: bool = False, subject: int | None = None,
             spec: TargetParams | None = None, x: int | None = None) -> Procedure:
    """VOP-I-09: the action is announced, not processed: costs are paid, a played card waits in the chain
    zone, targets are chosen; then priority moves to the other player (VOP-I-10)."""
    st = engine.state
    if nodes:
        tapped = board.untapped_nodes(st, player)[:nodes]
        engine.emit(ev.CostPaid(player, "nodes", nodes, tuple(tapped)), *[ev.StatusSet(o, "tapped", 1) for o in tapped])
    if rest:
        engine.emit(ev.CostPaid(player, "rest", 1, (source,)), ev.StatusSet(source, "tapped", 1))
    if to_chain:
        moved = board.move(engine, source, CHAIN, board.PLAY, controller=player)
        engine.emit(moved, *([ev.StatusSet(moved.new, "x", x)] if x is not None else []))
        source = moved.new
    eid = st.next_effect
    engine.emit(ev.Triggered(eid, ability, source, st.objects[source].card, player, engine.cause, ev.AFTER, (),
                             subject),
                ev.EffectPending(eid, CHAIN, player, label, next_key(engine)))
    if spec is not None:
        yield from choose_targets(engine, eid, spec)
    engine.emit(ev.PriorityGiven(engine.opponent(player)))


def choose_targets(engine: Engine, eid: int, spec: TargetParams) -> Procedure:
    pend = engine.state.pending[eid]
    options = target_options(engine, pend.controller, spec, itself=eid)
    if not options:
        engine.emit(ev.EffectFizzled(eid, "no proper target (VOP-GAME-TARGET)"))
        return
    answer = yield Request(pend.controller, "target", f"choose the target of {pend.label}", tuple(options),
                           effect=eid, rule="VOP-GAME-TARGET")
    engine.emit(ev.Chosen(pend.controller, tuple(int(a) for a in answer), eid))


def place(engine: Engine, pends: list[Pending]) -> Procedure:
    """Automatic effects join this interference (VOP-I-17) on top of it: the first to arise resolves first
    (VOP-I-15; the order of several at once is SPEC Part 4 #25, see README). Each controller then chooses
    its targets."""
    base = next_key(engine)[0]
    abilities = [engine.profile.pool[engine.state.cards[p.source_card].definition].ability(p.ability) for p in pends]
    for i, (pend, ability) in enumerate(reversed(list(zip(pends, abilities, strict=True)))):
        engine.emit(ev.EffectPending(pend.effect, CHAIN, pend.controller, ability.label, (base + i,)))
    for pend, ability in zip(pends, abilities, strict=True):
        spec = target_spec(ability.effects)
        if spec is not None and pend.effect in engine.state.pending:
            yield from choose_targets(engine, pend.effect, spec)


# -- resolving --------------------------------------------------------------------------------------------


def resolve_entry(engine: Engine, eid: int) -> Body:
    """What one entry of the interference does when it resolves (announced resolving: ``context.resolve_effect``);
    it is carried out unless it fizzles."""
    st = engine.state
    pend = st.pending[eid]
    src = pend.source
    match pend.ability:
        case "node":
            if src in st.objects and st.objects[src].zone == CHAIN:
                engine.emit(board.move(engine, src, zone(st.objects[src].owner, NODE), board.SET_NODE))
        case "play":
            if src not in st.objects or st.objects[src].zone != CHAIN:
                fizzle(engine, pend.effect, "the card is no longer being played")
                return False
            union = card_def(engine, src).fields.get("union")  # 【連結】 (pool 1.7, VOP-GAME-UNION, union.py)
            if union and not (yield from pay_union(engine, pend, tuple(union))):
                return False
            types = board.types(st, src)
            ability = text_ability(card_def(engine, src))
            # A spell card whose text is a "spell" ability (発動期間 瞬間/持続, pool 1.5) resolves like a command card.
            if CHARACTER in types or (SPELL_CARD in types and ability is None):
                new = enter_field(engine, src, pend.controller)
                if engine.profile.rules.played_turn_marked:  # rules 1.3: 「プレイされて場に出たターン」 is known
                    engine.emit(ev.StatusSet(new, PLAYED_TURN, st.turn))
            else:
                if ability is not None:
                    yield from carry_out(engine, pend, ability)
                if src in engine.state.objects:
                    board.to_discard(engine, [src], board.RESOLVED)
        case "attack":
            combat.resolve_attack(engine, pend)
        case "defend":
            combat.resolve_defense(engine, pend)
        case _:
            card = engine.profile.pool[st.cards[pend.source_card].definition]
            yield from carry_out(engine, pend, card.ability(pend.ability))
    return True


def carry_out(engine: Engine, pend: Pending, ability: AbilityDef) -> Procedure:
    """An ability's conditions and targets checked as it resolves, then its steps but the announced ones."""
    ctx = context_of(engine, pend, ability=ability.id, captured=())
    if ability.kind == "triggered":  # an automatic effect's conditions are checked as it resolves (README)
        for cond in ability.conditions:
            if not VOP.check(ctx, cond.name, cond.params):
                fizzle(engine, pend.effect, f"condition {cond.name} not met at resolution")
                return
    spec = target_spec(ability.effects)
    if spec is not None:
        proper = set(target_options(engine, pend.controller, spec, itself=pend.effect))
        live = engine.state.pending.get(pend.effect)
        targets = [t for t in (live.targets if live is not None else ()) if t in proper]
        if not targets:
            fizzle(engine, pend.effect, "its target is no longer proper (VOP-GAME-TARGET)")
            return
        ctx.bound["targets"] = targets
    # A step that could not be done failed the resolution: nothing after it happens.
    yield from run_steps(ctx, [s for s in ability.effects if s.name not in ANNOUNCED],
                         lambda: pend.effect not in engine.state.pending)


def _hp(engine: Engine, oid: int) -> int:
    """The toughness damage is judged against: with the battle modifiers in force (README, Changes in 1.5)."""
    hp = view(engine.state, oid).chars.toughness
    return hp + board.battle_bonus(engine.state, oid, board.BATTLE_TOUGHNESS, hp) if hp is not None else 1 << 30


def process_critical(engine: Engine) -> None:
    """VOP-I-16: 決死状態 and 破棄 are processed first, right after the effect that caused them.

    A character whose damage reaches its HP enters 決死状態 and is then discarded (破棄); a card marked for 破棄
    by an effect, or a spell card with as many cards set on it as its uses, is discarded (SPEC Part 4 #26).
    """
    while True:
        st = engine.state
        dying = [o for o in board.characters(st) if not st.objects[o].status.get("kesshi")
                 and _hp(engine, o) <= st.objects[o].status.get("damage", 0)]
        if dying:
            engine.emit(ev.StateBasedAction(("kesshi",), tuple(dying)), *[ev.StatusSet(o, "kesshi", 1) for o in dying])
        st = engine.state
        doomed = [o for p in range(len(st.players)) for o in st.zone(zone(p, FIELD))
                  if st.objects[o].status.get("kesshi") or st.objects[o].status.get("haki")
                  or 0 < board.keyword_number(st, o, "uses") <= len(st.objects[o].under)]
        if not doomed:
            return
        engine.emit(ev.StateBasedAction(("haki",), tuple(doomed)))
        board.to_discard(engine, doomed, board.HAKI)


__all__ = ["ANNOUNCEMENTS", "PASS", "act", "available", "place", "process_critical", "resolve_entry",
           "resolving", "unplaced", "why_not_priority"]
