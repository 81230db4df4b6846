"""The Shadowverse vocabulary: the effect steps and conditions its card files are written in.

Targets are named by a selector (``to``). Several targets are processed one at a time in the order of
simultaneous triggers — the turn player's leader, the turn player's field left to right, then the non-turn
player's (SV-O-25) — each a group of its own, so what each target triggers is queued target by target
(SV-O-26). Damage never destroys at once: a follower at 0 defense waits for the state check (SV-O-27/28).

Judging (SV-O-05..08): conditions and captured branches at trigger time (``queue.captures``); random picks
(``RandomDrawn`` from the game's seed and ``state.random_draws``), maxima and counts at resolution.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from eventsource import events as ev
from projections.characteristics import view
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import CEMETERY, DECK, DISCARD, FIELD, HAND, leader
from statemachine.games.shadowverse.queue import captures
from statemachine.vocabulary import KEYWORD, SELECTOR, Keyword, NoParams, Procedure, Selector, Vocabulary

SV = Vocabulary("shadowverse")
SV.declare(KEYWORD, {
    "ward": "守護: an enemy follower must attack a follower with ward first",
    "storm": "疾走: may attack the turn it enters, the leader too",
    "rush": "突進: may attack followers the turn it enters",
    "bane": "必殺: a follower it deals combat damage to is destroyed",
    "drain": "ドレイン: its combat damage heals its leader as much",
    "indestructible": "cannot be destroyed (SV-O-27 state check)",
    "leader_no_damage": "its leader takes no damage",
    "leader_no_damage_if_evolved": "its leader takes no damage while it is evolved",
    "redirect_leader_damage": "damage to its leader is dealt to it instead",
    "ally_damage_cut_1": "damage to the other allied followers is reduced by 1",
    "victory_card": "when it enters, its controller wins (SV-O-04, not a triggered effect)",
    "death_card": "when it enters, its controller loses (SV-O-04, not a triggered effect)",
    "vehicle": "a vehicle a pilot may board (SV-O-37); printed, read by its card text",
    "countdown_<number>": "カウントダウン N: an amulet that counts down each turn start and is destroyed at 0",
    "accelerate_<card>": "アクセラレート: played as the named spell card when its own cost cannot be paid (SV-O-63)",
    "crystallize_<card>": "結晶: played as the named amulet card when its own cost cannot be paid (SV-O-63)",
})
SV.declare(SELECTOR, {
    "self": "the source, if it is on the field",
    "subject": "the trigger's subject, if it is on the field",
    "target": "the targets chosen when the card was played (SV-O-35)",
    "own_leader": "your leader",
    "enemy_leader": "the opponent's leader",
    "both_leaders": "both leaders, the turn player's first",
    "all": "both leaders and every follower, in the basic order (SV-O-25)",
    "all_followers": "every follower, in the basic order",
    "enemy_followers": "the opponent's followers, left to right",
    "own_followers": "your followers, left to right",
    "other_own_followers": "your other followers, left to right",
    "enemy_all": "the opponent's leader and followers",
    "random_enemy_follower": "one of the opponent's followers, drawn at random at resolution (SV-O-06)",
    "clash_partner": "the follower the source is in combat with",
})
Until = Literal["", "end_of_turn", "start_of_turn", "overflow"]  # "": while it is on the field
PlayTarget = Literal["enemy_follower", "own_follower", "any_follower", "enemy_card", "hand_follower"]
SV.filter_key("target", PlayTarget, "triggers 'fanfare' and 'cast': what the player chooses as the card is played")
SV.filter_key("leader", bool, "the ability works from its controller's leader (a leader effect)")


# -- targets --------------------------------------------------------------------------------------------------


def ordered(ctx: EffectContext, selector: str) -> list[int]:
    """The targets a selector names now, in the basic order (SV-O-25)."""
    st = ctx.state
    me, opp = ctx.controller, ctx.opponent
    tp = st.active
    sides = [tp, 1 - tp]

    def everything(leaders: bool, fol: bool, who: tuple[int, ...]) -> list[int]:
        out: list[int] = []
        for p in sides:
            if p not in who:
                continue
            if leaders:
                out.append(leader(p))
            if fol:
                out += board.followers(st, p)
        return out

    match selector:
        case "self":
            return [ctx.source] if board.on_field(st, ctx.source) else []
        case "subject":
            return [ctx.subject] if ctx.subject is not None and board.on_field(st, ctx.subject) else []
        case "target":
            return [t for t in declared(ctx) if board.is_leader(t) or board.on_field(st, t)]
        case "own_leader":
            return [leader(me)]
        case "enemy_leader":
            return [leader(opp)]
        case "both_leaders":
            return everything(True, False, (0, 1))
        case "all":
            return everything(True, True, (0, 1))
        case "all_followers":
            return everything(False, True, (0, 1))
        case "enemy_followers":
            return everything(False, True, (opp,))
        case "own_followers":
            return everything(False, True, (me,))
        case "other_own_followers":
            return [o for o in everything(False, True, (me,)) if o != ctx.source]
        case "enemy_all":
            return everything(True, True, (opp,))
        case "random_enemy_follower":
            pick = random_pick(ctx, board.followers(st, opp), "random enemy follower")
            return [] if pick is None else [pick]
        case "clash_partner":
            me_now = ctx.source_now()
            partner = st.objects[me_now].status.get("clash_with") if me_now is not None else None
            return [partner] if partner is not None and board.on_field(st, partner) else []
        case _:
            raise ValueError(f"unknown target selector {selector!r}")


def declared(ctx: EffectContext) -> list[int]:
    """Targets chosen when the card was played (SV-O-35), captured with the trigger."""
    return [int(c.partition("=")[2]) for c in ctx.captured if c.startswith("target=")]


def captured(ctx: EffectContext, step: int) -> str | None:
    for c in ctx.captured:
        n, sep, value = c.partition(":")
        if sep and n == str(step):
            return value
    return None


def step_index(ctx: EffectContext, name: str) -> int:
    _, ability = _ability(ctx)
    return next(i for i, s in enumerate(ability.effects) if s.name == name)


def _ability(ctx: EffectContext):  # type: ignore[no-untyped-def]
    from statemachine.games.shadowverse.queue import ability_of

    return ability_of(ctx.engine, ctx.state.cards[ctx.source_card].definition, ctx.ability)


def random_pick(ctx: EffectContext, options: list[int], purpose: str) -> int | None:
    """SV-O-06: a random choice is drawn at resolution, recorded as an event."""
    if not options:
        return None
    return options[ctx.engine.random_below(len(options), purpose)]


# -- conditions (judged when the effect triggers, SV-O-05) --------------------------------------------------


class CountParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: int = 1


@SV.condition("vengeance")
def c_vengeance(ctx: EffectContext, _: NoParams) -> bool:
    return board.vengeance(ctx.state, ctx.controller)


@SV.condition("overflow")
def c_overflow(ctx: EffectContext, _: NoParams) -> bool:
    return board.overflow(ctx.state, ctx.controller)


@SV.condition("wrath")
def c_wrath(ctx: EffectContext, _: NoParams) -> bool:
    return board.wrath(ctx.state, ctx.controller)


@SV.condition("avarice")
def c_avarice(ctx: EffectContext, _: NoParams) -> bool:
    return board.avarice(ctx.state, ctx.controller)


@SV.condition("resonance")
def c_resonance(ctx: EffectContext, _: NoParams) -> bool:
    return board.resonance(ctx.state, ctx.controller)


@SV.condition("necromancy", CountParams)
def c_necromancy(ctx: EffectContext, p: CountParams) -> bool:
    """ネクロマンス N: judged at the instant it triggers (SV-O-82/83): a Last Words sees its own card."""
    return len(ctx.state.zone(board.zone(ctx.controller, CEMETERY))) >= p.count


@SV.condition("earth_sigil")
def c_earth_sigil(ctx: EffectContext, _: NoParams) -> bool:
    return bool(board.earth_sigils(ctx.state, ctx.controller))


@SV.condition("subject_is_enemy_follower")
def c_enemy_subject(ctx: EffectContext, _: NoParams) -> bool:
    s = ctx.view(ctx.subject) if ctx.subject is not None else None
    return s is not None and s.controller != ctx.controller and "follower" in s.chars.types


@SV.condition("subject_is_follower")
def c_subject_follower(ctx: EffectContext, _: NoParams) -> bool:
    s = ctx.view(ctx.subject) if ctx.subject is not None else None
    return s is not None and "follower" in s.chars.types


@SV.condition("your_turn")
def c_your_turn(ctx: EffectContext, _: NoParams) -> bool:
    return ctx.state.active == ctx.controller


# -- drawing, PP, life ----------------------------------------------------------------------------------------


class DrawParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: int = 1


@SV.effect("draw", DrawParams)
def draw(ctx: EffectContext, p: DrawParams) -> Procedure:
    board.draw(ctx.engine, ctx.controller, p.count)
    return
    yield


class AmountParams(Struct, frozen=True, forbid_unknown_fields=True):
    amount: int = 1
    to: Selector = "own_leader"


@SV.effect("recover_pp", AmountParams)
def recover_pp(ctx: EffectContext, p: AmountParams) -> Procedure:
    st = ctx.state
    me = ctx.controller
    ctx.engine.emit(ev.PlayerStat(me, "pp", min(st.stat(me, "max_pp"), st.stat(me, "pp") + p.amount)))
    return
    yield


@SV.effect("damage", AmountParams)
def damage(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Deal damage to each target, one at a time in the basic order (SV-O-25)."""
    for t in ordered(ctx, p.to):
        board.deal_damage(ctx.engine, t, p.amount, ctx.controller)
        if ctx.state.ended:
            return
    return
    yield


