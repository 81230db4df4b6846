"""Hidden information over many random games of every game with a sample (``statemachine.games.*.demo``).

An independent model of what each player legitimately knows is kept while the log is walked: an object's
identity is known to a player if it was created or moved where that player sees it, if a ``Revealed`` event
showed it to that player, or if it moved from a known object into a zone where it stays known (a card put from
the battle zone into a hand); a shuffle makes every card of that deck unknown again. Against that model:

- no ``player_view`` ever shows an object the player does not know: no opponent's hand card, no deck card
  (so no deck order), no face-down card before it is revealed;
- every ``Revealed`` event names who saw the card, so the log proves who knew what, when;
- a computed amount that read cards a player may not see (``SecretAmountComputed``) shows that player neither its
  value nor the objects it read (its board-level cases: tests/statemachine/test_amounts.py).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import pytest

from eventsource import events as ev
from eventsource.memory import MemoryStore
from projections.state import GameState, evolve
from projections.state import copy as copy_state
from projections.views import player_view, redact_event, zone_kind
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games import PROFILES, hidden_zones
from tests.hardening.conftest import tried

GAMES = [g for g in sorted(PROFILES) if importlib.util.find_spec(f"statemachine.games.{g}.demo") is not None]
SEEDS = range(6)
DECISIONS = 150


def hidden_to(state: GameState, player: int, oid: int) -> bool:
    """Whether the rules hide object ``oid``'s identity from ``player`` where it is now."""
    obj = state.objects[oid]
    owner, kind = zone_kind(obj.zone)
    return kind in hidden_zones(state.profile) or obj.face_down or (kind == "hand" and owner != player)


class Knowledge:
    """What each player legitimately knows, built from the log alone."""

    def __init__(self, players: int) -> None:
        self.known: list[set[int]] = [set() for _ in range(players)]

    def apply(self, before: GameState, after: GameState, event: ev.Event) -> None:
        for p, known in enumerate(self.known):
            match event:
                case ev.ObjectCreated(obj=oid):
                    if not hidden_to(after, p, oid):
                        known.add(oid)
                case ev.ZoneChanged(old=old, new=new):
                    if new in after.objects and (old in known or not hidden_to(after, p, new)):
                        known.add(new)
                case ev.Revealed(obj=oid, to=to):
                    if p in to:
                        known.add(oid)
                case ev.Shuffled(zone=zone):
                    known.difference_update(after.zone(zone))
                case _:
                    pass


def shown_objects(view: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for content in view["zones"].values():
        cards = content["visible"] if isinstance(content, dict) else content
        out.update(c["obj"] for c in cards)
    return out


def sample(game: str, seed: int) -> tuple[Engine, list[RandomBot]]:
    module = importlib.import_module(f"statemachine.games.{game}.demo")
    profile, players, decks = module.sample_game(seed)
    engine = Engine.new(profile, players, decks, seed, store=MemoryStore(), game=f"{game}-{seed}")
    return engine, [RandomBot(seed * 7 + i) for i in range(len(players))]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_no_player_view_shows_what_its_player_may_not_know(game: str, seed: int) -> None:
    engine, bots = sample(game, seed)
    for _ in range(DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    # Walk the log: after every record, every player's view against the model of what that player knows.
    state, before = GameState(), GameState()
    knowledge: Knowledge | None = None
    reveals = 0
    for r in engine.store.read(engine.game):
        evolve(state, r.seq, r.event, r.decision)
        if knowledge is None:
            knowledge = Knowledge(len(state.players))
        knowledge.apply(before, state, r.event)
        if isinstance(r.event, ev.Revealed):
            reveals += 1
            assert r.event.to, f"record {r.seq}: a reveal that names nobody"
        for p in range(len(state.players)):
            view = player_view(state, p, hidden=hidden_zones(game))
            leaked = {o for o in shown_objects(view) if o not in knowledge.known[p] and hidden_to(state, p, o)}
            assert not leaked, (f"{game} seed {seed}, record {r.seq}: player {p}'s view shows hidden objects "
                                f"{sorted(leaked)} ({[state.facts(o).definition for o in sorted(leaked)]})")
            redacted = redact_event(r.event, p, before, hidden=hidden_zones(game))
            if isinstance(redacted, ev.ObjectCreated) and hidden_to(state, p, redacted.obj) \
                    and redacted.obj not in knowledge.known[p]:
                assert redacted.definition == "?" and redacted.printed.name == "?", f"record {r.seq} leaks"
            if isinstance(redacted, ev.ChoiceRequested) and redacted.player != p:
                # The options of another player's choice name objects: none may be one hidden from p (a look at
                # the top of a deck must not tell the opponent which of those cards are spells).
                secret = {o for o in redacted.options if isinstance(o, int) and o in state.objects
                          and hidden_to(state, p, o) and o not in knowledge.known[p]}
                assert not secret, (f"{game} seed {seed}, record {r.seq}: player {p} sees the options of player "
                                    f"{redacted.player}'s choice, hidden objects {sorted(secret)}")
            if isinstance(r.event, ev.SecretAmountComputed) and p in r.event.hidden_from:
                # A computed amount that read cards p may not see: p sees neither its value nor what it read.
                assert isinstance(redacted, ev.SecretAmountComputed) and redacted.redacted, f"record {r.seq} leaks"
                assert (redacted.value, redacted.looked_back) == (0, ()), f"record {r.seq} leaks an amount"
            if isinstance(redacted, ev.Shuffled):
                assert redacted.order == (), f"record {r.seq}: a shuffle's order is shown to player {p}"
            tried("hidden information: view checked")
        before = copy_state(state)
    assert state.seq > 0
