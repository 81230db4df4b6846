"""A stable action numbering for each game: kifu's legal decisions as the integers game-playing programs use.

OpenSpiel and PettingZoo want a fixed number of distinct actions per game and each legal move as an integer below
it, meaning the same thing in every state and every run. kifu's decisions name objects by id, and an object gets a
new id each time its card changes zone, so ids are never used: an argument is numbered by where it is, relative to
the player deciding. The layout of game ``g`` (``numbering(g)``):

=====================================  ==========================================================================
actions                                 meaning
=====================================  ==========================================================================
``0 .. MAX_OPTIONS-1``                  answer the open request with its option number ``i`` (``request.options[i]``)
``MAX_OPTIONS`` (``DONE``)              end a request's choice: choose nothing, or no more than those picked so far
then one block per decision *shape*     an action of the game's own with its arguments as slots (below)
=====================================  ==========================================================================

A shape is an action name with one slot per argument; its block holds the product of its slots' sizes, the
first slot most significant. A slot is one of, or a union of (each part numbered after the one before):

- ``Pos(kind, whose)``: the card at position ``i`` (``0 .. MAX_POS-1``) of zone ``<owner>.<kind>``, whose owner is
  ``me`` (the player deciding) or ``op`` (the other player): "the 3rd card of my hand", "the 1st of their battle zone";
- ``Word(w)``: a fixed word such as ``player`` (Duel Masters' attack on the player) or ``leader`` (Shadowverse);
- ``Index(n)``: a small number ``0 .. n-1`` (Magic's ability index on a permanent);
- ``Ability(n)``: the card's ``i``-th ability (``0 .. n-1``), given as its id (Vision of Phantasm's ``activate``).

Requests (a target, a "may", who blocks, which pending ability resolves next) are answered by option number, in
the order the request lists its options. One that takes several options is answered one pick at a time: each pick
adds ``request.options[i]``, ``DONE`` ends the choice once ``request.minimum`` are picked, and reaching
``request.maximum`` ends it by itself; a pick is offered only if a valid answer can still follow (weights and
``max_total`` included). So a multi-card decision is a short sequence of actions and the numbering stays small.

Every legal decision maps to exactly one action (or, for a request's answer, one sequence) and back; one that does
not fit (a position beyond ``MAX_POS``, a request with more than ``MAX_OPTIONS`` options, an action no shape
describes) raises ``ActionSpaceExceeded`` naming it, never a silent wrong number. The bounds exceed what any
shipped deck can reach (a player's cards number at most 60, tokens included in every played game).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from msgspec import Struct

from eventsource.errors import KifuError
from projections.views import zone_kind
from statemachine.decisions import Arg, Decision, Legal, Request
from statemachine.engine import Engine

MAX_OPTIONS: Final = 128  # options of one request
MAX_POS: Final = 64  # positions in one zone
DONE: Final = MAX_OPTIONS
FIRST_SHAPE: Final = MAX_OPTIONS + 1


class ActionSpaceExceeded(KifuError):
    """A legal decision the numbering cannot express (a bound exceeded or an action no shape describes)."""


class Pos(Struct, frozen=True):
    kind: str
    whose: str  # "me" | "op"

    @property
    def size(self) -> int:
        return MAX_POS


class Word(Struct, frozen=True):
    word: str

    @property
    def size(self) -> int:
        return 1


class Index(Struct, frozen=True):
    n: int

    @property
    def size(self) -> int:
        return self.n


class Ability(Struct, frozen=True):
    n: int

    @property
    def size(self) -> int:
        return self.n


Part = Pos | Word | Index | Ability
Slot = tuple[Part, ...]  # a union of parts, numbered one after the other


class Shape(Struct, frozen=True):
    action: str
    slots: tuple[Slot, ...] = ()

    @property
    def size(self) -> int:
        n = 1
        for slot in self.slots:
            n *= sum(p.size for p in slot)
        return n


def _hand(whose: str = "me") -> Slot:
    return (Pos("hand", whose),)


def _zone(kind: str, whose: str = "me") -> Slot:
    return (Pos(kind, whose),)


# Each game's own actions (those ``profile.actions`` and its resolution policy list), one shape per arity.
SHAPES: Final[dict[str, tuple[Shape, ...]]] = {
    "duel_masters": (
        Shape("end_step"),
        Shape("charge", (_hand(),)),
        Shape("summon", (_hand(),)),
        Shape("summon", (_hand(), _zone("battle"))),  # an evolution creature onto its base
        Shape("cast", (_hand(),)),
        Shape("attack", (_zone("battle"), (Word("player"), Pos("battle", "op")))),
    ),
    "magic": (
        Shape("pass"),
        Shape("play", (_hand(),)),
        Shape("cast", (_hand(),)),
        Shape("mana", (_zone("battlefield"),)),
        Shape("activate", (_zone("battlefield"), (Index(8),))),
    ),
    "shadowverse": (
        Shape("end_turn"),
        Shape("play", (_hand(),)),
        Shape("evolve", (_zone("field"),)),
        Shape("attack", (_zone("field"), (Word("leader"), Pos("field", "op")))),
    ),
    "vision": (
        Shape("pass"),
        Shape("node", (_hand(),)),
        Shape("play", (_hand(),)),
        Shape("activate", (_zone("field"), (Ability(8),))),
        Shape("attack", (_zone("field"),)),
        Shape("defend", ((Pos("field", "me"), Pos("hand", "me")),)),  # 奇襲 with 速攻 defends from hand
    ),
}


def _owner(engine: Engine, player: int, whose: str) -> int:
    return player if whose == "me" else engine.opponent(player)


def _abilities(engine: Engine, oid: int) -> list[str]:
    return [a.id for a in engine.profile.pool[engine.state.facts(oid).definition].abilities]


def _encode_part(engine: Engine, player: int, part: Part, arg: Arg, previous: Arg | None) -> int | None:
    """``arg``'s number within ``part``, or None if it is not of that part."""
    st = engine.state
    match part:
        case Word(word):
            return 0 if arg == word else None
        case Index(n):
            return arg if isinstance(arg, int) and 0 <= arg < n else None
        case Ability(n):
            if not isinstance(arg, str) or not isinstance(previous, int) or previous not in st.objects:
                return None
            ids = _abilities(engine, previous)
            if arg not in ids:
                return None
            i = ids.index(arg)
            if i >= n:
                raise ActionSpaceExceeded(f"ability {arg!r} is the card's number {i}, beyond the {n} numbered")
            return i
        case Pos(kind, whose):
            obj = st.objects.get(arg) if isinstance(arg, int) else None
            if obj is None or zone_kind(obj.zone) != (_owner(engine, player, whose), kind):
                return None
            pos = st.zone(obj.zone).index(obj.id)
            if pos >= MAX_POS:
                raise ActionSpaceExceeded(f"object {arg} is at position {pos} of {obj.zone}, beyond {MAX_POS}")
            return pos
    return None