@SV.effect("heal", AmountParams)
def heal(ctx: EffectContext, p: AmountParams) -> Procedure:
    for t in ordered(ctx, p.to):
        from statemachine.games.shadowverse.fire import healed

        if board.heal(ctx.engine, t, p.amount) or True:
            healed(ctx.engine, board.controller_of(ctx.state, t))
    return
    yield


class ToParams(Struct, frozen=True, forbid_unknown_fields=True):
    to: Selector = "target"


@SV.effect("destroy", ToParams)
def destroy(ctx: EffectContext, p: ToParams) -> Procedure:
    for t in ordered(ctx, p.to):  # SV-O-25/26: one at a time
        if not board.is_leader(t):
            board.destroy(ctx.engine, t)
    return
    yield


@SV.effect("banish", ToParams)
def banish(ctx: EffectContext, p: ToParams) -> Procedure:
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            board.banish(ctx.engine, t)
    return
    yield


@SV.effect("return_to_hand", ToParams)
def return_to_hand(ctx: EffectContext, p: ToParams) -> Procedure:
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            board.return_to_hand(ctx.engine, t)
    return
    yield


class TransformParams(Struct, frozen=True, forbid_unknown_fields=True):
    into: str
    to: Selector = "target"


@SV.effect("transform", TransformParams)
def transform(ctx: EffectContext, p: TransformParams) -> Procedure:
    """変身 ignores "cannot be destroyed/banished" (SV-O-95)."""
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            board.transform(ctx.engine, t, p.into)
    return
    yield


