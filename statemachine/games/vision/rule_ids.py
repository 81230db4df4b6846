"""Which rule makes Vision of Phantasm's rules emit each kind of record, for the debugger's "where did this come
from" (``RulesProfile.action_rules`` / ``event_rules``; seed 003 as SPEC numbers it). Only where one rule always
does it."""

from __future__ import annotations

from typing import Final

ACTION_RULES: Final = {
    "play": "VOP-GAME-PLAY", "activate": "VOP-GAME-ACTIVATE", "attack": "VOP-GAME-ATTACK", "defend": "VOP-I-19",
    "node": "VOP-GAME-NODE", "pass": "VOP-I-10",
}
EVENT_RULES: Final = {
    "Triggered": "VOP-I-15", "EffectResolving": "VOP-I-13", "PriorityGiven": "VOP-I-10", "PriorityPassed": "VOP-I-10",
    "StateBasedAction": "VOP-I-16", "CostPaid": "VOP-GAME-COST", "Attacked": "VOP-GAME-ATTACK",
    "ZoneChanged:set_node": "VOP-GAME-NODE", "PlayerStat:node_set": "VOP-GAME-NODE",
    "PlayerStat:damage": "VOP-GAME-LIFE",
}
