"""What a possible Shadowverse board is (``projections.invariants`` checks it; SPEC ids and the README's).

Zones are the README's; an effect waits in the queue (SV-O-02); a field holds at most 5 cards (SV-GAME-PLAY);
PP, EP and the leader's defense stay in their ranges; only a card on the field is damaged, evolved, attacks.
"""

from __future__ import annotations

from projections.invariants import Board, Found, Invariant, Marked, Range
from projections.state import GameState
from statemachine.games.shadowverse.board import (
    BANISHED,
    CASTING,
    CEMETERY,
    DECK,
    FIELD,
    FIELD_LIMIT,
    HAND,
    LIMBO,
)
from statemachine.games.shadowverse.queue import QUEUE


def _leader_alive(state: GameState) -> Found:
    """A leader at 0 defense or less has lost: a game waiting for a decision has no such leader (SV-O-71: the
    leader-defeat check)."""
    if state.ended:
        return
    for p, player in enumerate(state.players):
        if player.stats.get("life", 1) <= 0:
            yield (-1 - p,), f"{player.name}'s leader is at {player.stats['life']} defense and the game goes on"


def _queue_order(state: GameState) -> Found:
    """Each waiting effect has a sort key of its own (SV-O-10..14: the queue has one order)."""
    keys: dict[tuple[int, ...], int] = {}
    for eid, pend in state.pending.items():
        if pend.holder != QUEUE:
            continue
        if pend.key in keys:
            yield (keys[pend.key], eid), f"effects {keys[pend.key]} and {eid} share the sort key {pend.key}"
        keys[pend.key] = eid


BOARD = Board(
    game="shadowverse",
    zones={DECK: "SV-GAME-PLAY", HAND: "SV-GAME-PLAY", FIELD: "SV-GAME-PLAY", CEMETERY: "SV-O-83",
           BANISHED: "SV-O-29", CASTING: "SV-O-83", LIMBO: "SV-O-59"},
    holders={QUEUE: "SV-O-02", "": "SV-O-01"},
    steps={"": "SV-GAME-STEP"},
    limits={FIELD: (FIELD_LIMIT, "SV-GAME-PLAY")},
    stats={"life": Range("SV-O-71", None, "max_life"), "pp": Range("SV-GAME-PLAY", 0, "max_pp"),
           "max_pp": Range("SV-O-55", 0, 10), "ep": Range("SV-GAME-EVOLVE", 0, 3),
           "evolved_turn": Range("SV-GAME-EVOLVE", 0, 1)},
    statuses={"damage": Marked("SV-O-27", (FIELD,), 0), "evolved": Marked("SV-GAME-EVOLVE", (FIELD,), 0, 1)},
    extra=(Invariant("leader-alive", "SV-O-71", "a game that goes on has no leader at 0 defense", _leader_alive),
           Invariant("queue-order", "SV-O-10", "each waiting effect has its own place in the queue", _queue_order)),
)
# The statuses only a card on the field carries: a pilot boarding a vehicle loses them (actions.board_onto).
FIELD_MARKS = tuple(sorted(k for k, marked in BOARD.statuses.items() if marked.zones == (FIELD,)))
