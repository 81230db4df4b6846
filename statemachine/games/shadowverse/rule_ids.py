"""Which rule makes Shadowverse's rules emit each kind of record, for the debugger's "where did this come from"
(``RulesProfile.action_rules`` / ``event_rules``; seed 004 as SPEC numbers it). Only where one rule always does
it."""

from __future__ import annotations

from typing import Final

ACTION_RULES: Final = {
    "play": "SV-GAME-PLAY", "evolve": "SV-GAME-EVOLVE", "attack": "SV-GAME-ATTACK", "end_turn": "SV-GAME-TURN",
}
EVENT_RULES: Final = {
    "Triggered": "SV-O-01", "EffectPending": "SV-O-10", "EffectResolving": "SV-O-02", "TurnBegan": "SV-GAME-TURN",
    "StatusSet:evolved": "SV-GAME-EVOLVE", "PlayerStat:ep": "SV-GAME-EVOLVE", "PlayerStat:evolutions": "SV-GAME-EVOLVE",
}
