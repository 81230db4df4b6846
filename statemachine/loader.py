"""Loading card pools from TOML, with errors that name the file, the card and the field."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi

from eventsource.errors import KifuError
from statemachine.amounts import AmountError, Expr, amount_fields, check_amount, reads_that_much
from statemachine.cards import CardDef, CardPool, TriggerDef
from statemachine.releases import UnknownVersion, version_key
from statemachine.triggers import SubjectFilter
from statemachine.vocabulary import KEYWORD, ZONE, Entry, Vocabulary, allowed_at, named_values


class CardFileError(KifuError):
    def __init__(self, file: str, message: str, card: str | None = None, fld: str | None = None,
                 ability: str | None = None) -> None:
        where = file + (f": card {card!r}" if card else "") + (f": ability {ability!r}" if ability else "") \
            + (f": field {fld}" if fld else "")
        super().__init__(f"{where}: {message}")
        self.file, self.card, self.field, self.ability = file, card, fld, ability


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
            card = msgspec.convert(_lift_game_fields(raw, vocabulary), CardDef, strict=True)
        except msgspec.ValidationError as exc:
            # msgspec says "... - at `$.abilities[0].trigger`": keep its path as the field.
            msg, _, path = str(exc).partition(" - at ")
            path = path.strip("`")
            raise CardFileError(file, _listing(msg, CardDef, path), label, path or None,
                                _ability_at(raw, path)) from exc
        card = _home_zone(card, file, vocabulary)
        _validate(card, file, vocabulary, known_triggers)
        out.append(card)
    return out


def _lift_game_fields(raw: Any, vocab: Vocabulary) -> Any:
    """The raw card with the game's own card and trigger fields (``Vocabulary.card_field``, ``trigger_field``)
    moved into ``fields``, each checked against its declared type (a card already in that form, as
    ``msgspec.to_builtins`` writes one, is read the same way)."""
    if not isinstance(raw, dict):
        return raw
    out = _lift(raw, vocab.card_fields, "$")
    abilities = raw.get("abilities")
    if isinstance(abilities, list):
        out["abilities"] = [
            {**a, "trigger": _lift(a["trigger"], vocab.trigger_fields, f"$.abilities[{n}].trigger")}
            if isinstance(a, dict) and isinstance(a.get("trigger"), dict) else a
            for n, a in enumerate(abilities)]
    return out


def _lift(table: dict[str, Any], declared: dict[str, tuple[Any, Any, str]], path: str) -> dict[str, Any]:
    out = dict(table)
    written = out.pop("fields", {})
    if not isinstance(written, dict) or any(k not in declared or k in out for k in written):
        raise msgspec.ValidationError(f"Object contains unknown field `fields` - at `{path}`")
    out.update(written)
    fields: dict[str, Any] = {}
    for name, (typ, _, _) in declared.items():
        if name in out:
            value = out.pop(name)
            try:
                fields[name] = msgspec.convert(value, typ, strict=True)
            except msgspec.ValidationError as exc:
                msg, _, sub = str(exc).partition(" - at ")
                raise msgspec.ValidationError(f"{msg} - at `{path}.{name}{sub.strip('`').removeprefix('$')}`") \
                    from exc
    if fields:
        out["fields"] = fields
    return out


def _home_zone(card: CardDef, file: str, vocab: Vocabulary) -> CardDef:
    """Triggers that do not say where they work from work from the game's home zone, if it has one."""
    if not any(a.trigger is not None and not a.trigger.where for a in card.abilities):
        return card
    abilities = []
    for n, a in enumerate(card.abilities):
        if a.trigger is not None and not a.trigger.where:
            if not vocab.home_zone:
                raise CardFileError(file, "say which zone the ability works from (this game has no default)",
                                    card.id, f"$.abilities[{n}].trigger.where", a.id)
            a = msgspec.structs.replace(a, trigger=msgspec.structs.replace(a.trigger, where=vocab.home_zone))
        abilities.append(a)
    return msgspec.structs.replace(card, abilities=tuple(abilities))



