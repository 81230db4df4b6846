"""What a watcher is sent after an append, made in one call (``tools.serve.push``): a catch-up longer than one
message goes out in pieces that together are exactly what one read of every record gives, and the board follows
the last piece."""

from __future__ import annotations

import importlib
import json
import random
import secrets
from pathlib import Path

import pytest

from projections.state import GameState
from projections.timeline import Timeline
from statemachine.games import PROFILES
from tools.errors import BadInput
from tools.logs.stores import open_store
from tools.serve import push, service
from tools.serve.lobby import Lobby, MatchSpec
from tools.serve.push import update
from tools.serve.service import Service
from tools.travel.board import board_data


def started(tmp_path: Path, game: str) -> tuple[Service, str]:
    db = str(tmp_path / "serve.db")
    open_store(db, write=True).close()
    svc = Service(lambda: open_store(db, write=True), Lobby(db))
    _, players, decks = importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(0)
    match = svc.create(MatchSpec(game=game, players=list(players), decks=[list(d) for d in decks]))
    for seat in (0, 1):
        svc.join(match.id, seat, secrets.token_bytes(32))
    return svc, match.id


@pytest.mark.parametrize("viewer", [0, 1, service.SPECTATOR])
def test_a_catch_up_in_pieces_sends_every_record_the_viewer_may_see(tmp_path: Path, viewer: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    svc, match = started(tmp_path, "shadowverse")
    head = svc.head(match)
    whole = svc.records(match, viewer, 0, head)
    assert head > 3 * 7 and whole
    monkeypatch.setattr(push, "MAX_RECORDS", 7)
    monkeypatch.setattr(service, "MAX_RECORDS", 7)
    sent, stated, pieces, got = 0, -1, 0, []
    while True:
        step = update(svc, match, viewer, sent, 0, 0, stated, False)
        messages = [json.loads(m) for m in step.messages]
        assert step.sent > sent or not step.more
        sent, stated = step.sent, step.stated
        got += [r for m in messages if m["type"] == "records" for r in m["records"]]
        pieces += 1
        if not step.more:
            assert messages[-1]["type"] == "state" and messages[-1]["head"] == head
            break
        assert all(m["type"] == "records" for m in messages)
    assert got == whole
    assert pieces >= head // 7
    again = update(svc, match, viewer, sent, head, 0, stated, False)
    assert again.messages == [] and not again.more  # nothing new: nothing sent


def test_one_audiences_connections_share_one_board_and_records_per_head(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every spectator of a match (and every connection of one seat) is sent the same frames at a head: the board
    is drawn and the records encoded once for them all, and again only when the head moves."""
    svc, match = started(tmp_path, "shadowverse")
    drawn: list[int | None] = []
    draw = service.board_data
    monkeypatch.setattr(service, "board_data", lambda state, viewer, **kw: drawn.append(viewer) or draw(state, viewer,
                                                                                                     **kw))
    head = svc.head(match)
    first = [update(svc, match, service.SPECTATOR, 0, head, 0, -1, False) for _ in range(3)]
    assert first[0].messages == first[1].messages == first[2].messages and len(first[0].messages) == 2
    assert drawn == [service.SPECTATOR]
    seat = svc.legal(match).player
    assert seat is not None
    svc.decide(match, seat, head, *svc.chosen(match, seat, 0))
    after = [update(svc, match, service.SPECTATOR, head, head, 0, head, False) for _ in range(2)]
    assert after[0].messages == after[1].messages and drawn == [service.SPECTATOR] * 2
    board = json.loads(after[0].messages[-1])
    assert board["type"] == "state" and board["head"] == svc.head(match) > head
    mine = [update(svc, match, seat, 0, 0, 0, -1, False) for _ in range(2)]
    assert mine[0].messages == mine[1].messages and drawn == [service.SPECTATOR] * 2 + [seat]


def test_the_boards_of_one_head_draw_each_object_once_and_show_each_viewer_only_its_own(tmp_path: Path) -> None:
    """Both seats' boards and a spectator's at one head share what each object shows (drawn once, not once per
    viewer), and each still shows only what that viewer may see: a board drawn with the shared objects is the
    board drawn alone, for every viewer; the next head draws them again."""
    svc, match = started(tmp_path, "shadowverse")
    engine = svc.engine(match)
    shared = [svc.view(match, viewer) for viewer in (0, 1, service.SPECTATOR)]
    alone = [service.board_data(engine.state, viewer) for viewer in (0, 1, service.SPECTATOR)]
    for board, own in zip(shared, alone, strict=True):
        assert board["zones"] == own["zones"]
    hands = [shared[v]["zones"]["0.hand"] for v in (0, 1, service.SPECTATOR)]
    assert isinstance(hands[0], list) and hands[0]  # its owner sees its hand
    assert isinstance(hands[1], dict) and hands[1]["visible"] == [] and hands[1]["count"] == len(hands[0])
    assert hands[2] == hands[1]
    kept = svc._shown[match][2]
    seen = [o for zone in shared[0]["zones"].values() for o in (zone if isinstance(zone, list) else zone["visible"])]
    assert seen and all(kept[o["obj"]] is o for o in seen)  # one dict per object, shared by the boards
    seat = svc.legal(match).player
    assert seat is not None
    head = svc.head(match)
    svc.decide(match, seat, head, *svc.chosen(match, seat, 0))
    svc.view(match, 0)
    assert svc._shown[match][1] == svc.head(match) > head and svc._shown[match][2] is not kept


def test_viewers_who_see_the_same_event_share_its_line_and_a_hidden_card_is_not_shared(tmp_path: Path) -> None:
    """The fold renders a record once for every viewer who sees the same event (most records hide nothing), and
    a line of its own for a viewer from whom a card is hidden (the opponent's draw)."""
    svc, match = started(tmp_path, "shadowverse")
    head = svc.head(match)
    for viewer in (0, 1, service.SPECTATOR):
        svc.records(match, viewer, 0, head)
    lines = svc._catchups[match].lines
    assert lines[1][0] is lines[1][1] is lines[1][2]  # the game's start (its seed hidden from every seat alike)
    shared = [seq for seq, each in lines.items() if each[0] is not None and each[0] is each[1] is each[2]]
    own = [seq for seq, each in lines.items() if each[0] is not None and each[1] is not None and each[0] != each[1]]
    assert len(shared) > len(own) > 0
    draws = [seq for seq in own if "deck[" in lines[seq][0]["line"] and "hand" in lines[seq][0]["line"]]
    assert draws
    for seq in draws:  # a draw: its owner's line names the card, the others' say it is hidden
        owner = 0 if "Arisa's hand" in lines[seq][0]["line"] else 1  # (Arisa is seat 0)
        owners, others, watched = (lines[seq][v]["line"] for v in (owner, 1 - owner, service.SPECTATOR))
        assert not owners.startswith("a hidden card")
        assert others.startswith("a hidden card") and watched.startswith("a hidden card")
        assert lines[seq][2] is lines[seq][1 - owner]  # the spectator shares the other seat's line


def test_a_service_keeps_a_bounded_number_of_matches_and_loads_a_dropped_one_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MAX_CACHED_MATCHES`` the least recently used match's engine, folds and frames are dropped (a server
    that runs for days serves more matches than it can hold); asked for again, it is loaded from the store and
    plays on from where it was. Heads heard from notifications are bounded too: past ``MAX_HEARD`` they are
    forgotten and every cached engine is checked against the store again before it is trusted."""
    monkeypatch.setattr(service, "MAX_CACHED_MATCHES", 2)
    svc, first = started(tmp_path, "shadowverse")
    update(svc, first, 0, 0, 0, 0, -1, False)
    before = svc.view(first, 0)
    _, players, decks = importlib.import_module(f"{PROFILES['shadowverse'][0]}.demo").sample_game(0)
    others = []
    for _ in range(2):
        match = svc.create(MatchSpec(game="shadowverse", players=list(players), decks=[list(d) for d in decks]))
        for seat in (0, 1):
            svc.join(match.id, seat, secrets.token_bytes(32))
        update(svc, match.id, 1, 0, 0, 0, -1, False)
        others.append(match.id)
    assert first not in svc._engines and first not in svc._catchups and not any(k[0] == first for k in svc.frames)
    assert set(svc._engines) == set(others) and len(svc._recent) == 2
    assert svc.view(first, 0) == before  # (loaded again from the store: the same board)
    seat = svc.legal(first).player
    assert seat is not None
    head = svc.head(first)
    assert svc.decide(first, seat, head, *svc.chosen(first, seat, 0)).head > head
    assert others[0] not in svc._engines  # (now the least recently used)
    with pytest.raises(BadInput):
        svc.engine("m-no-such-match")
    assert "m-no-such-match" not in svc._recent and others[1] in svc._engines  # (an unknown id evicts nothing)

    monkeypatch.setattr(service, "MAX_HEARD", 3)
    svc.listening(True)
    epoch = svc._epoch
    for n, match_id in enumerate(["a", "b", "c"], start=1):
        svc.heard(match_id, n)
    assert svc._epoch == epoch and len(svc._heard) == 3
    svc.heard("d", 9)
    assert svc._epoch == epoch + 1 and svc._heard == {"d": 9}
    assert svc._fresh(first, 0) is None  # (checked against the store again before it is trusted)


def test_a_delayed_spectators_boards_are_folded_on_from_the_last(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    svc, match = started(tmp_path, "shadowverse")
    rng = random.Random(5)
    for _ in range(12):
        legal = svc.legal(match)
        assert legal.player is not None
        d = rng.choice(legal.decisions)
        svc.decide(match, legal.player, svc.head(match), d.action, list(d.args), "test")
    head = svc.head(match)
    fresh = Timeline.state_at
    folds: list[int | None] = []

    def counted(timeline: Timeline, n: int | None = None) -> GameState:
        folds.append(n)
        return fresh(timeline, n)

    monkeypatch.setattr(Timeline, "state_at", counted)
    for at in range(head - 30, head):  # a spectator 1 to 30 records behind, one board a record
        board = svc.view(match, service.SPECTATOR, at=at)
        alone = board_data(fresh(Timeline(svc.store, match), at), service.SPECTATOR)
        assert {k: board[k] for k in alone} == alone, at
        assert board["head"] == at and board["legal"] == []
    assert folds == [head - 30]  # the first folded from the store's start, each after it moved on
    assert svc.view(match, service.SPECTATOR, at=head - 40)["head"] == head - 40  # (back: folded afresh)
    assert folds == [head - 30, head - 40]
