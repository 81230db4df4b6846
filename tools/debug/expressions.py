"""The debugger's small language: values read from the state at a point, and conditions over a record.

A **value** is read from the state after a record, as a seat (or the judge) may see it::

    power CARD        toughness CARD      zone CARD        controller CARD     status CARD KEY
    stat PLAYER KEY   life PLAYER         pending [HOLDER] size ZONE           turn | phase | step | priority

``CARD`` names a physical card, followed across its zone changes (each change makes a new object): ``#12`` (the
card object 12 is), ``card:7`` (card id 7), or a card's name as the tools print it (``ジャババ・ハット`` or
``ジャババ・ハット#12``). ``PLAYER`` is a seat number or a player's name.

A **condition** holds at a record; clauses joined by ``and`` must all hold::

    event KIND            a record of this event kind (Triggered, ZoneChanged, ChoiceMade, ...)
    triggers CARD         an ability of this card triggers
    leaves ZONE           a card leaves a zone of this kind (battle, hand, ...)   enters ZONE likewise
    decision [PLAYER]     a player's decision (of this player)
    changes VALUE         the value differs just before and just after the record
    VALUE OP X            the value after the record compares so (OP: = != < <= > >=; X a number or a word)
    refused [PLAYER]      a decision (of this player) was tried in the state just after the record and refused

A refused decision appends nothing, so no log holds one: ``refused`` matches the refusals the caller knows of
(``Names.refusals``: a scenario run's, or decisions tried in ``kifu debug``'s page) and nothing else.

Conditions are read once, checked against the log's names, and never evaluated as Python: a query is data.
"""

from __future__ import annotations

import operator
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from eventsource import events as ev
from projections.characteristics import view
from projections.state import GameState
from projections.views import can_see, zone_kind
from statemachine.games import hidden_zones
from tools.errors import BadInput

HIDDEN: Final = "hidden"  # a value the viewer may not see
GONE: Final = "—"  # a card that is no longer in the game as an object (or never was)

Value = int | str | None
OPS: Final[dict[str, Callable[[Any, Any], Any]]] = {
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge,
}
CARD_VALUES: Final = ("power", "toughness", "zone", "controller", "status")
STATE_VALUES: Final = ("turn", "phase", "step", "priority")
EVENT_KINDS: Final = frozenset(t.__name__ for t in ev.Event.__args__)


class QueryError(BadInput):
    """A value or condition that cannot be read, naming what is wrong."""


@dataclass(frozen=True)
class Names:
    """What a query may name in one log: players by seat and name, cards by id and name."""

    players: tuple[str, ...]
    card_names: dict[int, str]  # card id -> name (every card the log created)
    card_of_object: Callable[[int], int | None]  # object id -> card id (None: no such object)
    refusals: frozenset[tuple[int, int]] = frozenset()  # (point, player) of each refused decision known

    def player(self, word: str) -> int:
        if re.fullmatch(r"\d+", word) and int(word) < len(self.players):
            return int(word)
        if word in self.players:
            return self.players.index(word)
        raise QueryError(f"no player {word!r}: the players are " + ", ".join(
            f"{i} ({n})" for i, n in enumerate(self.players)))

    def card(self, word: str) -> int:
        m = re.fullmatch(r"(?:.*#)?(\d+)", word)
        if word.startswith("card:") and word[5:].isdecimal():
            cid = int(word[5:])
            if cid in self.card_names:
                return cid
            raise QueryError(f"no card {cid} in this log")
        if m is not None and (word.startswith("#") or "#" in word):
            oid = int(m.group(1))
            card = self.card_of_object(oid)
            if card is None:
                raise QueryError(f"no object #{oid} in this log")
            return card
        found = sorted(cid for cid, name in self.card_names.items() if name == word)
        if len(found) == 1:
            return found[0]
        if not found:
            raise QueryError(f"no card named {word!r} in this log (name a card by #OBJECT, card:ID or its name)")
        raise QueryError(f"{len(found)} cards are named {word!r} (card ids {', '.join(map(str, found))}): "
                         "name one as card:ID or #OBJECT")


