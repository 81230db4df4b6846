"""kifu serve end to end in headless Chromium (Playwright): the real command on a free loopback port, two
browser pages playing the two seats of a game of each of the four games through the play page (the match
created there with the game's sample decks, its id passed between them as ``#match=ID``), a third spectating
it: at every board each page draws, each seat sees its own hand by name and not the other's, the spectator
neither. The log downloaded from the API holds every record to the head; an ended game's audits clean with the
server's key. The suite plays the first few decisions of each game (a Magic game of 60-card decks is some 1,000
decisions); ``make soak`` plays each game to its end.
The three pages are opened once for the module (each in a context of its own: a new context costs seconds on a
loaded machine) and load the play page afresh for each game. Never skipped: ``make test`` installs Chromium."""

from __future__ import annotations

import re
import time
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

MAX_CLICKS = 3000  # a whole game of any of the four through the page (make soak): Magic's take 900-1,500
GAME_WITHIN = 1800.0  # seconds a whole game may take through the page (make soak; a Magic game took 16 minutes)
IN_THE_SUITE = 4  # decisions per game in the suite
GAMES = ("duel_masters", "magic", "shadowverse", "vision")
browser = test_view_browser.browser  # the fixture: headless Chromium, one for the module

# In the page: resolve once ``#where`` shows record ``at`` or later (a MutationObserver: no polling); fail after
# 30 s (a decision refused, a connection lost: the page says so in #message).
SHOWN = """([at]) => new Promise((done, fail) => {
  const where = document.querySelector('#where');
  const late = setTimeout(() => fail(new Error(`record ${at} not shown within 30 s: ` +
    document.querySelector('#message').textContent)), 30000);
  const check = (watching) => {
    if (Number(where.dataset.head) < at) return false;
    if (watching) watching.disconnect();
    clearTimeout(late);
    done({...where.dataset});
    return true;
  };
  if (!check(null)) new MutationObserver((_, watching) => check(watching)).observe(where, {attributes: true});
})"""
# In the seat's page, once it shows record ``head``: what ``decide_in`` does, by the page's own buttons (their
# click handlers send the decision), then the board that came back.
DECIDE = """async ([n, head]) => {
  const shown = """ + SHOWN + """;
  await shown([head]);
  const answered = shown([head + 1]);
  const buttons = document.querySelectorAll('#legal > button');
  if (buttons.length) buttons[n % buttons.length].click();
  else {
    const form = document.querySelector('#legal fieldset.pick');
    const fewest = Number(/\\((\\d+)/.exec(form.querySelector('legend').textContent)[1]);
    form.querySelectorAll('input').forEach((box, i) => { box.checked = i < fewest; });
    form.querySelector('button').click();
  }
  return await answered;
}"""


# In each page, from the board it shows now: each board it draws after, the hand rows as drawn (recorded when
# ``#where`` changes; the observer's callback runs once the whole board is drawn).
RECORD_HANDS = """() => {
  const where = document.querySelector('#where');
  const hands = () => [...document.querySelectorAll('#players .zone')]
    .filter((r) => r.querySelector('.zname').textContent === 'hand')
    .map((r) => ({text: r.textContent, cards: r.querySelectorAll('.card').length}));
  window.kifuHands = [{head: where.dataset.head, rows: hands()}];
  new MutationObserver(() => window.kifuHands.push({head: where.dataset.head, rows: hands()}))
    .observe(where, {attributes: true});
}"""
HIDDEN = re.compile(r"\d+ \(\d+ hidden\)")  # a hand row drawn from what the viewer may not see by name


def check_hands_at_every_board(seats: list[Any], watcher: Any, clicks: int) -> None:
    """At every board each page drew since the game began: a seat's own hand is listed and the other's is drawn
    as hidden (its count, and only the cards revealed to the seat by name); the spectator's both hidden."""
    for seat, page in [*enumerate(seats), (None, watcher)]:
        boards = page.evaluate("window.kifuHands")
        assert len(boards) >= clicks, (seat, len(boards), clicks)  # a board a decision at least
        for board in boards:
            rows = board["rows"]
            hidden = [bool(HIDDEN.search(row["text"])) for row in rows]
            assert hidden == ([True, True] if seat is None else [i != seat for i in range(2)]), (seat, board)


