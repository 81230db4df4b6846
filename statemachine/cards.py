"""Cards as typed data: definitions decoded from TOML by msgspec and checked against a vocabulary at load.

A card is characteristics plus abilities; an ability is a trigger (or none, for a spell's text), conditions
checked when the game's rules say, and a list of effect steps. Every name used here — trigger, condition,
effect — is checked against the game's vocabulary when the pool loads, so a typo fails at load, naming the
file, the card and the field, never at play time (STYLE 5).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from msgspec import Struct, field

from eventsource import events as ev
from eventsource.errors import KifuError

Params = dict[str, Any]


class UnknownAbility(KifuError, KeyError):
    """A board names an ability its card does not have (a waiting effect's): the rules never make one, so only a
    log they did not give (a tampered one, folded as it is) holds it (statemachine.rederive.LOG_DISAGREES)."""


class TriggerDef(Struct, frozen=True, forbid_unknown_fields=True):
    """When an ability triggers. ``on`` names a trigger of the vocabulary."""

    on: str
    subject: str = "self"  # "self", "other" or "any": whose event it is
    whose: str = "any"  # "you", "opponent" or "any": the subject's controller, relative to the ability's
    where: str = ""  # the zone the ability works from; empty: the game's home zone (``Vocabulary.home_zone``)
    filter: Params = field(default_factory=dict)  # conditions on the subject: types, colors, subtypes, ...
    # Fields the game declares for its triggers (``Vocabulary.trigger_field``), lifted here from the trigger's
    # table when the pool loads: the kernel reads none of them.
    fields: Params = field(default_factory=dict)


class ConditionDef(Struct, frozen=True):
    name: str
    params: Params = field(default_factory=dict)


class EffectDef(Struct, frozen=True):
    name: str
    params: Params = field(default_factory=dict)


class AbilityDef(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    label: str
    # "triggered"; "spell" (a spell's text, carried out in printed order); "static"; "icon" (an icon
    # ability other abilities may use, DM 603.3a); "activated" (used by a player who pays its cost: VoP 起動効果)
    kind: str = "triggered"
    trigger: TriggerDef | None = None
    conditions: tuple[ConditionDef, ...] = ()
    effects: tuple[EffectDef, ...] = ()
    text: str = ""
    # What must be paid to use it (an activated ability's cost; a spell's additional costs), each a cost of
    # the game's vocabulary; paying one is a CostPaid event (seed 002, MTG-C-10).
    costs: tuple[EffectDef, ...] = ()
    # Instances of this ability triggered by one simultaneous group are one instance that knows how many they
    # were (Shadowverse SV-O-100: ピアシィ's damage for several evolutions at once is one hit of the total).
    bundle: bool = False


class CardDef(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    gloss: str = ""
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    cost: int | None = None
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    abilities: tuple[AbilityDef, ...] = ()
    provenance: str = ""
    text: str = ""
    # Fields the game declares for its cards (``Vocabulary.card_field``: Magic's mana symbols), lifted here from
    # the card's table when the pool loads: the kernel reads none of them.
    fields: Params = field(default_factory=dict)
    # The card-pool versions this entry belongs to: from ``since`` (empty: the first) up to, not including,
    # ``until`` (empty: still current). Errata are a new entry with ``since``; the old one gets ``until``.
    since: str = ""
    until: str = ""

    def printed(self) -> ev.Characteristics:
        return ev.Characteristics(
            self.name, self.types, self.subtypes, self.colors, self.cost, self.power, self.toughness,
            self.keywords, tuple(a.id for a in self.abilities),
        )

    def ability(self, ability_id: str) -> AbilityDef:
        for a in self.abilities:
            if a.id == ability_id:
                return a
        raise UnknownAbility(f"{self.id} has no ability {ability_id!r}")


# Fields of a card (or of its abilities) added after pool 1.0, with their defaults: a card that leaves one at
# its default digests as it did before the field existed. Add every new CardDef/AbilityDef field here.
# A game's own card fields added after its first pools are declared so by the game (``DigestForm.later``).
LATER_FIELDS: dict[str, object] = {"bundle": False}


class DigestForm(Struct, frozen=True):
    """Where a game's own fields go in the digest form: after the kernel's, in declared order, each written
    with its default when a card leaves it out. ``card`` and ``trigger`` map field names to defaults; they
    include fields the card format of released pools carried for every game (a pinned digest never changes)."""

    card: dict[str, Any] = field(default_factory=dict)
    trigger: dict[str, Any] = field(default_factory=dict)
    # The game's card fields added after its first pools, with their defaults: left out while at the default,
    # as ``LATER_FIELDS`` are (``Vocabulary.card_field(..., later=True)``).
    later: dict[str, Any] = field(default_factory=dict)


def _digest_form(card: CardDef, layout: DigestForm) -> dict[str, Any]:
    form: dict[str, Any] = msgspec.to_builtins(card)
    form.pop("since")
    form.pop("until")
    own = form.pop("fields")
    form.update({name: own.get(name, default) for name, default in layout.card.items()})
    later = {**LATER_FIELDS, **layout.later}
    _drop_defaults(form, later)
    for ability in form["abilities"]:
        _drop_defaults(ability, later)
        trigger = ability.get("trigger")
        if trigger is not None:
            fields = trigger.pop("fields")
            trigger.update({name: fields.get(name, default) for name, default in layout.trigger.items()})
    return form


def _drop_defaults(form: dict[str, Any], later: dict[str, Any]) -> None:
    for name, default in later.items():
        if name in form and form[name] == default:
            del form[name]


# Digests of the pools read last (a pool is frozen, so its digest never changes): every game started records its
# pool's digest, and computing it is most of the cost of starting a short game. Keyed by identity, the pool kept.
_DIGESTS: dict[int, tuple[CardPool, str]] = {}
_DIGESTS_KEPT = 16


class CardPool(Struct, frozen=True):
    name: str
    version: str
    cards: dict[str, CardDef]
    layout: DigestForm = field(default_factory=DigestForm)

    @property
    def digest(self) -> str:
        """A digest of the pool's canonical encoding, recorded when a game starts.

        Pinned per released pool version (``statemachine.releases``), so it must never change for the same
        cards: fields added to the card format since 1.0 are left out while they hold their defaults, and the
        version range of an entry (``since``/``until``) is not part of the card.
        """
        known = _DIGESTS.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        body = msgspec.msgpack.encode(sorted((k, _digest_form(c, self.layout)) for k, c in self.cards.items()))
        digest = hashlib.blake2b(body, digest_size=16).hexdigest()
        if len(_DIGESTS) >= _DIGESTS_KEPT:
            _DIGESTS.pop(next(iter(_DIGESTS)))
        _DIGESTS[id(self)] = (self, digest)
        return digest

    def __getitem__(self, card_id: str) -> CardDef:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def with_cards(self, extra: dict[str, CardDef]) -> CardPool:
        return CardPool(self.name, self.version, {**self.cards, **extra}, self.layout)
