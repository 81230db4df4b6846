"""kifu serve end to end in headless Chromium (Playwright): the real command on a free loopback port, two
browser contexts playing the two seats of a whole Shadowverse game through the play page (the match created
there with the sample decks, its id passed between them as ``#match=ID``), a third context spectating; the log
downloaded from the API audits clean with the server's key. The other three games are played through the page
too: their first decisions in the suite, whole games under ``make soak`` (a Magic game of 60-card decks is long).
Never skipped: ``make test`` installs Chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests import properties
from tests.tools import test_view_browser
from tests.tools.serving import Serve
from tools.cli import main

MAX_CLICKS = 1500
browser = test_view_browser.browser  # the fixture: headless Chromium, one for the module


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Serve]:
    key = tmp_path / "server.key"
    assert CliRunner().invoke(main, ["keys", "new", str(key)]).exit_code == 0
    server = Serve(tmp_path / "serve.db", key)
    yield server
    server.stop()


def page_in(chromium: Any, url: str, errors: list[str]) -> Any:
    page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return page


def where(page: Any) -> dict[str, str]:
    return page.eval_on_selector("#where", "e => ({...e.dataset})")  # type: ignore[no-any-return]


def hand_rows(page: Any) -> list[dict[str, Any]]:
    """Each player's hand row on the page: its text and how many cards it shows by name."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#players .zone", "rows => rows.filter(r => r.querySelector('.zname').textContent === 'hand')"
        ".map(r => ({text: r.textContent, cards: r.querySelectorAll('.card').length}))")


def decide_in(page: Any, clicks: int) -> None:
    """Answer what the page asks: one of its legal decisions' buttons, or — when a request takes several
    options at once and nothing else is offered — its fewest options ticked, then sent."""
    buttons = page.locator("#legal > button")
    if buttons.count():
        buttons.nth(clicks % buttons.count()).click()
        return
    form = page.locator("#legal fieldset.pick")
    fewest = int(re.search(r"\((\d+)", form.locator("legend").inner_text())[1])  # type: ignore[index]
    for i in range(fewest):
        form.locator("input").nth(i).check()
    form.locator("button").click()


def play(browser: Any, served: Serve, game: str, errors: list[str], most: int) -> tuple[list[Any], int, str]:
    """Two seats in two contexts play ``game`` through the page, ``most`` decisions at most: the seats' pages,
    the decisions made and the match."""
    first = page_in(browser, served.url + "/", errors)
    first.select_option("#game", game)
    first.click("#create")
    first.wait_for_function("location.hash.startsWith('#match=m-')")
    match = first.input_value("#match")
    first.select_option("#seat", "0")
    first.click("#join")
    first.wait_for_selector("#status:has-text('seat 0')")
    second = page_in(browser, f"{served.url}/#match={match}&seat=1", errors)
    second.wait_for_selector("#status:has-text('seat 1')")
    seats = [first, second]
    for page in seats:
        page.wait_for_function("document.querySelector('#where').dataset.head > 0")
    clicks = 0
    while where(first)["ended"] != "yes" and clicks < most:
        head = int(where(first)["head"])
        mover = seats[int(where(first)["toAct"])]
        mover.wait_for_selector(f"#where[data-head='{head}']")
        decide_in(mover, clicks)
        clicks += 1
        for page in seats:
            page.wait_for_function(f"document.querySelector('#where').dataset.head > {head}")
    return seats, clicks, match


OTHER_GAMES = ("duel_masters", "magic", "vision")
IN_THE_SUITE = 4  # decisions per game in the suite; make soak plays each game to its end


