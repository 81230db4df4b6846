"""Targets and what an effect judged earlier: the selectors card files name (``to``), in the basic order of
simultaneous triggers (SV-O-25), the targets declared at play (SV-O-35), the values captured when an effect
triggered (SV-O-05, ``queue.captures``) and random picks drawn at resolution (SV-O-06).

``SV`` is the Shadowverse vocabulary every module of this package registers its effects and conditions in; its
keywords, selectors and trigger filter keys are declared here, so card files are checked against them at load.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from projections.characteristics import view
from projections.state import GameState
from statemachine.cards import AbilityDef, CardDef, CardPool, EffectDef
from statemachine.context import EffectContext
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import leader
from statemachine.games.shadowverse.queue import BUNDLED, ability_of
from statemachine.loader import CardFileError
from statemachine.vocabulary import KEYWORD, SELECTOR, ZONE, Vocabulary

# A count or amount card data may not make negative: refused when the pool loads, naming card and field.
NonNegative = Annotated[int, Meta(ge=0)]

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
    "spellboost": "スペルブースト: each spell its player plays boosts it once in the hand (SV-GAME-SPELLBOOST)",
    "spellboost_cost_<number>": "スペルブースト コスト-N: costs N less per boost, never below 0 (SV-GAME-SPELLBOOST)",
    "enhance_<number>": "エンハンス N: with N PP or more, played for N PP, 'enhanced' (SV-GAME-ENHANCE)",
    "attacks_only_ward": "守護を持たないフォロワーを攻撃不能: attacks the leader or Ward only (SV-GAME-ATTACK)",
    "cant_attack_leader": "相手のリーダーを攻撃できない: it may attack followers only (SV-GAME-ATTACK)",
    "attacks_twice": "1ターンに2回攻撃できる: it may attack twice each turn (SV-GAME-ATTACK, pool 1.7)",
})
SV.declare(SELECTOR, {
    "self": "the source, if it is on the field",
    "this_card": "the source wherever it is (「このカード」 in the hand: banished, revealed)",
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
    "other_followers": "every follower but the source, in the basic order (「他のフォロワーすべて」)",
    "others": "every follower and amulet but the source, in the basic order (「他のフォロワーとアミュレットすべて」)",
    "own_amulets": "your amulets, left to right",
    "enemy_amulets": "the opponent's amulets, left to right",
    "own_all": "your leader and your followers, left to right (「自分のリーダーか自分のフォロワー」)",
    "chosen": "what the step choose chose as this effect resolved (a leader too), if it is still there",
})
CHOSEN = "chosen"  # ctx.bound: what ``choose`` chose
Until = Literal["", "end_of_turn", "start_of_turn", "overflow"]  # "": while it is on the field
PlayTarget = Literal["enemy_follower", "own_follower", "any_follower", "enemy_card", "hand_follower", "enemy",
                     "own_card", "own", "own_amulet"]
SV.filter_key("target", PlayTarget, "triggers 'fanfare' and 'cast': what the player chooses as the card is played "
              "(enemy: an enemy follower or the enemy leader, 「相手のフォロワー1体か相手のリーダー」; own: your "
              "follower or your leader, 「自分のフォロワー1体か自分のリーダー」; own_card: your follower or amulet, "
              "「自分のフォロワーかアミュレット1つ」; the last two from pool 1.6; own_amulet: your amulet, "
              "「自分のアミュレット1つ」, from pool 1.7)")


class Where(Struct, frozen=True, forbid_unknown_fields=True):
    """A card's characteristics now, each bound inclusive (「体力3以下の」, 「攻撃力2以下の」, 「コスト2以下の」,
    「攻撃力5以上の」). A leader has no attack or cost: it never meets a restriction (SV-O-35: chosen at play)."""

    max_defense: NonNegative | None = None
    max_attack: NonNegative | None = None
    max_cost: NonNegative | None = None
    min_defense: NonNegative | None = None
    min_attack: NonNegative | None = None
    min_cost: NonNegative | None = None

    def problems(self) -> list[tuple[str, str]]:
        bounds = {f: getattr(self, f) for f in self.__struct_fields__}
        if all(v is None for v in bounds.values()):
            return [("", "restricts nothing: say a max_ or min_ of defense, attack or cost")]
        return [(f".min_{k}", f"min_{k} {bounds[f'min_{k}']} above max_{k} {bounds[f'max_{k}']}: nothing is ever "
                 "chosen") for k in ("defense", "attack", "cost")
                if bounds[f"min_{k}"] is not None and bounds[f"max_{k}"] is not None
                and bounds[f"min_{k}"] > bounds[f"max_{k}"]]

    def admits(self, state: GameState, oid: int) -> bool:
        if board.is_leader(oid):
            return False
        seen = view(state, oid)
        have = {"defense": board.defense_of(seen), "attack": seen.power, "cost": seen.chars.cost or 0}
        return all((lo is None or have[k] >= lo) and (hi is None or have[k] <= hi)
                   for k in have for lo, hi in [(getattr(self, f"min_{k}"), getattr(self, f"max_{k}"))])


SV.filter_key("target_where", Where, "with 'target': { max_defense, max_attack, max_cost, min_defense, "
              "min_attack, min_cost } (each ≥ 0, inclusive): only cards whose defense, attack or cost now are "
              "within the bounds may be chosen as the card is played (「体力3以下の相手のフォロワー1体」, SV-O-35); "
              "a leader never is")
SV.filter_key("leader", bool, "the ability works from its controller's leader (a leader effect)")
SV.filter_key("evolved", bool, "the subject follower is (true) or is not (false) evolved",
              test=lambda subject, want: bool(subject.status.get("evolved")) == bool(want))
SV.card_field("evolved_power", int | None, None, "the printed evolved attack (進化後); none: +2 (SV-GAME-EVOLVE)",
              later=True)
SV.card_field("evolved_toughness", int | None, None, "the printed evolved defense (進化後); none: +2 (SV-GAME-EVOLVE)",
              later=True)
SV.digest_also(card={"mana": None}, trigger={"timing": "shita"})  # the kernel's card format of pools 1.0-1.2
SV.declare(ZONE, {
    "field": "the field", "hand": "the hand", "deck": "the deck", "cemetery": "the cemetery",
    "banished": "banished", "casting": "a spell being played", "limbo": "outside the game (a card made, waiting)",
    "leader": "the leader (an ability the leader holds, SV-O-14)",
})


def ordered(ctx: EffectContext, selector: str) -> list[int]:
    """The targets a selector names now, in the basic order (SV-O-25)."""
    st = ctx.state
    me, opp = ctx.controller, ctx.opponent
    tp = st.active
    sides = [tp, 1 - tp]

    def everything(leaders: bool, fol: bool, who: tuple[int, ...], amulets: bool = False) -> list[int]:
        out: list[int] = []
        for p in sides:
            if p not in who:
                continue
            if leaders:
                out.append(leader(p))
            if fol and amulets:
                out += board.field(st, p)  # left to right, followers and amulets as they stand
            elif fol:
                out += board.followers(st, p)
        return out

    def amulets(p: int) -> list[int]:
        return [o for o in board.field(st, p) if o not in board.followers(st, p)]

    match selector:
        case "self":
            return [ctx.source] if board.on_field(st, ctx.source) else []
        case "this_card":
            now = ctx.source_now()
            return [] if now is None else [now]
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
        case "other_followers":
            return [o for o in everything(False, True, (0, 1)) if o != ctx.source]
        case "others":
            return [o for o in everything(False, True, (0, 1), amulets=True) if o != ctx.source]
        case "own_all":
            return everything(True, True, (me,))
        case "chosen":
            return [t for t in ctx.bound.get(CHOSEN, ()) if board.is_leader(t) or board.on_field(st, t)]
        case "own_amulets":
            return amulets(me)
        case "enemy_amulets":
            return amulets(opp)
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


def bundled(ctx: EffectContext) -> int:
    """How many instances one bundling ability's instance stands for (SV-O-100; 1 if it does not bundle)."""
    for c in ctx.captured:
        if c.startswith(BUNDLED):
            return int(c.removeprefix(BUNDLED))
    return 1


