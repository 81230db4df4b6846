"""The card catalogue: every card of every game's newest pool, the pieces it is written with, the scenarios that
play it, its provenance and whether its text was checked against a printed source (``kifu cards``); and the one
step that adds cards (``kifu cards check``): validate every card file, pin the digest of each pool not yet
released and open the release entry a new pool needs in the game's ``releases.toml``.

A scenario plays a card when its set-up puts the card on the board; a card another played card makes (a token
its text summons, the card it transforms into) is played through it. A pool is released once its release's
fixture is recorded (``tests/fixtures/releases/<game>-<version>.jsonl``); until then its digest may be re-pinned.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct, field

from eventsource.errors import KifuError
from statemachine.cards import CardDef, CardPool
from statemachine.games import PROFILES, profile_class
from statemachine.loader import load_pool
from statemachine.profile import RulesProfile
from statemachine.releases import ReleasesFile, version_key
from statemachine.scenario import files, load

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is tools/cards/catalogue.py)
SCENARIOS = ROOT / "tests" / "scenarios"
FIXTURES = ROOT / "tests" / "fixtures" / "releases"
# Parameters whose value names another card: the card an effect makes (a token, a transformation).
MAKES = ("card", "cards", "into")
# A provenance opens with its tag: [checked] (the text was compared with a printed source: a card list, a card
# database), [memory] (written from memory), [seed], [ext], [assumed] (a test card).
TAG = re.compile(r"^\[([a-z]+)\]")


class CardEntry(Struct, frozen=True):
    game: str
    id: str
    name: str
    pool: str  # the newest pool version the card is in
    since: str
    provenance: str
    source: str  # the provenance's tag: checked, memory, seed, ext, assumed (empty: none given)
    checked: bool  # its text was checked against a printed source
    text: str
    pieces: list[str] = field(default_factory=list)  # "effect:draw", "trigger:enters", "keyword:slayer", ...
    scenarios: list[str] = field(default_factory=list)  # ids of the scenarios whose set-up has the card
    made_by: list[str] = field(default_factory=list)  # played cards that make it (tokens, transformations)

    @property
    def played(self) -> bool:
        return bool(self.scenarios or self.made_by)


def pieces(card: CardDef) -> list[str]:
    """The vocabulary names a card is written with, each as ``kind:name``, sorted."""
    out = {f"keyword:{k}" for k in card.keywords} | {f"field:{k}" for k in card.fields}
    for a in card.abilities:
        out.add(f"kind:{a.kind}")
        if a.trigger is not None:
            out.add(f"trigger:{a.trigger.on}")
            out |= {f"filter:{k}" for k in a.trigger.filter}
        out |= {f"condition:{c.name}" for c in a.conditions}
        out |= {f"cost:{c.name}" for c in a.costs}
        for e in a.effects:
            out |= {f"effect:{n}" for n in _effect_names(e.name, e.params)}
    return sorted(out)


def _effect_names(name: str, params: dict[str, Any]) -> Iterator[str]:
    yield name
    for key, inner_params in (("effect", "params"), ("then", "params"), ("else", "else_params")):
        inner = params.get(key) if isinstance(params, dict) else None  # an effect carried by another
        if isinstance(inner, str):
            yield from _effect_names(inner, params.get(inner_params, {}))


def made(card: CardDef, pool: CardPool) -> set[str]:
    """The cards of ``pool`` that ``card`` makes or is played as: its effects' ``summon`` card, ``transform`` into,
    and the card a keyword names (``accelerate_<card>``: played as that card, SV-O-63)."""
    out = {c for k in card.keywords for c in pool.cards if k.endswith(f"_{c}")}  # accelerate_<card>, crystallize_
    for a in card.abilities:
        for e in a.effects:
            for key in MAKES:
                value = e.params.get(key)
                for v in value if isinstance(value, list) else [value]:
                    if isinstance(v, str) and v in pool:
                        out.add(v)
    return out


def scenario_cards(game: str, roots: Iterable[Path] = (SCENARIOS,)) -> dict[str, list[str]]:
    """For each card id, the ids of the scenarios of ``game`` whose set-up puts it on the board."""
    out: dict[str, list[str]] = {}
    for path in files(list(roots)):
        sc = load(path)
        if sc.game != game:
            continue
        for spec in sc.setup.cards:
            ids = out.setdefault(spec.card, [])
            if sc.id not in ids:
                ids.append(sc.id)
    return out


def latest_pool(cls: type[RulesProfile]) -> CardPool:
    """The game's newest pool: the newest pinned version, or a newer one its card files name (``since``)."""
    versions = set(cls.releases.pool_versions()) | card_versions(cls)
    newest = max(versions, key=version_key)
    return load_pool(cls.name, newest, cls.cards.glob("*.toml"), cls.vocabulary, cls.trigger_kinds)


