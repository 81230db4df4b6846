"""docs/vocabulary.md, generated from the code: per game, what a player may decide and what the rules may ask,
every effect, condition and cost with its parameters and their types, every trigger, trigger filter, keyword
and selector, every expression form; and every scenario expectation key. ``python -m tools.cards.vocabulary`` (or
``kifu vocabulary``) prints it; ``tests/tools/test_vocabulary_doc.py`` checks the shipped file is current.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi

from statemachine.cards import AbilityDef, CardDef, TriggerDef
from statemachine.context import MAY
from statemachine.games import PROFILES, profile
from statemachine.loader import ABILITY_KINDS, TRIGGER_FIELDS
from statemachine.options import choices, with_scenario_label
from statemachine.profile import RulesProfile
from statemachine.scenario.expect import EXPECTATIONS
from statemachine.scenario.model import CardSpec, EffectSpec, Setup
from statemachine.triggers import SubjectFilter
from statemachine.vocabulary import KEYWORD, SELECTOR, ZONE, Entry, Vocabulary

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is tools/cards/vocabulary.py)
DOC = ROOT / "docs" / "vocabulary.md"
KERNEL = ROOT / "statemachine"


def type_name(info: mi.Type) -> str:
    """A parameter type as a card author reads it."""
    match info:
        case mi.Metadata(type=inner, extra=extra):
            kind = (extra or {}).get("names")
            return str(kind) if kind else type_name(inner)
        case mi.IntType():
            return "integer"
        case mi.StrType():
            return "string"
        case mi.BoolType():
            return "boolean"
        case mi.FloatType():
            return "number"
        case mi.NoneType():
            return "none"
        case mi.LiteralType(values=values):
            return " \\| ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in values)
        case mi.ListType(item_type=item) | mi.VarTupleType(item_type=item):
            return f"list of {type_name(item)}"
        case mi.DictType():
            return "table"
        case mi.UnionType(types=types):
            return " or ".join(type_name(t) for t in types)
        case mi.StructType(cls=cls):
            return "expression" if cls.__name__ == "Expr" else cls.__name__  # an amount's form (statemachine.amounts)
        case _:
            return "any"


def params_of(params: type[Any]) -> str:
    info = mi.type_info(params)
    if not isinstance(info, mi.StructType) or not info.fields:
        return "—"
    out = []
    for f in info.fields:
        if f.required:
            out.append(f"`{f.encode_name}`: {type_name(f.type)}")
        else:
            default = f.default if f.default is not msgspec.NODEFAULT else (f.default_factory() if callable(
                f.default_factory) else None)
            out.append(f"`{f.encode_name}`: {type_name(f.type)} = `{_show(default)}`")
    return "<br>".join(out)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if value is None:
        return "none"
    return str(value)


def request_kinds(folder: Path, pattern: str = "**/*.py") -> dict[str, tuple[list[str], str]]:
    """Every request kind the code in ``folder`` may ask (a ``Request``/``request`` call with a literal kind),
    with the modules that ask it and the action that answers it."""
    out: dict[str, set[str]] = {}
    answer: dict[str, str] = {}
    for path in sorted(folder.glob(pattern)):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name == "agrees":  # (a "you may" question: statemachine.context.EffectContext.agrees)
                out.setdefault(MAY, set()).add(path.stem)
                continue
            if name not in ("request", "Request"):
                continue
            kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
            if kind is None and len(node.args) > 1:
                kind = node.args[1]
            if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                out.setdefault(kind.value, set()).add(path.stem)
                action = next((k.value for k in node.keywords if k.arg == "action"), None)
                if isinstance(action, ast.Constant) and isinstance(action.value, str):
                    answer[kind.value] = action.value
    return {k: (sorted(v), answer.get(k, "choose")) for k, v in sorted(out.items())}


def _table(head: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> Iterator[str]:
    yield "| " + " | ".join(head) + " |"
    yield "|" + "---|" * len(head)
    for r in rows:
        yield "| " + " | ".join(c.replace("\n", " ") for c in r) + " |"
    yield ""


def _entries(title: str, table: dict[str, Entry[Any]]) -> Iterator[str]:
    yield f"### {title}"
    yield ""
    if not table:
        yield "None."
        yield ""
        return
    yield from _table(("name", "parameters", "what it does"),
                      [(f"`{n}`", params_of(e.params), e.doc.replace("``", "`") or "—")
                       for n, e in sorted(table.items())])


def _names(title: str, vocab: Vocabulary, kind: str,
           empty: str = "None declared: a card using one is refused.") -> Iterator[str]:
    yield f"### {title}"
    yield ""
    names = vocab.names.get(kind, {})
    if not names:
        yield empty
        yield ""
        return
    yield from _table(("name", "meaning"), [(f"`{n}`", m) for n, m in sorted(names.items())])


def game_section(p: RulesProfile) -> Iterator[str]:
    vocab = p.vocabulary
    yield f"## {p.title} (`{p.name}`)"
    yield ""
    yield f"Rules versions installed: {', '.join(type(p).releases.versions)} (newest {p.version})."
    yield ""
    yield from _options(p)
    yield "### Decisions"
    yield ""
    yield from _table(("action", "arguments and meaning"), [(f"`{a}`", m) for a, m in p.decisions.items()])
    yield "### Requests"
    yield ""
    yield "What the rules may ask a player (a request's `kind`), and the decision action that answers it:"
    yield ""
    kinds = {**request_kinds(KERNEL, "*.py"), **request_kinds(Path(importlib.import_module(PROFILES[p.name][0]).__file__
                                                            or "").parent)}
    yield from _table(("kind", "answered by", "asked in"), [(f"`{k}`", f"`{a}`", ", ".join(m))
                                                           for k, (m, a) in sorted(kinds.items())])
    yield "### Triggers"
    yield ""
    yield from _table(("trigger", "checked in the state"), [(f"`{k}`", t.checked)
                                                           for k, t in sorted(p.trigger_kinds.items())])
    yield "### Trigger filters"
    yield ""
    shared = mi.type_info(SubjectFilter)
    assert isinstance(shared, mi.StructType)
    rows = [(f"`{f.encode_name}`", type_name(f.type), "the subject's characteristics (shared)") for f in shared.fields]
    rows += [(f"`{k}`", type_name(mi.type_info(t)), m) for k, (t, m) in sorted(vocab.filters.items())]
    yield from _table(("key", "type", "meaning"), rows)
    yield from _game_fields(vocab)
    yield from _amount_rules(vocab)
    yield from _entries("Effects", vocab.effects)
    yield from _entries("Conditions", vocab.conditions)
    yield from _entries("Costs", vocab.costs)
    yield from _names("Keywords", vocab, KEYWORD)
    yield from _names("Selectors", vocab, SELECTOR)
    yield from _names("Zones an ability works from (a trigger's `where`)", vocab, ZONE,
                      "Not declared: a trigger's `where` is not checked.")


def _game_fields(vocab: Vocabulary) -> Iterator[str]:
    """The game's own card and trigger fields, and the zone a trigger works from when it does not say."""
    yield "### This game's card and trigger fields"
    yield ""
    yield ("A trigger that leaves out `where` works from " + (f"`{vocab.home_zone}`." if vocab.home_zone else
                                                              "nowhere: in this game a trigger must say `where`."))
    yield ""
    rows = [(f"`{n}`", "card", type_name(mi.type_info(t)), f"`{_show(d)}`", m)
            for n, (t, d, m) in sorted(vocab.card_fields.items())]
    rows += [(f"`{n}`", "trigger", type_name(mi.type_info(t)), f"`{_show(d)}`", m)
             for n, (t, d, m) in sorted(vocab.trigger_fields.items())]
    if rows:
        yield from _table(("field", "of a", "type", "default", "meaning"), rows)


