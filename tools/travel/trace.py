"""A game's log as a readable trace: one line per event, grouped by turn, names instead of numbers.

The trace folds the log as it goes and renders each event against the state just before it, so a zone change
names the card that moved, a resolution names the effect that was pending, and a trigger says which record
caused it and whether it was checked in the state before or after that record. It is the judge's omniscient
view: hidden cards are named (per-player redaction is ``projections.views``' job and ``kifu at --player``'s).

Filters (turn, player, event kind) choose which lines are printed; every record is still folded, because a
line needs the state before it. With a turn filter the trace stops once that turn is over.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

import msgspec

from eventsource import events as ev
from eventsource.errors import KifuError
from eventsource.integrity import ChainCheck
from eventsource.records import RawRecord
from eventsource.upcast import decode_body
from projections.state import CardFacts, GameState, copy
from projections.views import HIDDEN, can_see, redact_event
from statemachine.cards import CardPool
from statemachine.games import hidden_zones, option_kinds, profile_class
from statemachine.naming import Declared, Names
from statemachine.profile import RulesProfile
from tools.errors import BadInput
from tools.logs.folding import apply
from tools.logs.seats import seat_of

ARROW = "→"


def normalise_kind(text: str) -> str:
    return text.replace("_", "").replace("-", "").lower()


KINDS: dict[str, str] = {normalise_kind(cls.__name__): cls.__name__ for cls in ev.EVENT_TYPES}


def resolve_kind(text: str) -> str:
    """An event kind by its class name, case and underscores ignored (``zone_changed`` is ``ZoneChanged``)."""
    kind = KINDS.get(normalise_kind(text))
    if kind is None:
        raise BadInput(f"unknown event kind {text!r}; kinds are: {', '.join(sorted(KINDS.values()))}")
    return kind


@dataclass
class Filters:
    turn: int | None = None
    players: tuple[str, ...] = ()  # only events about these players (indices or names), resolved at GameStarted
    kinds: frozenset[str] = frozenset()  # class names, as resolve_kind returns them
    everything: bool = False  # one line per record even for the set-up's many created cards
    viewer: str | None = None  # the game as this player knew it (a seat number, else a name): ``--player``

    @property
    def active(self) -> bool:
        return self.turn is not None or bool(self.players) or bool(self.kinds)


# -- names --------------------------------------------------------------------------------------------------


@dataclass
class Memory:
    """What a trace remembers beyond the state: the kind of every record so far (to say what caused a trigger)
    and the card of every object that ever existed (look-back ends with the turn; a trace's names do not)."""

    kinds: array[int] = field(default_factory=lambda: array("B", [0]))
    card_of: dict[int, int] = field(default_factory=dict)

    def note(self, seq: int, event: ev.Event) -> None:
        self.note_kind(seq, ev.kind_of(event))
        match event:
            case ev.ObjectCreated(obj=oid, card=card) | ev.ZoneChanged(new=oid, card=card):
                self.card_of[oid] = card
            case _:
                pass

    def note_kind(self, seq: int, kind: str) -> None:
        if len(self.kinds) <= seq:
            self.kinds.extend([0] * (seq + 1 - len(self.kinds)))
        self.kinds[seq] = ev.TAG_OF[kind]

    def kind_at(self, seq: int) -> str | None:
        return ev.KIND_OF_TAG[self.kinds[seq]] if 0 < seq < len(self.kinds) and self.kinds[seq] else None


@cache
def _game(name: str) -> type[RulesProfile] | None:
    try:
        return profile_class(name)
    except KifuError:  # a game not installed here: its ids are named as objects
        return None


@cache
def _declared(name: str) -> Declared | None:
    game = _game(name)
    if game is None:
        return None
    return Declared(game.action_args, game.option_kinds, game.hidden_zones, game.request_words)


@cache
def _pool(name: str, version: str) -> CardPool | None:
    game = _game(name)
    try:
        return game.card_pool(version) if game is not None else None
    except KifuError:  # a card pool not installed here: effects are named without their labels
        return None


def names(st: GameState, mem: Memory | None = None, viewer: int | None = None) -> Names:
    """The shared namer (``statemachine.naming``) for ``st`` and its game, remembering what ``mem`` remembers;
    the card pool is read only if a label is wanted."""
    return Names(st, viewer=viewer, game=_declared(st.profile), pool=lambda: _pool(st.profile, st.card_pool_version),
                 card_of=mem.card_of if mem is not None else None)


def player_name(st: GameState, p: int | None) -> str:
    return Names(st).player(p)  # players and cards need nothing of the game


def zone_name(st: GameState, zone: str) -> str:
    owner, dot, rest = zone.partition(".")
    if dot and owner.isdecimal():
        return f"{player_name(st, int(owner))}'s {rest}"
    return zone


def at(st: GameState, zone: str, pos: int) -> str:
    return f"{zone_name(st, zone)}[{pos}]" if pos >= 0 else zone_name(st, zone)


def card_name(st: GameState, card: int) -> str:
    return Names(st).card(card)


def obj_name(st: GameState, mem: Memory | None, oid: int) -> str:
    return names(st, mem).obj(oid)


def target_name(st: GameState, mem: Memory | None, target: int) -> str:
    return names(st, mem).target(target)


def effect_name(st: GameState, mem: Memory | None, eid: int) -> str:
    return names(st, mem).effect(eid)


def _names(st: GameState, mem: Memory | None, oids: Iterable[int]) -> str:
    return ", ".join(obj_name(st, mem, o) for o in oids)


def _ids(old: int, new: int) -> str:
    """A moved card's object ids, before and after; the old one not at all where it is hidden (-1)."""
    return f"#{old} {ARROW} #{new}" if old >= 0 else f"now #{new}"


def _values(values: Iterable[int | str]) -> str:
    return ", ".join(str(v) for v in values)


# -- one line per event -------------------------------------------------------------------------------------


def order_text(st: GameState, key: tuple[int, ...]) -> str:
    """A pending effect's recorded order key as its game says it (Shadowverse: the queue's sort key in words,
    SV-O-10..14); the numbers where the game is not installed."""
    try:
        return profile_class(st.profile).describe_key(key)
    except KifuError:
        return _values(key)


def render(st: GameState, event: ev.Event, mem: Memory | None = None) -> str:
    """The event as one line, read against ``st``, the state just before it (and ``mem``, if kept)."""
    for line in (_move_line, _effect_line, _choice_line, _game_line):
        text = line(st, event, mem)
        if text is not None:
            return text
    return f"{ev.kind_of(event)} {ev.to_builtins(event)}"


def _move_line(st: GameState, event: ev.Event, mem: Memory | None) -> str | None:
    """A card or object: moved, created, put under another, revealed; a zone shuffled; a random draw."""
    match event:
        case ev.ZoneChanged():
            text = (
                f"{card_name(st, event.card)}: {at(st, event.src, event.src_pos)} {ARROW} "
                f"{at(st, event.dst, event.dst_pos)} ({_ids(event.old, event.new)})"
            )
            if event.cause:
                text += f", {event.cause}"
            if event.face_down:
                text += ", face down"
            if event.controller is not None and event.controller != st.cards.get(event.card, _NO_CARD).owner:
                text += f", controlled by {player_name(st, event.controller)}"
            return text
        case ev.ObjectCreated():
            # (a seat's view of a card it may not see carries no card: say so, not the redaction's -1)
            which = f"card {event.card}, {event.definition}" if event.card >= 0 else "a card not shown to this seat"
            text = (
                f"{event.printed.name}#{event.obj} created in {at(st, event.zone, event.position)} "
                f"({which}, owner {player_name(st, event.owner)})"
            )
            return text + (", face down" if event.face_down else "")
        case ev.Stacked():
            return f"{obj_name(st, mem, event.below)} put under {obj_name(st, mem, event.top)}"
        case ev.Revealed() if event.obj < 0:  # what a player holds outside any zone (Magic's mana pool, MTG-P-18)
            to = ", ".join(player_name(st, p) for p in event.to)
            return f"{player_name(st, -1 - event.obj)} shows {event.definition} to {to}"
        case ev.Revealed():
            to = ", ".join(player_name(st, p) for p in event.to)
            return f"{obj_name(st, mem, event.obj)} revealed to {to}"
        case ev.Shuffled():
            return f"{zone_name(st, event.zone)} shuffled ({len(event.order)} cards)"
        case ev.RandomDrawn():
            return f"random {event.purpose}: {event.value} (of {event.bound})"
        case _:
            return None



def _effect_line(st: GameState, event: ev.Event, mem: Memory | None) -> str | None:
    """A triggered or continuous effect: triggering, waiting, resolving, its end."""
    match event:
        case ev.Triggered():
            cause = f"record {event.by}"
            if mem is not None and (kind := mem.kind_at(event.by)) is not None:
                cause += f" ({kind})"
            label = names(st, mem).ability_label(event.source_card, event.ability)
            what = f"{label} ({event.ability})" if label else event.ability
            text = (
                f"trigger #{event.effect}: {what} of {obj_name(st, mem, event.source)} "
                f"({player_name(st, event.controller)}), caused by {cause}, "
                f"checked in the state {event.checked} it"
            )
            if event.subject is not None:
                text += f", about {obj_name(st, mem, event.subject)}"
            if event.captured:
                text += f", captured {_values(event.captured)}"
            return text
        case ev.EffectPending():
            text = f"pending #{event.effect} {event.label}"
            pend = st.pending.get(event.effect)
            if pend is not None and pend.source >= 0:
                text += f" from {obj_name(st, mem, pend.source)}"
            text += f" in {zone_name(st, event.holder)}, held by {player_name(st, event.controller)}"
            return text + (f", order: {order_text(st, event.key)}" if event.key else "")
        case ev.EffectResolving():
            return f"resolving {effect_name(st, mem, event.effect)}{_controller(st, event.effect)}"
        case ev.EffectResolved():
            return f"resolved {effect_name(st, mem, event.effect)}"
        case ev.EffectFizzled():
            return f"fizzled {effect_name(st, mem, event.effect)}: {event.reason}"
        case ev.ContinuousEffectStarted():
            what = event.kind
            if event.amount:
                what += f" {event.amount:+d}"
            if event.value:
                what += f" {event.value}"
            text = (
                f"effect #{event.effect} from {obj_name(st, mem, event.source)}: "
                f"{what} on {target_name(st, mem, event.target)}"
            )
            return text + (f" until {event.until}" if event.until else "")
        case ev.ContinuousEffectEnded():
            mod = st.modifiers.get(event.effect)
            ended = f" ({mod.kind} on {target_name(st, mem, mod.target)})" if mod is not None else ""
            return f"effect #{event.effect} ends{ended}"
        case ev.AmountComputed():
            read = f" (looked back at {_names(st, mem, event.looked_back)})" if event.looked_back else ""
            where = f" for {effect_name(st, mem, event.effect)}" if event.effect is not None else ""
            value = "(hidden)" if isinstance(event, ev.SecretAmountComputed) and event.redacted else event.value
            return f"{event.param} = {event.expression} = {value}{where}{read}"
        case _:
            return None



def _choice_line(st: GameState, event: ev.Event, mem: Memory | None) -> str | None:
    """A player's choice, asked or made, a cost paid, an attack declared."""
    match event:
        case ev.ChoiceRequested():
            low, high = event.minimum, event.maximum
            count = str(low) if low == high else f"{low}..{high}"
            nm = names(st, mem)
            text = f"{player_name(st, event.player)} to choose {nm.request(event.kind)} ({count})"
            if event.options:
                text += f" from {', '.join(nm.options(event.kind, event.options))}"
            if event.effect is not None:
                text += f" for {effect_name(st, mem, event.effect)}"
            return text
        case ev.ChoiceMade():
            # A player's decision, as the player gave it: "Alice: summon 1", "Bob: choose yes".
            text = f"{player_name(st, event.player)}: {event.action}"
            return text + (f" {', '.join(names(st, mem).args(event.action, event.args))}" if event.args else "")
        case ev.CostPaid():
            text = f"{player_name(st, event.player)} paid {event.cost}"
            if event.amount:
                text += f" {event.amount}"
            if event.objects:
                text += f" with {_names(st, mem, event.objects)}"
            if event.effect is not None:
                text += f" for {effect_name(st, mem, event.effect)}"
            return text
        case ev.Attacked():
            target = event.target
            attacked = obj_name(st, mem, target) if target is not None else player_name(st, event.player)
            return f"{obj_name(st, mem, event.attacker)} attacks {attacked}"
        case ev.Chosen():
            text = f"{player_name(st, event.player)} chose {_names(st, mem, event.objects) or 'nothing'}"
            return text + (f" for {effect_name(st, mem, event.effect)}" if event.effect is not None else "")
        case ev.DamageDealt():
            to = target_name(st, mem, event.to)
            kind = "combat damage" if event.combat else "damage"
            return f"{obj_name(st, mem, event.source)} deals {event.amount} {kind} to {to}"
        case _:
            return None



def _game_line(st: GameState, event: ev.Event, mem: Memory | None) -> str | None:
    """The game, its turns and players: numbers, priority, steps, the end."""
    match event:
        case ev.StatusSet():
            return f"{obj_name(st, mem, event.obj)}: {event.key} = {event.value}"
        case ev.PlayerStat():
            return f"{player_name(st, event.player)}: {event.key} = {event.value}"
        case ev.PriorityGiven():
            return f"{player_name(st, event.player)} has priority"
        case ev.PriorityPassed():
            return f"{player_name(st, event.player)} passes"
        case ev.StepBegan():
            return f"{event.phase} phase" + (f", {event.step} step" if event.step else "")
        case ev.TurnBegan():
            return f"turn {event.turn} begins: {player_name(st, event.player)}"
        case ev.StateBasedAction():
            text = f"state-based actions: {_values(event.actions)}"
            return text + (f" on {_names(st, mem, event.objects)}" if event.objects else "")
        case ev.PlayerLost():
            return f"{player_name(st, event.player)} loses: {event.reason}"
        case ev.GameEnded():
            if event.winner is None:
                return f"game over, no winner: {event.reason}"
            return f"game over, {player_name(st, event.winner)} wins: {event.reason}"
        case ev.GameStarted():
            return started_line(event, seed_shown=True)
        case ev.Forked():
            return (f"what-if branch of game {event.source!r} after its record {event.at} (its hash there "
                    f"{event.head}): records 1 to {event.at} are that game's, what follows is this game's only")
        case _:
            return None


def started_line(event: ev.GameStarted, *, seed_shown: bool) -> str:
    """The game's start; its seed only for a judge (from it a player recomputes every hidden card)."""
    players = ", ".join(f"{name} ({i})" for i, name in enumerate(event.players))
    seed = f"seed {event.seed}" if seed_shown else "seed hidden"
    return (f"game started: {event.profile} {event.profile_version}, players {players}, {seed}, "
            f"card pool {event.card_pool} {event.card_pool_version}")


# -- the game as one player knew it -----------------------------------------------------------------------

MASK = ev.Characteristics("a hidden card")


def hidden_cards(state: GameState, viewer: int) -> set[int]:
    """The cards ``viewer`` cannot see in ``state``."""
    hidden = hidden_zones(state.profile)
    return {o.card for o in state.objects.values() if not can_see(state, viewer, o.id, hidden=hidden)}


def _masked(state: GameState, cards: set[int]) -> GameState:
    if not cards:
        return state
    masked = dict(state.cards)
    for c in cards:
        facts = masked.get(c)
        if facts is not None:
            masked[c] = CardFacts(HIDDEN, facts.owner, MASK)
    return msgspec.structs.replace(state, cards=masked)


def seen_line(before: GameState, hidden_before: set[int], after_hidden: set[int], event: ev.Event,
              viewer: int | None, mem: Memory) -> str | None:
    """The line of ``event`` as ``viewer`` saw it (None: they did not see it happen). Read against the state
    before it; the cards hidden from the viewer both before and after it stay unnamed (a card drawn into the
    viewer's own hand is named, one the opponent drew is not)."""
    if viewer is None:
        return render(before, event, mem)
    if isinstance(event, ev.Shuffled):
        return render(before, event, mem)  # the count is public, the order is not printed
    shown = redact_event(event, viewer, before, hidden=hidden_zones(before.profile),
                         option_kinds=option_kinds(before.profile))
    if shown is None:
        return None
    if isinstance(shown, ev.GameStarted):
        return started_line(shown, seed_shown=False)
    return render(_masked(before, hidden_before & after_hidden), shown, mem)


class _NoCard:
    owner = -1


_NO_CARD = _NoCard()


def _controller(st: GameState, eid: int) -> str:
    pend = st.pending.get(eid)
    return f" ({player_name(st, pend.controller)})" if pend is not None else ""


def concerns(st: GameState, event: ev.Event, mem: Memory | None = None) -> set[int] | None:
    """The players an event is about, for ``--player``; None for an event about the whole game."""

    def of_zone(zone: str) -> set[int]:
        owner, dot, _ = zone.partition(".")
        return {int(owner)} if dot and owner.isdecimal() else set()

    def of_obj(oid: int) -> set[int]:
        obj = st.objects.get(oid)
        if obj is None:
            lk = st.last_known.get(oid)
            obj = lk.obj if lk is not None else None
        if obj is not None:
            return {obj.owner, obj.controller}
        card = mem.card_of.get(oid) if mem is not None else None
        facts = st.cards.get(card) if card is not None else None
        return {facts.owner} if facts is not None else set()

    def of_effect(eid: int) -> set[int]:
        pend = st.pending.get(eid)
        return {pend.controller} if pend is not None else set()

    match event:
        case ev.ZoneChanged():
            moved = of_zone(event.src) | of_zone(event.dst) | of_obj(event.old)
            return moved | ({event.controller} if event.controller is not None else set())
        case ev.Triggered() | ev.EffectPending():
            return {event.controller}
        case ev.EffectResolving() | ev.EffectResolved() | ev.EffectFizzled() | ev.ContinuousEffectEnded():
            return of_effect(event.effect) or (of_obj(st.modifiers[event.effect].source)
                                               if event.effect in st.modifiers else set())
        case ev.ChoiceRequested() | ev.ChoiceMade() | ev.CostPaid() | ev.PlayerStat() | ev.PlayerLost():
            return {event.player}
        case ev.Chosen():
            return {event.player}
        case ev.Attacked():
            attacked = of_obj(event.target) if event.target is not None else set()
            return of_obj(event.attacker) | attacked | ({event.player} if event.player is not None else set())
        case ev.PriorityGiven() | ev.PriorityPassed() | ev.TurnBegan():
            return {event.player}
        case ev.StatusSet() | ev.Revealed():
            return of_obj(event.obj)
        case ev.ObjectCreated():
            return {event.owner}
        case ev.Stacked():
            return of_obj(event.top) | of_obj(event.below)
        case ev.Shuffled():
            return of_zone(event.zone)
        case ev.ContinuousEffectStarted():
            return of_obj(event.source) | ({-1 - event.target} if event.target < 0 else of_obj(event.target))
        case ev.DamageDealt():
            return of_obj(event.source) | ({-1 - event.to} if event.to < 0 else of_obj(event.to))
        case ev.AmountComputed():
            return of_effect(event.effect) if event.effect is not None else None
        case ev.StateBasedAction():
            found: set[int] = set()
            for oid in event.objects:
                found |= of_obj(oid)
            return found or None
        case _:
            return None  # game started and ended, steps, random results: about everyone


# -- the whole trace ----------------------------------------------------------------------------------------


@dataclass
class Trace:
    """Feeds records one by one; returns the lines to print. Keeps the fold and a light hash-chain check."""

    filters: Filters = field(default_factory=Filters)
    state: GameState = field(default_factory=GameState)
    broken: str | None = None  # the first break in the hash chain or sequence, if any
    done: bool = False  # set once nothing more can pass the turn filter
    _check: ChainCheck = field(default_factory=ChainCheck)
    _players: set[int] | None = None
    _viewer: int | None = None
    _hidden: set[int] = field(default_factory=set)  # the cards hidden from the viewer, as of the last record
    _header_turn: int = -1
    _printed_any: bool = False
    _memory: Memory = field(default_factory=Memory)
    _created: list[tuple[int, ev.ObjectCreated]] = field(default_factory=list)  # not yet summarised

    def _compact(self) -> bool:
        return not self.filters.everything and "ObjectCreated" not in self.filters.kinds

    def _summary(self) -> list[str]:
        """The created cards held back, as one line per zone: "40 cards created in Alice's deck"."""
        if not self._created:
            return []
        out: list[str] = []
        groups: dict[str, list[tuple[int, ev.ObjectCreated]]] = {}
        for seq, e in self._created:
            groups.setdefault(e.zone, []).append((seq, e))
        for zone, items in groups.items():
            if len(items) == 1:
                seq, e = items[0]
                out.append(f"{seq:>7}  {render(self.state, e, self._memory)}")
                continue
            first, last = items[0][0], items[-1][0]
            span = f"{first}" if first == last else f"{first}-{last}"
            ids = f"#{items[0][1].obj}" + (f"..#{items[-1][1].obj}" if len(items) > 1 else "")
            names = sorted({e.printed.name for _, e in items})
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            out.append(f"{span:>7}  {len(items)} cards created in {zone_name(self.state, zone)} ({ids}): {shown}")
        self._created.clear()
        return out

    def finish(self) -> list[str]:
        """Lines still held back when the log ends."""
        return self._summary()

    def _chain(self, raw: RawRecord) -> None:
        expected = self._check.expected
        problem = self._check.feed(raw)
        if self.broken is None and problem is not None:
            self.broken = (f"record {expected} expected, record {raw.seq} found" if problem == "sequence" else
                           f"record {raw.seq} belongs to game {raw.game!r}" if problem == "foreign" else
                           f"record {raw.seq} does not match its hash")

    def _resolve(self, wanted: str) -> int:
        names = [p.name for p in self.state.players]
        if not names and wanted.isdecimal():
            return int(wanted)  # (a log cut before its players are known: a number is all there is)
        return seat_of(names, wanted)

    def _resolve_players(self) -> set[int]:
        if self._players is None:
            self._players = {self._resolve(wanted) for wanted in self.filters.players}
        return self._players

    def _header(self, turn: int) -> list[str]:
        if turn == self._header_turn:
            return []
        self._header_turn = turn
        title = "setup" if turn == 0 else f"turn {turn} · {player_name(self.state, self.state.active)}"
        lines = [""] if self._printed_any else []
        self._printed_any = True
        return [*lines, f"── {title} " + "─" * max(0, 60 - len(title))]

    def _passes(self, turn: int, event: ev.Event) -> bool:
        f = self.filters
        if f.turn is not None and turn != f.turn:
            return False
        if f.kinds and ev.kind_of(event) not in f.kinds:
            return False
        if f.players:
            about = concerns(self.state, event, self._memory)
            if about is not None and not (about & self._resolve_players()):
                return False
        return True

    def feed(self, raw: RawRecord) -> list[str]:
        self._chain(raw)
        event = decode_body(raw.v, raw.body)
        turn = event.turn if isinstance(event, ev.TurnBegan) else self.state.turn
        if self.filters.turn is not None and turn > self.filters.turn:
            self.done = True
            return []
        shown = self._passes(turn, event)
        held = shown and isinstance(event, ev.ObjectCreated) and self._compact()
        if self._viewer is None:
            judged = (started_line(event, seed_shown=False) if isinstance(event, ev.GameStarted)
                      and self.filters.viewer is not None else render(self.state, event, self._memory))
            line = f"{raw.seq:>7}  {judged}" if shown and not held else None
            apply(self.state, raw.seq, event, raw.decision)
        else:  # the line as the viewer saw it: redacted, and read with the cards hidden from them unnamed
            before, hidden_before = copy(self.state), self._hidden
            apply(self.state, raw.seq, event, raw.decision)
            self._hidden = hidden_cards(self.state, self._viewer)
            text = seen_line(before, hidden_before, self._hidden, event, self._viewer, self._memory)
            line = f"{raw.seq:>7}  {text}" if shown and not held and text is not None else None
            if isinstance(event, ev.ObjectCreated) and text is not None:
                # the summary names no hidden card
                event = redact_event(event, self._viewer, before, hidden=hidden_zones(before.profile),
                                     option_kinds=option_kinds(before.profile)) or event
        self._memory.note(raw.seq, event)
        if isinstance(event, ev.GameStarted):
            if self.filters.players:
                self._resolve_players()  # a name that is not a player is an error before any output
            if self.filters.viewer is not None:
                self._viewer = self._resolve(self.filters.viewer)
        if held:
            assert isinstance(event, ev.ObjectCreated)
            lines = [*self._summary(), *self._header(turn)] if turn != self._header_turn else []
            self._created.append((raw.seq, event))
            return lines
        if line is None:
            return []
        return [*self._summary(), *self._header(turn), line]


def trace_lines(records: Iterable[RawRecord], filters: Filters | None = None) -> Iterator[str]:
    """The trace of a game's records (for ``kifu demo`` and other tools that hold records already)."""
    trace = Trace(filters or Filters())
    for raw in records:
        yield from trace.feed(raw)
        if trace.done:
            break
    yield from trace.finish()
