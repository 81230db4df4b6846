"""The Magic vocabulary object: the effect steps, conditions and costs card files are written in.

The names are registered by ``effects`` (effect steps and conditions) and ``costs`` (costs); this module only
holds the table, so both can import it without importing each other.
"""

from __future__ import annotations

from statemachine.vocabulary import Vocabulary

MTG = Vocabulary("magic")
