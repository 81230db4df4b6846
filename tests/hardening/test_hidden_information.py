"""Hidden information over many random games of every game with a sample (``statemachine.games.*.demo``).

An independent model of what each player legitimately knows is kept while the log is walked: an object's
identity is known to a player if it was created or moved where that player sees it, if a ``Revealed`` event
showed it to that player, or if it moved from a known object into a zone where it stays known (a card put from
the battle zone into a hand); a shuffle makes every card of that deck unknown again. Against that model:

- no ``player_view`` ever shows an object the player does not know: no opponent's hand card, no deck card
  (so no deck order), no face-down card before it is revealed;
- every ``Revealed`` event names who saw the card, so the log proves who knew what, when;
- a computed amount that read cards a player may not see (``SecretAmountComputed``) shows that player neither its
  value nor the objects it read (its board-level cases: tests/statemachine/test_amounts.py);
- no text a player is shown names an object they may not know (``statemachine.naming``): the request they must
  answer and the decisions they may make (``kifu decide``), the refusal of a decision naming every object, the
  board with its open request and pending effects (``kifu at --player``). A name is shown beside its id as
  ``name#id``; a hidden object keeps its bare id (their trace: tests/tools/test_readable.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from typing import Any

import msgspec
import pytest

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.records import GENESIS, NewEvent, Record, decode, seal
from projections.state import GameState, evolve
from projections.state import copy as copy_state
from projections.views import player_view, redact_event, zone_kind
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import PROFILES, hidden_zones
from tests.hardening.conftest import tried
from tools.page.html import Summary
from tools.page.html import lines as page_lines
from tools.travel.board import board_data, board_lines, header_lines, pending_lines
from tools.travel.decide import listing_lines
from tools.travel.trace import Filters, Trace, hidden_cards

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


def secret_objects(state: GameState, player: int, known: set[int]) -> set[int]:
    """The objects, in play or as they last were (look-back), whose identity ``player`` may not know."""
    out = {o for o in state.objects if o not in known and hidden_to(state, player, o)}
    for o, lk in state.last_known.items():
        owner, kind = zone_kind(lk.obj.zone)
        if o not in known and (kind in hidden_zones(state.profile) or lk.obj.face_down
                               or (kind == "hand" and owner != player)):
            out.add(o)
    return out


def named_secrets(state: GameState, text: str, secret: set[int]) -> list[str]:
    """Every ``name#id`` in ``text`` that names a secret object."""
    found = []
    for o in secret:
        card = state.objects[o].card if o in state.objects else state.last_known[o].obj.card
        named = f"{state.cards[card].printed.name}#{o}"
        if re.search(re.escape(named) + r"(?!\d)", text):
            found.append(named)
    return found


