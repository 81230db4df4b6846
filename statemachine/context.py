"""What an effect step sees while it resolves (its controller, source, subject, and the engine to act through),
and the frame every game's resolution shares: announce resolving, build the context, run the steps, announce
resolved."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any, Final

from eventsource import events as ev
from projections.characteristics import ObjectView, current_or_last_known
from projections.state import GameState, Pending
from statemachine.cards import EffectDef
from statemachine.decisions import Arg, Request
from statemachine.engine import Engine
from statemachine.vocabulary import Answer

MAY: Final = "may"  # the kind of a "you may" question (``EffectContext.agrees``), answered yes or no

# A resolution's body: a procedure whose value says whether the effect was carried out (announced resolved
# if it still waits) or stopped short of it (fizzled, or the game ended while it resolved).
Body = Generator[Request, Answer, bool]


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

    def agrees(self, player: int, prompt: str, *, rule: str = "") -> Generator[Request, Answer, bool]:
        """Ask ``player`` a "you may" question (「…しても良い」): whether they answered yes."""
        answer = yield self.request(player, MAY, prompt, ("yes", "no"), rule=rule)
        return bool(answer) and answer[0] == "yes"


def context_of(engine: Engine, pend: Pending, *, ability: str | None = None, source: int | None = None,
               source_card: int | None = None, captured: tuple[str, ...] | None = None) -> EffectContext:
    """The context a waiting effect resolves in: the pending entry's, with what the game reads otherwise (a
    spell's own card as its source, one of several abilities) given here."""
    return EffectContext(engine, controller=pend.controller, source=pend.source if source is None else source,
                         source_card=pend.source_card if source_card is None else source_card, effect=pend.effect,
                         ability=pend.ability if ability is None else ability, subject=pend.subject,
                         captured=pend.captured if captured is None else captured)


def resolve_effect(engine: Engine, eid: int, body: Callable[[], Body]) -> Body:
    """One waiting effect resolves: announced resolving (the cause of what it does), its ``body`` run, then
    announced resolved if the body carried it out and it still waits. Returns whether it was carried out."""
    engine.emit(ev.EffectResolving(eid))
    engine.cause = engine.state.seq
    carried_out = yield from body()
    if carried_out and eid in engine.state.pending:
        engine.emit(ev.EffectResolved(eid))
    return carried_out


def run_steps(ctx: EffectContext, steps: Iterable[EffectDef], stop: Callable[[], object] = lambda: False) -> Body:
    """Carry out an ability's steps in printed order, each through the game's vocabulary; before each, ``stop``
    (or a step that set ``ctx.stopped``) ends the rest. Returns whether every step ran."""
    vocab = ctx.engine.profile.vocabulary
    for step in steps:
        if ctx.stopped or stop():
            return False
        yield from vocab.run_effect(ctx, step.name, step.params)
    return True
