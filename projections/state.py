"""The game-state fold: ``evolve(state, seq, event)`` is the only code that changes game state.

``GameState`` is a plain msgspec Struct so that a snapshot is one ``msgpack`` encode and a copy is one decode.
The fold mutates the state it is given (it owns it); every reader treats it as read-only.
"""

from __future__ import annotations

from typing import Final

import msgspec
from msgspec import Struct, field

from eventsource import events as ev

UNDER: Final = "under"  # the pseudo-zone of a card lying under another (evolution sources, boarded cards)


class ProjectionError(Exception):
    """An event that cannot apply to the state it follows: the log is inconsistent at ``seq``."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"record {seq}: {message}")
        self.seq = seq


class CardFacts(Struct, array_like=True, gc=False):
    definition: str
    owner: int
    printed: ev.Characteristics


class GameObject(Struct, array_like=True):
    id: int
    card: int
    owner: int
    controller: int
    zone: str
    since: int  # sequence number at which this object came to be (DM-LB, SV "order of entry")
    face_down: bool = False
    status: dict[str, int] = field(default_factory=dict)
    under: list[int] = field(default_factory=list)  # objects lying under this one, bottom first
    on: int | None = None  # the object this one lies under


class Modifier(Struct, array_like=True, gc=False):
    """A continuous effect in force (a ContinuousEffectStarted that has not ended)."""

    effect: int
    source: int
    kind: str
    target: int
    amount: int
    value: str
    until: str
    since: int


class LastKnown(Struct, array_like=True):
    """An object as it was just before it left its zone: the look-back state (DM-LB-01, MTG LKI)."""

    obj: GameObject
    modifiers: list[Modifier]
    left_at: int  # sequence number of the event that moved it
    moved_to: int  # the new object id it became (-1 if it ceased to exist)
    under_cards: list[int]  # card ids under it when it left (evolution, DM-LB-15)


class Pending(Struct, array_like=True):
    """A triggered ability or effect that waits in a pool, stack, chain or queue."""

    effect: int
    ability: str
    controller: int
    source: int
    source_card: int
    by: int
    checked: str
    since: int
    holder: str = ""  # "" while triggered but not yet put into its holder (Magic, Vision)
    label: str = ""
    key: tuple[int, ...] = ()
    captured: tuple[str, ...] = ()
    subject: int | None = None
    resolving: bool = False
    targets: tuple[int, ...] = ()  # the objects last chosen for it (a ``Chosen`` naming the effect)


class PlayerState(Struct, array_like=True):
    name: str
    stats: dict[str, int] = field(default_factory=dict)
    lost: str = ""  # the reason, once the player lost


class GameState(Struct):
    seq: int = 0
    decision: int = 0
    profile: str = ""
    profile_version: str = ""
    card_pool: str = ""
    card_pool_version: str = ""
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    players: list[PlayerState] = field(default_factory=list)
    cards: dict[int, CardFacts] = field(default_factory=dict)
    objects: dict[int, GameObject] = field(default_factory=dict)
    zones: dict[str, list[int]] = field(default_factory=dict)
    modifiers: dict[int, Modifier] = field(default_factory=dict)
    last_known: dict[int, LastKnown] = field(default_factory=dict)
    pending: dict[int, Pending] = field(default_factory=dict)
    turn: int = 0
    active: int = 0
    phase: str = ""
    step: str = ""
    priority: int | None = None
    passes: list[int] = field(default_factory=list)  # players who passed in succession
    random_draws: int = 0
    next_object: int = 1
    next_effect: int = 1
    request: ev.ChoiceRequested | None = None  # the choice the rules are waiting for, mid-procedure
    flight: int = 0  # sequence number of the decision that began the procedure now in flight
    started: bool = False
    ended: bool = False
    winner: int | None = None
    end_reason: str = ""

    # -- read helpers (no rules here: only where things are) -----------------------------------------

    def zone(self, name: str) -> list[int]:
        return self.zones.get(name, [])

    def obj(self, oid: int) -> GameObject:
        return self.objects[oid]

    def facts(self, oid: int) -> CardFacts:
        return self.cards[self.objects[oid].card]

    def stat(self, player: int, key: str) -> int:
        return self.players[player].stats.get(key, 0)

    @property
    def non_active(self) -> int:
        return (self.active + 1) % len(self.players) if self.players else 0


_snapshot_encoder = msgspec.msgpack.Encoder()
_snapshot_decoder = msgspec.msgpack.Decoder(GameState)


def snapshot(state: GameState) -> bytes:
    return _snapshot_encoder.encode(state)


def restore(blob: bytes) -> GameState:
    return _snapshot_decoder.decode(blob)


def copy(state: GameState) -> GameState:
    return restore(snapshot(state))


def _remove_from_zone(state: GameState, seq: int, oid: int, zone: str, pos: int) -> GameObject:
    obj = state.objects.get(oid)
    if obj is None:
        raise ProjectionError(seq, f"object {oid} is not in the game")
    if obj.zone != zone:
        raise ProjectionError(seq, f"object {oid} is in {obj.zone}, not {zone}")
    if zone == UNDER:
        top = state.objects.get(obj.on) if obj.on is not None else None
        if top is not None:
            top.under.remove(oid)
        return obj  # ``on`` stays: the look-back view still says what it lay under
    ids = state.zones[zone]
    if 0 <= pos < len(ids) and ids[pos] == oid:
        del ids[pos]
    else:
        ids.remove(oid)
    return obj


def _place(state: GameState, obj: GameObject, pos: int) -> None:
    ids = state.zones.setdefault(obj.zone, [])
    if pos < 0 or pos >= len(ids):
        ids.append(obj.id)
    else:
        ids.insert(pos, obj.id)
    state.objects[obj.id] = obj
    if obj.id >= state.next_object:
        state.next_object = obj.id + 1


def _drop_modifiers_on(state: GameState, oid: int) -> list[Modifier]:
    """Continuous effects on an object end when it leaves: the new object is a new object (DM-W-06)."""
    if not state.modifiers:
        return []
    gone = [m for m in state.modifiers.values() if m.target == oid]
    for m in gone:
        del state.modifiers[m.effect]
    return gone


def evolve(state: GameState, seq: int, event: ev.Event, decision: int = 0) -> GameState:
    """Apply one event. Arms are ordered by how often each kind occurs."""
    state.seq = seq
    state.decision = decision
    match event:
        case ev.ZoneChanged(old=old, new=new, card=card, src=src, src_pos=sp, dst=dst, dst_pos=dp):
            obj = _remove_from_zone(state, seq, old, src, sp)
            del state.objects[old]
            modifiers = _drop_modifiers_on(state, old)
            under_cards = [state.objects[u].card for u in obj.under if u in state.objects]
            state.last_known[old] = LastKnown(obj, modifiers, seq, new, under_cards)
            controller = event.controller if event.controller is not None else state.cards[card].owner
            new_obj = GameObject(new, card, state.cards[card].owner, controller, dst, seq, event.face_down)
            _place(state, new_obj, dp)
            for u in obj.under:  # cards left under a card that moved lie nowhere until the rules move them
                below = state.objects.get(u)
                if below is not None:
                    below.on = None
        case ev.StatusSet(obj=oid, key=key, value=value):
            target = state.objects.get(oid)
            if target is None:
                raise ProjectionError(seq, f"status {key} set on object {oid}, which is not in the game")
            if value:
                target.status[key] = value
            else:
                target.status.pop(key, None)
        case ev.PlayerStat(player=p, key=key, value=value):
            state.players[p].stats[key] = value
        case ev.Triggered():
            state.pending[event.effect] = Pending(
                event.effect, event.ability, event.controller, event.source, event.source_card, event.by,
                event.checked, seq, captured=event.captured, subject=event.subject,
            )
            state.next_effect = max(state.next_effect, event.effect + 1)
        case ev.EffectPending(effect=eid, holder=holder, controller=controller, label=label, key=key):
            pend = state.pending.get(eid)
            if pend is None:  # an effect that did not trigger: a spell cast, an action announced
                pend = Pending(eid, label, controller, -1, -1, 0, "", seq)
                state.pending[eid] = pend
            pend.holder, pend.label, pend.key = holder, label, key
            state.next_effect = max(state.next_effect, eid + 1)
            state.passes.clear()
        case ev.EffectResolving(effect=eid):
            _pending(state, seq, eid).resolving = True
        case ev.EffectResolved(effect=eid) | ev.EffectFizzled(effect=eid):
            _pending(state, seq, eid)
            del state.pending[eid]
            state.passes.clear()
        case ev.ChoiceMade():
            if state.request is None:
                state.flight = seq  # a decision made with no request open begins a new procedure
            state.request = None
        case ev.ChoiceRequested():
            state.request = event
        case ev.Chosen(objects=objects, effect=eid):
            # A choice made for a waiting effect is its target until chosen again (VoP retargeting, VOP-I-23).
            chosen_for = state.pending.get(eid) if eid is not None else None
            if chosen_for is not None:
                chosen_for.targets = objects
        case ev.CostPaid() | ev.Attacked():
            pass  # payments and attacks are facts that triggers see; their effects are other events
        case ev.PriorityGiven(player=p):
            state.priority = p
        case ev.PriorityPassed(player=p):
            state.passes.append(p)
            state.priority = None
        case ev.ContinuousEffectStarted():
            state.modifiers[event.effect] = Modifier(
                event.effect, event.source, event.kind, event.target, event.amount, event.value, event.until, seq
            )
            state.next_effect = max(state.next_effect, event.effect + 1)
        case ev.ContinuousEffectEnded(effect=eid):
            state.modifiers.pop(eid, None)
        case ev.Stacked(top=top, below=below):
            lower = state.objects.get(below)
            if lower is None or top not in state.objects:
                raise ProjectionError(seq, f"cannot put object {below} under object {top}")
            if lower.zone != UNDER:
                state.zones[lower.zone].remove(below)
            elif lower.on is not None and lower.on in state.objects:
                state.objects[lower.on].under.remove(below)
            lower.zone, lower.on = UNDER, top
            state.objects[top].under.append(below)
        case ev.StepBegan(phase=phase, step=step):
            state.phase, state.step = phase, step
            state.passes.clear()
            state.priority = None
        case ev.TurnBegan(turn=turn, player=player):
            state.turn, state.active = turn, player
            state.phase = state.step = ""
            state.priority = None
            state.passes.clear()
            # Look-back lives only as long as an effect can wait on it: nothing waits across a turn in any
            # game kifu runs. Older look-backs are answered by time travel (projections.lookback).
            state.last_known.clear()
        case ev.Shuffled(zone=zone, order=order):
            if sorted(order) != sorted(state.zones.get(zone, [])):
                raise ProjectionError(seq, f"shuffle of {zone} does not name exactly the objects in it")
            state.zones[zone] = list(order)
            state.random_draws += 1
        case ev.RandomDrawn():
            state.random_draws += 1
        case ev.ObjectCreated():
            if event.obj in state.objects:
                raise ProjectionError(seq, f"object {event.obj} already exists")
            state.cards[event.card] = CardFacts(event.definition, event.owner, event.printed)
            _place(
                state,
                GameObject(event.obj, event.card, event.owner, event.owner, event.zone, seq, event.face_down),
                event.position,
            )
        case ev.Revealed(obj=oid, to=to):
            shown = state.objects.get(oid)
            if shown is not None:
                for p in to:
                    shown.status[f"seen_by_{p}"] = 1
        case ev.StateBasedAction():
            pass  # the actions themselves are recorded as the events that follow it
        case ev.PlayerLost(player=p, reason=reason):
            state.players[p].lost = reason
        case ev.GameEnded(winner=winner, reason=reason):
            state.ended, state.winner, state.end_reason = True, winner, reason
            state.pending.clear()
        case ev.GameStarted():
            if state.started:
                raise ProjectionError(seq, "a game can start only once")
            state.started = True
            state.profile, state.profile_version = event.profile, event.profile_version
            state.card_pool, state.card_pool_version = event.card_pool, event.card_pool_version
            state.seed = event.seed
            state.options = dict(event.options)
            state.players = [PlayerState(name) for name in event.players]
        case _:
            raise ProjectionError(seq, f"no fold for event {type(event).__name__}")
    return state


def _pending(state: GameState, seq: int, eid: int) -> Pending:
    pend = state.pending.get(eid)
    if pend is None:
        raise ProjectionError(seq, f"effect {eid} is not pending")
    return pend


def fold(events: list[tuple[int, ev.Event]] | list[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events onto ``state`` (a fresh game when None). Plain events are numbered from state.seq + 1."""
    st = state if state is not None else GameState()
    for item in events:
        if isinstance(item, tuple):
            evolve(st, item[0], item[1])
        else:
            evolve(st, st.seq + 1, item)
    return st
