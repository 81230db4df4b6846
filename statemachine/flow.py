"""Turn flow as a ``transitions`` machine: the steps of a turn in order, advanced one at a time.

The machine's state is restored from the projection (the last ``StepBegan``); the log, not the machine, is the
truth. Advancing emits the events (``TurnBegan``, ``StepBegan``) and runs the step's turn-based actions.

One machine serves every flow with the same steps (in one thread): a flow is its model, holding its own state,
so making a flow (an engine, a search clone) does not build a machine.
"""

from __future__ import annotations

import threading
from functools import cache
from itertools import pairwise
from typing import Any

from transitions import Machine, MachineError

from eventsource import events as ev
from statemachine.engine import Engine, Rules, StepDef
from statemachine.vocabulary import Procedure

BEFORE_GAME = "before_game"


@cache
def _machine(names: tuple[str, ...], thread: int) -> Machine:
    """The turn machine of these steps, for the models of one thread (a queued machine's queue is its own)."""
    transitions: list[dict[str, Any]] = [
        {"trigger": "next_step", "source": a, "dest": b} for a, b in pairwise(names)
    ]
    transitions.append({"trigger": "new_turn", "source": [BEFORE_GAME, *names], "dest": names[0]})
    return Machine(model=None, states=[BEFORE_GAME, *names], transitions=transitions, initial=BEFORE_GAME,
                   auto_transitions=False, queued=True)


class TurnFlow:
    state: str

    def __init__(self, profile: Rules) -> None:
        self.profile = profile
        self.steps = {s.name: s for s in profile.steps}
        self.machine = _machine(tuple(s.name for s in profile.steps), threading.get_ident())
        self.state = BEFORE_GAME

    def clone(self) -> TurnFlow:
        """A flow in the same step, moving on by itself (a search clone's)."""
        out = TurnFlow.__new__(TurnFlow)
        out.__dict__.update(self.__dict__)
        return out

    def restore(self, step: str) -> None:
        self.machine.set_state(step if step in self.steps else BEFORE_GAME, model=self)

    @property
    def current(self) -> StepDef | None:
        return self.steps.get(self.state)

    def is_last(self) -> bool:
        return self.state == self.profile.steps[-1].name

    def next(self, engine: Engine) -> Procedure | None:
        """The procedure that moves the game on by itself, or None when the active player must act."""
        step = self.current
        if step is not None and engine.profile.turn_skipped(engine):
            return self.advance(engine, skip=True)
        if step is None or step.automatic:
            return self.advance(engine)
        return None

    def advance(self, engine: Engine, *, skip: bool = False) -> Procedure:
        """End the current step and begin the next (a new turn after the last step, or at once if ``skip``:
        the rest of the turn is skipped)."""
        if skip:
            engine.profile.end_skip(engine)
        if skip or self.current is None or self.is_last():
            player = engine.profile.turn_player(engine)
            engine.emit(ev.TurnBegan(engine.state.turn + 1, player))
            self._take("new_turn")
        else:
            self.advance_step()
        step = self.steps[self.state]
        engine.emit(ev.StepBegan(step.phase, step.name))
        yield from self.profile.enter_step(engine, step)

    def advance_step(self) -> None:
        self._take("next_step")

    def _take(self, trigger: str) -> None:
        """Take the machine's transition ``trigger`` from the current step, as its table says. (Read from the
        table rather than fired with ``Event.trigger``: the machine has no conditions and no callbacks, so taking a
        transition is setting its destination, and firing one cost 12.6 µs of a 175 µs Duel Masters decision —
        most of it the library's debug logging and callback lookups — against 0.25 µs read from the table.)"""
        found = self.machine.events[trigger].transitions.get(self.state)
        dest = found[0].dest if found else None
        if dest is None:
            raise MachineError(f"Can't trigger event {trigger} from state {self.state}!")
        self.state = dest
