"""The differential hidden-information test over what ``kifu serve`` sends: every WebSocket message a seat (or a
spectator) is sent in a game — each records message and each board, with its legal decisions — is the same when
a card that viewer never saw is a different card.

A game of each of the four is played by random bots; its log is then served as the server serves a live match:
appended to the match's store a decision at a time, and after each append every viewer's update made as the
server makes it (``tools.serve.push.update``, the very frames the event loop sends). Then the game is played
again with two cards the viewer never saw trading places in their owner's deck list (so each is dealt where the
other was) and every decision made as before — a game the rules play, the server's rules too — and served again:
the viewer's messages are compared byte for byte (the match's id aside: each serving is a match of its own). The
seed is not varied here: a log with another seed is another deal; that no message holds the seed is checked over
a whole match of each game (``test_serve``).
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.records import NewEvent, Record
from projections.state import GameState, copy, evolve
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import PROFILES
from tests.hardening.test_hidden_information import GAMES, never_seen, played
from tools.logs.stores import open_store
from tools.serve import catchup
from tools.serve.catchup import SPECTATOR, Catchup
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.push import update
from tools.serve.service import Service
from tools.travel.trace import Memory, hidden_cards, seen_line

SEED = 1
VIEWERS = (0, 1, SPECTATOR)
VARIED = 2  # games varied per viewer
TRIES = 12  # pairs of unseen cards tried per viewer at most (a pair whose swap makes a decision illegal is passed)


def served(tmp_path: Path, game: str, records: list[Record]) -> dict[int, list[str]]:
    """Every message each viewer is sent while ``records`` are appended a decision at a time to a new match."""
    db = str(tmp_path / f"serve-{len(list(tmp_path.iterdir()))}.db")
    open_store(db, write=True).close()
    service = Service(lambda: open_store(db, write=True), Lobby(db))
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    match = service.lobby.create(MatchSpec(game, list(started.players), [[], []])).id
    sent = {viewer: (0, -1) for viewer in VIEWERS}  # each viewer's last record sent and last board's head
    out: dict[int, list[str]] = {viewer: [] for viewer in VIEWERS}
    for _, group in itertools.groupby(records, key=lambda r: r.decision):
        batch = list(group)
        service.store.append(match, [NewEvent(r.event, r.decision, r.cause) for r in batch], batch[0].seq - 1)
        head = batch[-1].seq
        for viewer in VIEWERS:
            while True:  # (a long catch-up goes out in pieces, as the server sends it)
                last_record, last_board = sent[viewer]
                step = update(service, match, viewer, last_record, head, 0, last_board, False)
                out[viewer] += [message.replace(match, "MATCH") for message in step.messages]
                sent[viewer] = (step.sent, step.stated)
                if not step.more:
                    break
    service.close()
    return out


def swapped(game: str, records: list[Record], first: int, second: int) -> list[Record] | None:
    """The same game with cards ``first`` and ``second`` (one player's, of different names) trading places in
    their deck list — so each is dealt where the other was — and every decision made as before: a game the rules
    play, the two cards' identities swapped. None when a decision is not legal there."""
    module = importlib.import_module(f"{PROFILES[game][0]}.demo")
    profile, players, decks = module.sample_game(SEED)
    opening = [r.event for r in records if isinstance(r.event, ev.ObjectCreated)]
    place = {}  # card: (its owner, its place in the owner's deck list), as the opening creates them
    for owner, deck in enumerate(decks):
        mine = [e.card for e in opening if e.owner == owner][:len(deck)]
        place.update({card: (owner, i) for i, card in enumerate(mine)})
    (owner, i), (other, j) = place[first], place[second]
    assert owner == other
    varied = [list(d) for d in decks]
    varied[owner][i], varied[owner][j] = varied[owner][j], varied[owner][i]
    engine = Engine.new(profile, players, varied, SEED, store=MemoryStore(), game=f"{game}-{SEED}")
    for r in records:
        if isinstance(r.event, ev.ChoiceMade):
            try:
                engine.decide(Decision(r.event.player, r.event.action, r.event.args))
            except IllegalDecision:
                return None
    return list(engine.store.read(engine.game))


def pairs(records: list[Record], unseen: list[int]) -> Iterator[tuple[int, int]]:
    """Pairs of cards of one player, of different names, from ``unseen``."""
    made = [r.event for r in records if isinstance(r.event, ev.ObjectCreated)]
    facts = {e.card: (e.owner, e.definition) for e in made}
    for a, b in itertools.combinations(unseen, 2):
        if facts[a][0] == facts[b][0] and facts[a][1] != facts[b][1]:
            yield a, b


@pytest.mark.parametrize("game", GAMES)
def test_what_a_viewer_has_not_seen_changes_no_message_it_is_sent(game: str, tmp_path: Path) -> None:
    records = played(game, SEED)
    shown = served(tmp_path, game, records)
    for viewer in VIEWERS:
        boards = [m for m in shown[viewer] if m.startswith('{"type":"state"')]
        assert len(boards) >= len({r.decision for r in records}) - 1, (viewer, len(boards))  # a board a decision
    for viewer in VIEWERS:
        varied = 0
        for first, second in itertools.islice(pairs(records, never_seen(records, viewer)), TRIES):
            other = swapped(game, records, first, second)
            if other is None:
                continue
            assert [r.event for r in other] != [r.event for r in records]
            got = served(tmp_path, game, other)[viewer]
            at = next((i for i, (a, b) in enumerate(zip(got, shown[viewer], strict=False)) if a != b), None)
            assert got == shown[viewer], (f"{game}: viewer {viewer} is sent cards {first} and {second}, which it "
                                          f"never saw (message {at}: {None if at is None else got[at][:400]})")
            varied += 1
            if varied == VARIED:
                break
        assert varied, f"{game}: no two cards viewer {viewer} never saw could trade places and the game be the same"


@pytest.mark.parametrize("game", GAMES)
def test_each_viewers_line_is_the_line_replay_player_prints_for_them(game: str) -> None:
    """Each line the server keeps for a seat or a public spectator is, record by record, the line ``kifu replay
    --player`` reads for that viewer (``seen_line``: the cards hidden from them before and after the record
    unnamed) — also where two viewers see the same event and one may not see a card it names."""
    records = played(game, SEED)
    fold = Catchup(0, GameState())
    fold.extend(records)
    state = GameState()
    hidden: dict[int, set[int]] = {viewer: set() for viewer in VIEWERS}
    compared = 0
    for r in records:
        before, was_hidden = copy(state), dict(hidden)
        evolve(state, r.seq, r.event, r.decision)
        for viewer in VIEWERS:
            hidden[viewer] = hidden_cards(state, viewer)
            if isinstance(r.event, ev.GameStarted):
                continue
            expected = seen_line(before, was_hidden[viewer], hidden[viewer], r.event, viewer, Memory())
            got = fold.lines[r.seq][catchup.VIEWERS.index(viewer)]
            assert (None if got is None else got["line"]) == expected, (game, r.seq, viewer)
            compared += 1
    assert compared > 3 * 400
