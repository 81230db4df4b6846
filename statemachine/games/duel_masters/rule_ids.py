"""Which rule makes the Duel Masters rules emit each kind of record, for the debugger's "where did this come from"
(``RulesProfile.action_rules`` / ``event_rules``). Only where one rule always does it: a zone change whose cause
many rules share (a draw: the draw step or an effect) is left unnamed rather than named wrongly."""

from __future__ import annotations

from typing import Final

ACTION_RULES: Final = {
    "charge": "DM-GAME-CHARGE", "summon": "DM-GAME-SUMMON", "cast": "DM-GAME-CAST", "attack": "DM-GAME-ATTACK",
    "end_step": "DM-GAME-STEP", "resolve": "DM-W-09",
}
EVENT_RULES: Final = {
    "Triggered": "DM-W-03", "EffectPending": "DM-W-10", "EffectResolving": "DM-W-11", "EffectFizzled": "DM-W-18",
    "TurnBegan": "DM-GAME-TURN", "StepBegan": "DM-GAME-STEP", "Attacked": "DM-GAME-ATTACK",
    "Stacked": "DM-GAME-EVOLVE", "ZoneChanged:summon": "DM-GAME-SUMMON", "ZoneChanged:charge": "DM-GAME-CHARGE",
    "ZoneChanged:break": "DM-GAME-BREAK", "StatusSet:sick": "DM-GAME-SUMMON", "PlayerStat:charged": "DM-GAME-CHARGE",
}
