"""The Shadowverse rules profile: setup and mulligan, the turn (start, main, end), what a player may do,
and the state check (destruction at 0 defense, defeat at 0 life)."""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.board import shuffle_decks
from statemachine.cards import CardPool
from statemachine.decisions import Decision, IllegalDecision, Legal, Request
from statemachine.decisions import object_arg as _obj
from statemachine.decks import DeckRule
from statemachine.engine import Engine
from statemachine.games.shadowverse import board, computed, rule_ids  # noqa: F401 - computed sets the amount rules
from statemachine.games.shadowverse.actions import (
    alternates,
    attack,
    attack_targets,
    can_attack,
    can_evolve,
    can_play,
    evolve,
    play,
    queue,
)
from statemachine.games.shadowverse.board import DECK, EXTRA_TURNS, FIELD, HAND, MULLIGAN, START_LIFE, zone
from statemachine.games.shadowverse.effects import SV
from statemachine.games.shadowverse.effects.deck import check_deck_lists
from statemachine.games.shadowverse.effects.targets import check_play_targets
from statemachine.games.shadowverse.effects.turns import check_named
from statemachine.games.shadowverse.fire import fire, instances
from statemachine.games.shadowverse.invariants import BOARD
from statemachine.games.shadowverse.queue import QUEUE, OrderedQueue, describe_key
from statemachine.games.shadowverse.statics import check_statics, reconcile
from statemachine.games.shadowverse.triggers import KINDS
from statemachine.games.shadowverse.versions import RELEASES, Options, Rules
from statemachine.loader import CardFileError
from statemachine.profile import RulesProfile, StepDef
from statemachine.vocabulary import Procedure

NAME = "shadowverse"
OPENING_HAND = 3
END_TURN = "end_turn"

STEPS = (
    StepDef("start", "start", True),
    StepDef("main", "main", False),
    StepDef("end", "end", True),
)

# Switches for what the seed leaves unverified (GameStarted options; README "Switches"). Defaults first.
SWITCHES: dict[str, tuple[str, ...]] = {
    "attack_timing": ("2021", "simultaneous"),  # SV-O-22 / Part 4 #29
    "leave_timing": ("with_last_words", "after_last_words"),  # SV-O-19
    "count_timing": ("resolution", "trigger"),  # SV-O-08
    "multi_random_discard": ("left", "random"),  # SV-O-111
    "evolve_hand_order": ("after_field", "basic"),  # SV-O-99
    "enter_timing": ("with_fanfare", "played_only"),  # SV-O-17 / SV-O-116
    "countdown_last": ("on", "off"),  # SV-O-57
    "hand_limit": ("9", "8"),  # SV-O-102
}


def check_alternates(pool: CardPool) -> None:
    """The card a Crystallize or Accelerate keyword names must be in the pool (checked at load, STYLE 5)."""
    for card in pool.cards.values():
        for alt in alternates(card.printed()):
            if alt not in pool.cards:
                raise CardFileError(pool.name, f"it is played as {alt!r}, which is not in the pool", card.id,
                                    "$.keywords")


