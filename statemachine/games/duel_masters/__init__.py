"""Duel Masters: the pending pool (seed 000) and looking back at past state (seed 001)."""

from statemachine.games.duel_masters.profile import DuelMasters, card_pool

__all__ = ["DuelMasters", "card_pool"]