_TYPE_INFO: dict[Any, mi.Type] = {}


def _type_info(typ: Any) -> mi.Type:
    """msgspec's description of a parameter type: the same for every card that names it (described afresh for
    each, it was most of the time a card pool took to load)."""
    info = _TYPE_INFO.get(typ)
    if info is None:
        info = _TYPE_INFO[typ] = mi.type_info(typ)
    return info


def _ability_at(raw: Any, path: str) -> str | None:
    """The id of the ability a raw card's error path points into, if it has one."""
    m = re.match(r"\$\.abilities\[(\d+)\]", path)
    if not m or not isinstance(raw, dict) or not isinstance(raw.get("abilities"), list):
        return None
    abilities = raw["abilities"]
    n = int(m.group(1))
    found = abilities[n].get("id") if n < len(abilities) and isinstance(abilities[n], dict) else None
    return found if isinstance(found, str) else None


def _listing(msg: str, typ: Any, path: str) -> str:
    """A msgspec error message, with the names allowed at ``path`` when they are a closed set."""
    if msg.startswith("Object contains unknown field"):
        parent = path
        allowed = allowed_at(_type_info(typ), parent)
    elif msg.startswith("Invalid enum value"):
        allowed = allowed_at(_type_info(typ), path)
    else:
        return msg
    return f"{msg} (known: {', '.join(allowed)})" if allowed else msg


def _known(names: Iterable[str]) -> str:
    return "known: " + ", ".join(sorted(names))


def _validate(card: CardDef, file: str, vocab: Vocabulary, triggers: set[str]) -> None:
    for fld, value in (("id", card.id), ("name", card.name)):
        if not value.strip():
            raise CardFileError(file, f"a card needs a non-empty {fld}", card.id or None, f"$.{fld}")
    for k, kw in enumerate(card.keywords):
        if not vocab.knows(KEYWORD, kw):
            raise CardFileError(file, f"unknown keyword {kw!r} ({_known(vocab.names[KEYWORD])})", card.id,
                                f"$.keywords[{k}]")
    for fld, value in card.fields.items():  # a game's card field holding a computed amount: its forms and zones
        if isinstance(value, Expr):
            try:
                check_amount(msgspec.json.decode(msgspec.json.encode(value)), vocab.amounts)
            except AmountError as exc:
                raise CardFileError(file, f"bad amount {fld}: {exc}", card.id, f"$.{fld}{exc.path}") from exc
    seen: set[str] = set()
    for n, ability in enumerate(card.abilities):
        base = f"$.abilities[{n}]"

        def error(message: str, fld: str, ab: str = ability.id) -> CardFileError:
            return CardFileError(file, message, card.id, fld, ab)

        if ability.id in seen:
            raise error(f"ability id {ability.id!r} is used twice", f"{base}.id")
        seen.add(ability.id)
        if ability.kind not in ABILITY_KINDS:
            raise error(f"unknown ability kind {ability.kind!r} ({_known(ABILITY_KINDS)})", f"{base}.kind")
        if ability.kind == "triggered" and ability.trigger is None:
            raise error("a triggered ability needs a trigger", f"{base}.trigger")
        if ability.trigger is not None:
            _check_trigger(ability.trigger, vocab, triggers, f"{base}.trigger", error)
        for k, cond in enumerate(ability.conditions):
            _check_entry(vocab, f"{base}.conditions[{k}]", vocab.conditions, cond.name, cond.params, "condition",
                         error)
        # (a target step may stand for several targets: its ``count``, Magic's "two target creatures")
        chosen = sum(_target_count(eff.params) for eff in ability.effects if eff.name in vocab.target_steps)
        for k, eff in enumerate(ability.effects):
            entry = vocab.effects.get(eff.name)
            if eff.params.get("may") is True and entry is not None and (
                    not entry.asks or ability.kind in vocab.silent_kinds):
                why = "this step never asks" if not entry.asks else f"a {ability.kind} ability's steps ask no one"
                raise error(f"effect {eff.name!r}: may = true, but {why}", f"{base}.effects[{k}].params.may")
            _check_entry(vocab, f"{base}.effects[{k}]", vocab.effects, eff.name, eff.params, "effect", error,
                         targets=chosen, abilities=frozenset(a.id for a in card.abilities))
            kinds = vocab.amounts.that_much if vocab.amounts is not None else ()
            if reads_that_much(eff.params) and (ability.trigger is None or ability.trigger.on not in kinds):
                raise error(f"effect {eff.name!r}: that_much reads the amount of the event that triggered the "
                            f"ability: only a triggered ability on {', '.join(kinds) or 'no trigger of this game'} "
                            f"has one", f"{base}.effects[{k}].params")
        for k, cost in enumerate(ability.costs):
            _check_entry(vocab, f"{base}.costs[{k}]", vocab.costs, cost.name, cost.params, "cost", error)


