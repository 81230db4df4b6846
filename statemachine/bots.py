"""Seeded players for demos, random playouts and benchmarks: they choose among the legal decisions.

A bot is a player, not part of the rules: its choices enter the log as decisions like anyone's. Its randomness
is its own seeded generator, so a playout is reproducible from (game seed, bot seed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from statemachine.decisions import Decision, Legal, Request
from statemachine.engine import Engine


class RandomBot:
    """Prefers doing something over ending the step (``eagerness``), and answers requests at random."""

    def __init__(self, seed: int, eagerness: float = 0.85) -> None:
        self.rng = random.Random(seed)
        self.eagerness = eagerness

    def choose(self, legal: Legal) -> Decision:
        assert legal.player is not None, "nobody has to decide"
        if legal.request is not None:
            return self.answer(legal.request)
        acts = [d for d in legal.decisions if not d.action.startswith("end") and d.action != "pass"]
        rest = [d for d in legal.decisions if d not in acts]
        if acts and (not rest or self.rng.random() < self.eagerness):
            return self.rng.choice(acts)
        return self.rng.choice(rest or acts)

    def answer(self, req: Request) -> Decision:
        options = list(req.options)
        low, high = req.minimum, min(req.maximum, len(options))
        if req.kind == "may" and "yes" in options:
            return Decision(req.player, req.action, ("yes",) if self.rng.random() < 0.8 else ("no",))
        k = self.rng.randint(low, high) if high >= low else low
        picked = self.rng.sample(options, k)
        if req.max_total is not None and req.weights:
            # Drop choices until the total fits (never below the minimum, which a valid request allows).
            weight = dict(zip(req.options, req.weights, strict=True))
            while picked and sum(weight[o] for o in picked) > req.max_total and len(picked) > low:
                picked.pop()
        return Decision(req.player, req.action, tuple(picked))


def play_out(engine: Engine, bots: Sequence[RandomBot], limit: int) -> Engine:
    """Let the bots decide, each for its own seat, until nobody has to or ``limit`` decisions were made."""
    for _ in range(limit):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    return engine
