"""Rules versions kept side by side: every released version of a game stays runnable.

A game's ``releases.toml`` is its changelog and its switch table in one. Each release names its rules version,
the card-pool version it plays with, and what changed from the release before: each change cites the rule
(SPEC or CR id) and, where the behaviour differs, the switch of the game's ``Rules`` struct it sets. A game's
``Rules`` struct holds one field per behaviour that changed since 1.0, its default being the 1.0 behaviour, so
the rules of a release are the defaults with every later change up to that release applied. Rules code reads
``engine.profile.rules.<switch>``; it never compares version strings.

Each card-pool version's digest is pinned in the same file (``[[pool]]``): a test loads every pool version and
checks its digest, so a released pool cannot change unnoticed (errata are new card entries with ``since``, the
old ones get ``until``; see ``statemachine.loader``).

A log names its rules and pool versions in ``GameStarted``; tools build the profile at that version
(``statemachine.games.profile(name, version)``), so a log recorded yesterday is judged by yesterday's rules.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import Struct

from eventsource.errors import KifuError

R = TypeVar("R", bound=Struct)


class UnknownVersion(KifuError):
    """A log or a command names a rules or card-pool version this installation does not have."""


class Change(Struct, frozen=True, forbid_unknown_fields=True):
    rule: str  # the SPEC or CR id of the rule that changed
    why: str  # one sentence: what plays differently now, and why
    switch: str = ""  # the field of the game's Rules struct this change sets, if the behaviour is switched
    value: bool | int | str | None = None  # its value from this release on (with ``switch``)


class ReleaseEntry(Struct, frozen=True, forbid_unknown_fields=True):
    version: str
    pool: str  # the card-pool version this release plays with
    summary: str = ""
    change: tuple[Change, ...] = ()


class PoolEntry(Struct, frozen=True, forbid_unknown_fields=True):
    version: str
    digest: str  # pinned: the loaded pool at this version must have exactly this digest
    summary: str = ""


class ReleasesFile(Struct, frozen=True, forbid_unknown_fields=True):
    game: str
    release: tuple[ReleaseEntry, ...]
    pool: tuple[PoolEntry, ...] = ()


class Release(Struct, Generic[R], frozen=True):
    """One released rules version: its switches and the card pool it plays with."""

    version: str
    pool: str
    rules: R
    entry: ReleaseEntry


def version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        raise UnknownVersion(f"{version!r} is not a version (numbers separated by dots, like 1.1)") from None


class Releases(Generic[R]):
    """The released versions of one game, oldest first."""

    def __init__(self, game: str, data: ReleasesFile, rules_type: type[R]) -> None:
        self.game, self.data = game, data
        fields = {f.name for f in msgspec.structs.fields(rules_type)}
        switches: dict[str, Any] = {}
        self.releases: list[Release[R]] = []
        last: tuple[int, ...] = ()
        for entry in data.release:
            key = version_key(entry.version)
            if key <= last:
                raise KifuError(f"{game} releases: {entry.version} is not newer than the release before it")
            last = key
            for change in entry.change:
                if change.switch:
                    if change.switch not in fields:
                        raise KifuError(f"{game} release {entry.version}: no switch {change.switch!r} in "
                                        f"{rules_type.__name__} (known: {', '.join(sorted(fields)) or 'none'})")
                    switches[change.switch] = change.value
            rules = msgspec.convert(switches, rules_type, strict=True)
            self.releases.append(Release(entry.version, entry.pool, rules, entry))
        self.pool_digests = {p.version: p.digest for p in data.pool}

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(r.version for r in self.releases)

    @property
    def latest(self) -> Release[R]:
        return self.releases[-1]

    def get(self, version: str | None) -> Release[R]:
        """The release ``version`` (None: the newest); an unknown one names the versions installed."""
        if version is None:
            return self.latest
        for r in self.releases:
            if r.version == version:
                return r
        raise UnknownVersion(f"no {self.game} rules {version} installed (installed: {', '.join(self.versions)})")

    def pool_versions(self) -> tuple[str, ...]:
        return tuple(self.pool_digests)

    def changes_since(self, older: str, newer: str) -> list[tuple[str, Change]]:
        """Every change after ``older`` up to and including ``newer`` (either order), with its release."""
        lo, hi = sorted((version_key(older), version_key(newer)))
        return [(r.version, c) for r in self.releases if lo < version_key(r.version) <= hi for c in r.entry.change]


@cache
def _read(path: Path) -> ReleasesFile:
    try:
        return msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), ReleasesFile, strict=True)
    except (OSError, tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise KifuError(f"{path}: not a releases file: {exc}") from exc


def load_releases(path: Path, rules_type: type[R]) -> Releases[R]:
    data = _read(path)
    return Releases(data.game, data, rules_type)
