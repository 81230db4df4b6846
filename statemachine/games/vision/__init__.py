"""Vision of Phantasm (東方Project TCG 幻想ヴィジョン): the interference chain (干渉), seed 003."""

from statemachine.games.vision.profile import Vision, card_pool

__all__ = ["Vision", "card_pool"]