# -- values ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueExpr:
    """One value of the state: ``what`` with its operands, already resolved to ids."""

    what: str
    card: int | None = None
    player: int | None = None
    key: str = ""
    text: str = ""

    def read(self, state: GameState, viewer: int | None) -> Value:
        match self.what:
            case "turn":
                return state.turn
            case "phase":
                return state.phase
            case "step":
                return state.step
            case "priority":
                return state.priority
            case "stat":
                assert self.player is not None
                if self.player >= len(state.players):
                    return None
                return state.players[self.player].stats.get(self.key)
            case "pending":
                return sum(1 for p in state.pending.values() if not self.key or p.holder == self.key)
            case "size":
                return sum(len(ids) for z, ids in state.zones.items() if z == self.key or zone_kind(z)[1] == self.key)
            case _:
                return self._card_value(state, viewer)

    def _card_value(self, state: GameState, viewer: int | None) -> Value:
        assert self.card is not None
        oid = object_of_card(state, self.card)
        if oid is None:
            return GONE
        if not can_see(state, viewer, oid, hidden=hidden_zones(state.profile)):
            return HIDDEN
        v = view(state, oid)
        match self.what:
            case "power":
                return v.chars.power
            case "toughness":
                return v.chars.toughness
            case "zone":
                return v.zone
            case "controller":
                return v.controller
            case "status":
                return v.status.get(self.key, 0)
        raise AssertionError(self.what)


def object_of_card(state: GameState, card: int) -> int | None:
    """The object card ``card`` is now (a card under another is an object too), or None."""
    for oid in reversed(list(state.objects)):  # (objects are kept in creation order: the newest is last)
        if state.objects[oid].card == card:
            return oid
    return None


def parse_value(words: list[str], names: Names) -> ValueExpr:
    if not words:
        raise QueryError("a value is missing: " + _VALUE_HELP)
    head, rest = words[0], words[1:]
    text = " ".join(words)
    if head in STATE_VALUES and not rest:
        return ValueExpr(head, text=text)
    if head in ("power", "toughness", "zone", "controller") and len(rest) == 1:
        return ValueExpr(head, card=names.card(rest[0]), text=text)
    if head == "status" and len(rest) == 2:
        return ValueExpr("status", card=names.card(rest[0]), key=rest[1], text=text)
    if head == "stat" and len(rest) == 2:
        return ValueExpr("stat", player=names.player(rest[0]), key=rest[1], text=text)
    if head == "life" and len(rest) == 1:
        return ValueExpr("stat", player=names.player(rest[0]), key="life", text=text)
    if head == "pending" and len(rest) <= 1:
        return ValueExpr("pending", key=rest[0] if rest else "", text=text)
    if head == "size" and len(rest) == 1:
        return ValueExpr("size", key=rest[0], text=text)
    raise QueryError(f"cannot read the value {text!r}: " + _VALUE_HELP)


_VALUE_HELP = ("a value is one of: power CARD, toughness CARD, zone CARD, controller CARD, status CARD KEY, "
               "stat PLAYER KEY, life PLAYER, pending [HOLDER], size ZONE, turn, phase, step, priority")


# -- conditions ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    what: str  # event, triggers, leaves, enters, decision, changes, compare
    word: str = ""
    card: int | None = None
    player: int | None = None
    value: ValueExpr | None = None
    op: str = ""
    operand: Value = None
    points: frozenset[int] = frozenset()  # refused: the points at which a refusal is known


