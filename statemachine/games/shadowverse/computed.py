"""Shadowverse's rules for computed amounts (``statemachine.amounts``).

A count, a maximum or a characteristic an effect refers to is determined at the resolution stage (SV-O-07,
SV-O-08): amounts are computed as the step runs. A follower that has left the field is read as it was just before
it left (look-back, as 「破壊される直前の体力」, SV-O-73). "Defense" (体力) is what is left after damage
(``board.defense_of``); a follower a -X/-X destroyed is read with its defense before the debuff (SV-O-85,
``board.defense_read``). ``status_of`` reads how often a card was spellboosted (kept as it is played, from rules
1.4). "target" is the first target chosen as the card was played (SV-O-35).
"""

from __future__ import annotations

from statemachine.amounts import AmountRules
from statemachine.games.shadowverse import board
from statemachine.games.shadowverse.board import BANISHED, CEMETERY, DECK, FIELD, HAND
from statemachine.games.shadowverse.effects.targets import SV, declared

# A half: no rule given to kifu says how Shadowverse rounds, and no card of the pool halves: a card says it
# (assumed, like Magic's CR 107.1a). Counters ``stat`` may read, as ``board`` keeps them: cards played this turn
# (連携/Combo), cards that came into play, times evolved, leader damage in your own turns (Wrath), followers
# destroyed, heals, life, PP; from pool 1.7 the times Resonance began or ended (マグナゼロ, SV-O-51) and the
# followers chosen as targets at play (ウルズ, SV-O-87).
SV.amounts = AmountRules(
    zones=(DECK, HAND, FIELD, CEMETERY, BANISHED),
    characteristics=("power_of", "toughness_of", "cost_of"),
    stats=("played_turn", "entered", "evolutions", "self_damage", "destroyed_count", "healed", "life", "pp",
           "max_pp", "resonance_changes", "chosen"),
    rounding="",
    rounding_rule="assumed: the card states it",
    targets=declared,
    toughness=board.defense_read,
    statuses=("spellboost",),  # how often a card was boosted (SV-GAME-SPELLBOOST: 「スペルブースト ダメージ+1」)
    named="let",  # X counted once and read twice (ノア: 「+X/+X…Xが3以上なら進化」), effects.turns
)