def step_effects(ctx: EffectContext) -> tuple[EffectDef, ...]:
    """The effect steps of the ability an effect comes from."""
    return _ability(ctx)[1].effects


def step_index(ctx: EffectContext, name: str) -> int:
    _, ability = _ability(ctx)
    return next(i for i, s in enumerate(ability.effects) if s.name == name)


def _ability(ctx: EffectContext) -> tuple[CardDef, AbilityDef]:
    return ability_of(ctx.engine, ctx.state.cards[ctx.source_card].definition, ctx.ability)


def random_pick(ctx: EffectContext, options: list[int], purpose: str) -> int | None:
    """SV-O-06: a random choice is drawn at resolution, recorded as an event."""
    if not options:
        return None
    return options[ctx.engine.random_below(len(options), purpose)]


def check_play_targets(pool: CardPool) -> None:
    """A restriction on the target chosen at play restricts a target the card asks for, and something can meet it:
    refused at load, naming card, ability and path, on an ability with no ``target`` (it would restrict nothing),
    with no bound, or with a lower bound above the upper (nothing could ever be chosen)."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            t = ability.trigger
            if t is None or "target_where" not in t.filter:
                continue
            at = f"$.abilities[{n}].trigger.filter.target_where"
            if "target" not in t.filter:
                raise CardFileError(pool.name, "target_where restricts the target chosen at play, and the ability asks "
                                    "for none (say target)", card.id, at, ability.id)
            for where, why in msgspec.convert(t.filter["target_where"], Where).problems():
                raise CardFileError(pool.name, why, card.id, at + where, ability.id)
