"""What each viewer of a match is sent of its records, folded once for every viewer.

After a decision every watcher of the match — both seats, any spectators — reads the same new records. A
:class:`Catchup` keeps one fold of the match (the state after record ``seq``, moved forward in place) and, for
the records it folded lately, the line each viewer may see of each — as ``kifu replay --player`` reads it for
them, the cards hidden from them unnamed: the second seat's read, and a spectator's, cost a lookup, not a fold
(copying the state to share it cost more than folding). A read from further back than
the lines kept (a client reconnecting after a long while, a spectator's delay) folds from the store's snapshots
on its own, leaving the match's fold where it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from eventsource import events as ev
from eventsource.records import Record
from eventsource.store import EventStore
from projections.state import CardFacts, GameState, evolve, fork
from projections.timeline import Timeline
from projections.views import HIDDEN, can_see, redact_event
from statemachine.games import hidden_zones, option_kinds
from tools.travel.trace import MASK, render

SPECTATOR: Final = 2  # the view of neither seat: a player index that is no seat, so it sees only what is public
JUDGE: Final = 3  # a spectator of a match that shows the judge's view, delayed: every card, but not the seed
SPECTATORS: Final = (SPECTATOR, JUDGE)
VIEWERS: Final = (0, 1, SPECTATOR, JUDGE)  # whose lines are kept
KEPT: Final = 1_024  # records whose lines are kept per match, the newest


@dataclass
class Catchup:
    seq: int
    state: GameState
    lines: dict[int, tuple[dict[str, Any] | None, ...]] = field(default_factory=dict)  # seq: a line per VIEWERS
    # The state's objects by card (which cards a viewer may not see asks it), kept while no object is made or ends:
    # made again per record, it was a third of the fold's time.
    _by_card: tuple[tuple[int, int], dict[int, list[int]]] | None = None

    @classmethod
    def at(cls, store: EventStore, match_id: str, seq: int) -> Catchup:
        return cls(seq, Timeline(store, match_id).state_at(seq))

    def covers(self, start: int) -> bool:
        """Whether the lines kept run from record ``start`` to this fold's end (or it ends just before)."""
        return start - 1 <= self.seq and (start == self.seq + 1 or start in self.lines)

    def fold(self, store: EventStore, match_id: str, stop: int) -> None:
        """Fold the records up to ``stop``, keeping each viewer's line of each."""
        if stop > self.seq:
            self._take(store.read(match_id, self.seq + 1, stop))

    def extend(self, records: Sequence[Record]) -> None:
        """Fold records the match's engine has just appended, when they follow this fold's end: the lines of a
        decision are made from what the engine committed, without reading it back from the store."""
        if records and records[0].seq == self.seq + 1:
            self._take(records)

    def _take(self, records: Iterable[Record]) -> None:
        game, hidden, kinds = "", hidden_zones(""), option_kinds("")
        for rec in records:
            if self.state.profile != game:  # (the game is known once its first record is folded)
                game = self.state.profile
                hidden, kinds = hidden_zones(game), option_kinds(game)
            lines, unsure = _lines(rec, self.state, hidden, kinds, self.objects_by_card)
            before = fork(self.state) if unsure else None  # (kept only while a line may name a card it reveals)
            evolve(self.state, rec.seq, rec.event, rec.decision)
            if before is not None:
                lines = _settled(lines, unsure, rec, before, self.state, hidden, self.objects_by_card)
            self.lines[rec.seq] = lines
            self.seq = rec.seq
        for old in [s for s in self.lines if s <= self.seq - KEPT]:
            del self.lines[old]

    def objects_by_card(self, state: GameState) -> dict[int, list[int]]:
        """``state``'s object ids by card: the same while no object is made (object ids are never used twice)
        and none ends."""
        key = (state.next_object, len(state.objects))
        if self._by_card is None or self._by_card[0] != key:
            of: dict[int, list[int]] = {}
            for o in state.objects.values():
                of.setdefault(o.card, []).append(o.id)
            self._by_card = (key, of)
        return self._by_card[1]

    def seen(self, viewer: int, start: int, stop: int) -> list[dict[str, Any]]:
        which = VIEWERS.index(viewer)
        return [line for seq in range(start, stop + 1) if (line := self.lines[seq][which]) is not None]


Lines = tuple[dict[str, Any] | None, ...]
ByCard = Callable[[GameState], dict[int, list[int]]]


