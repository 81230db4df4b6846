"""A rules profile: everything one game tells the kernel — its card pool and vocabulary, its triggers, its turn
structure, its resolution policy, its player actions and its state checks."""

from __future__ import annotations

import dataclasses
import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from eventsource import events as ev
from eventsource.errors import KifuError
from projections.invariants import Board, Invariant, invariants
from projections.state import GameState
from statemachine import decks, options
from statemachine.cards import CardPool
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.engine import Engine, StepDef
from statemachine.flow import TurnFlow
from statemachine.loader import load_pinned_pool
from statemachine.policy import ResolutionPolicy
from statemachine.releases import Release, Releases
from statemachine.triggers import TriggerKind
from statemachine.vocabulary import Procedure, Vocabulary

__all__ = ["RulesProfile", "StepDef"]  # StepDef is the engine's; games name it from here


class RulesProfile(ABC):
    """One game at one released rules version (``statemachine.releases``): ``rules`` holds that version's
    switches, ``pool`` its card pool (or a pool given by a scenario)."""

    name: str
    releases: ClassVar[Releases[Any]]
    cards: ClassVar[Path]  # the folder of the game's card files (``*.toml``): by default ``cards/`` beside it
    # What the game's cards must satisfy beyond what the loader checks (each raises ``CardFileError``).
    pool_checks: ClassVar[tuple[Callable[[CardPool], object], ...]] = ()
    policy: ClassVar[type[ResolutionPolicy]]  # how triggered effects wait and resolve in this game
    version: str
    release: Release[Any]
    rules: Any  # the game's Rules struct at this version; each game narrows the type
    pool: CardPool
    vocabulary: Vocabulary
    trigger_kinds: dict[str, TriggerKind]
    steps: tuple[StepDef, ...]
    # Whether an ability whose card left together with others looks back only at its own card's move
    # (Duel Masters, DM-LB-02/12). Magic's leave abilities see every simultaneous move.
    look_back_own_move_only: bool = True
    # Kinds of zone whose contents nobody sees (a card moved into one goes face down; views hide them).
    hidden_zones: frozenset[str] = frozenset({"deck"})
    # Zones of no player, named by the bare word (a stack or chain both players' cards lie in).
    shared_zones: ClassVar[frozenset[str]] = frozenset()
    # The status a card has while it cannot attack for having just arrived (what a scenario's ``sick`` sets).
    summoning_sickness: ClassVar[str] = ""
    # What a possible board of this game is (``statemachine/games/<game>/invariants.py``); None: the kernel's only.
    board: ClassVar[Board | None] = None
    # The game's options (``statemachine.options``): every key any of its rules versions reads, typed.
    options_type: ClassVar[type[options.GameOptions]] = options.GameOptions
    # The game's deck-construction rule (``statemachine.decks``), checked from the release that sets the
    # switch ``decks_checked``; None: the game states none.
    deck_rule: ClassVar[decks.DeckRule | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "cards" not in cls.__dict__:
            cls.cards = Path(inspect.getfile(cls)).with_name("cards")

    def __init__(self, pool: CardPool | None = None, *, version: str | None = None) -> None:
        self.release = self.releases.get(version)
        self.version = self.release.version
        self.rules = self.release.rules
        if pool is None:
            pool = self.card_pool(self.release.pool)
        else:
            self.check_pool(pool)
        self.pool = pool

    @classmethod
    def invariants(cls) -> tuple[Invariant, ...]:
        """The invariants of a possible board of this game: the kernel's and the game's ``board``, whose steps
        are this profile's (``projections.invariants``)."""
        return _invariants(cls)

    @classmethod
    def card_pool(cls, version: str) -> CardPool:
        """The shipped card pool at ``version``: its digest checked against the pinned one, and ``check_pool``."""
        return _shipped_pool(cls, version)

    @classmethod
    def check_pool(cls, pool: CardPool) -> None:
        """Run the game's ``pool_checks`` on a pool (the shipped pool once, when it loads; any other as given)."""
        for check in cls.pool_checks:
            check(pool)

    def option_kind(self) -> type[options.GameOptions]:
        """The options this rules version reads: the game's, and the scenario runner's old label ``scenario``
        in the releases before the one that retired it (switch ``scenario_option``)."""
        if getattr(self.rules, "scenario_option", True):
            return options.with_scenario_label(self.options_type)
        return self.options_type

    def parse_options(self, pairs: Iterable[tuple[str, str]]) -> Any:
        """The typed options of recorded pairs, or ``options.BadOption`` naming the key and the valid ones."""
        return options.parse(self.option_kind(), pairs, f"{self.name} rules {self.version}")

    def check_deck(self, cards: Sequence[str], player: int = 0) -> list[decks.DeckProblem]:
        """What in one deck list (card ids) breaks this game's deck-construction rule at this rules version,
        each naming the rule; nothing when the version checks none (``statemachine.decks``)."""
        if self.deck_rule is None or not decks.checks_decks(self):
            return []
        return decks.check_deck(self.deck_rule, self.pool, player, cards)

    def make_policy(self) -> ResolutionPolicy:
        return self.policy()

    def make_flow(self) -> TurnFlow:
        """The turn flow: ``steps`` in order, one at a time (a game with its own turn shape overrides this)."""
        return TurnFlow(self)

    title: str = "this game"  # the game's name in messages
    # Every decision action a player may take, with its arguments and meaning (docs/vocabulary.md); a test
    # checks that every decision the engine lists as legal is one of these.
    decisions: ClassVar[dict[str, str]] = {}
    players_per_game: int = 2  # every seed assumes two players (SPEC Part 4 #2)
    # What the arguments of an action and the options of a request are, so that requests, refusals and traces
    # can name them beside their ids (``statemachine.naming``): an integer is an object id (a negative one a
    # player) unless said here to be an "effect" id or a plain "value". Per action, one kind per argument (the
    # last repeats); per request kind, the kind of its options.
    action_args: ClassVar[dict[str, tuple[str, ...]]] = {}
    option_kinds: ClassVar[dict[str, str]] = {}
    # The rule behind a player's action, and behind each kind of record the rules emit (``Kind`` or
    # ``Kind:detail``, the detail a zone change's cause or a status's or counter's key), where one rule always
    # makes it: what the debugger shows as a value's rule (``tools.debug.rules``). Unnamed is better than wrong.
    action_rules: ClassVar[Mapping[str, str]] = {}
    event_rules: ClassVar[Mapping[str, str]] = {}
    # What a request asks for, in the game's words, where its kind is an identifier no reader should meet
    # ("resolve_next"); any other kind is read as its words ("target", "mana color").
    request_words: ClassVar[dict[str, str]] = {}

    # Player counters a given set-up's turn implies (a scenario's, a judge's): counter -> what it is. A set-up
    # states the turn once (``turn``, ``active``); these follow from it (``setup_counters``), and a set-up that
    # states one of them otherwise contradicts itself and is refused.
    derived_counters: ClassVar[dict[str, str]] = {}

    def setup_counters(self, turn: int, active: int) -> dict[tuple[int, str], int]:
        """The ``derived_counters`` of each player on a given board at turn ``turn``, ``active``'s turn."""
        return {}

    def setup_events(self, players: Sequence[str], decks: Sequence[Sequence[str]], seed: int,
                     options: dict[str, str]) -> list[ev.Event]:
        """The recorded setup: the game's start and every card, face down in its owner's deck ("<p>.deck", in
        the order given). Everything after it follows from the rules."""
        n = self.players_per_game
        if len(players) != n or len(decks) != n:
            raise KifuError(f"{self.title} is played by {n} players, each with a deck")
        self.parse_options(options.items())
        out: list[ev.Event] = [ev.GameStarted(self.name, self.version, tuple(players), seed, self.pool.name,
                                              self.pool.version, self.pool.digest, tuple(sorted(options.items())))]
        oid = 1
        for p, deck in enumerate(decks):
            for pos, card_id in enumerate(deck):
                if card_id not in self.pool:
                    raise KifuError(f"deck {p + 1}, card {pos + 1}: no card {card_id!r} in {self.pool.name}")
                out.append(ev.ObjectCreated(oid, oid, card_id, p, f"{p}.deck", pos, self.pool[card_id].printed(),
                                            True))
                oid += 1
        return out

    def check_inputs(self, decks_given: Sequence[Sequence[str]], pairs: Iterable[tuple[str, str]]) -> None:
        """Refuse a game whose options this version does not read (``options.BadOption``) or whose decks break
        its construction rule (``decks.IllegalDeck``), before anything is recorded."""
        self.parse_options(pairs)
        decks.refuse_illegal(self, decks_given)

    def begin(self, engine: Engine) -> Procedure:
        """The opening up to the first decision (a game whose opening asks a player something overrides this)."""
        self.opening(engine)
        return
        yield

    @abstractmethod
    def opening(self, engine: Engine) -> None:
        """The opening that asks nobody anything: shuffle, deal, set the starting numbers."""

    @abstractmethod
    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        """The turn-based actions of a step."""

    @abstractmethod
    def actions(self, engine: Engine) -> Legal:
        """What the player to act may do when nothing waits."""

    @abstractmethod
    def act(self, engine: Engine, decision: Decision) -> Procedure:
        """Check a player action and return the procedure it starts; raise IllegalDecision naming the rule."""

    @staticmethod
    def turn_player_only(engine: Engine, decision: Decision, rule: str) -> int:
        """The turn player, who alone acts when nothing waits: anyone else's action breaks ``rule``."""
        me = engine.state.active
        if decision.player != me:
            raise IllegalDecision(decision, rule, f"it is player {me}'s turn to act")
        return me

    def check_state(self, engine: Engine) -> None:  # noqa: B027 - a game without state checks is fine
        """State checks (losing, winning) made whenever the rules are about to wait for a decision."""

    def turn_skipped(self, engine: Engine) -> bool:
        """Whether an effect skipped the rest of this turn."""
        return False

    def end_skip(self, engine: Engine) -> None:  # noqa: B027 - nothing to clear for most games
        """Clear the record that the rest of the turn is skipped, as the next turn begins."""

    def conditions_checked_on_trigger(self) -> bool:
        """Whether a triggered ability's conditions must also hold when its event happens for it to trigger at
        all (Magic's intervening "if", CR 603.4), not only when it resolves. Read by tools explaining a trigger
        that did not fire; each game's policy applies it where it records triggers."""
        return False

    def ignoring_lifted_on_leave(self, state: GameState) -> bool:
        """Whether an ability ignored where its card was works for that card's own leaving (a legacy ruling)."""
        return False

    @staticmethod
    def next_to_resolve(state: GameState) -> int | None:
        """The waiting effect that resolves next by the game's order, for readers (``kifu at``, the page); None
        where a player chooses it or nothing waits. A game whose order is fixed says which."""
        return None

    @staticmethod
    def describe_key(key: tuple[int, ...]) -> str:
        """A pending effect's recorded order key in words, for traces (a game whose keys mean something
        says what; the default prints the numbers)."""
        return ", ".join(map(str, key))

    # The rule a game names when its rules loop without end (a draw, ``Engine._loop_reason``).
    loop_rule: ClassVar[str] = "KIFU-LOOP"

    @property
    def ends_at_game_end(self) -> bool:
        """KIFU-END: whether the game stops the moment it ends, nothing of the procedure in flight running on
        (the ``Rules`` switch ``ends_at_game_end``; off in the releases before it, whose logs replay as recorded)."""
        return bool(getattr(self.rules, "ends_at_game_end", False))

    @property
    def loop_bound(self) -> int:
        """How many events one decision may give before the game is a loop no player can stop and ends drawn
        (``loop_rule``); 0: no bound (the releases before it). Far above what any real decision gives."""
        return int(getattr(self.rules, "loop_bound", 0))

    def next_turn_player(self, engine: Engine) -> int:
        return (engine.state.active + 1) % len(engine.state.players)

    # The player counter in which the game keeps each player's extra turns waiting; empty: it has none.
    extra_turn_counter: ClassVar[str] = ""

    def turn_player(self, engine: Engine) -> int:
        """Whose turn begins now: a player with an extra turn waiting takes it (turn player first), otherwise
        the next player in turn order. A game whose extra turns are added between turns says so itself."""
        player = self.next_turn_player(engine) if engine.state.turn else engine.state.active
        extra = engine.take_extra_turn(self.extra_turn_counter) if self.extra_turn_counter else None
        return extra if extra is not None else player

@cache
def _shipped_pool(profile: type[RulesProfile], version: str) -> CardPool:
    pool = load_pinned_pool(profile.name, version, profile.cards.glob("*.toml"), profile.vocabulary,
                            profile.trigger_kinds, profile.releases.pool_digests)
    profile.check_pool(pool)
    return pool


@cache
def _invariants(cls: type[RulesProfile]) -> tuple[Invariant, ...]:
    board = cls.board
    if board is None:
        return invariants(None)
    rule = board.steps.get("", "KIFU-STEP")
    return invariants(dataclasses.replace(board, steps={**{s.name: rule for s in cls.steps}, **board.steps}))