def _target_count(params: dict[str, Any]) -> int:
    count = params.get("count", 1)
    return count if isinstance(count, int) and count > 1 else 1


# "granted": an activated ability a card's static effect gives other objects, which the card itself does not have
# (Magic's Zombie Master: "Other Zombies have '{B}: Regenerate this permanent.'").
ABILITY_KINDS = ("triggered", "spell", "static", "icon", "activated", "granted")
TRIGGER_FIELDS = (("subject", ("self", "other", "any")), ("whose", ("you", "opponent", "any")))


def _check_trigger(t: TriggerDef, vocab: Vocabulary, triggers: set[str], base: str,
                   error: Callable[[str, str], CardFileError]) -> None:
    if t.on not in triggers:
        raise error(f"unknown trigger {t.on!r} ({_known(triggers)})", f"{base}.on")
    shared = {f.encode_name for f in _type_info(SubjectFilter).fields}  # type: ignore[attr-defined]
    for key in t.filter:
        if key not in shared and key not in vocab.filters:
            raise error(f"unknown trigger filter {key!r} ({_known(shared | set(vocab.filters))})",
                        f"{base}.filter.{key}")
    try:
        msgspec.convert({k: v for k, v in t.filter.items() if k in shared}, SubjectFilter, strict=True)
        for key, value in t.filter.items():
            if key in vocab.filters:
                typ = vocab.filters[key][0]
                value = msgspec.convert(value, typ, strict=True)
                for kind, name, _ in named_values(_type_info(typ), value):
                    if not vocab.knows(kind, name):
                        raise error(f"unknown {kind} {name!r} ({_known(vocab.names[kind])})", f"{base}.filter.{key}")
    except msgspec.ValidationError as exc:
        msg, _, where = str(exc).partition(" - at ")
        raise error(f"bad trigger filter: {msg}", f"{base}.filter{where.strip('`').removeprefix('$')}") from exc
    zones = vocab.names.get(ZONE)
    if zones and t.where not in zones:  # an ability working from a zone the game lacks would never trigger
        raise error(f"unknown zone {t.where!r} for the ability to work from ({_known(zones)})", f"{base}.where")
    for fld, allowed in TRIGGER_FIELDS:
        value = getattr(t, fld)
        if value not in allowed:
            raise error(f"{value!r} is not one of {allowed}", f"{base}.{fld}")