def _lines(rec: Record, state: GameState, hidden: frozenset[str], kinds: Mapping[str, str], by_card: ByCard
           ) -> tuple[Lines, dict[int, ev.Event]]:
    """Record ``rec`` as each of ``VIEWERS`` may see it, read against ``state`` (the state before it) with the
    cards hidden from that viewer unnamed — and the viewers (by index) whose line read a card hidden from them
    before the record, with the event as they see it: the record may show it to them (a card drawn into their own
    hand is named), which only the state after it tells (``_settled``). Viewers who see the same event and read
    no hidden card share its line (most records hide nothing: one line in the game's words, not one per viewer)."""
    lines: list[dict[str, Any] | None] = []
    made: list[tuple[ev.Event, dict[str, Any], frozenset[int]]] = []  # an event, its line, the cards it names
    unsure: dict[int, ev.Event] = {}
    sight = Sight(state, hidden, by_card)
    for i, viewer in enumerate(VIEWERS):
        seen = _seen(rec, viewer, state, hidden, kinds)
        if seen is None:
            lines.append(None)
            continue
        if isinstance(rec.event, ev.Shuffled):  # (its line prints the count, which is public, not the order)
            seen = rec.event
        line = next((made_line for event, made_line, named in made if (event is seen or event == seen) and (
            viewer == JUDGE or not any(sight.hides(viewer, card) for card in named))), None)
        if line is None and viewer == JUDGE:  # (every card is the judge's to see)
            line = {"seq": rec.seq, "kind": ev.kind_of(seen), "line": render(state, seen, None)}
        elif line is None:
            cards = Unnamed(state.cards, partial(sight.hides, viewer))
            line = {"seq": rec.seq, "kind": ev.kind_of(seen), "line": render(replace(state, cards=cards), seen, None)}
            if cards.read:
                unsure[i] = seen
            else:  # (shared with a viewer who sees the same event and every card it names)
                made.append((seen, line, frozenset(cards.named)))
        lines.append(line)
    return tuple(lines), unsure


def _settled(lines: Lines, unsure: dict[int, ev.Event], rec: Record, before: GameState, after: GameState,
             hidden: frozenset[str], by_card: ByCard) -> Lines:
    """The lines of the viewers in ``unsure`` with the cards hidden from them both before and after ``rec``
    unnamed, as ``kifu replay --player`` reads them (``tools.travel.trace.seen_line``): a card the record shows
    the viewer is named in it, one it keeps from them is not."""
    out = list(lines)
    sights = Sight(before, hidden, by_card), Sight(after, hidden, by_card)
    for i, seen in unsure.items():
        viewer = VIEWERS[i]
        cards = Unnamed(before.cards, partial(_hidden_in_both, sights, viewer))
        out[i] = {"seq": rec.seq, "kind": ev.kind_of(seen), "line": render(replace(before, cards=cards), seen, None)}
    return tuple(out)


class Unnamed(Mapping[int, CardFacts]):
    """A state's cards as a viewer may read them — ``tools.travel.trace``'s masked state, asked card by card (the
    whole set of cards hidden from a viewer cost ~200 µs a record to find): a card ``unseen`` says is hidden from
    them reads as a hidden card (no name, no definition); ``read`` holds the cards so read, ``named`` those read by
    name."""

    def __init__(self, cards: Mapping[int, CardFacts], unseen: Callable[[int], bool]) -> None:
        self._cards, self._unseen = cards, unseen
        self.read: set[int] = set()
        self.named: set[int] = set()  # the cards read by name (asked once each: a line reads a card several times)

    def __getitem__(self, card: int) -> CardFacts:
        facts = self._cards[card]
        if card in self.named:
            return facts
        if card in self.read or self._unseen(card):
            self.read.add(card)
            return CardFacts(HIDDEN, facts.owner, MASK)
        self.named.add(card)
        return facts

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)


class Sight:
    """Which cards a viewer may not see in a state (as ``hidden_cards`` says: an object of the card is where the
    viewer may not see it), the state's object ids by card asked of ``by_card`` on the first question."""

    def __init__(self, state: GameState, hidden: frozenset[str], by_card: ByCard) -> None:
        self.state, self.hidden, self._by_card = state, hidden, by_card
        self._of: dict[int, list[int]] | None = None

    def hides(self, viewer: int, card: int) -> bool:
        if self._of is None:
            self._of = self._by_card(self.state)
        return any(not can_see(self.state, viewer, oid, hidden=self.hidden) for oid in self._of.get(card, ()))


def _hidden_in_both(sights: tuple[Sight, Sight], viewer: int, card: int) -> bool:
    return sights[0].hides(viewer, card) and sights[1].hides(viewer, card)


def _seen(rec: Record, viewer: int, state: GameState, hidden: frozenset[str], kinds: Mapping[str, str]
          ) -> ev.Event | None:
    if isinstance(rec.event, ev.GameStarted):  # the seed would tell every hidden card, the judge's spectator too
        return msgspec.structs.replace(rec.event, seed=0)
    if viewer == JUDGE:
        return rec.event
    return redact_event(rec.event, viewer, state, hidden=hidden, option_kinds=kinds)
