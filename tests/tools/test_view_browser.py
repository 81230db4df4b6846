"""kifu view, end to end in headless Chromium (Debian's package, driven by Playwright).

Never skipped: ``make test`` installs Chromium and Playwright first (the ``.venv/.browser`` prerequisite), so
a missing browser is a failure of the set-up, reported as such. A screenshot of each page is kept in
``artifacts/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from tests.tools.games import export, sampled_games
from tools.cli import main
from tools.loaded import load_log

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Any:
    assert CHROMIUM.exists() or shutil.which("chromium"), (
        "Chromium is missing: `make test` installs it (apt-get install -y chromium) before running the suite")
    from playwright.sync_api import sync_playwright  # installed by `make test` (the dev extra)

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


def write_page(tmp_path: Path, name: str, *extra: str) -> tuple[Path, Path]:
    log = export(name, tmp_path / f"{name}.jsonl")
    out = tmp_path / f"{name}.html"
    result = CliRunner().invoke(main, ["view", str(log), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return log, out


def open_page(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"network request {r.url}") if not r.url.startswith(
        ("file:", "data:", "about:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector("#events .ev")
    return page, errors


def slide_to(page: Any, index: int) -> None:
    page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", str(index))


def battle_ids(page: Any, zone: str) -> list[int]:
    return page.eval_on_selector_all(f'[data-zone="{zone}"] .card', "els => els.map(e => Number(e.dataset.obj))")


def main_zone(state: Any) -> str:
    """A zone of player 0 where cards come and go in play (the one with most changes is fine: any non-deck)."""
    for kind in ("battle", "field", "board", "mana", "hand"):
        if f"0.{kind}" in state.zones:
            return f"0.{kind}"
    return next(z for z in state.zones if z.startswith("0."))


@pytest.mark.parametrize("name", sampled_games())
def test_timeline_in_chromium(browser: Any, tmp_path: Path, name: str) -> None:
    log_path, html = write_page(tmp_path, name)
    log = load_log(str(log_path))
    page, errors = open_page(browser, html)
    assert errors == []
    assert page.get_attribute("body", "data-seq") == str(log.last)  # opens at the end

    # Moving the slider shows the board at that point, as the fold says it was.
    zone = main_zone(log.state_at(log.last))
    points = [r.seq for r in log.records if isinstance(r.event, ev.ZoneChanged) and zone in (r.event.dst, r.event.src)]
    assert len(points) >= 2
    seen = set()
    for seq in (points[len(points) // 2], points[-1], points[0]):
        slide_to(page, seq - 1)
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert battle_ids(page, zone) == log.state_at(seq).zones.get(zone, [])
        assert page.inner_text("#current").startswith(f"record {seq}: ")
        seen.add(tuple(battle_ids(page, zone)))
    assert len(seen) >= 2, "the board did not change with the slider"

    # A trigger's cause can be followed: its link takes the timeline to the causing record.
    trigger = next((r for r in log.records if isinstance(r.event, ev.Triggered)), None)
    if trigger is not None:
        assert isinstance(trigger.event, ev.Triggered)
        slide_to(page, trigger.seq - 1)
        page.click("#current a.cause-link")
        assert page.get_attribute("body", "data-seq") == str(trigger.event.by)
        assert "cause" in (page.get_attribute(f"#record-{trigger.event.by}", "class") or "")
        slide_to(page, trigger.seq - 1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"view-{name}.png"))
    assert errors == []
    page.close()


def test_player_view_hides_the_opponents_hand(browser: Any, tmp_path: Path) -> None:
    name = sampled_games()[0]
    log_path, html = write_page(tmp_path, name, "--player", "1")
    log = load_log(str(log_path))
    page, errors = open_page(browser, html)
    hand = next(z for z in log.state_at(log.last).zones if z.startswith("0.") and z.endswith("hand"))
    seq = log.last
    slide_to(page, seq - 1)
    assert battle_ids(page, hand) == []  # no card of player 0's hand is named to player 1
    count = len(log.state_at(seq).zones.get(hand, []))
    if count:
        assert f"{count} hidden" in page.inner_text(f'[data-zone="{hand}"]')
    assert "as " in page.inner_text("#viewer")
    page.screenshot(path=str(ARTIFACTS / f"view-{name}-player1.png"))
    assert errors == []
    page.close()


def test_a_page_of_players_named_like_markup_still_shows_the_game(browser: Any, tmp_path: Path) -> None:
    """A player named ``<!--<script>`` once made the parser swallow the page's script: the page was blank."""
    from eventsource.sqlite import SQLiteStore
    from statemachine.engine import Engine
    from statemachine.games import profile
    from statemachine.games.duel_masters.demo import DECK_A, DECK_B

    db = tmp_path / "markup.db"
    names = ["<!--<script>", "</script><b>Bob"]
    with SQLiteStore(db) as store:
        Engine.new(profile("duel_masters"), names, [list(DECK_A), list(DECK_B)], 5, store=store, game="g")
    out = tmp_path / "markup.html"
    result = CliRunner().invoke(main, ["view", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page, errors = open_page(browser, out)
    try:
        assert errors == []
        shown = page.inner_text("body")
        assert names[0] in shown and names[1] in shown  # shown as text, never parsed as markup
    finally:
        page.close()


def test_japanese_card_names_are_drawn_with_glyphs_not_empty_boxes(browser: Any, tmp_path: Path) -> None:
    """Without a CJK font Chromium draws every kanji as the same empty box: two different kanji then give the
    same pixels. ``make test`` installs Debian's fonts-noto-cjk, as it installs Chromium."""
    _, out = write_page(tmp_path, "duel_masters")
    page, errors = open_page(browser, out)
    try:
        same = page.evaluate("""() => {
            const pixels = (ch) => {
                const c = document.createElement("canvas"); c.width = 40; c.height = 40;
                const g = c.getContext("2d"); g.font = "32px sans-serif"; g.fillText(ch, 2, 32);
                return Array.from(g.getImageData(0, 0, 40, 40).data).join(",");
            };
            return pixels("雷") === pixels("鳴");
        }""")
        assert not same, "kanji are drawn as empty boxes: no CJK font (apt-get install fonts-noto-cjk)"
        assert "ミスト・リエス" in page.inner_text("body") or "マグナム" in page.inner_text("body")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "view-japanese.png"))
        assert errors == []
    finally:
        page.close()
