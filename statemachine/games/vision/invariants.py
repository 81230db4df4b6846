"""What a possible Vision of Phantasm board is (``projections.invariants`` checks it; SPEC ids and the README's).

Zones are the README's; an effect waits in the chain (VOP-I-13) or, arisen mid-resolution, until it is placed
(VOP-I-15); nodes and cards on the field rest (tap), characters on the field take damage; each chain link has
its own place, and a card in the chain zone is an announced action waiting there (VOP-I-09).
"""

from __future__ import annotations

from projections.invariants import Board, Found, Invariant, Marked, Range, passes_in_succession
from projections.state import GameState
from statemachine.games.vision.board import CHAIN, DECK, DISCARD, FIELD, HAND, LIFE, NODE, REMOVED


def _chain_links(state: GameState) -> Found:
    """Every link of the chain has one place of its own (VOP-I-13: resolved from the top); a card lying in the
    chain zone is the source of a link still waiting (VOP-I-09: announced, not processed)."""
    places: dict[tuple[int, ...], int] = {}
    sources = set()
    for eid, pend in state.pending.items():
        if pend.holder != CHAIN:
            continue
        if len(pend.key) != 1:
            yield (eid,), f"chain link {eid} has key {pend.key}, not (position,)"
        elif pend.key in places:
            yield (places[pend.key], eid), f"chain links {places[pend.key]} and {eid} share position {pend.key[0]}"
        places[pend.key] = eid
        sources.add(pend.source)
    for oid in () if state.ended else state.zones.get(CHAIN, ()):
        if oid not in sources:
            yield (oid,), f"object {oid} lies in the chain zone, but no chain link comes from it"


def _lost_at_life(state: GameState) -> Found:
    """A player who has taken LIFE damage has lost: a game waiting for a decision has no such player
    (VOP-GAME-LIFE)."""
    if state.ended:
        return
    for p, player in enumerate(state.players):
        if player.stats.get("damage", 0) >= LIFE:
            yield (-1 - p,), f"{player.name} has taken {player.stats['damage']} damage and the game goes on"


BOARD = Board(
    game="vision",
    zones={DECK: "VOP-GAME-TIMING", HAND: "VOP-GAME-TIMING", NODE: "VOP-GAME-NODE", FIELD: "VOP-GAME-TIMING",
           DISCARD: "VOP-I-16", CHAIN: "VOP-I-09", REMOVED: "VOP-GAME-REMOVED"},
    holders={CHAIN: "VOP-I-13", "": "VOP-I-15"},
    steps={"": "VOP-GAME-TIMING"},
    # Damage taken is never negative: life points are at most the 20 a player starts with (set_life from 1.3).
    stats={"node_set": Range("VOP-GAME-NODE", 0, 1), "damage": Range("VOP-GAME-LIFE", 0)},
    statuses={"tapped": Marked("VOP-GAME-COST", (NODE, FIELD), 0, 1),
              "damage": Marked("VOP-GAME-LIFE", (FIELD,), 0)},
    extra=(passes_in_succession("VOP-I-11"),
           Invariant("chain-links", "VOP-I-13", "each chain link has its own place; a card in the chain zone "
                     "is a waiting link's", _chain_links),
           Invariant("life", "VOP-GAME-LIFE", "a game that goes on has no player at LIFE damage", _lost_at_life)),
)
