"""A toy game on the kernel alone: what docs/architecture.md's "how to add a game" checklist comes to.

Two zones per player, a deck and a table; one trigger kind, ``enters`` (a card comes onto a table); a
first-in first-out resolution policy (what triggered first resolves first, by itself). On your turn you
``play`` the top card of your deck onto your table, or ``pass``; cards score points as they come into play
(``toy_cards/``). The first to ``TARGET`` points wins; with both decks empty nobody does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec import Struct

from eventsource import events as ev
from projections.state import Pending
from statemachine import board
from statemachine.context import Body, EffectContext, context_of, resolve_effect, run_steps
from statemachine.decisions import Decision, IllegalDecision, Legal
from statemachine.engine import Engine, StepDef
from statemachine.policy import ResolutionPolicy
from statemachine.profile import RulesProfile
from statemachine.releases import ReleaseEntry, Releases, ReleasesFile
from statemachine.triggers import Instance, TriggerKind
from statemachine.vocabulary import Procedure, Vocabulary

NAME = "toy"
DECK, TABLE = "deck", "table"
FIFO = "fifo"  # where waiting effects are (EffectPending.holder)
TARGET = 5
POINTS = "points"

TOY = Vocabulary(NAME)


class ScoreParams(Struct, frozen=True, forbid_unknown_fields=True):
    points: int = 1


@TOY.effect("score", ScoreParams)
def score(ctx: EffectContext, p: ScoreParams) -> Procedure:
    """The ability's controller scores ``points``."""
    ctx.engine.emit(ev.PlayerStat(ctx.controller, POINTS, ctx.state.stat(ctx.controller, POINTS) + p.points))
    return
    yield


def _enters(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and board.kind_of(e.dst) == TABLE else []


KINDS = {"enters": TriggerKind("enters", ev.AFTER, _enters)}


class Fifo(ResolutionPolicy):
    """Triggered effects wait in the order they triggered; the oldest resolves, by itself, before anyone acts."""

    holder = FIFO

    def triggered(self, engine: Engine, instances: list[Instance]) -> None:
        for inst in instances:
            engine.trigger(inst, holder=FIFO, label=inst.listener.ability.label)

    def next(self, engine: Engine) -> Procedure | None:
        waiting = [p for p in engine.state.pending.values() if p.holder == FIFO and not p.resolving]
        return self.resolve(engine, min(waiting, key=lambda p: p.effect)) if waiting else None

    def resolve(self, engine: Engine, pend: Pending) -> Procedure:
        yield from resolve_effect(engine, pend.effect, lambda: self.carry_out(engine, pend))

    @staticmethod
    def carry_out(engine: Engine, pend: Pending) -> Body:
        ability = engine.profile.pool[engine.state.cards[pend.source_card].definition].ability(pend.ability)
        return (yield from run_steps(context_of(engine, pend), ability.effects))

    def legal(self, engine: Engine) -> Legal | None:
        return None  # nothing to decide about waiting effects: they resolve in order

    def decide(self, engine: Engine, decision: Decision) -> Procedure | None:
        return None


class Rules(Struct, frozen=True, forbid_unknown_fields=True):
    """The toy game's switches: none yet (release 1.0)."""


class Toy(RulesProfile):
    name = NAME
    releases = Releases(NAME, ReleasesFile(NAME, (ReleaseEntry("1.0", "1.0"),)), Rules)
    cards = Path(__file__).with_name("toy_cards")
    vocabulary = TOY
    trigger_kinds = KINDS
    steps = (StepDef("main", "main", False),)
    title = "the toy game"
    policy = Fifo

    def opening(self, engine: Engine) -> None:
        board.shuffle_decks(engine)

    def enter_step(self, engine: Engine, step: StepDef) -> Procedure:
        return
        yield

    def actions(self, engine: Engine) -> Legal:
        me = engine.state.active
        play = (Decision(me, "play"),) if engine.state.zone(board.zone(me, DECK)) else ()
        return Legal(me, (*play, Decision(me, "pass")))

    def act(self, engine: Engine, decision: Decision) -> Procedure:
        me = self.turn_player_only(engine, decision, "TOY-TURN")
        deck = engine.state.zone(board.zone(me, DECK))
        match decision.action:
            case "play" if deck:
                return _play(engine, deck[0], board.zone(me, TABLE))
            case "play":
                raise IllegalDecision(decision, "TOY-PLAY", "your deck is empty")
            case "pass":
                return engine.flow.advance(engine)
        raise IllegalDecision(decision, "TOY-ACTION", f"'{decision.action}' is not an action of the toy game")

    def check_state(self, engine: Engine) -> None:
        st = engine.state
        if st.ended or not st.started:
            return
        scored = [p for p in range(len(st.players)) if st.stat(p, POINTS) >= TARGET]
        if scored:
            engine.emit(ev.GameEnded(scored[0], "points"))
        elif not st.pending and not any(st.zone(board.zone(p, DECK)) for p in range(len(st.players))):
            engine.emit(ev.GameEnded(None, "both decks are empty"))


def _play(engine: Engine, oid: int, table: str) -> Procedure:
    engine.emit(board.move(engine, oid, table, "play"))
    return
    yield