def card_versions(cls: type[RulesProfile]) -> set[str]:
    """Every pool version a card entry of the game starts at (``since``)."""
    pool = load_pool(cls.name, "999", cls.cards.glob("*.toml"), cls.vocabulary, cls.trigger_kinds)
    return {c.since for c in pool.cards.values() if c.since}


def catalogue(games: Iterable[str] | None = None, roots: Iterable[Path] = (SCENARIOS,)) -> list[CardEntry]:
    """Every card of each game's newest pool, by game then card id."""
    out: list[CardEntry] = []
    for game in sorted(games or PROFILES):
        cls = profile_class(game)
        pool = latest_pool(cls)
        played = scenario_cards(game, roots)
        makers: dict[str, list[str]] = {}
        for cid in sorted(pool.cards):
            if cid in played:
                for m in made(pool[cid], pool):
                    makers.setdefault(m, []).append(cid)
        for cid in sorted(pool.cards):
            card = pool[cid]
            tag = TAG.match(card.provenance)
            source = tag.group(1) if tag else ""
            out.append(CardEntry(game, cid, card.name, pool.version, card.since or "1.0", card.provenance, source,
                                 source == "checked", card.text, pieces(card), played.get(cid, []),
                                 makers.get(cid, [])))
    return out


# -- adding cards: validate, pin, open the release ----------------------------------------------------------------


class Pinned(Struct, frozen=True):
    game: str
    version: str
    digest: str
    action: str  # "opened" (a new pool and release entry), "re-pinned" (an unreleased pool), "current"


def released(game: str, version: str, fixtures: Path = FIXTURES) -> bool:
    """A release is released once its fixture is recorded (``tests/fixtures/releases/record.py``)."""
    return (fixtures / f"{game}-{version}.jsonl").exists()


def check(games: Iterable[str] | None = None) -> list[Pinned]:
    """``check_game`` for each game kifu ships (or those named)."""
    out: list[Pinned] = []
    for game in sorted(games or PROFILES):
        cls = profile_class(game)
        out += check_game(cls, cls.cards.parent / "releases.toml")
    return out


def check_game(cls: type[RulesProfile], releases: Path, fixtures: Path = FIXTURES) -> list[Pinned]:
    """Load every pool version of the game (every card file is validated; a released pool must still give its
    pinned digest); pin the digest of each pool whose release is not recorded yet; for cards whose ``since`` names
    a pool the game does not have, open that pool and its release in ``releases``. Raises ``KifuError`` (a
    ``CardFileError`` naming file, card, ability and field) on a card that cannot load; writes nothing then."""
    text = releases.read_text(encoding="utf-8")
    data = load_releases_file(releases)
    pinned = {p.version: p.digest for p in data.pool}
    release_of = {r.pool: r.version for r in data.release}
    out: list[Pinned] = []
    for version in sorted(set(pinned) | card_versions(cls), key=version_key):
        pool = load_pool(cls.name, version, cls.cards.glob("*.toml"), cls.vocabulary, cls.trigger_kinds)
        cls.check_pool(pool)
        digest = pool.digest
        if version not in pinned:
            new = sorted(c for c in pool.cards if pool[c].since == version)
            text += _opening(version, digest, new)
            out.append(Pinned(cls.name, version, digest, "opened"))
        elif pinned[version] == digest:
            out.append(Pinned(cls.name, version, digest, "current"))
        elif not released(cls.name, release_of.get(version, version), fixtures):
            text = _repin(text, version, pinned[version], digest)
            out.append(Pinned(cls.name, version, digest, "re-pinned"))
        else:
            raise KifuError(f"{cls.name}: card pool {version} is released (its fixture is recorded) with digest "
                            f"{pinned[version]}, but its card files now give {digest}: a released card must not "
                            "change (add an erratum with since/until)")
    if text != releases.read_text(encoding="utf-8"):
        releases.write_text(text, encoding="utf-8")
    return out


def load_releases_file(path: Path) -> ReleasesFile:
    try:
        return msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), ReleasesFile, strict=True)
    except (OSError, tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise KifuError(f"{path}: not a releases file: {exc}") from exc


def _opening(version: str, digest: str, new: list[str]) -> str:
    names = ", ".join(new)
    return (f'\n[[pool]]\nversion = "{version}"\ndigest = "{digest}"\n'
            f'summary = "The cards of the pool before, and {names} (since = \\"{version}\\")."\n'
            f'\n[[release]]\nversion = "{version}"\npool = "{version}"\n'
            f'summary = "Card pool {version}: {names}."\n')


def _repin(text: str, version: str, old: str, new: str) -> str:
    block = re.compile(rf'(\[\[pool\]\]\nversion = "{re.escape(version)}"\ndigest = ")' + re.escape(old) + '"')
    changed, n = block.subn(lambda m: m.group(1) + new + '"', text)
    if n != 1:
        raise KifuError(f"releases.toml: cannot find the [[pool]] entry of {version} to re-pin")
    return changed
