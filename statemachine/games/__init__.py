"""One folder per game; each reads like its rulebook and cites SPEC ids where a rule is enforced.

``PROFILES`` names every game kifu runs; a log names its profile in ``GameStarted`` and tools find the rules
here. Each entry is imported only when asked for.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from eventsource.errors import KifuError

if TYPE_CHECKING:
    from statemachine.profile import RulesProfile

PROFILES: dict[str, tuple[str, str]] = {
    "duel_masters": ("statemachine.games.duel_masters", "DuelMasters"),
    "magic": ("statemachine.games.magic", "Magic"),
    "shadowverse": ("statemachine.games.shadowverse", "Shadowverse"),
    "vision": ("statemachine.games.vision", "Vision"),
}


class UnknownProfile(KifuError):
    pass


def profile_class(name: str) -> type[RulesProfile]:
    entry = PROFILES.get(name)
    if entry is None:
        raise UnknownProfile(f"no rules profile {name!r} (known: {', '.join(sorted(PROFILES))})")
    module = importlib.import_module(entry[0])
    cls: type[RulesProfile] = getattr(module, entry[1])
    return cls


def profile(name: str, version: str | None = None) -> RulesProfile:
    """A fresh profile for the game ``name`` at rules ``version`` (None: the newest installed), with that
    release's card pool. A version not installed raises ``UnknownVersion`` naming those that are."""
    return profile_class(name)(version=version)


@cache
def hidden_zones(name: str) -> frozenset[str]:
    """The kinds of zone whose contents nobody sees in game ``name`` (every deck for a game kifu does not know)."""
    from projections.views import SECRET_ZONES

    entry = PROFILES.get(name)
    return profile_class(name).hidden_zones if entry is not None else SECRET_ZONES


@cache
def option_kinds(name: str) -> dict[str, str]:
    """What the options of each kind of request of game ``name`` are (``RulesProfile.option_kinds``; object ids
    where it says nothing, and for a game kifu does not know)."""
    return dict(profile_class(name).option_kinds) if name in PROFILES else {}


def versions(name: str) -> tuple[str, ...]:
    """The rules versions of ``name`` installed, oldest first."""
    return profile_class(name).releases.versions
