"""Magic: The Gathering — costs and timing and priority (seed 002): the stack with priority."""

from statemachine.games.magic.profile import Magic, card_pool

__all__ = ["Magic", "card_pool"]