class SummonParams(Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    count: int = 1
    keywords: list[Keyword] = field(default_factory=list)
    keywords_if_wrath: list[Keyword] = field(default_factory=list)


@SV.effect("summon", SummonParams)
def summon(ctx: EffectContext, p: SummonParams) -> Procedure:
    """Summon tokens one at a time (each comes into play)."""
    st = ctx.state
    extra = list(p.keywords)
    i = step_index(ctx, "summon")
    if p.keywords_if_wrath and captured(ctx, i) == "wrath":
        extra += p.keywords_if_wrath
    for _ in range(p.count):
        oid = board.create(ctx.engine, p.card, ctx.controller, FIELD)
        if oid > 0 and oid in st.objects:
            for kw in extra:
                grant(ctx, oid, kw)
    return
    yield


@captures("summon")
def _summon_wrath(ctx: EffectContext, params: dict[str, object]) -> str:
    """夜天の吸血鬼 (SV-O-09): whether Wrath holds is a condition, judged when the Fanfare triggers."""
    return "wrath" if board.wrath(ctx.state, ctx.controller) else "no_wrath"


def grant(ctx: EffectContext, oid: int, keyword: str, until: str = "") -> None:
    eid = ctx.state.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "grant_keyword", oid, value=keyword, until=until))


class CardParams(Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    count: int = 1
    reveal: bool = False


@SV.effect("add_to_hand", CardParams)
def add_to_hand(ctx: EffectContext, p: CardParams) -> Procedure:
    """Put a (token) card into your hand; at the hand limit it goes to the cemetery instead."""
    st = ctx.state
    limit = int(st.options.get("hand_limit", board.HAND_LIMIT))
    for _ in range(p.count):
        where = HAND if len(board.hand(st, ctx.controller)) < limit else CEMETERY
        oid = board.create(ctx.engine, p.card, ctx.controller, where)
        if p.reveal and where == HAND:  # SV-O-122: a token from a random range is shown to the opponent
            ctx.engine.emit(ev.Revealed(oid, (ctx.opponent,), st.objects[oid].card, p.card))
    return
    yield


class BuffParams(Struct, frozen=True, forbid_unknown_fields=True):
    attack: int = 0
    defense: int = 0
    to: Selector = "self"
    until: Until = ""  # "" (while on the field), "end_of_turn", "start_of_turn", "overflow"


@SV.effect("buff", BuffParams)
def buff(ctx: EffectContext, p: BuffParams) -> Procedure:
    # SV-O-54: "until the start of the turn" means the controller's next turn (≈ the end of the opponent's).
    until = f"start_of_turn:{ctx.controller}" if p.until == "start_of_turn" else p.until
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            modify(ctx, t, p.attack, p.defense, until)
    return
    yield


def modify(ctx: EffectContext, oid: int, attack: int, defense: int, until: str = "") -> None:
    events: list[ev.Event] = []
    before = board.defense(ctx.state, oid)
    if defense < 0 and before + defense <= 0 < before:
        # SV-O-85: destroyed by a -X/-X, it is judged with its defense before the debuff.
        events.append(ev.StatusSet(oid, "defense_before_debuff", before))
    eid = ctx.state.next_effect
    if attack:
        events.append(ev.ContinuousEffectStarted(eid, ctx.source, "power", oid, amount=attack, until=until))
        eid += 1
    if defense:
        events.append(ev.ContinuousEffectStarted(eid, ctx.source, "toughness", oid, amount=defense, until=until))
    if events:
        ctx.engine.emit(*events)


class KeywordParams(Struct, frozen=True, forbid_unknown_fields=True):
    keyword: Keyword
    to: Selector = "self"
    until: Until = ""


@SV.effect("gain_keyword", KeywordParams)
def gain_keyword(ctx: EffectContext, p: KeywordParams) -> Procedure:
    for t in ordered(ctx, p.to):
        if not board.is_leader(t):
            grant(ctx, t, p.keyword, p.until)
    return
    yield


class FlagParams(Struct, frozen=True, forbid_unknown_fields=True):
    flag: str
    to: Selector = "target"
    amount: int = 0


def modify_each(ctx: EffectContext, targets: str, kind: str, *, amount: int = 0, value: str = "") -> None:
    """A continuous effect of ``kind`` on each follower or amulet among ``targets`` (never a leader)."""
    for t in ordered(ctx, targets):
        if not board.is_leader(t):
            eid = ctx.state.next_effect
            ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, kind, t, amount=amount, value=value))