def seat_texts(engine: Engine) -> tuple[int, str]:
    """What the player the rules wait for is shown now: the listing of ``kifu decide`` (the request and the
    legal decisions) and the refusal of a decision naming every object there is."""
    legal = engine.legal()
    assert legal.player is not None
    texts = listing_lines(engine, legal, "--db x g")
    every = tuple(sorted({*engine.state.objects, *engine.state.last_known}))
    with pytest.raises(IllegalDecision) as refused:
        engine.decide(Decision(legal.player, "peek", every))
    return legal.player, "\n".join([*texts, str(refused.value), refused.value.named])


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
    shown: dict[int, tuple[int, str]] = {}  # record -> (the deciding player, what they were shown there)
    for _ in range(DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        shown[engine.state.seq] = seat_texts(engine)
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
            if (r.seq in shown and shown[r.seq][0] == p) or state.request is not None or state.pending:
                secret = secret_objects(state, p, knowledge.known[p])
                board = board_data(state, p)
                text = "\n".join([*header_lines(board), *pending_lines(board),
                                   shown[r.seq][1] if r.seq in shown and shown[r.seq][0] == p else ""])
                leaked_names = named_secrets(state, text, secret)
                assert not leaked_names, (f"{game} seed {seed}, record {r.seq}: player {p} is shown the names of "
                                          f"hidden objects {leaked_names}:\n{text}")
                tried("hidden information: seat text checked")
        before = copy_state(state)
    assert state.seq > 0


# -- differential: what a seat has not seen does not change anything that seat is shown ----------------------
#
# A game is played; then its log is changed where a seat cannot see (the seed every shuffle and random result
# derives from, while every event the seat sees stays the same; a card that stays hidden from the seat for the
# whole game), re-sealed, and everything that seat is shown is made from both logs: ``kifu replay --player``
# (summarised and ``--all``), the ``kifu view --player`` page's lines and boards, and ``kifu at --player`` (text
# and JSON) at every record. Each must be byte-identical: otherwise the seat could tell the two games apart,
# and so learn what it may not know (from the seed, its own deck order, its shields, every future random result).

DIFF_SEEDS = range(1)


def seat_outputs(records: list[Record], seat: int) -> list[str]:
    """Everything ``seat`` is shown of a log, one string per output."""
    raws = seal(records[0].game, 1, GENESIS, [NewEvent(r.event, r.decision, r.cause) for r in records])
    outputs = []
    for everything in (False, True):
        trace = Trace(Filters(everything=everything, viewer=str(seat)))
        lines = [line for raw in raws for line in trace.feed(raw)] + trace.finish()
        outputs.append("\n".join(lines))
    summary = Summary()
    page = b"".join(page_lines([decode(r) for r in raws], seat, summary))
    outputs.append(page.decode() + json.dumps(sorted(summary.objects.items())))
    state = GameState()
    for r in records:
        evolve(state, r.seq, r.event, r.decision)
        data = board_data(state, seat)
        outputs.append("\n".join(board_lines(data, full=True)) + json.dumps(data, ensure_ascii=False))
    return outputs


def never_seen(records: list[Record], seat: int) -> list[int]:
    """The cards no object of which ``seat`` sees, at any record of the game (from the record that makes it on)."""
    state = GameState()
    made: set[int] = set()
    seen: set[int] = set()
    for r in records:
        evolve(state, r.seq, r.event, r.decision)
        if isinstance(r.event, ev.GameStarted):
            continue
        made.update(state.cards)
        seen.update(set(state.cards) - hidden_cards(state, seat))
    return sorted(made - seen)


def played(game: str, seed: int) -> list[Record]:
    engine, bots = sample(game, seed)
    for _ in range(DECISIONS):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    return list(engine.store.read(engine.game))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", DIFF_SEEDS)
def test_what_a_seat_has_not_seen_changes_nothing_it_is_shown(game: str, seed: int) -> None:
    records = played(game, seed)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    for seat in range(len(started.players)):
        shown = seat_outputs(records, seat)
        # The seed: a different one, every event the seat sees the same (the shuffles' orders are not shown).
        reseeded = [msgspec.structs.replace(records[0], event=msgspec.structs.replace(started, seed=started.seed + 1)),
                    *records[1:]]
        assert seat_outputs(reseeded, seat) == shown, f"{game} seed {seed}: seat {seat} is shown the seed"
        tried("hidden information: seed varied")
        # A card the seat never sees: another card's identity in its place.
        unseen = never_seen(records, seat)
        assert unseen, f"{game} seed {seed}: seat {seat} saw every card (no hidden card to vary)"
        created = [r for r in records if isinstance(r.event, ev.ObjectCreated)]
        for card in unseen[:2]:
            mine = next(r for r in created if isinstance(r.event, ev.ObjectCreated) and r.event.card == card)
            other = next(r.event for r in created if isinstance(r.event, ev.ObjectCreated)
                         and r.event.definition != mine.event.definition)  # type: ignore[union-attr]
            assert isinstance(mine.event, ev.ObjectCreated) and isinstance(other, ev.ObjectCreated)
            swapped = msgspec.structs.replace(mine.event, definition=other.definition, printed=other.printed)
            varied = [msgspec.structs.replace(r, event=swapped) if r is mine else r for r in records]
            assert seat_outputs(varied, seat) == shown, (f"{game} seed {seed}: seat {seat} is shown card {card}, "
                                                         f"which it never saw")
            tried("hidden information: unseen card varied")