class Shadowverse(RulesProfile):
    name = NAME
    action_rules = rule_ids.ACTION_RULES  # the rule behind each action and record (rule_ids.py)
    event_rules = rule_ids.EVENT_RULES
    releases = RELEASES
    rules: Rules
    options_type = Options
    extra_turn_counter = EXTRA_TURNS  # SV-GAME-EXTRA-TURN
    # SV-GAME-DECK (the game's deck rule; the seed says nothing of decks): exactly 40 cards, at most 3 of one card
    # (copies are counted by name).
    deck_rule = DeckRule("SV-GAME-DECK", "40 cards, at most 3 of one card", 40, 40, 3)
    vocabulary = SV
    trigger_kinds = KINDS
    steps = STEPS
    board = BOARD  # what a possible board is (invariants.py)
    title = "Shadowverse"
    loop_rule = "SV-GAME-LOOP"  # a loop no player can stop: a draw (README)
    describe_key = staticmethod(describe_key)  # the queue's sort key in words (SV-O-10..14)

    @staticmethod
    def next_to_resolve(state: GameState) -> int | None:
        """The head of the queue by its sort key (SV-O-10..14; ``OrderedQueue.waiting``)."""
        queue = sorted((p for p in state.pending.values() if p.holder == QUEUE and not p.resolving),
                       key=lambda p: p.key)
        return queue[0].effect if queue else None
    policy = OrderedQueue
    pool_checks = (check_alternates, check_statics, check_named, check_play_targets, check_deck_lists)
    decisions: ClassVar[dict[str, str]] = {
        "play": "`[card]`: play a card from your hand, paying PP; its targets are asked next",
        "evolve": "`[follower]`: evolve a follower, spending an evolution point",
        "attack": "`[attacker, \"leader\"]` or `[attacker, follower]`: attack",
        "end_turn": "`[]`: end your turn",
        "choose": "`[option, ...]`: answer a request",
    }
    option_kinds: ClassVar[dict[str, str]] = {"choice": "value"}
    derived_counters: ClassVar[dict[str, str]] = {
        "turns": "the turns the player has begun, this one included (evolving opens at 5, 4 going second)",
        "second": "1 for the player who went second (its first turn draws two), 0 for the first",
    }

    def setup_counters(self, turn: int, active: int) -> dict[tuple[int, str], int]:
        """Turn 1 is the first player's, turn 2 the second's, and so on (SV-O-46); turn 0 (before the first) is
        the first player's: turn 9 with player 0 active is player 0's 5th turn, player 0 having gone first."""
        first = active if turn % 2 or turn == 0 else 1 - active
        second = 1 - first
        return {(first, "turns"): (turn + 1) // 2, (second, "turns"): turn // 2,
                (first, "second"): 0, (second, "second"): 1}

    def opening(self, engine: Engine) -> None:
        """SV-O-46: seat 0 goes first. Shuffle, life 20, deal 3; the mulligan opens turn 1 (SV-O-47)."""
        st = engine.state
        shuffle_decks(engine)
        engine.emit(*[e for p in range(2) for e in (
            ev.PlayerStat(p, "life", START_LIFE), ev.PlayerStat(p, "max_life", START_LIFE),
            ev.PlayerStat(p, "ep", 2 if p == 0 else 3), ev.PlayerStat(p, "second", p))])
        for p in range(2):
            top = list(st.zone(zone(p, DECK)))[:OPENING_HAND]
            engine.emit(*board.move_all(engine, [(o, zone(p, HAND)) for o in top], MULLIGAN))

    def mulligan(self, engine: Engine) -> Procedure:
        """SV-O-47/48/50: return any of the 3, draw as many from the rest, then shuffle the returned in."""
        st = engine.state
        for p in range(2):
            hand = board.hand(st, p)
            answer = yield Request(p, "mulligan", "choose cards to return to your deck", tuple(hand), 0, len(hand),
                                   rule="SV-O-47")
            back = [int(a) for a in answer]
            rest = [o for o in st.zone(zone(p, DECK))][: len(back)]
            if rest:  # the returned cards are not among these (SV-O-47); no effects (SV-O-48)
                engine.emit(*board.move_all(engine, [(o, zone(p, HAND)) for o in rest], MULLIGAN))
            if back:
                engine.emit(*board.move_all(engine, [(o, zone(p, DECK)) for o in back], MULLIGAN))
                deck = zone(p, DECK)
                engine.shuffle(deck)
            engine.emit(ev.PlayerStat(p, "returned", len(back)))  # SV-O-50: shown to the opponent
        engine.emit(ev.PlayerStat(0, "mulligan_done", 1))

    # -- the turn -------------------------------------------------------------------------------------------

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        st = engine.state
        me = st.active
        policy = queue(engine)
        match step.name:
            case "start":
                if st.turn == 1 and not st.stat(0, "mulligan_done") and engine.options.mulligan != "off":
                    yield from self.mulligan(engine)
                # SV-O-54: "until the start of the turn" ends before anything else.
                expiring = ("start_of_turn", f"start_of_turn:{me}")
                ending = [m.effect for m in st.modifiers.values() if m.until in expiring]
                if ending:
                    engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])
                # SV-O-55: maximum PP up (to 10), PP refilled; the turn's counters reset.
                top = min(10, st.stat(me, "max_pp") + 1)
                reached = top >= 7 > st.stat(me, "max_pp")
                turns = st.stat(me, "turns") + 1
                engine.emit(ev.PlayerStat(me, "max_pp", top), ev.PlayerStat(me, "pp", top),
                            ev.PlayerStat(me, "turns", turns), ev.PlayerStat(me, "evolved_turn", 0),
                            ev.PlayerStat(me, "drawn_turn", 0), ev.PlayerStat(me, "played_turn", 0),
                            *[ev.StatusSet(o, k, 0) for o in board.field(st, me) for k in ("sick", "attacked")
                              if st.objects[o].status.get(k)])
                # SV-O-56..58: start-of-turn effects (countdowns last) trigger together and resolve.
                found = instances(engine, "turn_start", player=me, where=(FIELD, HAND, DECK)) + instances(
                    engine, "countdown", player=me)
                if reached:
                    found += instances(engine, "overflow", player=me)
                if found:
                    policy.triggered(engine, found)
                yield from policy.settle(engine)
                # SV-O-51..53, SV-O-60: the normal draw; the second player's first draws two at once.
                first_of_second = bool(st.stat(me, "second")) and turns == 1
                if first_of_second:  # 渇望 (Avarice) on turn 1 (SV-O-53): kept as recorded, though no card reads it
                    engine.emit(ev.PlayerStat(me, "avarice_forced", 1))
                board.draw(engine, me, 2 if first_of_second else 1, together=True)
                yield from policy.settle(engine)
            case "end":
                fire(engine, "turn_end", player=me, where=(FIELD, HAND))
                yield from policy.settle(engine)
                # SV-O-115: "until the end of the turn" ends only after the end-of-turn effects.
                ending = [m.effect for m in st.modifiers.values() if m.until == "end_of_turn"]
                if ending:
                    engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])
                if st.stat(me, "avarice_forced"):
                    engine.emit(ev.PlayerStat(me, "avarice_forced", 0))
            case _:
                pass

    # -- decisions ------------------------------------------------------------------------------------------

    def actions(self, engine: Engine) -> Legal:
        st = engine.state
        me = st.active
        step = engine.flow.current
        if step is None or step.name != "main":
            return Legal(None)
        out: list[Decision] = []
        for o in board.hand(st, me):
            if can_play(engine, me, o) is None:
                out.append(Decision(me, "play", (o,)))
        for f in board.followers(st, me):
            if can_evolve(engine, me, f) is None:
                out.append(Decision(me, "evolve", (f,)))
            out += [Decision(me, "attack", (f, "leader" if t is None else t)) for t in attack_targets(engine, me, f)]
        out.append(Decision(me, END_TURN))
        return Legal(me, tuple(out))

    def act(self, engine: Engine, decision: Decision) -> Procedure:
        me = self.turn_player_only(engine, decision, "SV-GAME-TURN")
        step = engine.flow.current
        if step is None or step.name != "main":
            raise IllegalDecision(decision, "SV-GAME-STEP", "players act only in their main phase")
        match decision.action:
            case "end_turn":
                return engine.flow.advance(engine)
            case "play":
                oid = _obj(decision, 0)
                why = can_play(engine, me, oid)
                if why:
                    raise IllegalDecision(decision, "SV-GAME-PLAY", why)
                return play(engine, me, oid)
            case "evolve":
                oid = _obj(decision, 0)
                why = can_evolve(engine, me, oid)
                if why:
                    raise IllegalDecision(decision, "SV-GAME-EVOLVE", why)
                return evolve(engine, me, oid)
            case "attack":
                attacker = _obj(decision, 0)
                args = decision.args
                target = None if len(args) < 2 or args[1] in ("leader", "player") else _obj(decision, 1)
                why = can_attack(engine, me, attacker, target)
                if why:
                    raise IllegalDecision(decision, "SV-GAME-ATTACK", why)
                return attack(engine, me, attacker, target)
            case _:
                raise IllegalDecision(decision, "SV-GAME-ACTION", f"'{decision.action}' is not a Shadowverse action")

    def check_state(self, engine: Engine) -> None:
        """Destruction at 0 defense (or by Bane), turn player's first, left to right, one at a time (SV-O-27,
        SV-O-68); a leader at 0 life loses.

        The check reads only the state, so a state it found nothing in is not checked again until an event
        changes it (the policy remembers the state and its sequence number; a rollback makes a new state)."""
        st = engine.state
        policy = queue(engine)
        if policy.checked is not None and policy.checked[0] is st and policy.checked[1] == st.seq:
            return
        if st.ended or not st.started or not engine.flow.current:
            return
        seq = st.seq
        losers = [p for p in range(2) if st.stat(p, "life") <= 0 and "life" in st.players[p].stats]
        if losers:
            winner = None if len(losers) == 2 else 1 - losers[0]
            engine.emit(*[ev.PlayerLost(p, "leader defeated") for p in losers], ev.GameEnded(winner, "leader defeated"))
            return
        reconcile(engine)  # SV-GAME-STATIC: static stats start and end before anything is judged at 0 defense
        objects, cards = st.objects, st.cards
        modified: set[int] = set()
        read_at = -1  # the sequence number ``modified`` was read at: a destruction may end effects
        for p in (st.active, 1 - st.active):
            for o in board.followers(st, p):
                obj = objects.get(o)
                if obj is None or board.kind_of(obj.zone) != FIELD:
                    continue  # no longer on the field: destroyed meanwhile
                if read_at != st.seq:
                    modified, read_at = {m.target for m in st.modifiers.values()}, st.seq
                status = obj.status
                if o not in modified and not status.get("damage") and not status.get("bane") and (
                        cards[obj.card].printed.toughness or 0) > 0:
                    continue  # as printed, unhurt: its defense is above 0 without computing its view
                v = view(st, o)
                doomed = board.defense_of(v) <= 0 or v.status.get("bane")
                if doomed and not board.destroy(engine, o) and o in objects and objects[o].status.get("bane"):
                    engine.emit(ev.StatusSet(o, "bane", 0))  # SV-O-86: it could not be destroyed
        if st.seq == seq:
            policy.checked = (st, seq)


def card_pool(version: str = RELEASES.latest.pool) -> CardPool:
    """The shipped card pool at ``version``."""
    return Shadowverse.card_pool(version)


__all__ = ["FIELD", "SWITCHES", "Shadowverse", "card_pool"]