def _decode_part(engine: Engine, player: int, part: Part, i: int, previous: Arg | None) -> Arg | None:
    match part:
        case Word(word):
            return word
        case Index():
            return i
        case Ability():
            if not isinstance(previous, int) or previous not in engine.state.objects:
                return None
            names = _abilities(engine, previous)
            return names[i] if i < len(names) else None
        case Pos(kind, whose):
            ids = engine.state.zone(f"{_owner(engine, player, whose)}.{kind}")
            return ids[i] if i < len(ids) else None
    return None


class Numbering:
    """The action numbering of one game (see the module's docstring for the layout)."""

    def __init__(self, game: str) -> None:
        if game not in SHAPES:
            raise KifuError(f"no action numbering for game {game!r} (known: {', '.join(sorted(SHAPES))})")
        self.game = game
        self.shapes = SHAPES[game]
        self.offsets: list[int] = []
        n = FIRST_SHAPE
        for shape in self.shapes:
            self.offsets.append(n)
            n += shape.size
        self.num_distinct_actions = n

    # -- the game's own actions ---------------------------------------------------------------------------

    def encode(self, engine: Engine, decision: Decision) -> int:
        """The number of a decision that answers no request (an action of the game's own)."""
        for shape, offset in zip(self.shapes, self.offsets, strict=True):
            if shape.action != decision.action or len(shape.slots) != len(decision.args):
                continue
            number = self._encode_args(engine, decision, shape)
            if number is not None:
                return offset + number
        raise ActionSpaceExceeded(f"decision {decision} fits no action shape of {self.game}")

    def _encode_args(self, engine: Engine, decision: Decision, shape: Shape) -> int | None:
        number = 0
        previous: Arg | None = None
        for slot, arg in zip(shape.slots, decision.args, strict=True):
            base, found = 0, None
            for part in slot:
                i = _encode_part(engine, decision.player, part, arg, previous)
                if i is not None:
                    found = base + i
                    break
                base += part.size
            if found is None:
                return None
            number = number * sum(p.size for p in slot) + found
            previous = arg
        return number

    def decode(self, engine: Engine, player: int, action: int) -> Decision | None:
        """The decision an action of the game's own stands for in this state (None: it names nothing here)."""
        if not FIRST_SHAPE <= action < self.num_distinct_actions:
            return None
        k = max(i for i, off in enumerate(self.offsets) if off <= action)
        shape, rest = self.shapes[k], action - self.offsets[k]
        digits: list[int] = []
        for slot in reversed(shape.slots):
            size = sum(p.size for p in slot)
            digits.append(rest % size)
            rest //= size
        args: list[Arg] = []
        previous: Arg | None = None
        for slot, digit in zip(shape.slots, reversed(digits), strict=True):
            arg: Arg | None = None
            for part in slot:
                if digit < part.size:
                    arg = _decode_part(engine, player, part, digit, previous)
                    break
                digit -= part.size
            if arg is None:
                return None
            args.append(arg)
            previous = arg
        return Decision(player, shape.action, tuple(args))

    # -- the whole numbering: requests answered pick by pick --------------------------------------------------

    def legal_actions(self, engine: Engine, picked: Sequence[int] = (), legal: Legal | None = None) -> list[int]:
        """The legal actions now, ascending; ``picked``: the options picked so far of the open request
        (``legal``: ``engine.legal()`` if the caller has it)."""
        legal = engine.legal() if legal is None else legal
        if legal.player is None:
            return []
        if legal.request is not None:
            return _request_actions(legal.request, picked)
        numbers = sorted(self.encode(engine, d) for d in legal.decisions)
        if len(set(numbers)) != len(numbers):
            raise ActionSpaceExceeded(f"two legal decisions of {self.game} share a number: {legal.decisions}")
        return numbers

    def apply(self, engine: Engine, picked: Sequence[int], action: int,
              legal: Legal | None = None) -> Decision | tuple[int, ...]:
        """What ``action`` does: the decision it completes, or (a request's answer not complete yet) the options
        picked so far. The engine is not changed: ``engine.decide`` the decision returned."""
        legal = engine.legal() if legal is None else legal
        if legal.player is None:
            raise ActionSpaceExceeded("the game is over: no action is legal")
        req = legal.request
        if req is None:
            decision = self.decode(engine, legal.player, action)
            if decision is None:
                raise ActionSpaceExceeded(f"action {action} ({self.action_name(action)}) names nothing now")
            return decision
        if action not in _request_actions(req, picked):
            raise ActionSpaceExceeded(f"action {action} ({self.action_name(action)}) does not answer {req.kind} now")
        if action == DONE:
            return _answer(req, picked)
        now = (*picked, action)
        return _answer(req, now) if len(now) >= min(req.maximum, len(req.options)) else now

    def actions_of(self, engine: Engine, decision: Decision, legal: Legal | None = None) -> list[int]:
        """The actions that make ``decision`` now: one, or a request's picks (and ``DONE`` if it needs one)."""
        req = (engine.legal() if legal is None else legal).request
        if req is None:
            return [self.encode(engine, decision)]
        if len(req.options) > MAX_OPTIONS:
            raise ActionSpaceExceeded(f"request {req.kind} has {len(req.options)} options, beyond {MAX_OPTIONS}")
        picks = [req.options.index(a) for a in decision.args]
        return picks if len(picks) >= min(req.maximum, len(req.options)) else [*picks, DONE]

    def action_name(self, action: int) -> str:
        """A readable name of an action, the same in every state: ``pick 3``, ``attack battle[1] op.battle[0]``."""
        if 0 <= action < MAX_OPTIONS:
            return f"pick {action}"
        if action == DONE:
            return "done"
        if not FIRST_SHAPE <= action < self.num_distinct_actions:
            return f"action {action} (out of range)"
        k = max(i for i, off in enumerate(self.offsets) if off <= action)
        shape, rest = self.shapes[k], action - self.offsets[k]
        words: list[str] = []
        for slot in reversed(shape.slots):
            size = sum(p.size for p in slot)
            digit = rest % size
            rest //= size
            for part in slot:
                if digit < part.size:
                    words.append(_part_name(part, digit))
                    break
                digit -= part.size
        return " ".join([shape.action, *reversed(words)])