@SV.effect("set_flag", FlagParams)
def set_flag(ctx: EffectContext, p: FlagParams) -> Procedure:
    modify_each(ctx, p.to, "set_flag", value=p.flag)
    return
    yield


@SV.effect("damage_cut", AmountParams)
def damage_cut(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Give a damage reduction to each target (lost if the follower leaves or boards, SV-O-38)."""
    modify_each(ctx, p.to, "damage_cut", amount=p.amount)
    return
    yield


@SV.effect("lose_abilities", ToParams)
def lose_abilities(ctx: EffectContext, p: ToParams) -> Procedure:
    modify_each(ctx, p.to, "ignore_abilities")
    return
    yield


# -- discarding ---------------------------------------------------------------------------------------------------


@SV.effect("discard_random", DrawParams)
def discard_random(ctx: EffectContext, p: DrawParams) -> Procedure:
    """Discard random card(s). An empty hand when it triggered means "discard nothing" (SV-O-109).

    The cards are drawn at random when it resolves (SV-O-06), one ``RandomDrawn`` each. How several are then
    processed is open (SV-O-111, option ``multi_random_discard``): ``left`` (default) discards them together,
    so their own effects go from the left like any discard (SV-O-108, seed L124); ``random`` discards them one
    at a time in the order drawn.
    """
    if captured(ctx, step_index(ctx, "discard_random")) == "empty":
        return
    st = ctx.state
    one_by_one = st.options.get("multi_random_discard") == "random"
    picks: list[int] = []
    for _ in range(p.count):
        pick = random_pick(ctx, [o for o in board.hand(st, ctx.controller) if o not in picks], "discard")
        if pick is None:
            break
        if one_by_one:
            discard(ctx, [pick])
        else:
            picks.append(pick)
    if picks:
        discard(ctx, [o for o in board.hand(st, ctx.controller) if o in picks])
    return
    yield


@captures("discard_random")
def _hand_empty(ctx: EffectContext, params: dict[str, object]) -> str:
    return "empty" if not board.hand(ctx.state, ctx.controller) else "cards"


@SV.effect("discard_choose", DrawParams)
def discard_choose(ctx: EffectContext, p: DrawParams) -> Procedure:
    """Choose up to N cards in your hand and discard them; with fewer in hand, all of them (SV-O-110)."""
    hand = board.hand(ctx.state, ctx.controller)
    if not hand:
        return
    n = min(p.count, len(hand))
    answer = yield ctx.request(ctx.controller, "discard", f"choose {n} card(s) to discard", tuple(hand),
                               minimum=n, maximum=n, rule="SV-O-110")
    discard(ctx, [int(a) for a in answer])


def discard(ctx: EffectContext, oids: list[int]) -> None:
    """Discard cards at once (one group): their own effects first, then "whenever you discard" (SV-O-24)."""
    st = ctx.state
    moves = board.move_all(ctx.engine, [(o, board.owner_zone(st, o, CEMETERY)) for o in oids], DISCARD)
    ctx.engine.emit(*moves)


# -- Burial Rite, Necromancy --------------------------------------------------------------------------------------


@SV.effect("burial_rite")
def burial_rite(ctx: EffectContext, _: NoParams) -> Procedure:
    """葬送: put the follower chosen when the card was played from your hand onto the field, then destroy
    it; "if you did" is mandatory when possible (SV-O-34) and happens where the text says (SV-O-35)."""
    st = ctx.state
    ctx.bound["burial"] = False
    for t in declared(ctx):
        if t in st.objects and board.kind_of(st.objects[t].zone) == HAND:
            if len(board.field(st, ctx.controller)) >= board.FIELD_LIMIT:
                return
            moved = board.move(ctx.engine, t, board.zone(ctx.controller, FIELD), board.BURIAL)
            ctx.engine.emit(moved)
            board.destroy(ctx.engine, moved.new)
            ctx.bound["burial"] = True
            return
    return
    yield


class IfParams(Struct, frozen=True, forbid_unknown_fields=True):
    then: str
    params: dict[str, object] = field(default_factory=dict)

    def nested(self) -> list[tuple[str, str, dict[str, object]]]:
        """The effect it carries, checked at load like any other (``statemachine.loader``)."""
        return [("then", self.then, self.params)]


@SV.effect("if_burial_rite", IfParams)
def if_burial_rite(ctx: EffectContext, p: IfParams) -> Procedure:
    if ctx.bound.get("burial"):
        yield from SV.run_effect(ctx, p.then, p.params)


class NecroParams(Struct, frozen=True, forbid_unknown_fields=True):
    count: int


@SV.effect("spend_shadows", NecroParams)
def spend_shadows(ctx: EffectContext, p: NecroParams) -> Procedure:
    """Necromancy's cost: banish N cards from the cemetery (oldest first)."""
    st = ctx.state
    grave = list(st.zone(board.zone(ctx.controller, CEMETERY)))[: p.count]
    if grave:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, board.zone(ctx.controller, board.BANISHED))
                                                     for o in grave], board.SPENT))
    return
    yield