class Pages:
    """The three pages the module plays in (two seats and a spectator), each in a browser context of its own;
    the errors any of them reported."""

    def __init__(self, chromium: Any) -> None:
        self.errors: list[str] = []
        self.first, self.second, self.watcher = (self.open(chromium) for _ in range(3))

    def open(self, chromium: Any) -> Any:
        page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        return page


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    for page in (opened.first, opened.second, opened.watcher):
        page.context.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """One server for the module: each game's match is a match of its own on it."""
    server = fresh_server(tmp_path_factory.mktemp("served"))
    yield server
    server.stop()


def load(page: Any, url: str) -> None:
    """The play page at ``url``, loaded afresh (a change of the address's #fragment alone would not reload it)."""
    page.goto("about:blank")
    page.goto(url)


def where(page: Any) -> dict[str, str]:
    return page.eval_on_selector("#where", "e => ({...e.dataset})")  # type: ignore[no-any-return]


def hand_rows(page: Any) -> list[dict[str, Any]]:
    """Each player's hand row on the page: its text and how many cards it shows by name."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#players .zone", "rows => rows.filter(r => r.querySelector('.zname').textContent === 'hand')"
        ".map(r => ({text: r.textContent, cards: r.querySelectorAll('.card').length}))")


def decide_in(page: Any, clicks: int) -> None:
    """Answer what the page asks, clicking as a user does (Playwright's click: the button visible, enabled and
    still): one of its legal decisions' buttons, or — when a request takes several options at once and nothing
    else is offered — its fewest options ticked, then sent."""
    buttons = page.locator("#legal > button")
    if buttons.count():
        buttons.nth(clicks % buttons.count()).click()
        return
    form = page.locator("#legal fieldset.pick")
    fewest = int(re.search(r"\((\d+)", form.locator("legend").inner_text())[1])  # type: ignore[index]
    for i in range(fewest):
        form.locator("input").nth(i).check()
    form.locator("button").click()


def open_match(pages: Pages, served: Serve, game: str) -> tuple[str, list[Any], Any]:
    """A match of ``game`` created in the first seat's page, the second seat and a spectator joining through
    the address: the match, the seats' pages and the spectator's, each showing the dealt board."""
    first = pages.first
    load(first, served.url + "/")
    first.select_option("#game", game)
    first.click("#create")
    first.wait_for_function("location.hash.startsWith('#match=m-')")
    match = first.input_value("#match")
    assert first.url.endswith(f"#match={match}")
    first.select_option("#seat", "0")
    first.click("#join")
    first.wait_for_selector("#status:has-text('seat 0')")
    load(pages.second, f"{served.url}/#match={match}&seat=1")
    pages.second.wait_for_selector("#status:has-text('seat 1')")
    load(pages.watcher, f"{served.url}/#match={match}&seat=spectate")
    pages.watcher.wait_for_selector("#status:has-text('spectating')")
    for page in (first, pages.second, pages.watcher):
        page.evaluate(SHOWN, [1])
        page.evaluate(RECORD_HANDS)
    return match, [first, pages.second], pages.watcher


def play(seats: list[Any], most: int, clicks: int = 0, within: float = GAME_WITHIN) -> int:
    """The seats answer what their pages ask until the game ends or ``most`` decisions were made in all; each
    decision is seen by both seats before the next. The first is clicked as a user clicks (``decide_in``), the
    rest by the page's buttons from within the page (``DECIDE``): one call to the browser a decision, not ten
    (a Playwright click waits for the button to be still over animation frames: half a second under load). The
    decisions made in all (stopping after ``within`` seconds)."""
    board = where(seats[0])
    stop = time.monotonic() + within
    while board["ended"] != "yes" and clicks < most and time.monotonic() < stop:
        head, mover = int(board["head"]), int(board["toAct"])
        if clicks == 0:
            seats[mover].evaluate(SHOWN, [head])
            decide_in(seats[mover], clicks)
        else:
            seats[mover].evaluate(DECIDE, [clicks, head])
        clicks += 1
        board = seats[1 - mover].evaluate(SHOWN, [head + 1])  # both seats are told of the new record
        board = seats[mover].evaluate(SHOWN, [int(board["head"])])  # (and the one who decided, of all of it)
    return clicks


@pytest.mark.property  # (make soak runs it: each game to its end)
@pytest.mark.parametrize("game", GAMES)
def test_two_seats_play_in_the_page_and_a_spectator_sees_neither_hand(pages: Pages, served: Serve, game: str,
                                                                      tmp_path: Path) -> None:
    pages.errors.clear()
    began = time.monotonic()
    match, seats, watcher = open_match(pages, served, game)
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
    check_hands_at_every_board(seats, watcher, clicks)
    # The first seat's credential (kept in its tab) downloads the log while the game goes on: every record.
    credential = seats[0].evaluate(f"sessionStorage.getItem('kifu-credential-{match}-0')")
    got = httpx.get(f"{served.url}/api/matches/{match}/log", headers={"Authorization": f"Bearer {credential}"})
    assert got.raise_for_status().content.count(b"\n") == head

    if properties.SOAK:  # the rest of the game, to its end
        played = time.monotonic()
        clicks = play(seats, MAX_CLICKS, clicks)
        assert where(seats[0])["ended"] == "yes", (
            f"the {game} game did not end in {clicks} decisions ({MAX_CLICKS} at most, {GAME_WITHIN:.0f} s at most)")
        for page in (*seats, watcher):
            page.wait_for_selector("#where[data-ended='yes']")
            assert "the game is over" in page.locator("#legal").inner_text()
        check_hands_at_every_board(seats, watcher, clicks)
        info = httpx.get(f"{served.url}/api/matches/{match}").json()
        assert info["ended"] and info["head"] == int(where(seats[0])["head"])
        log = tmp_path / f"{game}.jsonl"  # (an ended game's log is anyone's to download)
        log.write_bytes(httpx.get(f"{served.url}/api/matches/{match}/log").raise_for_status().content)
        audit = CliRunner().invoke(main, ["audit", str(log), "--key", f"{served.key}.pub"])
        assert audit.exit_code == 0, audit.output
        spent = time.monotonic() - played
        print(f"{game}: {clicks} decisions through the page, {info['head']} records, winner {info['winner']}, "
              f"{time.monotonic() - began:.0f} s ({spent / (clicks - IN_THE_SUITE) * 1000:.0f} ms a decision)")
    assert pages.errors == [], (game, pages.errors)


def test_a_match_made_for_the_judges_view_shows_its_spectator_both_hands_ten_records_behind(
        pages: Pages, served: Serve) -> None:
    pages.errors.clear()
    first, second, watcher = pages.first, pages.second, pages.watcher
    load(first, served.url + "/")
    first.select_option("#game", "shadowverse")
    first.select_option("#spectators", "judge")
    first.click("#create")
    first.wait_for_function("location.hash.startsWith('#match=m-')")
    match = first.input_value("#match")
    first.select_option("#seat", "0")
    first.click("#join")
    first.wait_for_selector("#status:has-text('seat 0')")
    load(second, f"{served.url}/#match={match}&seat=1")
    second.wait_for_selector("#status:has-text('seat 1')")
    load(watcher, f"{served.url}/#match={match}&seat=spectate")
    watcher.wait_for_selector("#status:has-text(\"spectating (the judge's view, 10 records behind)\")")
    for page in (first, second):
        page.evaluate(SHOWN, [1])
    play([first, second], IN_THE_SUITE)
    head = int(where(first)["head"])
    watcher.wait_for_selector(f"#where[data-head='{head - 10}']")
    rows = hand_rows(watcher)  # both hands by name, as the judge saw them ten records ago
    assert len(rows) == 2 and all(r["cards"] > 0 and not HIDDEN.search(r["text"]) for r in rows), rows
    assert watcher.locator("#legal button").count() == 0
    assert pages.errors == [], pages.errors
