"""The Magic rules profile: setup, the turn, what the player with priority may do.

Seed 002 (SPEC 1.3): costs (MTG-C) and timing and priority (MTG-P, CR 117). The stack is the resolution policy
(``stack``); the turn's steps and turn-based actions are in ``turn``; costs in ``costs``; mana in ``mana``.
"""

from __future__ import annotations

from typing import ClassVar

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from statemachine.board import deal, shuffle_decks
from statemachine.cards import CardDef, CardPool
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.decisions import object_arg as _int
from statemachine.decks import DeckRule
from statemachine.engine import Engine
from statemachine.games.magic import actions, board, delayed, mana, memory, restrictions, rule_ids, state_triggers
from statemachine.games.magic import conditional as _conditional  # noqa: F401 - registers may and if (1.6)
from statemachine.games.magic import effects as _effects  # noqa: F401 - registers the effect steps
from statemachine.games.magic import layers as _layers  # noqa: F401 - registers the steps of layers 4, 5 and 7b
from statemachine.games.magic import prevention as _prevention  # noqa: F401 - registers the effect steps of CR 614-615
from statemachine.games.magic import verbs as _verbs  # noqa: F401 - registers the effect steps on selectors
from statemachine.games.magic.board import HAND, HAND_SIZE, LIFE, STACK, STARTING_LIFE, zone
from statemachine.games.magic.invariants import BOARD
from statemachine.games.magic.stack import Stack
from statemachine.games.magic.triggers import KINDS
from statemachine.games.magic.turn import STEPS, enter_step
from statemachine.games.magic.versions import RELEASES, Options, Rules
from statemachine.games.magic.vocab import MTG
from statemachine.loader import CardFileError
from statemachine.profile import RulesProfile, StepDef
from statemachine.vocabulary import Procedure

NAME = "magic"


def check_statics(pool: CardPool) -> CardPool:
    """A static ability's steps are static effects, and a static effect is a static ability's (CR 604.1): one
    elsewhere would start an effect whose source is a spell or an ability, and never end."""
    for card in pool.cards.values():
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if (ability.kind == "static") != step.name.startswith("static_"):
                    want = "static effects (static_...)" if ability.kind == "static" else "no static effect"
                    raise CardFileError(NAME, f"a {ability.kind} ability takes {want}", card.id,
                                        f"$.abilities[{n}].effects[{k}].name", ability.id)
        _check_granted(card)
        for n, ability in enumerate(card.abilities):
            for k, step in enumerate(ability.effects):
                if step.name == "attach" and step.params.get("to") == "returned" and not any(
                        e.name == "put_onto_battlefield" for e in ability.effects[:k]):
                    raise CardFileError(NAME, "attach to = \"returned\" needs an earlier put_onto_battlefield step",
                                        card.id, f"$.abilities[{n}].effects[{k}].params.to", ability.id)
                if step.name == "choose_one" and step.params.get("as_cast") and ability.kind != "spell":
                    raise CardFileError(NAME, "modes chosen as it is cast belong to a spell's text (kifu records "
                                              "the mode on the spell)", card.id,
                                        f"$.abilities[{n}].effects[{k}].params.as_cast", ability.id)
    return pool


def _check_granted(card: CardDef) -> None:
    """CR 613.1f: a "granted" ability is an activated ability the card gives others with static_each_gets
    (ability = its id), never a mana ability (kifu lists mana sources from a permanent's own card); a grant names
    one."""
    kinds = {a.id: a.kind for a in card.abilities}
    given = {str(s.params["ability"]): (n, k) for n, a in enumerate(card.abilities) for k, s in enumerate(a.effects)
             if s.name == "static_each_gets" and "ability" in s.params}
    for ref, (n, k) in sorted(given.items()):
        if kinds.get(ref) != "granted":
            raise CardFileError(NAME, f"static_each_gets gives ability {ref!r}, which is not a \"granted\" ability "
                                      "of this card", card.id, f"$.abilities[{n}].effects[{k}].params.ability")
    for n, a in enumerate(card.abilities):
        if a.kind != "granted":
            continue
        if a.id not in given:
            raise CardFileError(NAME, "a granted ability no static_each_gets of this card gives (ability = its id)",
                                card.id, f"$.abilities[{n}].kind", a.id)
        if any(e.name == mana.ADD_MANA for e in a.effects):
            raise CardFileError(NAME, "a granted ability may not be a mana ability", card.id,
                                f"$.abilities[{n}].effects", a.id)


def check_pool(pool: CardPool) -> CardPool:
    """Mana symbols and the total cost must agree; a card without symbols has no mana cost (MTG-C-12)."""
    for card in pool.cards.values():
        _check_mana_abilities(card)
        if mana.symbols(card) is None:
            if card.cost is not None:
                raise CardFileError(NAME, "a card without mana symbols has no mana cost (leave cost out)", card.id,
                                    "$.cost")
            continue
        try:
            total = mana.parse(mana.symbols(card) or "0").total
        except ValueError as exc:
            raise CardFileError(NAME, str(exc), card.id, "$.mana") from exc
        if card.cost != total:
            raise CardFileError(NAME, f"mana {mana.symbols(card)!r} totals {total}, not cost {card.cost}", card.id,
                                "$.cost")
        _check_x_and_targets(card)
    return pool


