"""The Vision of Phantasm rules profile: setup, the turn and its phases, and when a player loses.

Each phase's prescribed effects (各フェイズの規定の効果) run with nobody holding priority (VOP-I-06); then the
turn player receives priority and the phase advances only when every player declines to interrupt in
succession (VOP-I-08). What the prescribed effects are is not in the seed (SPEC Part 4 #21); kifu's are in
the README.
"""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.state import GameState
from statemachine.board import deal, shuffle_decks
from statemachine.cards import CardPool
from statemachine.decisions import Decision, Legal
from statemachine.decks import DeckRule
from statemachine.engine import Engine
from statemachine.games.vision import (  # noqa: F401 - steps register
    actions,
    attacks,
    board,
    computed,
    deck,
    distribute,
    reveal,
    rule_ids,
)
from statemachine.games.vision.actions import UNTIL_ATTACKS
from statemachine.games.vision.board import CHAIN, FIELD, LIFE, NODE, zone
from statemachine.games.vision.chain import InterferenceChain
from statemachine.games.vision.discard_pile import fire_maintenance
from statemachine.games.vision.effects import VOP
from statemachine.games.vision.invariants import BOARD
from statemachine.games.vision.pieces import fire_turn_end
from statemachine.games.vision.timing import draw_skipped  # after every module registering conditions
from statemachine.games.vision.triggers import KINDS
from statemachine.games.vision.versions import RELEASES, Options, Rules
from statemachine.profile import RulesProfile, StepDef
from statemachine.vocabulary import Procedure

NAME = "vision"

STEPS = (
    StepDef("active", "active", False),  # アクティブフェイズ: your nodes and cards become active
    StepDef("draw", "draw", False),  # ドローフェイズ: draw a card
    StepDef("node", "node", False),  # ノードフェイズ: you may set one node
    StepDef("main", "main", False),  # メインフェイズ: play characters and spell cards
    StepDef("battle", "battle", False),  # 戦闘フェイズ: attack
    StepDef("end", "end", False),  # エンドフェイズ: damage on characters is removed
)

HAND_SIZE = 5  # [assumed]




class Vision(RulesProfile):
    name = NAME
    action_rules = rule_ids.ACTION_RULES  # the rule behind each action and record (rule_ids.py)
    event_rules = rule_ids.EVENT_RULES
    releases = RELEASES
    rules: Rules
    options_type = Options
    # VOP-GAME-DECK (the game's rules: デッキの枚数は50枚、同じ名称のカードは三枚まで; the seeds say nothing of
    # decks): exactly 50 cards, at most 3 of one name. Cards with their own deck limit are not in kifu's pool.
    deck_rule = DeckRule("VOP-GAME-DECK", "50 cards, at most 3 of one name", 50, 50, 3)
    vocabulary = VOP
    trigger_kinds = KINDS
    steps = STEPS
    board = BOARD  # what a possible board is (invariants.py)
    title = "Vision of Phantasm"
    loop_rule = "VOP-GAME-LOOP"  # a loop no player can stop: a draw (README)
    policy = InterferenceChain
    shared_zones = frozenset({CHAIN})  # cards announced and not yet processed (VOP-I-09)
    decisions: ClassVar[dict[str, str]] = {
        "pass": "`[]`: pass priority in an interference",
        "node": "`[card]`: set a card from your hand as a node (node phase, once a turn)",
        "play": "`[card]`: play a card, paying its NODE and cost (an action others may interfere with)",
        "activate": "`[card, ability id]`: use an activated effect, paying its cost",
        "attack": "`[character]`: attack with a character (battle phase)",
        "defend": "`[character]`: defend against the attack with a character (or play one with 奇襲 and 速攻)",
        "choose": "`[option, ...]`: answer a request",
    }
    action_args: ClassVar[dict[str, tuple[str, ...]]] = {"activate": ("object", "value")}
    option_kinds: ClassVar[dict[str, str]] = {"x": "value", distribute.DISTRIBUTE: "value"}
    request_words: ClassVar[dict[str, str]] = {"x": "a value for X",
                                               distribute.DISTRIBUTE: "how much of the damage a character takes"}

    @staticmethod
    def next_to_resolve(state: GameState) -> int | None:
        """The interference resolves last in, first out (VOP-I-13; the order of ``effects.chain_entries``)."""
        chain = sorted((p for p in state.pending.values() if p.holder == CHAIN), key=lambda p: (p.key, p.effect))
        return chain[-1].effect if chain else None

    @staticmethod
    def describe_key(key: tuple[int, ...]) -> str:
        """A chain entry's key (``actions.next_key``: its place in the chain) in words; the last resolves first."""
        return f"place {key[0]} in the chain" if key else "not in the chain"

    def opening(self, engine: Engine) -> None:
        shuffle_decks(engine)
        deal(engine, HAND_SIZE, mark_empty=True)

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        """The phase's prescribed effects; the priority window after them is opened by the chain (VOP-I-08)."""
        st = engine.state
        me = st.active
        match step.name:
            case "active":
                board.set_tapped(engine, [o for z in (NODE, FIELD) for o in st.zone(zone(me, z))], False)
                if st.stat(me, "node_set"):
                    engine.emit(ev.PlayerStat(me, "node_set", 0))
                fire_maintenance(engine)  # 自動β 「メンテナンスフェイズに…」 (pool 1.6; nothing listens before it)
            case "draw":
                # [assumed] the first player skips the first draw; 《人形の森》 skips this turn's (``skip_draw``)
                if not (st.turn == 1 and me == 0) and not draw_skipped(st, me):
                    board.draw(engine, me, 1)
            case "end":
                fire_turn_end(engine)
                healed = [ev.StatusSet(o, "damage", 0) for p in range(2) for o in st.zone(zone(p, FIELD))
                          if st.objects[o].status.get("damage")]
                ending = [ev.ContinuousEffectEnded(m.effect) for m in st.modifiers.values()
                          if m.until in ("end_of_turn", UNTIL_ATTACKS)]  # 「このターン、…攻撃を行うまで」 too
                if healed or ending:
                    engine.emit(*healed, *ending)
            case _:
                pass
        return
        yield

    def actions(self, engine: Engine) -> Legal:
        return Legal(None)  # every decision is made holding priority (the chain's legal) or answers a request

    def act(self, engine: Engine, decision: Decision) -> Procedure:
        return actions.act(engine, decision)

    def check_state(self, engine: Engine) -> None:
        """A player who has taken LIFE damage loses (VOP-GAME-LIFE); one who had to draw from an empty deck
        loses, unless the game was started without it (option deck_out = "off")."""
        st = engine.state
        if st.ended or not st.started:
            return
        losers = [p for p in range(len(st.players)) if st.stat(p, "damage") >= LIFE]
        reason = "life"
        if not losers and engine.options.deck_out != "off":
            losers = [p for p in range(len(st.players)) if st.stat(p, "drew_from_empty")]
            reason = "deck out"
        if losers:
            winner = None if len(losers) == 2 else 1 - losers[0]
            engine.emit(*[ev.PlayerLost(p, reason) for p in losers], ev.GameEnded(winner, reason))


def card_pool(version: str = RELEASES.latest.pool) -> CardPool:
    """The shipped card pool at ``version``."""
    return Vision.card_pool(version)
