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
from typing import ClassVar, Self

from eventsource import events as ev
from projections.state import GameState, Pending
from statemachine.decisions import Decision, Legal, Request
from statemachine.engine import Engine
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure


class ResolutionPolicy(ABC):
    holder: str  # where EffectPending puts effects: a shared zone of the game, or a word of its own
    # What a scenario's set-up may place where effects wait besides a card's ability: a game action (a spell being
    # cast, an attack announced), each saying whether its card lies in the holder's zone meanwhile.
    set_up_actions: ClassVar[dict[str, bool]] = {}
    # How readers (scenario rows, tools) list what waits here: by the object ``source_of`` names (a spell is its
    # own card on the stack) rather than by the card whose ability it is; with the one resolving among them or not;
    # and the words for their order.
    rows_by_source_object: ClassVar[bool] = False
    rows_keep_resolving: ClassVar[bool] = True
    rows_order: ClassVar[str] = "bottom first"

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

    def set_up_waiting(self, order: int, holder: str, source: int, ability: int | None, action: str,
                       controller: int, label: str, subject: int | None, caused_by: int) -> list[ev.Event]:
        """The events that put an effect where it waits as if ``action`` (the ability at index ``ability`` of the
        source's card, or one of ``set_up_actions``) had triggered: what a scenario's set-up places."""
        return [ev.Triggered(order, action, source, source, controller, caused_by, ev.AFTER, (), subject),
                ev.EffectPending(order, holder, controller, label, (order,))]

    def set_up_done(self, placed: list[ev.EffectPending]) -> list[ev.Event]:
        """What follows a set-up's effects once all are placed (who may act on them first), if anything."""
        return []

    def source_of(self, state: GameState, pend: Pending) -> int | None:
        """The object a waiting effect comes from: a trigger's source, or (say) a spell's own card when the
        effect was put where it waits without triggering. Readers (scenarios, tools) ask here."""
        return pend.source if pend.source >= 0 else None