# -- evolving, EP ---------------------------------------------------------------------------------------------------


@SV.effect("evolve_others")
def evolve_others(ctx: EffectContext, _: NoParams) -> Procedure:
    """Evolve every other allied unevolved follower at once (one simultaneous group, SV-O-100)."""
    from statemachine.games.shadowverse.actions import evolve_group

    st = ctx.state
    evolve_group(ctx.engine, [o for o in board.followers(st, ctx.controller)
                              if o != ctx.source and not st.objects[o].status.get("evolved")])
    return
    yield


@SV.effect("spend_ep", AmountParams)
def spend_ep(ctx: EffectContext, p: AmountParams) -> Procedure:
    """Spend EP for an effect: this is not evolving (SV-O-98)."""
    st = ctx.state
    me = ctx.controller
    if st.stat(me, "ep") >= p.amount:
        ctx.engine.emit(ev.PlayerStat(me, "ep", st.stat(me, "ep") - p.amount))
        ctx.bound["spent"] = True
    return
    yield


# -- named effects (text the vocabulary above cannot say) ---------------------------------------------------------


@captures("tenko_damage")
def _tenko_branch(ctx: EffectContext, params: dict[str, object]) -> str:
    """天狐の社: whether the opponent has followers is the condition, judged at trigger (SV-O-05)."""
    return "follower" if board.followers(ctx.state, ctx.opponent) else "leader"


@SV.effect("tenko_damage", AmountParams)
def tenko_damage(ctx: EffectContext, p: AmountParams) -> Procedure:
    """If the opponent had a follower (at trigger): 2 damage to a random enemy follower (drawn now, SV-O-06);
    else 2 damage to the enemy leader."""
    if captured(ctx, step_index(ctx, "tenko_damage")) == "follower":
        pick = random_pick(ctx, board.followers(ctx.state, ctx.opponent), "tenko target")
        if pick is not None:
            board.deal_damage(ctx.engine, pick, p.amount, ctx.controller)
    else:
        board.deal_damage(ctx.engine, leader(ctx.opponent), p.amount, ctx.controller)
    return
    yield