def _struct_fields(title: str, struct: type[Any], hidden: tuple[str, ...] = ("fields",)) -> Iterator[str]:
    yield f"- {title}: " + "; ".join(p for p in params_of(struct).split("<br>")
                                      if not any(p.startswith(f"`{h}`") for h in hidden))


def _amount_rules(vocab: Any) -> Iterator[str]:
    """What this game's computed amounts may name (``Vocabulary.amounts``, statemachine.amounts.AmountRules)."""
    rules = getattr(vocab, "amounts", None)
    if rules is None:
        return
    yield "### Computed amounts"
    yield ""
    yield f"- `count` zones: {', '.join(f'`{z}`' for z in rules.zones)}"
    yield f"- characteristics: {', '.join(f'`{c}`' for c in rules.characteristics)}"
    for name, read in sorted(rules.references.items()):  # the game's own references beyond source/subject/target
        meaning = " ".join((read.__doc__ or "").split())
        yield f"- reference `{name}`" + (f": {meaning}" if meaning else "")
    if rules.stats:
        yield f"- `stat` counters: {', '.join(f'`{c}`' for c in rules.stats)}"
    yield f"- `x`: {'the X chosen as the card is cast or played' if rules.has_x else 'not in this game'}"
    rounding = f"rounded {rules.rounding}" if rules.rounding else "the card says `round`"
    yield f"- `half`: {rounding} ({rules.rounding_rule})" + ("; a negative result is zero" if rules.negative_is_zero
                                                              else "")
    yield ""