@dataclass(frozen=True)
class Condition:
    """Clauses that must all hold at a record; ``text`` is the condition as written."""

    clauses: tuple[Clause, ...]
    text: str

    @property
    def values(self) -> tuple[ValueExpr, ...]:
        """The values whose before/after the condition reads."""
        return tuple(c.value for c in self.clauses if c.value is not None)

    def holds(self, event: ev.Event | None, before: tuple[Value, ...], after: tuple[Value, ...], *, seq: int
              ) -> bool:
        """Whether every clause holds at record ``seq`` whose event is ``event`` as the viewer sees it (None: the
        viewer does not see the record at all), given the condition's values just before and after it."""
        i = 0
        for c in self.clauses:
            if c.value is not None:
                ok = _value_clause(c, before[i], after[i])
                i += 1
            elif c.what == "refused":
                ok = seq in c.points
            else:
                ok = event is not None and _event_clause(c, event)
            if not ok:
                return False
        return True


def _value_clause(c: Clause, before: Value, after: Value) -> bool:
    if c.what == "changes":
        return before != after
    if after in (HIDDEN, GONE, None) and not isinstance(c.operand, str):
        return False
    try:
        return bool(OPS[c.op](after, c.operand))
    except TypeError:  # a number compared with a word: the value is not what the condition asks about
        return False


def _event_clause(c: Clause, e: ev.Event) -> bool:
    match c.what:
        case "event":
            return ev.kind_of(e) == c.word
        case "triggers":
            return isinstance(e, ev.Triggered) and e.source_card == c.card
        case "leaves":
            return isinstance(e, ev.ZoneChanged) and zone_kind(e.src)[1] == c.word
        case "enters":
            return isinstance(e, ev.ZoneChanged | ev.ObjectCreated) and zone_kind(
                e.dst if isinstance(e, ev.ZoneChanged) else e.zone)[1] == c.word
        case "decision":
            return isinstance(e, ev.ChoiceMade) and (c.player is None or e.player == c.player)
    raise AssertionError(c.what)


def parse_condition(text: str, names: Names) -> Condition:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise QueryError(f"cannot read the condition {text!r}: {exc}") from None
    if not words:
        raise QueryError("the condition is empty: " + _CONDITION_HELP)
    parts: list[list[str]] = [[]]
    for w in words:
        if w == "and":
            parts.append([])
        else:
            parts[-1].append(w)
    return Condition(tuple(_clause(p, names) for p in parts), text)


def _clause(words: list[str], names: Names) -> Clause:
    if not words:
        raise QueryError("'and' needs a clause on each side: " + _CONDITION_HELP)
    head, rest = words[0], words[1:]
    match head:
        case "event" if len(rest) == 1:
            if rest[0] not in EVENT_KINDS:
                raise QueryError(f"no event kind {rest[0]!r}: the kinds are {', '.join(sorted(EVENT_KINDS))}")
            return Clause("event", word=rest[0])
        case "triggers" if len(rest) == 1:
            return Clause("triggers", card=names.card(rest[0]))
        case "leaves" | "enters" if len(rest) == 1:
            return Clause(head, word=rest[0])
        case "decision" if len(rest) <= 1:
            return Clause("decision", player=names.player(rest[0]) if rest else None)
        case "changes":
            return Clause("changes", value=parse_value(rest, names))
        case "refused" if len(rest) <= 1:
            who = names.player(rest[0]) if rest else None
            return Clause("refused", player=who,
                          points=frozenset(at for at, p in names.refusals if who is None or p == who))
    ops = [i for i, w in enumerate(words) if w in OPS]
    if len(ops) == 1 and ops[0] == len(words) - 2:
        raw = words[-1]
        operand: Value = int(raw) if re.fullmatch(r"-?\d+", raw) else raw
        return Clause("compare", value=parse_value(words[:-2], names), op=words[-2], operand=operand)
    raise QueryError(f"cannot read the condition {' '.join(words)!r}: " + _CONDITION_HELP)


_CONDITION_HELP = ("a condition is one or more of (joined by 'and'): event KIND, triggers CARD, leaves ZONE, "
                   "enters ZONE, decision [PLAYER], changes VALUE, VALUE OP X (OP one of = != < <= > >=), "
                   "refused [PLAYER]")
