"""Seeded randomness. The game's seed is recorded when it starts and every result becomes an event, so folding
a log never draws anything. The n-th draw of a game uses its own generator derived from (seed, n): the rules
need no generator state beyond the count of draws already recorded.
"""

from __future__ import annotations

import hashlib
import random


def generator(seed: int, n: int) -> random.Random:
    digest = hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def below(seed: int, n: int, bound: int) -> int:
    """The n-th draw of a game: a number in ``range(bound)``."""
    return generator(seed, n).randrange(bound)


def shuffled(seed: int, n: int, items: list[int]) -> tuple[int, ...]:
    """The n-th draw of a game as a permutation of ``items``."""
    out = list(items)
    generator(seed, n).shuffle(out)
    return tuple(out)
