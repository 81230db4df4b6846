"""Magic's effect steps and conditions that only one card of the newest pool uses, each with why it is a general
piece of the card language and not a verb shaped to that card (#25): it is a primitive of the rules (a CR 701
keyword action, a game result, a timing restriction) or takes the amounts, selectors and filters any card states.
``tests/statemachine/test_magic_pieces.py`` fails when a step used by one card is missing here."""

from __future__ import annotations

GENERAL_PIECES: dict[str, str] = {
    "as_sorcery": "CR 602.5d: \"activate only as a sorcery\" (and equip, CR 702.6a), any activated ability",
    "at_least": "an amount (any expression) compared with N: \"if you control three or more ...\"",
    "at_most": "an amount compared with N: \"if no creatures are on the battlefield\" is a count at most 0",
    "cant_be_blocked": "CR 509.1b on what any selector names, until end of turn",
    "cards_above_in_graveyard": "CR 404.1: \"with N or more [type] cards above it\" in its graveyard, any N and types",
    "choose_one": "CR 700.2: \"choose one\" among any steps, as it resolves or (as_cast) as the spell is cast",
    "counter_unless_pays": "\"counter target spell unless its controller pays N\": any mana amount",
    "create_token": "CR 111.1: any token card, any count, for the players a selector names",
    "delay": "CR 603.7: a delayed trigger of any ability of the card at the beginning of any step",
    "discard_hand": "CR 701.8: the players a selector names discard their hands",
    "drain": "a life loss and a gain of the same amount, any amount and target player",
    "during_your_turn": "CR 602.5: a timing restriction on activating, any activated ability",
    "exile": "CR 406.3: exile what any selector names",
    "if": "CR 608.2c: \"if ..., ...; otherwise ...\" and \"... unless ...\" on any condition of the vocabulary",
    "instead": "CR 614.1a: \"if it would die this turn, exile it instead\" on what any selector names",
    "life_at_least": "\"if you have N or more life\": any N",
    "lose_life": "CR 119.3: the players a selector names lose any amount",
    "mill": "CR 701.13: target player mills any amount",
    "no_regeneration": "CR 701.15c on what any selector names",
    "put_onto_battlefield": "a card in a graveyard onto the battlefield under your control: any card a target names",
    "poison": "CR 122.1f: the players a selector names get any number of poison counters",
    "prevent_combat_damage": "CR 615.1: \"prevent all combat damage that would be dealt this turn\"",
    "sacrifice_self": "CR 701.17: \"sacrifice ~\", the source itself",
    "skip_next_untap": "CR 502.3 on what any selector names",
    "source_untapped": "\"if ~ is untapped\": the source's state, any permanent",
    "static_attached_becomes": "CR 613.1d-e, 613.4b: an aura's change of any types, land type, colours or base power "
                               "and toughness of what it enchants (the static form of becomes)",
    "source_this_turn": "a fact of this turn about the source (attacked, came under your control), read from the "
                        "memory of the turn",
    "static_attacks_only_if": "CR 508.1c: \"can't attack unless defending player controls a <land>\", any land subtype",
    "static_cant_lose": "CR 104.3: \"you can't lose the game and your opponents can't win the game\"",
    "static_cant_be_blocked_by": "CR 509.1b: \"can't be blocked by\" the creatures any types, colours or power name",
    "static_cost_increase": "CR 601.2f: spells or activated abilities of what any filter names cost N more",
    "tap": "CR 701.21: tap or untap what any selector names",
    "times_each_turn": "CR 602.5b: \"activate only N times each turn\", any N",
    "win_game": "CR 104.2b: \"you win the game\"",
    "with_priority": "\"activate only as an instant\": a timing restriction, any activated ability",
}
