"""The resolution-policy interface: how triggered effects wait and in what order they resolve.

One kernel, four timing systems (DESIGN "Resolution policies"): a pending pool (Duel Masters), a stack with
priority (Magic), an interference chain (Vision), an ordered queue (Shadowverse). A policy decides nothing by
mutation: it emits events through the engine and reads the projection.

Each policy has a small ``transitions`` machine for its resolution flow; its state is always re-derived from the
projection (``sync``), so the log, not the machine, is the truth.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from functools import cache
from typing import Any, Self

from transitions import Machine

from projections.state import GameState, Pending
from statemachine.decisions import Decision, Legal, Request
from statemachine.engine import Engine
from statemachine.triggers import Instance
from statemachine.vocabulary import Procedure

FLOW_STATES = ["idle", "waiting", "resolving", "asking"]
FLOW_TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "wait", "source": ["idle", "waiting"], "dest": "waiting"},
    {"trigger": "resolve", "source": ["idle", "waiting"], "dest": "resolving"},
    {"trigger": "ask", "source": ["resolving", "asking"], "dest": "asking"},
    {"trigger": "answer", "source": "asking", "dest": "resolving"},
    {"trigger": "finish", "source": ["resolving", "asking"], "dest": "idle"},
]


@cache
def _machine(thread: int) -> Machine:
    """The resolution machine every flow of one thread is a model of (see ``statemachine.flow``)."""
    return Machine(model=None, states=FLOW_STATES, transitions=FLOW_TRANSITIONS, initial="idle",
                   auto_transitions=False, queued=True)


class ResolutionFlow:
    """idle → waiting (effects wait for a player) → resolving ⇄ asking (a choice mid-resolution) → idle."""

    state: str

    def __init__(self) -> None:
        self.machine = _machine(threading.get_ident())
        self.state = "idle"

    def clone(self) -> ResolutionFlow:
        out = ResolutionFlow.__new__(ResolutionFlow)
        out.machine, out.state = self.machine, self.state
        return out

    def sync(self, engine: Engine) -> None:
        """Re-derive the flow state from the projection."""
        st = engine.state
        resolving = any(p.resolving for p in st.pending.values())
        if resolving:
            target = "asking" if st.request is not None else "resolving"
        elif st.pending:
            target = "waiting"
        else:
            target = "idle"
        self.machine.set_state(target, model=self)


class ResolutionPolicy(ABC):
    holder: str  # "pool", "stack", "chain" or "queue": where EffectPending puts effects

    def __init__(self) -> None:
        self.flow = ResolutionFlow()

    def sync(self, engine: Engine) -> None:
        """Re-derive the resolution flow's state from the projection (after every step of the loop)."""
        self.flow.sync(engine)

    def clone(self) -> Self:
        """A policy that neither changes through this one nor changes it (a search clone's). A policy that keeps
        more than its flow between decisions copies that too."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.flow = self.flow.clone()
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
