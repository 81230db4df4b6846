"""What a possible Magic board is (``projections.invariants`` checks it; SPEC ids, else Comprehensive Rules).

Zones are the README's; an effect waits on the stack (MTG-P-22) or, triggered, until it is put there (MTG-P-09);
only permanents tap, are marked with damage or fight (CR 110.5, 120.3, 506); a spell's card lies on the stack
while its spell does; nobody holds priority at 0 life (state-based actions come first, MTG-P-20, CR 704.5a).
"""

from __future__ import annotations

from projections.invariants import Board, Found, Invariant, Marked, Range, passes_in_succession
from projections.state import GameState
from statemachine.games.magic.board import BATTLEFIELD, DECK, EXILE, GRAVEYARD, HAND, LANDS_PLAYED, STACK

SPELL = -1  # the ability index a spell's stack key carries (stack.SPELL)
MANA_POOL = ("mana.W", "mana.U", "mana.B", "mana.R", "mana.G", "mana.C")


def _stack_objects(state: GameState) -> Found:
    """Each stack object's key is (position, source object, ability index, source card) at a position of its
    own; a spell's source is its card, lying on the stack, and every card on the stack is one spell's
    (MTG-P-22, CR 601.2a: casting puts the card on the stack; it leaves when the spell resolves or is
    countered). Once the game has ended nothing waits, and a spell's card stays where it was."""
    positions: dict[int, int] = {}
    spells: dict[int, int] = {}
    for eid, pend in state.pending.items():
        if pend.holder != STACK:
            continue
        if len(pend.key) != 4:
            yield (eid,), f"stack object {eid} has key {pend.key}, not (position, source, ability, card)"
            continue
        position, source, index, card = pend.key
        if position in positions:
            yield (positions[position], eid), f"stack objects {positions[position]} and {eid} share position {position}"
        positions[position] = eid
        if index == SPELL:
            obj = state.objects.get(source)
            if obj is None or obj.zone != STACK or obj.card != card:
                yield (eid, source), (f"spell {eid} ({pend.label}) names object {source}, which is not its card on "
                                      "the stack")
            spells[source] = eid
        elif source not in state.objects and source not in state.last_known:
            yield (eid, source), f"stack object {eid} ({pend.label}) comes from object {source}, never in the game"
    for oid in () if state.ended else state.zones.get(STACK, ()):
        if oid not in spells:
            yield (oid,), f"object {oid} lies on the stack, but no spell on the stack is it"


BOARD = Board(
    game="magic",
    zones={DECK: "CR 401", HAND: "CR 402", BATTLEFIELD: "CR 403", GRAVEYARD: "CR 404", STACK: "CR 405",
           EXILE: "CR 406"},
    holders={STACK: "MTG-P-22", "": "MTG-P-09"},
    steps={"": "MTG-P-14"},
    stats={LANDS_PLAYED: Range("CR 305.2", 0), **{m: Range("MTG-C-04", 0) for m in MANA_POOL}},
    statuses={"tapped": Marked("MTG-C-06", (BATTLEFIELD,), 0, 1),
              "damage": Marked("CR 120.3", (BATTLEFIELD,), 0),
              "sick": Marked("CR 302.6", (BATTLEFIELD,), 0, 1),
              "attacking": Marked("CR 506.4", (BATTLEFIELD,), 0, 1),
              "blocking": Marked("CR 506.4", (BATTLEFIELD,), 0)},  # the value is the attacker blocked
    extra=(passes_in_succession("MTG-P-19"),
           Invariant("stack-objects", "MTG-P-22", "each stack object has a place of its own; a spell's card lies "
                     "on the stack", _stack_objects)),
)
