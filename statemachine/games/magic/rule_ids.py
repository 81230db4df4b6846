"""Which rule makes Magic's rules emit each kind of record, for the debugger's "where did this come from"
(``RulesProfile.action_rules`` / ``event_rules``; seed 002 and CR 117 as SPEC numbers them). Only where one rule
always does it: a discard or damage many rules share is left unnamed rather than named wrongly."""

from __future__ import annotations

from typing import Final

ACTION_RULES: Final = {
    "cast": "MTG-GAME-CAST", "play": "MTG-P-05", "mana": "MTG-P-06", "activate": "MTG-P-04", "pass": "MTG-P-18",
}
EVENT_RULES: Final = {
    "Triggered": "MTG-P-08", "EffectPending": "MTG-P-09", "EffectResolving": "MTG-P-19", "PriorityGiven": "MTG-P-01",
    "PriorityPassed": "MTG-P-18", "StateBasedAction": "MTG-P-12", "CostPaid": "MTG-C-10",
    "ZoneChanged:cast": "MTG-GAME-CAST", "ZoneChanged:play": "MTG-P-05", "PlayerStat:lands_played": "MTG-P-05",
    "Attacked": "MTG-GAME-ATTACK", "StatusSet:attacking": "MTG-GAME-ATTACK",
}
