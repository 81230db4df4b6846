"""The Shadowverse vocabulary: the effect steps and conditions its card files are written in.

Targets are named by a selector (``to``). Several targets are processed one at a time in the order of
simultaneous triggers — the turn player's leader, the turn player's field left to right, then the non-turn
player's (SV-O-25) — each a group of its own, so what each target triggers is queued target by target
(SV-O-26). Damage never destroys at once: a follower at 0 defense waits for the state check (SV-O-27/28).

Judging (SV-O-05..08): conditions and captured branches at trigger time (``queue.captures``); random picks
(``RandomDrawn`` from the game's seed and ``state.random_draws``), maxima and counts at resolution.

Modules, by idea: ``targets`` (selectors, declared and captured values, random picks; the vocabulary ``SV``),
``conditions``, ``basic`` (the common effects), ``discard`` (discarding, Burial Rite, Necromancy), ``mechanics``
(evolving and EP, boarding, granting, countdowns, Reanimate, direct summons, cards added to the hand), ``retired``
(verbs shaped to one card, kept only for the logs of older pools), ``turns`` (play point orbs, extra turns) and ``deck``
(cards taken from the deck by a rule; targets chosen as an effect resolves).
"""

from __future__ import annotations

from statemachine.games.shadowverse.effects import basic, conditions, deck, discard, mechanics, retired, turns
from statemachine.games.shadowverse.effects.mechanics import overflow_check
from statemachine.games.shadowverse.effects.targets import SV, ordered, random_pick

# The conditions an ``if`` step may name (checked at load like any declared name).
SV.declare("condition", {name: entry.doc for name, entry in SV.conditions.items()})

__all__ = ["SV", "basic", "conditions", "deck", "discard", "mechanics", "ordered", "overflow_check", "random_pick",
           "retired", "turns"]
