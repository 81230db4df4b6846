"""The card catalogue and the generated vocabulary of each game's card language."""
