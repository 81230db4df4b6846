"""Trigger matching: which abilities an event (or a group of simultaneous events) triggers.

Matching is indexed by trigger name, so its cost per event grows with the number of abilities that listen for
that kind of event, not with the number of cards in play. A leave or destroy trigger is checked in the state
just before its event, an enter trigger in the state just after (DM-LB-06, DM-LB-07); each instance records
which. Look-back is a rule of matching, whatever the card's text says (DM-LB-04 (1), DM-LB-05). In a group of
simultaneous moves, an ability whose holder left in the same group may look back only at its holder's own move
(DM-LB-02, DM-LB-12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

import msgspec

from eventsource import events as ev
from projections.characteristics import ObjectView, last_known, view
from projections.state import GameState
from projections.views import zone_kind
from statemachine.cards import AbilityDef, CardDef, CardPool


class TriggerKind(NamedTuple):
    """A trigger of the vocabulary: the events it listens to and the state it is checked in."""

    name: str
    checked: str  # ev.BEFORE or ev.AFTER
    subjects: Callable[[ev.Event, dict[str, Any]], list[int]]  # the objects an event is "about", or []
    # Checks that need the event, the holder and the subject together (who chose, what a card lay under).
    accept: Callable[[ev.Event, ObjectView, ObjectView, dict[str, Any]], bool] | None = None


class Listener(NamedTuple):
    obj: int
    card: CardDef
    ability: AbilityDef


class Instance(NamedTuple):
    """One triggering: the ability, its holder as checked, the event and the state it was checked in."""

    listener: Listener
    controller: int
    holder: ObjectView
    subject: ObjectView | None
    by: int
    checked: str

    @property
    def hidden(self) -> bool:
        """Triggered in a hidden zone: needs a use declaration to count (DM-W-27, DM-W-28)."""
        return zone_kind(self.holder.zone)[1] == "hand"


class TriggerIndex:
    """Listeners by trigger name: the objects whose abilities listen for it from where they are."""

    def __init__(self, pool: CardPool, kinds: dict[str, TriggerKind],
                 tests: dict[str, Callable[[Any, Any], bool]] | None = None) -> None:
        self.pool, self.kinds = pool, kinds
        self.tests = tests or {}  # the game's own filter keys' subject tests (``Vocabulary.filter_tests``)
        self.by_name: dict[str, dict[int, list[Listener]]] = {name: {} for name in kinds}
        # The same listeners split by what they are about: only their holder ("when this ..."), or others.
        self._own: dict[str, dict[int, list[Listener]]] = {name: {} for name in kinds}
        self._watch: dict[str, dict[int, list[Listener]]] = {name: {} for name in kinds}
        self._of: dict[int, list[str]] = {}
        self._after: list[tuple[str, TriggerKind]] | None = None  # the checked-after kinds anything listens for

    def copy(self) -> TriggerIndex:
        """An index equal to this one that neither changes through the other (a search clone's). The lists of
        one object's listeners are shared: ``add`` makes them for an object that has none, and nothing changes
        them after."""
        out = TriggerIndex.__new__(TriggerIndex)
        out.pool, out.kinds, out._after, out.tests = self.pool, self.kinds, self._after, self.tests
        out.by_name = {name: table.copy() for name, table in self.by_name.items()}
        out._own = {name: table.copy() for name, table in self._own.items()}
        out._watch = {name: table.copy() for name, table in self._watch.items()}
        out._of = self._of.copy()
        return out

    def rebuild(self, state: GameState) -> None:
        for tables in (self.by_name, self._own, self._watch):
            for table in tables.values():
                table.clear()
        self._of.clear()
        self._after = None
        for oid in sorted(state.objects):
            self.add(state, oid)

    def add(self, state: GameState, oid: int) -> None:
        obj = state.objects[oid]
        card = self.pool.cards.get(state.cards[obj.card].definition)
        if card is None:
            return
        zone = zone_kind(obj.zone)[1]
        for ability in card.abilities:
            t = ability.trigger
            if t is not None and t.where == zone:
                lst = Listener(oid, card, ability)
                self.by_name[t.on].setdefault(oid, []).append(lst)
                (self._own if t.subject == "self" else self._watch)[t.on].setdefault(oid, []).append(lst)
                self._of.setdefault(oid, []).append(t.on)
                self._after = None

    def remove(self, oid: int) -> None:
        names = self._of.pop(oid, ())
        if names:
            self._after = None
        for name in names:
            self.by_name[name].pop(oid, None)
            self._own[name].pop(oid, None)
            self._watch[name].pop(oid, None)

    def sync(self, state: GameState, event: ev.Event) -> None:
        """Keep the index in step with the fold, one event at a time. (``type() is`` rather than ``match``: it
        runs for every event, and msgspec Structs answer ``isinstance`` slowly, see ``projections.state.evolve``.)"""
        kind = type(event)
        if kind is ev.ZoneChanged:
            moved = cast(ev.ZoneChanged, event)
            self.remove(moved.old)
            self.add(state, moved.new)
        elif kind is ev.ObjectCreated:
            self.add(state, cast(ev.ObjectCreated, event).obj)
        elif kind is ev.Stacked:
            self.remove(cast(ev.Stacked, event).below)

    def listened_after(self) -> list[tuple[str, TriggerKind]]:
        """The trigger kinds checked after their event that some object listens for now, in vocabulary order."""
        if self._after is None:
            self._after = [(name, kind) for name, kind in self.kinds.items()
                           if kind.checked != ev.BEFORE and self.by_name[name]]
        return self._after

    def listeners(self, name: str) -> list[Listener]:
        """Every listener for trigger ``name`` (for tools; matching uses ``candidates``)."""
        table = self.by_name.get(name)
        if not table:
            return []
        return [lst for oid in sorted(table) for lst in table[oid]]

    def own(self, name: str, oid: int) -> list[Listener]:
        """The listeners of ``oid`` itself that are only about ``oid`` ("when this ...")."""
        table = self._own.get(name)
        found = table.get(oid) if table else None
        return list(found) if found else []

    def watchers(self, name: str) -> list[Listener]:
        """Listeners about other objects ("when another creature ...", "when one of your creatures ..."):
        the only ones an event about some object must look through, however many objects are in play."""
        table = self._watch.get(name)
        if not table:
            return []
        return [lst for oid in sorted(table) for lst in table[oid]]


class SubjectFilter(msgspec.Struct, frozen=True):
    """The shapes of the subject conditions ``matches_filter`` reads; card files are checked against it when a
    pool loads. Other keys belong to a game's trigger kinds (who chose, what a card lay under, ...)."""

    types: list[str] | None = None
    subtypes: list[str] | None = None
    colors: list[str] | None = None
    subtype_contains: str | None = None
    min_power: int | None = None


def matches_filter(subject: ObjectView, flt: dict[str, Any],
                   tests: dict[str, Callable[[Any, Any], bool]] | None = None) -> bool:
    """The subject conditions a trigger may state: types, subtypes, colors (any of each), and the keys the
    game declares with a test of its own (``Vocabulary.filter_key``)."""
    chars = subject.chars
    for key, want in flt.items():
        match key:
            case "types":
                if not set(want) & set(chars.types):
                    return False
            case "subtypes":
                if not set(want) & set(chars.subtypes):
                    return False
            case "colors":
                if not set(want) & set(chars.colors):
                    return False
            case "subtype_contains":
                if not any(want in st for st in chars.subtypes):
                    return False
            case "min_power":
                if (chars.power or 0) < want:
                    return False
            case _:
                test = tests.get(key) if tests else None
                if test is not None and not test(subject, want):
                    return False  # otherwise a key a trigger kind reads for itself (e.g. who chose)
    return True


class Before:
    """Listeners of the look-back triggers, taken before a group of moves is folded."""

    def __init__(self, index: TriggerIndex, events: Sequence[ev.Event]) -> None:
        leaving = [e.old for e in events if type(e) is ev.ZoneChanged]
        names = [name for name, kind in index.kinds.items() if kind.checked == ev.BEFORE and index.by_name[name]]
        self.watching = {name: index.watchers(name) for name in names}
        self.owned = {(name, oid): index.own(name, oid) for name in names for oid in leaving}
        # The look-back trigger names anything listens for in this group: matching skips the others.
        self.names = frozenset(name for name in names if self.watching[name] or any(
            self.owned[(name, oid)] for oid in leaving))

    def candidates(self, name: str, subject: int) -> list[Listener]:
        return _in_holder_order(self.owned.get((name, subject), []), self.watching.get(name, []))


def match(state: GameState, index: TriggerIndex, events: Sequence[tuple[int, ev.Event]],
          before: Before | None, *, ignoring_lifted: bool = False, own_move_only: bool = True) -> list[Instance]:
    """Instances triggered by a group of simultaneous events, already folded into ``state``.

    ``own_move_only``: a holder that left in the group may look back only at its own move (DM-LB-02, DM-LB-12);
    a game whose leave abilities "look back in time" for every simultaneous move (Magic) turns it off.
    ``ignoring_lifted``: a legacy ruling (DM-LB-18) under which an ability ignored in the zone a card left
    works again for its own leaving; by default the ignored state is what is looked back at (DM-LB-17).
    """
    leavers = {e.old for _, e in events if type(e) is ev.ZoneChanged}
    # Only trigger names something listens for can trigger: the others are not asked about the events.
    kinds = index.listened_after()
    if before is not None and before.names:
        live = {name for name, _ in kinds}
        kinds = [(name, kind) for name, kind in index.kinds.items()
                 if (name in before.names if kind.checked == ev.BEFORE else name in live)]
    out: list[Instance] = []
    if not kinds:
        return out
    no_filter: dict[str, Any] = {}
    for seq, event in events:
        for name, kind in kinds:
            for subject_id in kind.subjects(event, no_filter):
                if kind.checked == ev.BEFORE:
                    listeners = before.candidates(name, subject_id) if before is not None else []
                else:
                    listeners = _in_holder_order(index.own(name, subject_id), index.watchers(name))
                for lst in listeners:
                    inst = _check(state, kind, lst, event, subject_id, seq, leavers, ignoring_lifted, own_move_only,
                                  index.tests)
                    if inst is not None:
                        out.append(inst)
    return out


def _check(state: GameState, kind: TriggerKind, lst: Listener, event: ev.Event, subject_id: int, seq: int,
           leavers: set[int], ignoring_lifted: bool = False, own_move_only: bool = True,
           tests: dict[str, Callable[[Any, Any], bool]] | None = None) -> Instance | None:
    t = lst.ability.trigger
    assert t is not None
    before = kind.checked == ev.BEFORE
    if own_move_only and before and lst.obj in leavers and lst.obj != subject_id:
        return None  # DM-LB-02 / DM-LB-12: a holder that left looks back only at its own move
    holder = (last_known(state, lst.obj) if lst.obj in leavers else view(state, lst.obj)) if before else (
        view(state, lst.obj) if lst.obj in state.objects else None)
    if holder is None:
        return None
    lifted = ignoring_lifted and before and lst.obj in leavers and holder.abilities_ignored
    if lst.ability.id not in holder.chars.abilities and not lifted:
        return None  # its abilities are ignored in the state checked (DM-LB-11, DM-LB-17)
    if t.subject == "self" and subject_id != lst.obj:
        return None
    if t.subject == "other" and subject_id == lst.obj:
        return None
    subject = last_known(state, subject_id) if before else (
        view(state, subject_id) if subject_id in state.objects else None)
    if subject is None:
        return None
    if t.whose == "you" and subject.controller != holder.controller:
        return None
    if t.whose == "opponent" and subject.controller == holder.controller:
        return None
    # DM-LB-08, DM-LB-09: "when a [condition] creature is destroyed" reads the subject as it was before it moved;
    # DM-LB-10: a holder that is itself the subject counts among "your creatures".
    if not matches_filter(subject, t.filter, tests):
        return None
    if kind.accept is not None and not kind.accept(event, holder, subject, t.filter):
        return None
    return Instance(lst, holder.controller, holder, subject, seq, kind.checked)


def _in_holder_order(own: list[Listener], watching: list[Listener]) -> list[Listener]:
    """Matching order: by holder object id, then printed order (a stable sort keeps ability order)."""
    if not own:
        return watching
    if not watching:
        return own
    return sorted(own + watching, key=lambda lst: lst.obj)


def before_listeners(index: TriggerIndex, events: Sequence[ev.Event]) -> Before:
    """The look-back listeners a group of events may need, taken before it is folded."""
    return Before(index, events)
