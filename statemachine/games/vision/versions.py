"""Vision of Phantasm rules versions: one switch per behaviour that changed since 1.0, its default the 1.0 behaviour.

Which release sets which switch, and why, is ``releases.toml`` beside this file (the game's changelog).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from statemachine.releases import Releases, load_releases


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The switches of one Vision of Phantasm release."""

    # A character played and put onto the field is marked with the turn (status ``played_turn``), so 「プレイされて
    # 場に出たターン」 can be judged (《上海人形》, VOP-GAME-TURN-END). 1.2: no mark (no card asked).
    played_turn_marked: bool = False


RELEASES: Releases[Rules] = load_releases(Path(__file__).with_name("releases.toml"), Rules)
