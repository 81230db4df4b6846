"""The Duel Masters rules profile: setup, the turn, what a player may do, and when a player loses."""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.board import deal, shuffle_decks
from statemachine.cards import CardPool
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.decisions import object_arg as _obj
from statemachine.decks import DeckRule
from statemachine.engine import Engine
from statemachine.games.duel_masters import (
    board,
    computed,  # noqa: F401 - registers the steps with computed amounts
    lasting,
    pieces,  # noqa: F401 - registers the general effect pieces
    rule_ids,
    statics,
    steps,
)
from statemachine.games.duel_masters.actions import (
    can_cast,
    can_summon,
    cast_spell,
    check_spell_order,
    summon,
)
from statemachine.games.duel_masters.board import DECK, EXTRA_TURNS, HAND, MANA, SHIELDS, zone
from statemachine.games.duel_masters.combat import attack, can_attack, must_attack
from statemachine.games.duel_masters.effects import DM
from statemachine.games.duel_masters.invariants import BOARD
from statemachine.games.duel_masters.pending import END_STEP, PendingPool, ending_step
from statemachine.games.duel_masters.triggers import KINDS
from statemachine.games.duel_masters.versions import RELEASES, Options, Rules
from statemachine.profile import RulesProfile, StepDef
from statemachine.triggers import Instance, matches_filter
from statemachine.vocabulary import Procedure

NAME = "duel_masters"

# The turn (DM-W-19: nothing pending crosses a step boundary; the kernel settles the pool before advancing).
STEPS = (
    StepDef("untap", "start", True),
    StepDef("start", "start", True),
    StepDef("draw", "draw", True),
    StepDef("charge", "charge", False),
    StepDef("main", "main", False),
    StepDef("attack", "attack", False),
    StepDef("end", "end", True),
)

# DM-LB-17/18: the current ruling looks back at the ignored state; the legacy one is an explicit option.
LOOKBACK_RULING = "lookback_ruling"
LEGACY_RULING = "before-2020-09-18"

SKIP_TURN = "skip_turn"  # set by an effect that skips the rest of the turn (DM-W-20)
TURN_OWED = "turn_owed"  # 1 on the player whose normal turn comes once the extra turns are taken
SHIELD_COUNT = 5
HAND_SIZE = 5


def fire_turn_end(engine: Engine) -> None:
    """DM-GAME-TURN-END: 「(自分の)ターンの終わりに」 abilities of creatures in the battle zone trigger as the end
    step begins, as one group; they resolve before the turn ends (DM-W-19). The holder is the subject, so a
    trigger filter reads the creature itself."""
    st = engine.state
    found: list[Instance] = []
    for lst in engine.index.listeners("turn_ends"):
        obj = st.objects.get(lst.obj)
        if obj is None or board.kind_of(obj.zone) != board.BATTLE:
            continue
        holder = view(st, lst.obj)
        t = lst.ability.trigger
        assert t is not None
        theirs = holder.controller == st.active
        if lst.ability.id not in holder.chars.abilities or (t.whose == "you" and not theirs) \
                or (t.whose == "opponent" and theirs):
            continue
        if matches_filter(holder, t.filter, engine.index.tests):
            found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    if found:
        engine.policy.triggered(engine, found)


