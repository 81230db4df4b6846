"""What an effect step sees while it resolves: its controller, source, subject, and the engine to act through."""

from __future__ import annotations

from typing import Any

from projections.characteristics import ObjectView, current_or_last_known
from projections.state import GameState
from statemachine.decisions import Arg, Request
from statemachine.engine import Engine


class EffectContext:
    """One resolution of one ability (or one spell ability). ``bound`` carries values from step to step."""

    def __init__(self, engine: Engine, *, controller: int, source: int, source_card: int,
                 effect: int | None = None, ability: str = "", subject: int | None = None,
                 captured: tuple[str, ...] = ()) -> None:
        self.engine = engine
        self.controller = controller
        self.source = source
        self.source_card = source_card
        self.effect = effect
        self.ability = ability
        self.subject = subject
        self.captured = captured
        self.bound: dict[str, Any] = {}
        # Set by a step whose condition for what follows is not met (「それが…なら、…」): the rest is not done.
        self.stopped = False

    @property
    def state(self) -> GameState:
        return self.engine.state

    @property
    def opponent(self) -> int:
        return (self.controller + 1) % len(self.state.players)

    def view(self, oid: int) -> ObjectView | None:
        """The object now, or as it was just before it left its zone (DM-LB-03, DM-LB-13)."""
        return current_or_last_known(self.state, oid)

    def source_now(self) -> int | None:
        """The source object if it is still where it was (it may have moved: DM-W-06, DM-W-07)."""
        return self.source if self.source in self.state.objects else None

    def request(self, player: int, kind: str, prompt: str, options: tuple[Arg, ...], *, minimum: int = 1,
                maximum: int = 1, rule: str = "") -> Request:
        return Request(player, kind, prompt, options, minimum, maximum, self.effect, rule)
