"""What a possible Duel Masters board is (``projections.invariants`` checks it; SPEC ids and the README's own).

Zones are the README's; effects wait in the pending pool (DM-W-03, DM-W-10) or, triggered, not yet put there;
a creature is tapped or summoning-sick only where it can be; an evolution creature always has a card under it.
"""

from __future__ import annotations

from projections.invariants import Board, Found, Invariant, Marked, Range
from projections.state import UNDER, GameState
from statemachine.games.duel_masters.board import BATTLE, DECK, EXTRA_TURNS, GRAVEYARD, HAND, HOLD, MANA, SHIELDS
from statemachine.games.duel_masters.pending import POOL

CASTING = "casting"  # a spell while its text is carried out (DM-W-32), actions.CASTING


def _evolution_has_cards_under_it(state: GameState) -> Found:
    """An evolution creature in a zone (not itself under another card) has at least one card under it: it is
    put onto a creature, and a card that evolves onto an evolution goes on top of the whole stack, never between
    its cards (DM-GAME-EVOLVE). What lies under it is in no other zone (the kernel's ``under``)."""
    objects, cards = state.objects, state.cards
    for p in range(len(state.players)):
        where = f"{p}.{BATTLE}"
        for oid in state.zones.get(where, ()):
            obj = objects.get(oid)
            if obj is not None and not obj.under and "evolution" in cards[obj.card].printed.types:
                yield (oid,), f"evolution creature {oid} in {where} has nothing under it"


BOARD = Board(
    game="duel_masters",
    zones={DECK: "DM-GAME-TURN", HAND: "DM-GAME-TURN", MANA: "DM-GAME-MANA", BATTLE: "DM-GAME-SUMMON",
           SHIELDS: "DM-GAME-BREAK", GRAVEYARD: "DM-GAME-TURN", HOLD: "DM-W-36", CASTING: "DM-W-32"},
    holders={POOL: "DM-W-10", "": "DM-W-03"},
    steps={"": "DM-GAME-STEP"},  # and every step of the profile (RulesProfile.invariants)
    stats={"charged": Range("DM-GAME-CHARGE", 0, 1), EXTRA_TURNS: Range("DM-GAME-EXTRA-TURN", 0)},
    # (a creature that goes under an evolution keeps its marks: they mean nothing there, DM-GAME-EVOLVE)
    statuses={"tapped": Marked("DM-GAME-MANA", (MANA, BATTLE, UNDER), 0, 1),
              "sick": Marked("DM-GAME-ATTACK", (BATTLE, UNDER), 0, 1)},
    extra=(Invariant("evolution-under", "DM-GAME-EVOLVE", "an evolution creature has cards under it",
                     _evolution_has_cards_under_it),),
)