def _options(p: RulesProfile) -> Iterator[str]:
    """The game's options (``GameStarted.options``, a scenario's ``options``) and its deck-construction rule."""
    yield "### Game options"
    yield ""
    yield ("The options a game may be started with (`Engine.new(..., options=...)`, a scenario's `options`); "
           "any other key or value is refused when the game starts or its log is audited (`statemachine.options`).")
    yield ""
    newest = p.option_kind()
    rows = [(f"`{k}`", v) for k, v in sorted(choices(newest).items())]
    older = sorted(set(choices(type(p).options_type).keys() | choices(with_scenario_label(p.options_type)).keys())
                   - choices(newest).keys())
    yield from _table(("option", "values"), rows)
    if older:
        yield (f"Read by earlier releases only: {', '.join(f'`{k}`' for k in older)} (the scenario runner's label, "
               "retired so that no option exists only for tests).")
        yield ""
    yield "### Deck construction"
    yield ""
    rule = p.deck_rule
    if rule is None:
        yield "The game states no deck-construction rule: decks are taken as given."
    else:
        yield (f"`{rule.rule}`: {rule.summary}. Checked when a game starts from deck lists under rules "
               f"{first_checking(p) or 'none installed'} and later (before it, decks are taken as given); a "
               "given board (a scenario, a reconstruction) has no decks and is not checked.")
    yield ""


def first_checking(p: RulesProfile) -> str | None:
    """The first installed release of ``p``'s game that checks deck construction."""
    return next((r.version for r in type(p).releases.releases if getattr(r.rules, "decks_checked", False)), None)


def common_section() -> Iterator[str]:
    yield "## Card files (every game)"
    yield ""
    yield f"An ability's `kind` is one of {', '.join(f'`{k}`' for k in ABILITY_KINDS)}. A trigger's " + "; ".join(
        f"`{f}` is one of {', '.join(f'`{v}`' for v in allowed)}" for f, allowed in TRIGGER_FIELDS) + "."
    yield ""
    yield "The fields a card file may write (a game adds its own, listed in its section):"
    yield ""
    yield from _struct_fields("a card (`[[card]]`)", CardDef)
    yield from _struct_fields("an ability (`[[card.abilities]]`)", AbilityDef)
    yield from _struct_fields("a trigger (an ability's `trigger`)", TriggerDef)
    yield "- a condition, an effect step or a cost: `name`: string; `params`: table (the entry's parameters below)"
    yield ""
    yield "A keyword or selector name ending in `<number>` or `<card>` is a family: `countdown_<number>` is " \
          "`countdown_2`, `countdown_3`, ...; `<card>` is a card id."
    yield ""
    yield "### Expression forms"
    yield ""
    forms = expression_forms()
    if forms:
        yield "A parameter typed `integer or expression` takes a literal or a table with exactly one of these keys:"
        yield ""
        yield from _table(("form", "takes", "meaning"), [(f"`{n}`", t, m) for n, t, m in forms])
    else:
        yield "Every amount is a literal integer."
        yield ""


def expression_forms() -> list[tuple[str, str, str]]:
    """The forms a computed amount may take (``statemachine.amounts.FORMS``), once the card format has them."""
    try:
        amounts = importlib.import_module("statemachine.amounts")
    except ModuleNotFoundError:
        return []
    return [(f.name, f.takes, f.means) for f in amounts.FORMS.values()]


def scenario_section() -> Iterator[str]:
    yield "## Scenario files (every game)"
    yield ""
    yield "Set-up keys (`[setup]`, docs/scenarios.md):"
    yield ""
    for struct, where in ((Setup, "setup"), (CardSpec, "setup.cards"), (EffectSpec, "setup.effects")):
        yield f"- `{where}`: " + "; ".join(params_of(struct).split("<br>"))
    yield ("- `refused` (top level, beside `game`): string = `\"\"`: the set-up must be refused, naming this rule "
           "(a board the game cannot be in); such a scenario has no steps")
    yield ""
    yield ("Player counters a set-up's `turn` and `active` imply (derived; a set-up that states one otherwise is "
           "refused):")
    yield ""
    for game in sorted(PROFILES):
        derived = profile(game).derived_counters
        yield f"- {game}: " + ("; ".join(f"`{k}`: {v}" for k, v in derived.items()) or "none")
    yield ""
    yield "### Expectation keys"
    yield ""
    yield from _table(("key", "value", "checks"), [(f"`{k}`", f"`{e.shape}`", e.doc)
                                                  for k, e in sorted(EXPECTATIONS.items())])


def render() -> str:
    lines = ["# Vocabulary", "",
             "Generated from the code by `python -m tools.cards.vocabulary` (also `kifu vocabulary`); "
             "a test checks it is current. Everything a card file or a scenario file may name is here; "
             "a name not listed is refused when the file is read.", ""]
    lines += common_section()
    for name in sorted(PROFILES):
        lines += game_section(profile(name))
    lines += scenario_section()
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    print(render(), end="")


if __name__ == "__main__":
    main()