def _check_mana_abilities(card: CardDef) -> None:
    """A mana ability that costs mana ("{U}, {T}: Add {C}{C}{C}") is refused: kifu pays mana with mana abilities
    whose costs are not mana (``mana.tap_plan``), and would look for ever for the mana to pay such a one."""
    for n, ability in enumerate(card.abilities):
        if mana.is_mana_ability(ability):
            for k, cost in enumerate(ability.costs):
                if cost.name == "mana":
                    raise CardFileError(NAME, "a mana ability that costs mana is not supported (kifu pays mana "
                                              "with abilities whose costs are not mana)", card.id,
                                        f"$.abilities[{n}].costs[{k}]", ability.id)


def _check_x_and_targets(card: CardDef) -> None:
    """"Spend only [colour] mana on X" needs an X (CR 107.3); "any number of targets" is an ability's last
    target step (its targets are the rest of the list); a cost per extra target (CR 601.2f) is generic mana
    and needs a spell that may have more than one target."""
    if card.fields.get("x_mana") and not mana.parse(mana.symbols(card) or "0").xs:
        raise CardFileError(NAME, "x_mana names the mana for X, but the mana cost has no X", card.id, "$.x_mana")
    many = False
    for n, ability in enumerate(card.abilities):
        steps = [(k, e) for k, e in enumerate(ability.effects) if e.name == "target"]
        for k, e in steps[:-1]:
            if e.params.get("any_number"):
                raise CardFileError(NAME, "only an ability's last target step may take any number of targets",
                                    card.id, f"$.abilities[{n}].effects[{k}].params.any_number", ability.id)
        many = many or (ability.kind == "spell" and bool(steps) and bool(steps[-1][1].params.get("any_number")))
    extra = card.fields.get("cost_per_extra_target")
    if extra is not None and not (str(extra).isdecimal() and many):
        why = "generic mana (\"1\")" if not str(extra).isdecimal() else "a spell with any number of targets"
        raise CardFileError(NAME, f"a cost per extra target needs {why}", card.id, "$.cost_per_extra_target")


def _basic_land(card: CardDef) -> bool:
    """A basic land, which a constructed deck may hold any number of (CR 100.2a)."""
    return "land" in card.types and "Basic" in card.subtypes