@SV.effect("attack_to_enemy_max")
def attack_to_enemy_max(ctx: EffectContext, _: NoParams) -> Procedure:
    """カムラ (SV-O-07): gain attack up to the highest attack among enemy followers, read at resolution."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    best = max((view(st, o).power for o in board.followers(st, ctx.opponent)), default=0)
    gain = best - view(st, me).power
    if gain > 0:
        modify(ctx, me, gain, 0)
    return
    yield


@SV.effect("noa_count")
def noa_count(ctx: EffectContext, _: NoParams) -> Procedure:
    """ノア (SV-O-08, provisional): +X/+X where X = allied followers on the field, counted at resolution;
    if X is 3 or more, it also evolves. Option count_timing=trigger counts when it triggered instead."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    cap = captured(ctx, step_index(ctx, "noa_count"))
    x = int(cap) if st.options.get("count_timing") == "trigger" and cap else len(
        [o for o in board.followers(st, ctx.controller) if o != me])
    modify(ctx, me, x, x)
    if x >= 3 and not st.objects[me].status.get("evolved"):
        from statemachine.games.shadowverse.actions import evolve_group

        evolve_group(ctx.engine, [me])
    return
    yield


@captures("noa_count")
def _noa_count(ctx: EffectContext, params: dict[str, object]) -> str:
    return str(len([o for o in board.followers(ctx.state, ctx.controller) if o != ctx.source]))


@SV.effect("banish_self_from_hand")
def banish_self_from_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """絢爛のセクシーヴァンパイア-like: this card, in the hand, is banished."""
    st = ctx.state
    me = ctx.source_now()
    if me is not None and board.kind_of(st.objects[me].zone) == HAND:
        ctx.engine.emit(board.move(ctx.engine, me, board.zone(st.objects[me].owner, board.BANISHED), board.BANISH))
    return
    yield


@SV.effect("reveal_self")
def reveal_self(ctx: EffectContext, _: NoParams) -> Procedure:
    st = ctx.state
    me = ctx.source_now()
    if me is not None:
        ctx.engine.emit(ev.Revealed(me, (ctx.opponent,), st.objects[me].card, st.facts(me).definition))
    return
    yield


@SV.effect("board_vehicle")
def board_vehicle(ctx: EffectContext, _: NoParams) -> Procedure:
    """乗り込み (SV-O-36, SV-O-44): the pilot (the subject) boards an empty allied vehicle, if at resolution
    both are still there; boarding is not leaving (SV-O-37) but strips damage reductions (SV-O-38)."""
    from statemachine.games.shadowverse.actions import board_onto

    st = ctx.state
    pilot = ctx.subject
    if pilot is None or not board.on_field(st, pilot):
        if ctx.effect is not None:
            ctx.engine.emit(ev.EffectFizzled(ctx.effect, "the pilot left the field before boarding (SV-O-42)"))
        return
    vehicle = ctx.source_now()
    if vehicle is not None and board.on_field(st, vehicle) and not st.objects[vehicle].under:
        board_onto(ctx.engine, pilot, vehicle)
    elif ctx.effect is not None:
        ctx.engine.emit(ev.EffectFizzled(ctx.effect, "no empty vehicle to board (SV-O-44)"))
    return
    yield


@SV.effect("deck_top_to_cemetery", DrawParams)
def deck_top_to_cemetery(ctx: EffectContext, p: DrawParams) -> Procedure:
    st = ctx.state
    top = list(st.zone(board.zone(ctx.controller, DECK)))[: p.count]
    if top:
        ctx.engine.emit(*board.move_all(ctx.engine, [(o, board.zone(ctx.controller, CEMETERY)) for o in top],
                                        "mill"))
    return
    yield


@SV.effect("piercing_bundle", AmountParams)
def piercing_bundle(ctx: EffectContext, p: AmountParams) -> Procedure:
    """ピアシィ (SV-O-100): one hit for all the evolutions of one simultaneous group, bundled."""
    n = int(captured(ctx, step_index(ctx, "piercing_bundle")) or 1)
    for t in ordered(ctx, p.to):
        board.deal_damage(ctx.engine, t, p.amount * n, ctx.controller)
    return
    yield


@captures("piercing_bundle")
def _bundle(ctx: EffectContext, params: dict[str, object]) -> str:
    return "1"


# -- granting -------------------------------------------------------------------------------------------------------


class GrantParams(Struct, frozen=True, forbid_unknown_fields=True):
    ability: str
    while_on_field: bool = False  # "lost when this card leaves the field" (SV-O-80)


