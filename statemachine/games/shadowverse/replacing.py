"""What a static replacement says (SV-GAME-STATIC, SV-O-76): the parameters of the step ``replaces`` that card data
writes (ブラッドムーン 「フォロワーが破壊されるかわりに消滅する」) and the kernel replacement effect it becomes
(``statemachine.replacements``)."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from statemachine import replacements


class StaticReplacesParams(Struct, frozen=True, forbid_unknown_fields=True):
    """「<of>が<what>かわりに<instead>」: what the rules would do to a card and what they do instead."""

    what: Literal["destroyed"] = "destroyed"  # the move replaced (the rules' words for it)
    instead: Literal["banished"] = "banished"  # what happens in its place
    of: Literal["followers", "amulets", "cards"] = "followers"  # whose move, on either side; cards: both kinds


REPLACED_TYPES = {"followers": "follower", "amulets": "amulet", "cards": ""}  # ``of`` -> the type watched


def replacement_value(p: StaticReplacesParams) -> str:
    """The kernel's ``instead`` value for it: ``"destroyed>banished@follower"``."""
    return replacements.replacement_value(p.what, p.instead, REPLACED_TYPES[p.of])
