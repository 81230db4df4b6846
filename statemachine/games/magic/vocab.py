"""The Magic vocabulary object: the effect steps, conditions and costs card files are written in.

The names are registered by ``effects`` (effect steps and conditions) and ``costs`` (costs); this module only
holds the table, so both can import it without importing each other.
"""

from __future__ import annotations

from typing import Any, Literal

from statemachine.amounts import AmountRules
from statemachine.vocabulary import KEYWORD, ZONE, Vocabulary

MTG = Vocabulary("magic")
MTG.declare(KEYWORD, {
    "flying": "CR 702.9: can be blocked only by creatures with flying or reach",
    "reach": "CR 702.17: can block creatures with flying",
    "haste": "CR 702.10: may attack and use tap abilities despite summoning sickness",
    "vigilance": "CR 702.20: attacking does not cause it to tap",
    "flash": "CR 702.8: may be cast any time its controller could cast an instant",
    "deathtouch": "CR 702.2: any damage it deals to a creature is enough to destroy it (a state-based action, 704.5h)",
    "defender": "CR 702.3: can't attack",
    "double_strike": "CR 702.4: deals combat damage in the first-strike step and the regular one",
    "first_strike": "CR 702.7: deals combat damage in a combat damage step before creatures without it (510.4)",
    "shroud": "CR 702.18: can't be the target of spells or abilities (its controller's neither)",
    "hexproof": "CR 702.11: can't be the target of spells or abilities its controller's opponents control",
    "indestructible": "CR 702.12: is not destroyed by lethal damage or by effects that say destroy",
    "fear": "CR 702.36: can't be blocked except by artifact creatures and/or black creatures",
    "lifelink": "CR 702.15: damage it deals also causes its controller to gain that much life",
    "menace": "CR 702.111: can't be blocked except by two or more creatures (a lone blocker's block is not kept)",
    "trample": "CR 702.19: damage beyond lethal to its blockers may be assigned to the player it attacks",
    "swampwalk": "CR 702.14: can't be blocked as long as the defending player controls a Swamp",
    "islandwalk": "CR 702.14: can't be blocked as long as the defending player controls an Island",
    "forestwalk": "CR 702.14: can't be blocked as long as the defending player controls a Forest",
    "mountainwalk": "CR 702.14: can't be blocked as long as the defending player controls a Mountain",
    "plainswalk": "CR 702.14: can't be blocked as long as the defending player controls a Plains",
    "protection_from_white": "CR 702.16: can't be blocked, targeted, dealt damage or enchanted by white",
    "protection_from_blue": "CR 702.16: can't be blocked, targeted, dealt damage or enchanted by blue",
    "protection_from_black": "CR 702.16: can't be blocked, targeted, dealt damage or enchanted by black",
    "protection_from_red": "CR 702.16: can't be blocked, targeted, dealt damage or enchanted by red",
    "protection_from_green": "CR 702.16: can't be blocked, targeted, dealt damage or enchanted by green",
})
MTG.home_zone = "battlefield"  # CR 113.6: abilities of permanents work on the battlefield
# The cost's symbols ("1R"; "0" is a cost of zero). None: the card has no mana cost at all, which is not a cost
# of zero (MTG-C-12). ``cost`` stays the total.
MTG.card_field("mana", str | None, None,
               "the mana cost's symbols (\"1R\", \"XR\", \"0\"); left out: no mana cost (MTG-C-12)")
# CR 107.3 (rules 1.5): "Spend only black mana on X": each X of the cost is paid with mana of this colour.
MTG.card_field("x_mana", Literal["W", "U", "B", "R", "G"] | None, None,
               "the colour of mana X must be paid with (\"Spend only black mana on X\": \"B\"); left out: any",
               later=True)
# CR 601.2f (rules 1.5): "This spell costs {1} more to cast for each target beyond the first".
MTG.card_field("cost_per_extra_target", str | None, None,
               "mana symbols added to the cost for each target beyond the first (\"1\"); left out: none", later=True)
MTG.digest_also(card={}, trigger={"timing": "shita"})  # the kernel's card format of pools 1.0-1.1
MTG.declare(ZONE, {
    "battlefield": "the battlefield", "hand": "the hand", "graveyard": "the graveyard", "deck": "the library",
    "exile": "exile", "stack": "the stack",
})
Step = Literal["untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers", "declare_blockers",
               "first_strike_damage", "combat_damage", "end_of_combat", "main2", "end", "cleanup"]
MTG.filter_key("step", Step, "trigger 'step_begins': the step whose beginning it waits for")
MTG.filter_key("to", Literal["any", "player", "opponent", "you", "creature"],
               "trigger 'deals_damage': what the damage is dealt to (\"an opponent\": a player other than you; "
               "\"you\": the ability's controller, 1.6)")
MTG.filter_key("combat", bool, "trigger 'deals_damage': combat damage only")
MTG.filter_key("turn_of", Literal["attached_controller"],
               "trigger 'step_begins': only in the turn of the controller of the permanent this is attached to "
               "(\"at the beginning of the upkeep of enchanted land's controller\", CR 503.1; rules 1.6)")
MTG.filter_key("dealt_damage_by_this", bool,
               "trigger 'dies': only a creature dealt damage this turn by the ability's source (rules 1.4)")
MTG.filter_key("attached_to_this", bool,
               "triggers 'dies' and 'deals_damage': only the creature this aura is attached to (\"when enchanted "
               "creature dies\", \"whenever enchanted creature deals damage\", 1.6)")

# Computed amounts (statemachine.amounts). A half is rounded as the card says: "If a calculation ... yields a
# fractional number, the effect will state whether to round up or down" (CR 107.1a), so a card must say it;
# a negative result is used as zero (CR 107.1b). X is the value announced as the spell is cast (CR 601.2b).
# "target" is the first target chosen as the spell or ability was put on the stack, read as it last existed on
# the battlefield if it has left (last known information, CR 608.2h).
MTG.silent_kinds = frozenset({"static"})  # a static ability's effects start without a question (CR 604)
MTG.target_steps = frozenset({"target"})  # an ability's targets: its "target" steps in printed order (CR 601.2c)


def _sacrificed(ctx: Any) -> int | None:
    """The creature sacrificed to pay the spell's cost (recorded on the spell as it was cast, MTG-C-10)."""
    spell = ctx.bound.get("spell")
    st = ctx.state
    found = st.objects[spell].status.get("sacrificed") if spell in st.objects else None
    return int(found) if found is not None else None


DAMAGE_THIS_TURN = "damage_this_turn"


def _stat(state: Any, player: int, name: str) -> int:
    """A player counter as card text reads it: ``damage_this_turn`` is the damage dealt to the player this turn,
    from the memory of the turn (``projections.turn``, rules 1.6), never a counter the rules keep."""
    if name == DAMAGE_THIS_TURN:
        return int(state.this_turn.damage_dealt_to(-1 - player))
    return int(state.stat(player, name))


MTG.amounts = AmountRules(
    zones=("deck", "hand", "battlefield", "graveyard", "exile"),
    characteristics=("power_of", "toughness_of", "cost_of"),
    has_x=True,
    rounding="",
    rounding_rule="CR 107.1a: the card states it",
    negative_is_zero=True,
    references={"sacrificed": _sacrificed},
    that_much=("deals_damage",),  # "deals that much damage": the damage the trigger saw (CR 608.2h, 1.6)
    stats=(DAMAGE_THIS_TURN,),  # "the damage dealt to you this turn" (Simulacrum, rules 1.6)
    stat_value=_stat,
)
