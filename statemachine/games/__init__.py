"""One folder per game; each reads like its rulebook and cites SPEC ids where a rule is enforced.

``PROFILES`` names every game kifu runs; a log names its profile in ``GameStarted`` and tools find the rules
here. Each entry is imported only when asked for.
"""

from __future__ import annotations

import importlib
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


def profile(name: str) -> RulesProfile:
    """A fresh profile for the game ``name``, with its shipped card pool."""
    entry = PROFILES.get(name)
    if entry is None:
        raise UnknownProfile(f"no rules profile {name!r} (known: {', '.join(sorted(PROFILES))})")
    module = importlib.import_module(entry[0])
    cls = getattr(module, entry[1])
    made: RulesProfile = cls()
    return made