def _part_name(part: Part, i: int) -> str:
    match part:
        case Word(word):
            return word
        case Index():
            return str(i)
        case Ability():
            return f"ability[{i}]"
        case Pos(kind, whose):
            return f"{kind}[{i}]" if whose == "me" else f"{whose}.{kind}[{i}]"
    return "?"


def _request_actions(req: Request, picked: Sequence[int]) -> list[int]:
    """The picks that can still lead to a valid answer, and ``DONE`` once enough are picked."""
    n = len(req.options)
    if n > MAX_OPTIONS:
        raise ActionSpaceExceeded(f"request {req.kind} has {n} options, beyond the {MAX_OPTIONS} numbered")
    need = req.minimum - len(picked) - 1  # how many more must follow a pick
    free = [i for i in range(n) if i not in picked]
    out: list[int] = []
    if len(picked) < req.maximum:
        weighted = req.max_total is not None and bool(req.weights)
        for i in free:
            if weighted:
                assert req.max_total is not None
                budget = req.max_total - sum(req.weights[j] for j in picked) - req.weights[i]
                cheapest = sorted(req.weights[j] for j in free if j != i)[:max(need, 0)]
                if budget < 0 or sum(cheapest) > budget:
                    continue
            elif len(free) - 1 < need:
                continue
            out.append(i)
    if len(picked) >= req.minimum:
        out.append(DONE)
    return out


def _answer(req: Request, picked: Sequence[int]) -> Decision:
    return Decision(req.player, req.action, tuple(req.options[i] for i in picked))


@cache
def numbering(game: str) -> Numbering:
    """The numbering of game ``game`` (a ``statemachine.games.PROFILES`` name)."""
    return Numbering(game)
