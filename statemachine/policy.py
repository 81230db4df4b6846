"""The resolution-policy interface: how triggered effects wait and in what order they resolve.

One kernel, four timing systems (DESIGN "Resolution policies"): a pending pool (Duel Masters), a stack with
priority (Magic), an interference chain (Vision), an ordered queue (Shadowverse). A policy decides nothing by
mutation: it emits events through the engine and reads the projection.

Where an effect is in its resolution (waiting, resolving, asking) is read from the projection (``Pending.resolving``,
the open request), never kept beside it: the log is the truth. ``transitions`` carries the turn flow
(``statemachine.flow``); the frame of one resolution is ``statemachine.context.resolve_effect``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self

from projections.state import GameState, Pending
from statemachine.decisions import Decision, Legal, Request
from statemachine.engine import Engine
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure


class ResolutionPolicy(ABC):
    holder: str  # where EffectPending puts effects: a shared zone of the game, or a word of its own

    def clone(self) -> Self:
        """A policy that neither changes through this one nor changes it (a search clone's). A policy that keeps
        anything between decisions copies it here."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        return out

    @abstractmethod
    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        """Abilities just triggered (in matching order): record them and make them wait as this game says."""

    @abstractmethod
    def next(self, engine: Engine) -> Procedure | None:
        """What the rules do next by themselves (resolve an effect, put triggers on the stack), if anything."""

    @abstractmethod
    def legal(self, engine: Engine) -> Legal | None:
        """The decisions waiting effects call for now (pick the next to resolve, pass priority), if any."""

    def awaits_decision(self, engine: Engine) -> bool:
        """Whether waiting effects hold the game until a player decides (cheaper than listing what they may do;
        a policy whose ``legal`` is costly says it directly)."""
        return self.legal(engine) is not None

    @abstractmethod
    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        """Check a decision about waiting effects and return what it sets going; None if it is not one."""

    def misplaced(self, engine: Engine, decision: Decision, request: Request) -> tuple[str, str]:
        """The rule a decision breaks when it is not the answer the open request asks for."""
        if decision.player != request.player:
            return request.rule or "KIFU-REQ", f"player {request.player} must decide now: {request.prompt}"
        return request.rule or "KIFU-REQ", f"the rules are waiting for '{request.action}': {request.prompt}"

    def refused(self, engine: Engine, decision: Decision, request: Request, why: str) -> tuple[str, str]:
        """The rule an answer breaks when it is not among the options."""
        return request.rule or "KIFU-REQ", why

    def source_of(self, state: GameState, pend: Pending) -> int | None:
        """The object a waiting effect comes from: a trigger's source, or (say) a spell's own card when the
        effect was put where it waits without triggering. Readers (scenarios, tools) ask here."""
        return pend.source if pend.source >= 0 else None