@SV.effect("grant_leader", GrantParams)
def grant_leader(ctx: EffectContext, p: GrantParams) -> Procedure:
    """Your leader gains one of this card's abilities (密約の吸血鬼); the leader holds it (SV-O-33).

    With ``while_on_field`` it is lost when this card leaves the field, whatever became of the card's own
    abilities meanwhile: the leader, in effect, checks whether the card is there (SV-O-80, ``board.WHILE_ON``).
    """
    st = ctx.state
    definition = st.cards[ctx.source_card].definition
    eid = st.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "leader_ability", leader(ctx.controller),
                                               amount=ctx.source_card, value=f"{definition}/{p.ability}",
                                               until=board.WHILE_ON if p.while_on_field else ""))
    return
    yield


@SV.effect("grant_fanfare", GrantParams)
def grant_fanfare(ctx: EffectContext, p: GrantParams) -> Procedure:
    """Give one of this card's Fanfares to a follower in your hand (ディメンションドミネーター, SV-O-31)."""
    st = ctx.state
    options = [o for o in board.hand(st, ctx.controller) if "follower" in view(st, o).chars.types]
    if not options:
        return
    pick = options[0]
    if len(options) > 1:
        answer = yield ctx.request(ctx.controller, "target", "choose a follower in your hand", tuple(options))
        pick = int(answer[0])
    definition = st.cards[ctx.source_card].definition
    eid = st.next_effect
    ctx.engine.emit(ev.ContinuousEffectStarted(eid, ctx.source, "grant_ability", pick, amount=ctx.source_card,
                                               value=f"{definition}/{p.ability}"))


@SV.effect("destroy_own_amulets")
def destroy_own_amulets(ctx: EffectContext, _: NoParams) -> Procedure:
    st = ctx.state
    for o in board.field(st, ctx.controller):
        if "amulet" in view(st, o).chars.types:
            board.destroy(ctx.engine, o)
    return
    yield


@SV.effect("countdown")
def countdown(ctx: EffectContext, _: NoParams) -> Procedure:
    """カウントダウン: one less; at 0 the amulet is destroyed at once and its Last Words triggers now, when the
    reduction resolves (SV-O-58)."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or not board.on_field(st, me):
        return
    left = st.objects[me].status.get("countdown", 0) - 1
    ctx.engine.emit(ev.StatusSet(me, "countdown", max(left, 0)))
    if left <= 0:
        board.destroy(ctx.engine, me)
    return
    yield


class ReanimateParams(Struct, frozen=True, forbid_unknown_fields=True):
    cost: int


@SV.effect("reanimate", ReanimateParams)
def reanimate(ctx: EffectContext, p: ReanimateParams) -> Procedure:
    """リアニメイト X: summon a copy of the highest-cost follower of cost X or less in your cemetery. The
    maximum is read at resolution (SV-O-07), a tie is broken at random (SV-O-06); the cemetery keeps its
    cards (the copy comes into play: it is summoned, not played)."""
    st = ctx.state
    grave = [o for o in st.zone(board.zone(ctx.controller, CEMETERY))
             if "follower" in view(st, o).chars.types and (view(st, o).chars.cost or 0) <= p.cost]
    if not grave:
        return
    top = max(view(st, o).chars.cost or 0 for o in grave)
    tied = [o for o in grave if (view(st, o).chars.cost or 0) == top]
    pick = tied[0] if len(tied) == 1 else random_pick(ctx, tied, "reanimate")
    if pick is not None:
        board.create(ctx.engine, st.facts(pick).definition, ctx.controller, FIELD)
    return
    yield


@SV.effect("summon_self")
def summon_self(ctx: EffectContext, _: NoParams) -> Procedure:
    """A direct summon (直接召喚): this card goes from where it is (the deck) onto the field; it comes into
    play. Several at once happen in random order (SV-O-59, ``queue``)."""
    st = ctx.state
    me = ctx.source_now()
    if me is None or board.kind_of(st.objects[me].zone) != DECK:
        return
    p = st.objects[me].owner
    if len(board.field(st, p)) >= board.FIELD_LIMIT:
        return
    moved = board.move(ctx.engine, me, board.zone(p, FIELD), board.SUMMON)
    ctx.engine.emit(moved, ev.StatusSet(moved.new, "sick", 1), ev.PlayerStat(p, "entered", st.stat(p, "entered") + 1))
    return
    yield


@SV.effect("copy_last_played")
def copy_last_played(ctx: EffectContext, _: NoParams) -> Procedure:
    """ローフラッド: a copy of the card the opponent played last, as it was played (SV-O-63/64), into your deck."""
    st = ctx.state
    cid = st.stat(ctx.opponent, "last_played")
    if cid and cid in st.cards:
        board.create(ctx.engine, st.cards[cid].definition, ctx.controller, DECK)
    return
    yield


@SV.effect("damage_by_last_defense")
def damage_by_last_defense(ctx: EffectContext, _: NoParams) -> Procedure:
    """「破壊される直前の体力」: the look-back defense (SV-O-73), or the defense before a -X/-X that
    destroyed it (SV-O-85)."""
    lk = ctx.view(ctx.source)
    if lk is None:
        return
    amount = lk.status.get("defense_before_debuff") or board.defense_of(lk)
    board.deal_damage(ctx.engine, leader(ctx.opponent), amount, ctx.controller)
    return
    yield


@SV.effect("buff_by_entered")
def buff_by_entered(ctx: EffectContext, _: NoParams) -> Procedure:
    me = ctx.source_now()
    if me is not None and board.on_field(ctx.state, me):
        modify(ctx, me, ctx.state.stat(ctx.controller, "entered"), 0)
    return
    yield


@SV.effect("damage_by_attack")
def damage_by_attack(ctx: EffectContext, _: NoParams) -> Procedure:
    """Damage equal to this follower's attack now (SV-O-115: "until end of turn" still applies)."""
    me = ctx.source_now()
    if me is not None:
        board.deal_damage(ctx.engine, leader(ctx.opponent), view(ctx.state, me).power, ctx.controller)
    return
    yield