class Magic(RulesProfile):
    name = NAME
    action_rules = rule_ids.ACTION_RULES  # the rule behind each action and record (rule_ids.py)
    event_rules = rule_ids.EVENT_RULES
    releases = RELEASES
    rules: Rules
    options_type = Options
    # MTG-GAME-DECK (CR 100.2a, constructed play; the seeds say nothing of decks): at least 60 cards, at most 4 of
    # one name other than basic lands. Limited play (CR 100.2b, 40 cards from a sealed or drafted pool) needs a
    # card pool kifu does not record, so a game started from deck lists is a constructed game.
    deck_rule = DeckRule("MTG-GAME-DECK", "constructed: at least 60 cards, at most 4 of one name, basic lands excepted",
                         60, None, 4, spared=_basic_land)
    vocabulary = MTG
    trigger_kinds = KINDS
    steps = STEPS
    board = BOARD  # what a possible board is (invariants.py)
    title = "Magic (kifu plays two-player Magic, SPEC Part 4 #2)"
    loop_rule = "CR 104.4b"  # a loop no player can stop: a draw (README)
    policy = Stack
    shared_zones = frozenset({STACK})
    summoning_sickness = "sick"  # CR 302.6
    pool_checks = (check_pool, check_statics, delayed.check_delayed, restrictions.check_restrictions,
                   state_triggers.check_state_triggers, memory.check_memory)
    decisions: ClassVar[dict[str, str]] = {
        "pass": "`[]`: pass priority (MTG-P-01)",
        "cast": "`[card]`: cast a spell from your hand; its targets, X and costs are asked next",
        "activate": "`[permanent, ability index]`: activate an ability (a mana ability resolves at once)",
        "mana": "`[permanent]` or `[permanent, color]`: activate a mana ability (also answers `pay_mana`)",
        "play": "`[land]`: play a land (main phase, empty stack, once a turn)",
        "choose": "`[option, ...]`: answer any other request",
    }
    action_args: ClassVar[dict[str, tuple[str, ...]]] = {"activate": ("object", "value"), "mana": ("object", "value")}
    option_kinds: ClassVar[dict[str, str]] = {"stack_order": "effect", "x": "value", "mana_color": "value",
                                              "mode": "value"}
    request_words: ClassVar[dict[str, str]] = {
        "stack_order": "which triggered ability goes on the stack next", "x": "a value for X",
        "mana_color": "a mana color", "pay_mana": "how to pay mana", "discard_cost": "a card to discard as a cost",
        "sacrifice_cost": "a permanent to sacrifice as a cost", "source": "a source whose damage to prevent",
        "may": "yes or no: whether to do what the card says you may"}

    @staticmethod
    def next_to_resolve(state: GameState) -> int | None:
        """The top of the stack: the newest resolves first (MTG-P-22)."""
        waiting = board.stack_items(state)
        return waiting[-1].effect if waiting else None

    @staticmethod
    def describe_key(key: tuple[int, ...]) -> str:
        """A stack object's key (``stack.stack_key``: the record it was put on the stack at, then what it is) in
        words: the last put resolves first (MTG-P-19)."""
        return f"put on the stack at record {key[0]}" if key else "not on the stack"
    look_back_own_move_only = False  # 603.10a: leave abilities look back at every simultaneous move

    def conditions_checked_on_trigger(self) -> bool:
        return bool(self.rules.intervening_if)  # CR 603.4 (rules 1.1): stack.intervening_if_holds

    def opening(self, engine: Engine) -> None:
        """Shuffle, 20 life each, draw seven; player 0 takes the first turn (no mulligans)."""
        st = engine.state
        shuffle_decks(engine)
        engine.emit(*[ev.PlayerStat(p, LIFE, STARTING_LIFE) for p in range(len(st.players))])
        deal(engine, HAND_SIZE, mark_empty=True)

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        return enter_step(engine, step)

    # -- decisions ------------------------------------------------------------------------------------------

    def actions(self, engine: Engine) -> Legal:
        """The player with priority: pass, or cast, activate, play a land, activate a mana ability."""
        st = engine.state
        me = st.priority
        if me is None:
            return Legal(None)
        out: list[Decision] = [Decision(me, "pass")]
        for o in st.zone(zone(me, HAND)):
            if "land" in view(st, o).chars.types:
                if actions.why_not_play(engine, me, o) is None:
                    out.append(Decision(me, "play", (o,)))
            elif actions.why_not_cast(engine, me, o) is None:
                out.append(Decision(me, "cast", (o,)))
        usable = {s.obj for s in mana.sources(engine, me)} if actions.why_not_priority(engine, me) is None else set()
        for o in board.permanents(st, me):
            for i, ability in actions.activated(engine, o):
                if mana.is_mana_ability(ability):
                    if o in usable:  # why_not_mana, with the sources found once for the whole listing
                        out.append(Decision(me, "mana", (o,)))
                elif actions.why_not_activate(engine, me, o, i) is None:
                    out.append(Decision(me, "activate", (o, i)))
        return Legal(me, tuple(out))

    def act(self, engine: Engine, decision: Decision) -> Procedure:
        me, args = decision.player, decision.args
        match decision.action:
            case "cast":
                oid = _int(decision, 0)
                why = actions.why_not_cast(engine, me, oid)
                if why:
                    raise actions.illegal(decision, why)
                return actions.cast(engine, me, oid)
            case "activate":
                oid, index = _int(decision, 0), (_int(decision, 1) if len(args) > 1 else _first(engine, decision))
                why = actions.why_not_activate(engine, me, oid, index)
                if why is None and mana.is_mana_ability(dict(actions.activated(engine, oid))[index]):
                    why = actions.why_not_mana(engine, me, oid, None)
                    if why is None:
                        return actions.activate_mana(engine, me, oid, None)
                if why:
                    raise actions.illegal(decision, why)
                return actions.activate(engine, me, oid, index)
            case "mana":
                oid = _int(decision, 0)
                color = str(args[1]) if len(args) > 1 else None
                why = actions.why_not_mana(engine, me, oid, color)
                if why:
                    raise actions.illegal(decision, why)
                return actions.activate_mana(engine, me, oid, color)
            case "play":
                oid = _int(decision, 0)
                why = actions.why_not_play(engine, me, oid)
                if why:
                    raise actions.illegal(decision, why)
                return actions.play_land(engine, me, oid)
            case _:
                raise IllegalDecision(decision, "MTG-P-01",
                                      f"'{decision.action}' is not something a player with priority does")


def _first(engine: Engine, decision: Decision) -> int:
    """With no ability named, the permanent's first activated ability that is not a mana ability."""
    oid = _int(decision, 0)
    if oid not in engine.state.objects:
        raise IllegalDecision(decision, "MTG-P-04", "there is no such permanent")
    found = [i for i, a in actions.activated(engine, oid) if not mana.is_mana_ability(a)]
    if not found:
        raise IllegalDecision(decision, "MTG-P-04", "that permanent has no activated ability to activate")
    return found[0]


def card_pool(version: str = RELEASES.latest.pool) -> CardPool:
    """The shipped card pool at ``version``."""
    return Magic.card_pool(version)
