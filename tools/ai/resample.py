"""Determinization: a game a player cannot tell from the real one, with every card hidden from them re-drawn.

``resample(match, player, rng)`` re-draws what ``player`` has not seen, consistently with what they have:

- every card they can see now (their hand, the board, a card revealed to them) keeps its identity and place, and
  so does every card they saw go where they cannot see it (a card bounced to the opponent's hand, one put on the
  bottom of a deck: ``Sight.known``);
- the identities of the other cards of each owner (the opponent's hand, the cards in every deck, face-down
  shields) are dealt again uniformly among the places those cards occupy: the player knows that these are the
  owner's cards they have not seen, not where each one is;
- within a shuffled zone, the cards shuffled there (``Sight.unordered``) take a new order among their places, so
  a known card shuffled into a deck lies anywhere in that part of it; a card put into a deck after its shuffle
  keeps its place, which the player saw;
- the seed that draws every later shuffle and random choice is drawn again, so search cannot see the future
  (when a procedure waits for a choice, from the moment it ends: until then it draws as it did).

The deck lists are taken as known, as with open deck lists: the multiset of each owner's unseen cards is the true
one. When a procedure waits for a choice, the world parts from the real one before that procedure began and its
decisions are played again in the re-drawn world; a re-draw under which the player would have seen anything
different (a different view now, or a different log as they saw it since) is drawn again, up to
``ATTEMPTS`` times, and then the hidden identities are left as they are (the seed is still re-drawn).
"""

from __future__ import annotations

import random

from msgspec import Struct

from eventsource import events as ev
from eventsource.records import Record
from projections.state import GameState, copy, evolve, restore, snapshot
from projections.timeline import Timeline
from projections.views import can_see
from statemachine.decisions import Decision, IllegalDecision
from tools.ai.match import GAME, Match, Sight, TrackedEngine, begin_opening, determinized

ATTEMPTS = 8


class Root(Struct, frozen=True):
    """What every re-draw of one position for one player starts from (computed once per position)."""

    start: int  # where the re-drawn world parts from the real one
    base: bytes  # the real state there
    records: list[Record]  # the real records since (the procedure in flight)
    fixed: frozenset[int]  # the cards the player has seen
    seen_since: bytes  # the digest of those records as the player saw them
    view: str  # the board as the player sees it now


def root(match: Match, player: int) -> Root:
    key = ("resample", player)
    known = match.memo.get(key)
    if isinstance(known, Root):
        return known
    engine, state = match.engine, match.engine.state
    start = state.seq if engine.request is None else (match.opening if state.flight == 0 else state.flight - 1)
    records = list(match.store.read(GAME, start + 1)) if start < state.seq else []
    base = copy(state) if not records else Timeline(match.store, GAME).state_at(start)
    fixed = _seen_cards(base, player, match.sight) | _seen_cards(state, player, match.sight)
    seen_since = _seen_log(base, records, player, match.sight.hidden) if records else b""
    out = Root(start, snapshot(base), records, frozenset(fixed), seen_since, match.view(player))
    match.memo[key] = out
    return out


def resample(match: Match, player: int, rng: random.Random) -> Match:
    """A match ``player`` cannot tell from ``match``, its hidden cards and its seed drawn again from ``rng``."""
    r = root(match, player)
    for attempt in range(ATTEMPTS + 1):
        world = restore(r.base)
        if attempt < ATTEMPTS:
            _redraw(world, player, r.fixed, match.sight, rng)
        seed = rng.getrandbits(62)
        if not r.records:
            world.seed = seed
        out = _replayed(match, world, r.records)
        if out is None or out.view(player) != r.view:
            continue
        if r.records and _seen_log(world_before(out, r.start), list(out.store.read(GAME, r.start + 1)), player,
                                   match.sight.hidden) != r.seen_since:
            continue
        if r.records:
            out.reseed = seed  # the procedure in flight draws on as it did; the new seed takes over after it
        return out
    raise AssertionError("the real world's own hidden cards always give the same view")  # pragma: no cover


def world_before(match: Match, start: int) -> GameState:
    return Timeline(match.store, GAME).state_at(start)


def _seen_cards(state: GameState, player: int, sight: Sight) -> set[int]:
    """The cards (card ids) ``player`` can see in ``state`` or knows though they cannot see them."""
    known = sight.known[player]
    return {
        obj.card for obj in state.objects.values()
        if obj.id in known or can_see(state, player, obj.id, hidden=sight.hidden)
    }


def _redraw(world: GameState, player: int, fixed: frozenset[int], sight: Sight, rng: random.Random) -> None:
    """Deal the unseen cards' identities again per owner, and the shuffled parts of zones in a new order."""
    pools: dict[int, list[int]] = {}
    for oid in sorted(world.objects):
        card = world.objects[oid].card
        if card not in fixed:
            pools.setdefault(world.cards[card].owner, []).append(card)
    for owner in sorted(pools):
        cards = pools[owner]
        facts = [world.cards[c] for c in cards]
        rng.shuffle(facts)
        for c, f in zip(cards, facts, strict=True):
            world.cards[c] = f
    for zone in sorted(sight.unordered):
        block, ids = sight.unordered[zone], world.zones.get(zone)
        if not ids:
            continue
        slots = [i for i, o in enumerate(ids) if o in block and not can_see(world, player, o, zone,
                                                                             hidden=sight.hidden)]
        moved = [ids[i] for i in slots]
        rng.shuffle(moved)
        for i, o in zip(slots, moved, strict=True):
            ids[i] = o


def _replayed(match: Match, world: GameState, records: list[Record]) -> Match | None:
    """A match going on from ``world`` (the state after record ``world.seq``), the decisions of ``records``
    played again in it; None if one of them is not legal there."""
    prof = match.engine.profile
    engine = TrackedEngine(prof, determinized(match.store, world), GAME, copy(world))
    if records:
        decisions = [Decision(r.event.player, r.event.action, tuple(r.event.args)) for r in records
                     if isinstance(r.event, ev.ChoiceMade)]
        try:
            if world.seq == match.opening and match.engine.state.flight == 0:
                begin_opening(engine)
                engine._commit(world.seq)
            else:
                engine.cause = records[0].cause
            for d in decisions:
                engine.decide(d)
        except IllegalDecision:
            return None
    else:
        engine.cause = match.engine.cause
    engine.sight = match.sight.copy()
    return Match(engine, match.opening, match.picked, drawn=True)


def _seen_log(state: GameState, records: list[Record], player: int, hidden: frozenset[str]) -> bytes:
    """The digest of ``records`` as ``player`` sees them, folded on from ``state`` (a copy is folded)."""
    state = copy(state)
    sight = Sight(hidden)
    sight.digests, sight.known = [b""] * len(state.players), [set() for _ in state.players]
    for r in records:
        seen = sight.before(state, r.event)
        evolve(state, r.seq, r.event, r.decision)
        sight.after(state, r.event, seen)
    return sight.digests[player]