class DuelMasters(RulesProfile):
    name = NAME
    action_rules = rule_ids.ACTION_RULES  # the rule behind each action and record (rule_ids.py)
    event_rules = rule_ids.EVENT_RULES
    releases = RELEASES
    rules: Rules
    options_type = Options
    # DM-GAME-DECK (総合ゲームルール 100.2; the seeds say nothing of decks): a deck is exactly 40 cards, at most 4 of
    # one name. Hyperspatial and GR cards, and the Hall of Fame limits, are outside kifu's pool.
    pool_checks = (statics.check_statics, steps.check_otherwise, steps.check_watch)
    deck_rule = DeckRule("DM-GAME-DECK", "40 cards, at most 4 of one name", 40, 40, 4)
    vocabulary = DM
    trigger_kinds = KINDS
    steps = STEPS
    board = BOARD  # what a possible board is (invariants.py)
    title = "Duel Masters"
    policy = PendingPool
    hidden_zones = frozenset({DECK, SHIELDS})  # shields are set face down
    summoning_sickness = "sick"  # a creature cannot attack the turn it is put into the battle zone
    extra_turn_counter = EXTRA_TURNS
    loop_rule = "DM-GAME-LOOP"  # a loop of mandatory processes no player can stop: a draw (README)
    decisions: ClassVar[dict[str, str]] = {
        "charge": "`[card]`: put a card from your hand into your mana zone (charge step, once a turn)",
        "summon": "`[card]` or `[card, evolution source]`: summon a creature, paying its cost (main step)",
        "cast": "`[spell, ...]`: cast a spell, paying its cost (main step); further arguments order its texts",
        "attack": "`[attacker, \"player\"]` or `[attacker, creature]`: attack (attack step)",
        "end_step": "`[]`: end the charge, main or attack step",
        "resolve": "`[effect]`: the pending ability to resolve next (answers `resolve_next`, DM-W-09)",
        "choose": "`[option, ...]`: answer any other request",
    }
    action_args: ClassVar[dict[str, tuple[str, ...]]] = {"cast": ("object", "value"), "resolve": ("effect",)}
    option_kinds: ClassVar[dict[str, str]] = {"resolve_next": "effect", "icons": "value", "blind": "value"}
    request_words: ClassVar[dict[str, str]] = {"resolve_next": "which pending ability resolves next"}

    def opening(self, engine: Engine) -> None:
        """Shuffle, set five shields, draw five; the first player starts (player 0)."""
        st = engine.state
        shuffle_decks(engine)
        for p in range(2):
            top = list(st.zone(zone(p, DECK)))[:SHIELD_COUNT]
            engine.emit(*board.move_all(engine, [(o, zone(p, SHIELDS)) for o in top], "set_shield"))
        deal(engine, HAND_SIZE)

    # -- the turn -------------------------------------------------------------------------------------------

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        st = engine.state
        me = st.active
        match step.name:
            case "untap":
                lasting.turn_ended(engine)  # 「このターン」 effects of the turn before end with it
                mine = [o for z in (MANA, board.BATTLE) for o in st.zone(zone(me, z))]
                board.set_tapped(engine, mine, False)
                sick = [ev.StatusSet(o, "sick", 0) for o in st.zone(zone(me, board.BATTLE))
                        if st.objects[o].status.get("sick")]
                if sick:
                    engine.emit(*sick)
                charged = st.stat(me, "charged")
                if charged:
                    engine.emit(ev.PlayerStat(me, "charged", 0))
            case "draw":
                if not (st.turn == 1 and me == 0):  # the first player skips the first draw
                    board.draw(engine, me, 1)
            case "end":
                fire_turn_end(engine)
            case _:
                pass
        return
        yield

    # -- decisions ------------------------------------------------------------------------------------------

    def actions(self, engine: Engine) -> Legal:
        st = engine.state
        me = st.active
        step = engine.flow.current
        if step is None:
            return Legal(None)
        out: list[Decision] = []
        hand = st.zone(zone(me, HAND))
        if step.name == "charge" and not st.stat(me, "charged"):
            out += [Decision(me, "charge", (o,)) for o in hand]
        elif step.name == "main":
            mine = board.creatures(st, me)
            for o in hand:
                if can_summon(engine, me, o, None) is None:
                    out.append(Decision(me, "summon", (o,)))
                # Only an evolution creature goes on top of another (can_summon): asked of the others' bases, it
                # would refuse each one.
                if mine and _evolves(st, o):
                    out += [Decision(me, "summon", (o, base)) for base in mine
                            if can_summon(engine, me, o, base) is None]
                if can_cast(engine, me, o) is None:
                    out.append(Decision(me, "cast", (o,)))
        elif step.name == "attack":
            for a in board.creatures(st, me):
                if can_attack(engine, me, a, None) is None:
                    out.append(Decision(me, "attack", (a, "player")))
                    out += [Decision(me, "attack", (a, t)) for t in board.creatures(st, engine.opponent(me))
                            if can_attack(engine, me, a, t) is None]
        if not (step.name == "attack" and must_attack(engine, me)):
            out.append(Decision(me, END_STEP))
        return Legal(me, tuple(out))

    def act(self, engine: Engine, decision: Decision) -> Procedure:
        st = engine.state
        me = self.turn_player_only(engine, decision, "DM-GAME-TURN")
        step = engine.flow.current
        name = step.name if step is not None else ""
        args = decision.args
        match decision.action, name:
            case "end_step", ("charge" | "main" | "attack"):
                broken = ending_step(engine, decision)  # DM-W-19
                if broken is not None:
                    raise IllegalDecision(decision, *broken)
                forced = must_attack(engine, me) if name == "attack" else []
                if forced:
                    raise IllegalDecision(decision, "DM-GAME-ATTACK", f"{view(st, forced[0]).chars.name} attacks "
                                          "each turn if able (可能であれば毎ターン攻撃する) and can attack now")
                return engine.flow.advance(engine)
            case "charge", "charge":
                if st.stat(me, "charged"):
                    raise IllegalDecision(decision, "DM-GAME-CHARGE", "only one card may be charged per turn")
                oid = _obj(decision, 0)
                if oid not in st.zone(zone(me, HAND)):
                    raise IllegalDecision(decision, "DM-GAME-CHARGE", "the card is not in your hand")
                return _charge(engine, me, oid)
            case "summon", "main":
                oid, base = _obj(decision, 0), (_obj(decision, 1) if len(args) > 1 else None)
                why = can_summon(engine, me, oid, base)
                if why:
                    raise IllegalDecision(decision, "DM-GAME-SUMMON", why)
                return summon(engine, me, oid, base)
            case "cast", "main":
                oid = _obj(decision, 0)
                why = can_cast(engine, me, oid)
                if why:
                    raise IllegalDecision(decision, "DM-GAME-CAST", why)
                check_spell_order(engine, decision, oid, args[1:])
                return cast_spell(engine, me, oid, pay=True)
            case "attack", "attack":
                attacker = _obj(decision, 0)
                target = None if len(args) < 2 or args[1] == "player" else _obj(decision, 1)
                why = can_attack(engine, me, attacker, target)
                if why:
                    raise IllegalDecision(decision, "DM-GAME-ATTACK", why)
                return attack(engine, me, attacker, target)
            case _:
                raise IllegalDecision(decision, "DM-GAME-STEP",
                                      f"'{decision.action}' is not something to do in the {name or 'current'} step")

    def turn_player(self, engine: Engine) -> int:
        """DM-GAME-EXTRA-TURN: an extra turn is added after the current turn; once every extra turn waiting is
        taken, the normal order resumes with the player whose turn came next before them (recorded as
        ``turn_owed`` when the first extra turn begins). A player who gains an extra turn in the opponent's
        turn therefore takes two turns in a row. Rules 1.0: the extra turn replaced that player's next turn."""
        st = engine.state
        if not self.rules.extra_turn_added or not st.turn:
            return super().turn_player(engine)
        extra = engine.take_extra_turn(self.extra_turn_counter)
        owed = [p for p in range(len(st.players)) if st.stat(p, TURN_OWED)]
        if extra is not None:
            if not owed:
                engine.emit(ev.PlayerStat(self.next_turn_player(engine), TURN_OWED, 1))
            return extra
        if owed:
            engine.emit(ev.PlayerStat(owed[0], TURN_OWED, 0))
            return owed[0]
        return self.next_turn_player(engine)

    def turn_skipped(self, engine: Engine) -> bool:
        return bool(engine.state.stat(engine.state.active, SKIP_TURN))

    def end_skip(self, engine: Engine) -> None:
        engine.emit(ev.PlayerStat(engine.state.active, SKIP_TURN, 0))

    def ignoring_lifted_on_leave(self, state: GameState) -> bool:
        """DM-LB-18: the ruling before 2020-09-18, only when a game explicitly selects it."""
        return bool(self.parse_options(state.options.items()).lookback_ruling == LEGACY_RULING)

    def check_state(self, engine: Engine) -> None:
        """A player whose deck is empty loses (山札切れ); a game started without it (option deck_out =
        "off": a board whose decks are not part of what it shows) plays on. The static abilities of creatures a board
        was set up with start here (``board.start_all_statics``)."""
        st = engine.state
        if st.ended or not st.started:
            return
        board.start_all_statics(engine)  # DM-GAME-STATIC: the static abilities of a board set up as given
        if engine.options.deck_out == "off" or not engine.flow.current:
            return
        losers = [p for p in range(len(st.players)) if not st.zone(zone(p, DECK))]
        if losers:
            events: list[ev.Event] = [ev.PlayerLost(p, "deck out") for p in losers]
            winner = None if len(losers) == 2 else 1 - losers[0]
            events.append(ev.GameEnded(winner, "deck out"))
            engine.emit(*events)


def _charge(engine: Engine, player: int, oid: int) -> Procedure:
    engine.emit(board.move(engine, oid, zone(player, MANA), board.CHARGE), ev.PlayerStat(player, "charged", 1))
    return
    yield


def card_pool(version: str = RELEASES.latest.pool) -> CardPool:
    """The shipped card pool at ``version``."""
    return DuelMasters.card_pool(version)


def _evolves(st: GameState, oid: int) -> bool:
    """An evolution creature (or a neo evolution creature), which may be summoned on top of another."""
    chars = view(st, oid).chars
    return "evolution" in chars.types or "neo_evolution" in chars.keywords
