"""How many examples each property test draws, and how many random games a run played, per game.

A plain run (and CI, with its derandomized profile "ci") draws each property's own small count, so the suite
stays fast and a red build reproduces. ``make soak`` loads the hypothesis profile "soak" (fresh randomness, every
failure printed with the ``@example`` that pins it) and sets ``KIFU_SOAK_GAMES``: each property that plays one
random game per example draws its share of that many games, every other property ``KIFU_SOAK_SCALE`` times its
own count. A failure a soak finds is pinned where it was found: an ``@example`` on that property (or a test
with its seeds), so every later run plays it again.
"""

from __future__ import annotations

import os
from collections import Counter

SOAK_GAMES = int(os.environ.get("KIFU_SOAK_GAMES") or 0)
SOAK_SCALE = int(os.environ.get("KIFU_SOAK_SCALE") or 20)
SOAK = SOAK_GAMES > 0

# Random games played to the end (or to the playout's limit) in this run, by game (``playouts.play`` counts).
GAMES_PLAYED: Counter[str] = Counter()


def examples(ci: int) -> int:
    """A property's example count: its own ``ci``, or in a soak ``KIFU_SOAK_SCALE`` times as many."""
    return ci * SOAK_SCALE if SOAK else ci


def games(ci: int, share: float) -> int:
    """The example count of a property that plays one random game per example: ``ci``, or in a soak its
    ``share`` of the soak's games (never fewer than ``ci``)."""
    return max(ci, round(SOAK_GAMES * share)) if SOAK else ci
