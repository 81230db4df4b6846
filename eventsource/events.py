"""Every event kifu records, in one place, with one decoder for the union.

Events are frozen, tagged msgspec Structs. Metadata (game, sequence, decision, cause, hashes) lives in the
record envelope (``eventsource.records``), not here. Each event is encoded as a compact array whose first
element is a small integer tag; tags are stable forever and never reused.

Schema evolution follows msgspec's discipline: a new field is appended last with a default, fields are never
reordered or retyped. A change that cannot be said that way bumps ``SCHEMA_VERSIONS`` and gets an upcaster in
``eventsource.upcast``.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import msgspec
from msgspec import Struct

# Zone names are "<player>.<zone>" for a player's zone ("0.hand", "1.battle") and a bare word for a shared
# zone ("stack", "chain"). Positions are 0-based; in an ordered zone such as a deck 0 is the top.

BEFORE: Final = "before"  # a trigger checked in the state just before its event (leaves, destroyed)
AFTER: Final = "after"  # a trigger checked in the state just after its event (enters, put into)


class Characteristics(Struct, frozen=True, omit_defaults=True):
    """Printed or computed characteristics of a card, common to every game kifu runs."""

    name: str
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    cost: int | None = None
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()


class _Event(Struct, frozen=True, array_like=True, tag_field="k"):
    """Base of every event: frozen, encoded as ``[tag, field, ...]``."""


# -- game lifecycle ---------------------------------------------------------------------------------------


class GameStarted(_Event, frozen=True, tag=1):
    """The rules profile, the players and the seed that every random result derives from."""

    profile: str
    profile_version: str
    players: tuple[str, ...]
    seed: int
    card_pool: str
    card_pool_version: str
    card_pool_digest: str
    options: tuple[tuple[str, str], ...] = ()


class PlayerLost(_Event, frozen=True, tag=2):
    player: int
    reason: str


class GameEnded(_Event, frozen=True, tag=3):
    winner: int | None
    reason: str


class Forked(_Event, frozen=True, tag=4):
    """This game is a what-if branch: the records before this one are ``source``'s records 1 to ``at``, copied
    unchanged (each re-chained under this game's id), and ``head`` is the hash of ``source``'s record ``at``.
    Nothing in the rules produces it; re-adjudication takes it as the log has it (``statemachine.forks``)."""

    source: str  # the game it branched from
    at: int  # the last record copied (this record is at + 1)
    head: str  # the hash of the source's record ``at``, hex: the source's head at the branch point


# -- objects and zones ------------------------------------------------------------------------------------


class ObjectCreated(_Event, frozen=True, tag=10):
    """A card (or token) comes into the game; its printed characteristics are recorded once, here."""

    obj: int
    card: int
    definition: str
    owner: int
    zone: str
    position: int
    printed: Characteristics
    face_down: bool = False


class ZoneChanged(_Event, frozen=True, tag=11):
    """A card moves; it leaves as object ``old`` and arrives as the new object ``new`` (same ``card``)."""

    old: int
    new: int
    card: int
    src: str
    src_pos: int
    dst: str
    dst_pos: int
    cause: str = ""  # schema v2: v1 logs have no cause; upcast fills "unrecorded"
    face_down: bool = False
    controller: int | None = None


class Stacked(_Event, frozen=True, tag=12):
    """Object ``below`` leaves its zone to lie under ``top`` (evolution, boarding, cards put under).

    A card under another is in the pseudo-zone ``"under"``; a ZoneChanged with ``src="under"`` takes it out.
    """

    top: int
    below: int


class StatusSet(_Event, frozen=True, tag=14):
    """A status of an object: tapped, damage, counters, summoning sickness, evolved, ..."""

    obj: int
    key: str
    value: int


class PlayerStat(_Event, frozen=True, tag=15):
    """A player's counter: life, shields broken, mana pool, PP, EP, ..."""

    player: int
    key: str
    value: int


class Revealed(_Event, frozen=True, tag=16):
    """A hidden card is shown to some players; the log proves who knew what, when."""

    obj: int
    to: tuple[int, ...]
    card: int
    definition: str


class Shuffled(_Event, frozen=True, tag=17):
    """A zone's new order, drawn from the game's seeded generator and recorded as its result."""

    zone: str
    order: tuple[int, ...]


class RandomDrawn(_Event, frozen=True, tag=18):
    """One random result (a coin, a die, a random target) drawn from the seeded generator."""

    purpose: str
    bound: int
    value: int


# -- continuous effects -----------------------------------------------------------------------------------


class ContinuousEffectStarted(_Event, frozen=True, tag=20):
    """A modification in force from now on; projections compute characteristics from these, never objects.

    ``kind`` is one of ``power`` (add ``amount``), ``ignore_abilities``, ``grant_keyword`` / ``remove_keyword``
    (``value``), ``set_flag`` (``value``); ``target`` is an object id, or -1 - player for a player.
    """

    effect: int
    source: int
    kind: str = msgspec.field(name="effect_kind")  # readable name: "kind" is the event's own kind
    target: int
    amount: int = 0
    value: str = ""
    until: str = ""


class ContinuousEffectEnded(_Event, frozen=True, tag=21):
    effect: int


# -- turn structure and priority --------------------------------------------------------------------------


class TurnBegan(_Event, frozen=True, tag=30):
    turn: int
    player: int


class StepBegan(_Event, frozen=True, tag=31):
    phase: str
    step: str = ""


class PriorityGiven(_Event, frozen=True, tag=32):
    player: int


class PriorityPassed(_Event, frozen=True, tag=33):
    player: int


# -- triggers, pending effects and resolution -------------------------------------------------------------


class Triggered(_Event, frozen=True, tag=40):
    """An ability triggered: its source, the event that caused it and the state it was checked in."""

    effect: int
    ability: str
    source: int
    source_card: int
    controller: int
    by: int  # sequence number of the event that caused it
    checked: str  # BEFORE or AFTER
    captured: tuple[str, ...] = ()  # modes and icon contents captured at trigger time (DM-W-22)
    subject: int | None = None  # the object the trigger is about ("that creature"), if any


class EffectPending(_Event, frozen=True, tag=41):
    """An effect waits: in a pool (DM), on a stack (Magic), in a chain (Vision) or a queue (Shadowverse)."""

    effect: int
    holder: str
    controller: int
    label: str
    key: tuple[int, ...] = ()  # the policy's ordering key, fixed when the effect became pending


class EffectResolving(_Event, frozen=True, tag=42):
    effect: int


class EffectResolved(_Event, frozen=True, tag=43):
    effect: int


class EffectFizzled(_Event, frozen=True, tag=44):
    effect: int
    reason: str


class ChoiceRequested(_Event, frozen=True, tag=45):
    player: int
    kind: str = msgspec.field(name="choice_kind")  # readable name: "kind" is the event's own kind
    options: tuple[int | str, ...] = ()
    minimum: int = 0
    maximum: int = 1
    effect: int | None = None


class ChoiceMade(_Event, frozen=True, tag=46):
    """A player decision: the only input to the rules. Re-adjudication feeds these back and nothing else."""

    player: int
    action: str
    args: tuple[int | str, ...] = ()


class CostPaid(_Event, frozen=True, tag=47):
    player: int
    cost: str
    amount: int = 0
    objects: tuple[int, ...] = ()
    effect: int | None = None


class Attacked(_Event, frozen=True, tag=49):
    """An attack is declared: ``attacker`` attacks a player (``player``) or an object (``target``)."""

    attacker: int
    player: int | None = None
    target: int | None = None


class Chosen(_Event, frozen=True, tag=50):
    """Objects chosen by a player for an effect (DM 「選んだ時」 triggers see this)."""

    player: int
    objects: tuple[int, ...]
    effect: int | None = None


class AmountComputed(_Event, frozen=True, tag=51):
    """An effect computed a number from card data (``statemachine.amounts``): the expression as text, its value,
    and the objects it read as they were just before they left their zone (look-back)."""

    effect: int | None
    ability: str
    param: str
    expression: str
    value: int
    looked_back: tuple[int, ...] = ()


class DamageDealt(_Event, frozen=True, tag=53):
    """``source`` dealt ``amount`` damage to ``to`` (an object, or a player as ``-1 - player``), after prevention
    (CR 120.3): what "whenever ~ deals damage to a player" triggers and "dealt damage this turn" read. Its
    results (damage marked, life lost) are other events."""

    source: int
    to: int
    amount: int
    combat: bool = False


class SecretAmountComputed(AmountComputed, frozen=True, tag=52):
    """An ``AmountComputed`` whose value read something some players may not see — a characteristic of a card in
    another player's hand, in a deck or face down, or a filtered count of such cards: ``hidden_from`` names them.
    Their views show the expression but not the value nor the objects read (``redacted``,
    ``projections.views.redact_event``). A count of a zone's cards with no filter is public (a zone's size is)."""

    hidden_from: tuple[int, ...] = ()
    redacted: bool = False


class StateBasedAction(_Event, frozen=True, tag=48):
    """The state-based actions performed at one check, as one event."""

    actions: tuple[str, ...]
    objects: tuple[int, ...] = ()


Event = (
    GameStarted
    | PlayerLost
    | GameEnded
    | Forked
    | ObjectCreated
    | ZoneChanged
    | Stacked
    | StatusSet
    | PlayerStat
    | Revealed
    | Shuffled
    | RandomDrawn
    | ContinuousEffectStarted
    | ContinuousEffectEnded
    | TurnBegan
    | StepBegan
    | PriorityGiven
    | PriorityPassed
    | Triggered
    | EffectPending
    | EffectResolving
    | EffectResolved
    | EffectFizzled
    | ChoiceRequested
    | ChoiceMade
    | CostPaid
    | StateBasedAction
    | Attacked
    | Chosen
    | AmountComputed
    | SecretAmountComputed
    | DamageDealt
)

EVENT_TYPES: Final[tuple[type[_Event], ...]] = tuple(Event.__args__)

# The schema version of each event kind as written today. A kind missing here is at version 1.
SCHEMA_VERSIONS: Final[dict[str, int]] = {"ZoneChanged": 2}

_encoder = msgspec.msgpack.Encoder()
_decoder: msgspec.msgpack.Decoder[Event] = msgspec.msgpack.Decoder(Event)


def encode(event: Event) -> bytes:
    """The canonical bytes of an event: msgspec msgpack, array-like, stable across runs and machines."""
    return _encoder.encode(event)


def decode(body: bytes) -> Event:
    return _decoder.decode(body)


def kind_of(event: Event) -> str:
    return type(event).__name__


def schema_version(kind: str) -> int:
    return SCHEMA_VERSIONS.get(kind, 1)


def to_builtins(event: Event) -> dict[str, object]:
    """A readable, named form of an event (for exports, traces and other tools)."""
    out: dict[str, object] = {"kind": kind_of(event)}
    for name, key in zip(event.__struct_fields__, event.__struct_encode_fields__, strict=True):
        out[key] = msgspec.to_builtins(getattr(event, name))
    return out


def from_builtins(data: dict[str, object]) -> Event:
    """The inverse of :func:`to_builtins`; raises ``msgspec.ValidationError`` naming the bad field."""
    kind = data.get("kind")
    cls = _BY_NAME.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise msgspec.ValidationError(f"unknown event kind {kind!r}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    # Events are array-like, so they cannot be converted from an object directly: convert to a mirror Struct
    # with the same named fields (so an error names the field), then build the event from it.
    named = msgspec.convert(fields, _named(cls), strict=True)
    return cls(*(getattr(named, f.encode_name) for f in msgspec.structs.fields(cls)))  # type: ignore[return-value]


@functools.cache
def _named(cls: type[_Event]) -> type[Struct]:
    spec: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(cls):
        if f.required:
            spec.append((f.encode_name, f.type))
        elif f.default is not msgspec.NODEFAULT:
            spec.append((f.encode_name, f.type, f.default))
        else:
            spec.append((f.encode_name, f.type, msgspec.field(default_factory=f.default_factory)))
    return msgspec.defstruct(cls.__name__, spec, frozen=True, forbid_unknown_fields=True)


_BY_NAME: Final[dict[str, type[_Event]]] = {cls.__name__: cls for cls in EVENT_TYPES}
TAG_OF: Final[dict[str, int]] = {cls.__name__: cls.__struct_config__.tag for cls in EVENT_TYPES}  # type: ignore[misc]
KIND_OF_TAG: Final[dict[int, str]] = {tag: name for name, tag in TAG_OF.items()}

__all__ = [
    "AFTER",
    "BEFORE",
    "EVENT_TYPES",
    "AmountComputed",
    "Attacked",
    "Characteristics",
    "ChoiceMade",
    "ChoiceRequested",
    "Chosen",
    "ContinuousEffectEnded",
    "ContinuousEffectStarted",
    "CostPaid",
    "DamageDealt",
    "EffectFizzled",
    "EffectPending",
    "EffectResolved",
    "EffectResolving",
    "Event",
    "Forked",
    "GameEnded",
    "GameStarted",
    "ObjectCreated",
    "PlayerLost",
    "PlayerStat",
    "PriorityGiven",
    "PriorityPassed",
    "RandomDrawn",
    "Revealed",
    "SecretAmountComputed",
    "Shuffled",
    "Stacked",
    "StateBasedAction",
    "StatusSet",
    "StepBegan",
    "Triggered",
    "TurnBegan",
    "ZoneChanged",
]
