"""Gaining life and what it triggers (CR 119.10: "whenever you gain life"). A life gain is a life total that
rises within one group of simultaneous events; each gain triggers each "gains life" ability of that player's
(or an opponent's) once, as the events are folded (a player is no object, so these abilities are matched here,
like "at the beginning of" abilities, rather than by the kernel's matcher of events about objects).
"""

from __future__ import annotations

from eventsource import events as ev
from statemachine.engine import Engine
from statemachine.games.magic import board
from statemachine.triggers import Instance

GAINS_LIFE = "gains_life"


def emit(engine: Engine, *events: ev.Event) -> None:
    """Emit a group of events; then each player whose life total rose in it gained life (CR 119.10)."""
    st = engine.state
    had = {e.player: board.life(st, e.player) for e in events if isinstance(e, ev.PlayerStat) and e.key == board.LIFE}
    engine.emit(*events)
    if not engine.index.by_name.get(GAINS_LIFE):
        return
    gained = [p for p, before in sorted(had.items()) if board.life(engine.state, p) > before]
    for player in gained:
        gains_life_triggers(engine, player)


def gains_life_triggers(engine: Engine, player: int) -> None:
    """The abilities that trigger on ``player`` gaining life: "whenever you gain life" (``whose = "you"``), an
    opponent's, or any player's."""
    st = engine.state
    found: list[Instance] = []
    for lst, t, holder in board.listening(engine, GAINS_LIFE):
        mine = player == holder.controller
        if (t.whose == "you" and not mine) or (t.whose == "opponent" and mine):
            continue
        found.append(Instance(lst, holder.controller, holder, holder, st.seq, ev.AFTER))
    if found:
        engine.policy.triggered(engine, found)
