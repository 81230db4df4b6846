"""Shadowverse: the ordered processing queue (処理順), seed 004."""

from statemachine.games.shadowverse.profile import Shadowverse, card_pool

__all__ = ["Shadowverse", "card_pool"]