@SV.effect("throw_from_hand")
def throw_from_hand(ctx: EffectContext, _: NoParams) -> Procedure:
    """ゾディアックデーモン: discard the follower chosen at play and deal its attack, as it is in the hand
    (an Overflow bonus is not on it there, SV-O-112)."""
    st = ctx.state
    for t in declared(ctx):
        if t in st.objects and board.kind_of(st.objects[t].zone) == HAND:
            amount = view(st, t).power
            discard(ctx, [t])
            board.deal_damage(ctx.engine, leader(ctx.opponent), amount, ctx.controller)
    return
    yield


@SV.effect("max_pp_down", AmountParams)
def max_pp_down(ctx: EffectContext, p: AmountParams) -> Procedure:
    st = ctx.state
    me = ctx.controller
    top = max(0, st.stat(me, "max_pp") - p.amount)
    ctx.engine.emit(ev.PlayerStat(me, "max_pp", top), ev.PlayerStat(me, "pp", min(st.stat(me, "pp"), top)))
    overflow_check(ctx.engine, me)
    return
    yield


def overflow_check(engine: object, player: int) -> None:
    """SV-O-113: below 7 maximum PP, the Overflow bonuses end."""
    from statemachine.engine import Engine

    assert isinstance(engine, Engine)
    st = engine.state
    if board.overflow(st, player):
        return
    ending = [m.effect for m in st.modifiers.values() if m.until == "overflow"
              and m.target in st.objects and st.objects[m.target].controller == player]
    if ending:
        engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])


class CardsParams(Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[str]


@SV.effect("add_random_token", CardsParams)
def add_random_token(ctx: EffectContext, p: CardsParams) -> Procedure:
    """A token from a random range is added revealed (SV-O-122)."""
    st = ctx.state
    value = ctx.engine.random_below(len(p.cards), "token")
    oid = board.create(ctx.engine, p.cards[value], ctx.controller, HAND)
    ctx.engine.emit(ev.Revealed(oid, (ctx.opponent,), st.objects[oid].card, p.cards[value]))
    return
    yield


@SV.effect("choose_card", CardsParams)
def choose_card(ctx: EffectContext, p: CardsParams) -> Procedure:
    """チョイス: the chosen card is added without being revealed (SV-O-120)."""
    answer = yield ctx.request(ctx.controller, "choice", "choose a card", tuple(p.cards), rule="SV-O-120")
    board.create(ctx.engine, str(answer[0]), ctx.controller, HAND)


@SV.effect("tutor_follower")
def tutor_follower(ctx: EffectContext, _: NoParams) -> Procedure:
    """A card added from the deck is not revealed (SV-O-121)."""
    st = ctx.state
    options = [o for o in st.zone(board.zone(ctx.controller, DECK)) if "follower" in view(st, o).chars.types]
    pick = random_pick(ctx, options, "tutor")
    if pick is not None:
        ctx.engine.emit(board.move(ctx.engine, pick, board.zone(ctx.controller, HAND), "tutor"))
    return
    yield


__all__ = ["SV", "ordered", "overflow_check", "random_pick"]