def _check_entry(vocab: Vocabulary, path: str, table: dict[str, Entry[Any]], name: str, params: dict[str, Any],
                 what: str, error: Callable[[str, str], CardFileError], name_at: str = "name",
                 params_at: str = "params", targets: int | None = None,
                 abilities: frozenset[str] | None = None) -> None:
    entry = table.get(name)
    if entry is None:
        raise error(f"unknown {what} {name!r} ({_known(table)})", f"{path}.{name_at}")
    signed = getattr(entry.params, "signed", ())
    for param, value in params.items():  # a count, an amount, an index: not below zero unless the step says so
        if isinstance(value, int) and not isinstance(value, bool) and value < 0 and param not in signed:
            raise error(f"{what} {name!r}: {param} = {value} is negative, and this step takes no negative "
                        f"{param}", f"{path}.{params_at}.{param}")
    for param in amount_fields(entry.params):  # computed amounts: forms, zones, references (statemachine.amounts)
        if param in params:
            try:
                check_amount(params[param], vocab.amounts)
            except AmountError as exc:
                raise error(f"{what} {name!r}: bad amount {param}: {exc}",
                            f"{path}.{params_at}.{param}{exc.path}") from exc
    try:
        parsed = entry.parse(params)
    except msgspec.ValidationError as exc:
        msg, _, sub = str(exc).partition(" - at ")
        sub = sub.strip("`")
        raise error(f"bad parameters for {what} {name!r}: {_listing(msg, entry.params, sub)}",
                    f"{path}.{params_at}{sub.removeprefix('$')}") from exc
    for kind, value, at in named_values(_type_info(entry.params), parsed):
        if not vocab.knows(kind, value):
            raise error(f"unknown {kind} {value!r} for {what} {name!r} ({_known(vocab.names[kind])})",
                        f"{path}.{params_at}{at}")
    problems = getattr(parsed, "problems", None)
    if callable(problems):  # what the step itself finds wrong: a selector that can select nothing, ...
        for at, message in problems():
            raise error(f"{what} {name!r}: {message}", f"{path}.{params_at}{at}")
    target_refs = getattr(parsed, "target_refs", None)
    if callable(target_refs) and targets is not None:  # an index into the ability's target steps
        for at, index in target_refs():
            if index >= targets:
                steps = ", ".join(sorted(vocab.target_steps))
                raise error(f"{what} {name!r} acts on target {index}, but the ability chooses {targets} "
                            f"target{'s' if targets != 1 else ''} (its {steps} steps, counted from 0)",
                            f"{path}.{params_at}{at}")
    ability_refs = getattr(parsed, "ability_refs", None)
    if callable(ability_refs) and abilities is not None:  # another ability of the same card, named by its id
        for at, ref in ability_refs():
            if ref not in abilities:
                raise error(f"{what} {name!r} names ability {ref!r}, which this card does not have "
                            f"({_known(abilities)})", f"{path}.{params_at}{at}")
    judged = getattr(parsed, "judged", None)
    if callable(judged):  # a condition the step judges (``if``): checked as a card's own conditions are
        for fld, inner, inner_params in judged():
            _check_entry(vocab, f"{path}.{params_at}", vocab.conditions, inner, inner_params, "condition", error,
                         fld, f"{fld}_params", targets, abilities)
    nested = getattr(parsed, "nested", None)
    if callable(nested):  # an effect that carries another (``then`` with its ``params``): checked the same way;
        # a fourth item counts targets the carrier adds for it (a mode chosen as a spell is cast, with its own)
        for fld, inner, inner_params, *more in nested():
            _check_entry(vocab, f"{path}.{params_at}", table, inner, inner_params, what, error, fld, "params",
                         None if targets is None else targets + sum(more), abilities)


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
        except RecursionError:  # (tomllib reads arrays and tables by recursion)
            raise CardFileError(str(path), "nested too deeply to read") from None
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
    return CardPool(name, version, cards, vocabulary.digest_form())


def load_pinned_pool(name: str, version: str, paths: Iterable[Path], vocabulary: Vocabulary,
                     triggers: Iterable[str], pinned: dict[str, str]) -> CardPool:
    """``load_pool``, refusing a released pool version whose cards no longer give its pinned digest."""
    pool = load_pool(name, version, paths, vocabulary, triggers)
    want = pinned.get(version)
    if want is not None and pool.digest != want:
        raise KifuError(f"card pool {name} {version} was released with digest {want}, but its card files now give "
                        f"{pool.digest}: a released card must not change (add an erratum with since/until)")
    return pool
