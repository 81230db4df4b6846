"""Loading card pools from TOML, with errors that name the file, the card and the field."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from eventsource.errors import KifuError
from statemachine.cards import CardDef, CardPool
from statemachine.releases import UnknownVersion, version_key
from statemachine.triggers import SubjectFilter
from statemachine.vocabulary import Vocabulary


class CardFileError(KifuError):
    def __init__(self, file: str, message: str, card: str | None = None, fld: str | None = None) -> None:
        where = file + (f": card {card!r}" if card else "") + (f": field {fld}" if fld else "")
        super().__init__(f"{where}: {message}")
        self.file, self.card, self.field = file, card, fld


def parse_cards(data: dict[str, Any], file: str, vocabulary: Vocabulary, triggers: Iterable[str]) -> list[CardDef]:
    """Cards from the decoded TOML of one file (``[[card]]`` tables), validated against ``vocabulary``."""
    known_triggers = set(triggers)
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list):
        raise CardFileError(file, "expected [[card]] tables")
    out: list[CardDef] = []
    for i, raw in enumerate(raw_cards):
        name = raw.get("id") if isinstance(raw, dict) else None
        label = name if isinstance(name, str) else f"#{i + 1}"
        try:
            card = msgspec.convert(raw, CardDef, strict=True)
        except msgspec.ValidationError as exc:
            # msgspec says "... - at `$.abilities[0].trigger`": keep its path as the field.
            msg, _, path = str(exc).partition(" - at ")
            raise CardFileError(file, msg, label, path.strip("`") or None) from exc
        _validate(card, file, vocabulary, known_triggers)
        out.append(card)
    return out


def _validate(card: CardDef, file: str, vocab: Vocabulary, triggers: set[str]) -> None:
    for fld, value in (("id", card.id), ("name", card.name)):
        if not value.strip():
            raise CardFileError(file, f"a card needs a non-empty {fld}", card.id or None, f"$.{fld}")
    seen: set[str] = set()
    for n, ability in enumerate(card.abilities):
        base = f"$.abilities[{n}]"
        if ability.id in seen:
            raise CardFileError(file, f"ability id {ability.id!r} is used twice", card.id, f"{base}.id")
        seen.add(ability.id)
        if ability.kind not in ("triggered", "spell", "static", "icon", "activated"):
            raise CardFileError(file, f"unknown ability kind {ability.kind!r}", card.id, f"{base}.kind")
        if ability.kind == "triggered" and ability.trigger is None:
            raise CardFileError(file, "a triggered ability needs a trigger", card.id, f"{base}.trigger")
        if ability.trigger is not None:
            t = ability.trigger
            if t.on not in triggers:
                raise CardFileError(
                    file, f"unknown trigger {t.on!r} (known: {', '.join(sorted(triggers))})", card.id,
                    f"{base}.trigger.on",
                )
            try:
                msgspec.convert(t.filter, SubjectFilter, strict=True)
            except msgspec.ValidationError as exc:
                msg, _, where = str(exc).partition(" - at ")
                raise CardFileError(file, f"bad trigger filter: {msg}", card.id,
                                    f"{base}.trigger.filter{where.strip('`').removeprefix('$')}") from exc
            for fld, value, allowed in (
                ("subject", t.subject, ("self", "other", "any")),
                ("whose", t.whose, ("you", "opponent", "any")),
                ("timing", t.timing, ("shita", "suru")),
            ):
                if value not in allowed:
                    raise CardFileError(file, f"{value!r} is not one of {allowed}", card.id, f"{base}.trigger.{fld}")
        for k, cond in enumerate(ability.conditions):
            _check_entry(file, card.id, f"{base}.conditions[{k}]", vocab.conditions, cond.name, cond.params,
                         "condition")
        for k, eff in enumerate(ability.effects):
            _check_entry(file, card.id, f"{base}.effects[{k}]", vocab.effects, eff.name, eff.params, "effect")
        for k, cost in enumerate(ability.costs):
            _check_entry(file, card.id, f"{base}.costs[{k}]", vocab.costs, cost.name, cost.params, "cost")


def _check_entry(file: str, card: str, path: str, table: dict[str, Any], name: str, params: dict[str, Any],
                 what: str) -> None:
    entry = table.get(name)
    if entry is None:
        raise CardFileError(file, f"unknown {what} {name!r}", card, f"{path}.name")
    try:
        entry.parse(params)
    except msgspec.ValidationError as exc:
        msg, _, sub = str(exc).partition(" - at ")
        raise CardFileError(file, f"bad parameters for {what} {name!r}: {msg}", card,
                            f"{path}.params{sub.strip('`').removeprefix('$')}") from exc


def in_version(card: CardDef, version: str) -> bool:
    """Whether a card entry belongs to pool ``version`` (its ``since``/``until`` range)."""
    key = version_key(version)
    return (not card.since or version_key(card.since) <= key) and (not card.until or key < version_key(card.until))


def load_pool(name: str, version: str, paths: Iterable[Path], vocabulary: Vocabulary,
              triggers: Iterable[str]) -> CardPool:
    """The pool ``version`` from the card files: every entry whose ``since``/``until`` range holds it."""
    trig = tuple(triggers)
    cards: dict[str, CardDef] = {}
    for path in sorted(paths):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CardFileError(str(path), f"not valid TOML: {exc}") from exc
        except OSError as exc:
            raise CardFileError(str(path), f"cannot read: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise CardFileError(str(path), f"not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
        for card in parse_cards(data, str(path), vocabulary, trig):
            for fld in ("since", "until"):
                value = getattr(card, fld)
                if value:
                    try:
                        version_key(value)
                    except UnknownVersion as exc:
                        raise CardFileError(str(path), str(exc), card.id, f"$.{fld}") from exc
            if not in_version(card, version):
                continue
            if card.id in cards:
                raise CardFileError(str(path), "card id is defined twice", card.id, "$.id")
            cards[card.id] = card
    return CardPool(name, version, cards)


def load_pinned_pool(name: str, version: str, paths: Iterable[Path], vocabulary: Vocabulary,
                     triggers: Iterable[str], pinned: dict[str, str]) -> CardPool:
    """``load_pool``, refusing a released pool version whose cards no longer give its pinned digest."""
    pool = load_pool(name, version, paths, vocabulary, triggers)
    want = pinned.get(version)
    if want is not None and pool.digest != want:
        raise KifuError(f"card pool {name} {version} was released with digest {want}, but its card files now give "
                        f"{pool.digest}: a released card must not change (add an erratum with since/until)")
    return pool
