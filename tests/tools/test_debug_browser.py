"""kifu debug end to end: the real command serving on 127.0.0.1, driven in headless Chromium (Debian's package,
through Playwright) as a person would use it. Never skipped: ``make test`` installs Chromium first.

Screenshots of the main screens are kept in ``artifacts/`` (docs/images holds the ones the docs show: copies of
``artifacts/debug-NAME.png`` as ``docs/images/debugger-NAME.png``)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import GENESIS, NewEvent, decode, seal
from projections.state import GameState, evolve
from projections.views import zone_kind
from tests.tools.games import export, play
from tests.tools.test_debug import _never_seen_by
from tests.tools.test_view_browser import ARGS, CHROMIUM
from tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
URL = re.compile(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]+")


class Server:
    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "tools.cli", "debug", *args, "--no-browser"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        assert self.proc.stdout is not None
        seen = []
        for line in self.proc.stdout:  # (the URL is the first thing it prints; a failure to start ends the loop)
            seen.append(line)
            m = URL.search(line)
            if m:
                self.url = m.group(0)
                return
        raise AssertionError("kifu debug did not start:\n" + "".join(seen))

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM.exists() or shutil.which("chromium"), "Chromium is missing: `make test` installs it"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


def look_back_trigger(log: Path) -> tuple[int, int, int]:
    """The first record that put a trigger in the pool after its source left (checked in the state before its
    event, as a leave trigger is), the record that moved the source, and the source, by a plain fold of the log."""
    state = GameState()
    for rec in map(decode, exchange.read(log)):
        evolve(state, rec.seq, rec.event, rec.decision)
        e = rec.event
        if (isinstance(e, ev.Triggered) and e.checked == ev.BEFORE and e.source not in state.objects
                and e.source in state.last_known):
            return rec.seq, state.last_known[e.source].left_at, e.source
    raise AssertionError("the sample game should hold a look-back trigger")


def last_of(log: Path) -> int:
    return sum(1 for _ in exchange.read(log))


def open_page(browser: Any, url: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1500, "height": 950})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("#timeline li")
    return page, errors


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"debug-{name}.png"))


def test_step_inspect_search_and_fork_in_the_page(browser: Any, tmp_path: Path) -> None:
    log = export("duel_masters", tmp_path / "dm.jsonl")
    server = Server(str(log), "--forks", str(tmp_path / "forks.db"))
    try:
        assert "token=" not in server.url.split("?")[0]
        page, errors = open_page(browser, server.url)
        assert "token" not in page.url  # the token went into a cookie; the address bar no longer shows it
        page.fill("#goto", "0")
        page.click("#next-decision")
        page.wait_for_function("document.querySelector('#goto').value !== '0'")
        first_decision = int(page.input_value("#goto"))
        assert page.locator("#request").inner_text() != ""
        page.click("#next-turn")
        page.wait_for_function(f"parseInt(document.querySelector('#goto').value) > {first_decision}")
        # a look-back trigger: its source left before the trigger was put in the pool; its power, clicked there, leads
        # to the record that moved it and to the board just before, where the card shows that power
        trigger, left, source = look_back_trigger(log)
        page.fill("#goto", str(trigger))
        page.press("#goto", "Enter")
        page.wait_for_selector(f"#rec-{trigger}.current")
        page.click("#pending .source >> nth=0")
        page.wait_for_selector("#inspector :text('it left its zone at record')")
        inspector = page.locator("#inspector").inner_text()
        assert f"it left its zone at record {left}; just before (record {left - 1})" in inspector
        power = re.search(r"just before \(record \d+\) it was (\d+)", inspector)
        first_cause = page.locator("#inspector .step >> nth=0").inner_text()
        assert power is not None and first_cause.startswith(f"record {left}:"), first_cause
        page.click("#inspector .jump:has-text('show the board just before')")
        page.wait_for_selector(f"#rec-{left - 1}.current")
        assert f"#{source} {power.group(1)}" in page.locator("#players").inner_text()
        # breakpoints stop where a plain fold of the log finds the condition: the first and the last record where a
        # card leaves the battle zone, searched forward from the start and back from the end
        left = [r.seq for r in map(decode, exchange.read(log))
                if isinstance(r.event, ev.ZoneChanged) and zone_kind(r.event.src)[1] == "battle"]
        assert len(left) >= 2
        page.fill("#condition", "leaves battle")
        for start, button, want in (("0", "#break-next", left[0]), (str(last_of(log)), "#break-prev", left[-1])):
            page.fill("#goto", start)
            page.press("#goto", "Enter")
            page.click(button)
            page.wait_for_selector(f"#break-status:has-text('stopped at record {want}')")
            assert int(page.input_value("#goto")) == want
        page.fill("#goto", str(first_decision))
        page.press("#goto", "Enter")
        page.wait_for_selector(f"#rec-{first_decision}.current")
        # a breakpoint: the next record where an ability triggers
        page.fill("#condition", "event Triggered")
        page.click("#break-next")
        page.wait_for_selector("#break-status:has-text('stopped at record')")
        stopped = int(page.input_value("#goto"))
        assert "trigger" in page.locator(f"#rec-{stopped}").inner_text()
        # where did it come from: the first card on the board
        page.click("#players .card .value >> nth=0")
        page.wait_for_selector("#inspector .step")
        assert "set by" in page.locator("#inspector").inner_text()
        shot(page, "inspect")
        # why not, one click from the card: kifu why-not's answer at this record
        page.click("#inspector .jump:has-text('not trigger')")
        page.wait_for_selector("#inspector pre.whynot")
        assert f"record {stopped}" in page.locator("#inspector pre.whynot").inner_text()
        shot(page, "why-not")
        # a value at every point
        page.fill("#expression", "pending")
        page.click("#query button")
        page.wait_for_selector("#query-table tbody tr")
        # what if: another legal decision at a decision point, in a branch
        page.fill("#goto", str(first_decision))
        page.press("#goto", "Enter")
        page.wait_for_selector(f"#rec-{first_decision}.current")
        # a decision the rules refuse: nothing appended, and "refused" stops here (from the end, backwards)
        page.fill("#attempt-words", "attack 999999")
        page.click("#attempt button")
        page.wait_for_selector("#attempt-status:has-text('refused at record')")
        assert page.locator("#game option").count() == 1
        page.fill("#goto", str(first_decision + 40))
        page.press("#goto", "Enter")
        page.fill("#condition", "refused")
        page.click("#break-prev")
        page.wait_for_selector(f"#break-status:has-text('stopped at record {first_decision}')")
        page.click("#legal")
        page.wait_for_selector("#decisions li")
        buttons = page.locator("#decisions button")
        assert buttons.count() >= 1
        buttons.nth(buttons.count() - 1).click()
        page.wait_for_selector("#compare:has-text('first differ'), #compare:has-text('are the same')")
        assert page.locator("#game option").count() == 2
        shot(page, "fork")
        # as a seat: the opponent's hand is a count
        page.select_option("#seat", "0")
        page.wait_for_function("document.querySelector('#players').innerText.includes('hidden')")
        assert errors == [], errors
    finally:
        server.proc.kill()  # (killed outright: the debugger writes only branches, each in one transaction)
        server.proc.wait()
    # the branch made in the page is whole, an ordinary game that audits clean
    games = CliRunner().invoke(main, ["games", "--db", str(tmp_path / "forks.db")])
    assert games.exit_code == 0 and len(games.output.split("\n")) >= 2, games.output
    branch = games.output.split()[0]
    assert branch.startswith("sample-duel_masters-fork-"), games.output
    audit = CliRunner().invoke(main, ["audit", str(tmp_path / "forks.db"), "--game", branch])
    assert audit.exit_code == 0, audit.output


def test_a_failing_scenario_opens_at_its_failing_step(browser: Any, tmp_path: Path) -> None:
    source = ROOT / "tests/scenarios/duel_masters/DM-W-S11.toml"
    scenario = tmp_path / "DM-W-S11.toml"
    scenario.write_text(source.read_text(encoding="utf-8").replace(
        'request = { player = 1, kind = "may" }', 'request = { player = 0, kind = "may" }'), encoding="utf-8")
    server = Server(str(scenario))
    try:
        page, errors = open_page(browser, server.url)
        banner = page.locator("#scenario")
        assert "FAILED at step 1" in banner.inner_text() and "request" in banner.inner_text()
        assert page.locator("#timeline li.current").count() == 1
        shot(page, "scenario")
        # saving the file runs it again: mended, every expectation holds
        scenario.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        page.wait_for_selector("#scenario:has-text('every expectation holds')", timeout=20_000)
        assert "(run 2)" in banner.inner_text()
        assert errors == [], errors
    finally:
        server.stop()


def test_a_seat_view_in_the_page_leaks_nothing(browser: Any, tmp_path: Path) -> None:
    """The differential hidden-information test, in the page: two logs that differ only in a card seat 0 never
    sees (an opponent's deck card that never moves) read the same as seat 0 — board, pending, request, timeline —
    while the judge's timeline tells them apart."""
    raws = play("duel_masters")
    records = [decode(r) for r in raws]
    oid = _never_seen_by(records, 0)
    changed = [NewEvent(msgspec.structs.replace(r.event, definition="another_card", printed=ev.Characteristics(
                   "別のカード", ("creature",), power=99999)) if isinstance(r.event, ev.ObjectCreated)
                   and r.event.obj == oid else r.event, r.decision, r.cause) for r in records]
    created = next(r.seq for r in records if isinstance(r.event, ev.ObjectCreated) and r.event.obj == oid)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    exchange.write(raws, a)
    exchange.write(seal(raws[0].game, 1, GENESIS, changed), b)
    servers = [Server(str(a), "--forks", str(tmp_path / "fa.db")), Server(str(b), "--forks", str(tmp_path / "fb.db"))]
    try:
        pages = [open_page(browser, s.url)[0] for s in servers]

        def shown(n: int) -> list[list[str]]:
            out = []
            for page in pages:
                page.fill("#goto", str(n))
                page.press("#goto", "Enter")
                page.wait_for_selector(f"#rec-{n}.current")
                out.append([page.locator(f"#{part}").inner_text() for part in ("players", "pending", "request",
                                                                                  "timeline")])
            return out

        judge = shown(created)
        assert judge[0][3] != judge[1][3] and "別のカード" in judge[1][3]
        for page in pages:
            page.select_option("#seat", "0")
            page.wait_for_function("document.querySelector('#players').innerText.includes('hidden')")
        for n in (created, len(raws) // 2):
            as_seat = shown(n)
            assert as_seat[0] == as_seat[1], n
    finally:
        for s in servers:
            s.stop()
