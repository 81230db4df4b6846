"""kifu serve end to end in headless Chromium (Playwright): the real command on a free loopback port, two
browser contexts playing the two seats of a game of each of the four games through the play page (the match
created there with the game's sample decks, its id passed between them as ``#match=ID``), a third context
spectating it: each seat sees its own hand by name, the spectator neither. The log downloaded from the API holds
every record to the head; an ended game's audits clean with the server's key. The suite plays the first few
decisions of each game (a Magic game of 60-card decks is long); ``make soak`` plays each game to its end. Never
skipped: ``make test`` installs Chromium."""

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
from tests.tools.serving import Serve, fresh_server
from tools.cli import main

MAX_CLICKS = 1500  # a whole game of any of the four through the page (make soak)
IN_THE_SUITE = 4  # decisions per game in the suite
GAMES = ("duel_masters", "magic", "shadowverse", "vision")
browser = test_view_browser.browser  # the fixture: headless Chromium, one for the module


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """One server for the module: each game's match is a match of its own on it."""
    server = fresh_server(tmp_path_factory.mktemp("served"))
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


def open_match(browser: Any, served: Serve, game: str, errors: list[str]) -> tuple[str, list[Any], Any]:
    """A match of ``game`` created in the first seat's page, the second seat and a spectator joining through
    the address: the match, the seats' pages and the spectator's, each showing the dealt board."""
    first = page_in(browser, served.url + "/", errors)
    first.select_option("#game", game)
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
    for page in (first, second, watcher):
        page.wait_for_function("document.querySelector('#where').dataset.head > 0")
    return match, [first, second], watcher


def play(seats: list[Any], most: int, clicks: int = 0) -> int:
    """The seats answer what their pages ask until the game ends or ``most`` decisions were made in all; each
    decision is seen by both seats before the next. The decisions made in all."""
    first = seats[0]
    while where(first)["ended"] != "yes" and clicks < most:
        head = int(where(first)["head"])
        mover = seats[int(where(first)["toAct"])]
        mover.wait_for_selector(f"#where[data-head='{head}']")
        decide_in(mover, clicks)
        clicks += 1
        for page in seats:  # both seats are told of the new record
            page.wait_for_function(f"document.querySelector('#where').dataset.head > {head}")
    return clicks


@pytest.mark.property  # (make soak runs it: each game to its end)
@pytest.mark.parametrize("game", GAMES)
def test_two_seats_play_in_the_page_and_a_spectator_sees_neither_hand(browser: Any, served: Serve, game: str,
                                                                      tmp_path: Path) -> None:
    errors: list[str] = []
    match, seats, watcher = open_match(browser, served, game, errors)
    clicks = play(seats, IN_THE_SUITE)
    assert clicks == IN_THE_SUITE, f"the {game} game ended within {clicks} decisions"
    head = int(where(seats[0])["head"])
    watcher.wait_for_selector(f"#where[data-head='{head}']")  # (no spectator delay: the match was made so)
    for seat, page in enumerate(seats):  # each seat sees its own hand by name, not the other's
        rows = hand_rows(page)
        assert len(rows) == 2 and rows[seat]["cards"] > 0 and rows[1 - seat]["cards"] == 0, (game, seat, rows)
    spectated = hand_rows(watcher)
    assert len(spectated) == 2 and all(r["cards"] == 0 and "hidden" in r["text"] for r in spectated), spectated
    assert watcher.locator("#legal button").count() == 0
    # The first seat's credential (kept in its tab) downloads the log while the game goes on: every record.
    credential = seats[0].evaluate(f"sessionStorage.getItem('kifu-credential-{match}-0')")
    got = httpx.get(f"{served.url}/api/matches/{match}/log", headers={"Authorization": f"Bearer {credential}"})
    assert got.raise_for_status().content.count(b"\n") == head

    if properties.SOAK:  # the rest of the game, to its end
        clicks = play(seats, MAX_CLICKS, clicks)
        assert where(seats[0])["ended"] == "yes", f"the {game} game did not end in {MAX_CLICKS} decisions"
        for page in (*seats, watcher):
            page.wait_for_selector("#where[data-ended='yes']")
            assert "the game is over" in page.locator("#legal").inner_text()
        info = httpx.get(f"{served.url}/api/matches/{match}").json()
        assert info["ended"] and info["head"] == int(where(seats[0])["head"])
        log = tmp_path / f"{game}.jsonl"  # (an ended game's log is anyone's to download)
        log.write_bytes(httpx.get(f"{served.url}/api/matches/{match}/log").raise_for_status().content)
        audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{served.key}.pub"])
        assert audit.exit_code == 0, audit.output
        print(f"{game}: {clicks} decisions through the page, {info['head']} records, winner {info['winner']}")
    assert errors == [], (game, errors)
    for page in (*seats, watcher):
        page.context.close()