def test_the_other_games_are_played_through_the_page(browser: Any, served: Serve, tmp_path: Path) -> None:
    """Duel Masters, Magic and Vision in turn on one server, each match created and played in the page."""
    most = MAX_CLICKS if properties.SOAK else IN_THE_SUITE
    for game in OTHER_GAMES:
        errors: list[str] = []
        seats, clicks, match = play(browser, served, game, errors, most)
        assert errors == [], (game, errors)
        info = httpx.get(f"{served.url}/api/matches/{match}").json()
        assert info["head"] == int(where(seats[0])["head"])
        if properties.SOAK:
            assert info["ended"], f"the {game} game did not end in {MAX_CLICKS} decisions"
        else:
            assert clicks == IN_THE_SUITE
        # The first seat's credential (kept in its tab) downloads the log, ended or not: every record to the
        # head; an ended game's audits clean with the server's key (a game still going has no signed end yet).
        credential = seats[0].evaluate(f"sessionStorage.getItem('kifu-credential-{match}-0')")
        got = httpx.get(f"{served.url}/api/matches/{match}/log", headers={"Authorization": f"Bearer {credential}"})
        assert got.raise_for_status().content.count(b"\n") == info["head"]
        if info["ended"]:
            log = tmp_path / f"{game}.jsonl"
            log.write_bytes(got.content)
            audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{served.key}.pub"])
            assert audit.exit_code == 0, audit.output
        for page in seats:
            page.context.close()


def test_two_seats_play_a_whole_game_in_the_page_and_a_spectator_sees_neither_hand(
        browser: Any, served: Serve, tmp_path: Path) -> None:
    errors: list[str] = []
    first = page_in(browser, served.url + "/", errors)
    first.select_option("#game", "shadowverse")
    first.click("#create")
    first.wait_for_function("location.hash.startsWith('#match=m-')")
    match = first.input_value("#match")
    assert first.url.endswith(f"#match={match}")
    first.select_option("#seat", "0")
    first.click("#join")
    first.wait_for_selector("#status:has-text('seat 0')")
    second = page_in(browser, f"{served.url}/#match={match}&seat=1", errors)
    second.wait_for_selector("#status:has-text('seat 1')")
    watcher = page_in(browser, f"{served.url}/#match={match}&seat=spectate", errors)
    watcher.wait_for_selector("#status:has-text('spectating')")
    seats = [first, second]
    for page in (*seats, watcher):
        page.wait_for_function("document.querySelector('#where').dataset.head > 0")

    clicks = 0
    while where(first)["ended"] != "yes":
        assert clicks < MAX_CLICKS, f"the game did not end in {MAX_CLICKS} decisions"
        head = int(where(first)["head"])
        mover = seats[int(where(first)["toAct"])]
        mover.wait_for_selector(f"#where[data-head='{head}']")
        buttons = mover.locator("#legal button")
        buttons.nth(clicks % buttons.count()).click()
        clicks += 1
        for page in seats:  # both seats are told of the new record
            page.wait_for_function(f"document.querySelector('#where').dataset.head > {head}")
        if clicks == 5:  # mid-game: each seat sees its own hand by name, the spectator neither
            watcher.wait_for_function(f"document.querySelector('#where').dataset.head > {head}")
            for seat, page in enumerate(seats):
                rows = hand_rows(page)
                assert rows[seat]["cards"] > 0 and rows[1 - seat]["cards"] == 0, rows
            spectated = hand_rows(watcher)
            assert len(spectated) == 2 and all(r["cards"] == 0 and "hidden" in r["text"] for r in spectated)
            assert watcher.locator("#legal button").count() == 0
    assert clicks > 10
    for page in (*seats, watcher):
        page.wait_for_selector("#where[data-ended='yes']")
        assert "the game is over" in page.locator("#legal").inner_text()
    assert errors == [], errors

    info = httpx.get(f"{served.url}/api/matches/{match}").json()
    assert info["ended"] and info["head"] == int(where(first)["head"])
    log = tmp_path / "match.jsonl"
    log.write_bytes(httpx.get(f"{served.url}/api/matches/{match}/log").raise_for_status().content)
    audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{served.key}.pub"])
    assert audit.exit_code == 0, audit.output
