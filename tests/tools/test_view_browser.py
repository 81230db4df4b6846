"""kifu view, end to end in headless Chromium (Debian's package, driven by Playwright).

Never skipped: ``make test`` installs Chromium and Playwright first (the ``.venv/.browser`` prerequisite), so
a missing browser is a failure of the set-up, reported as such. A screenshot of each page is kept in
``artifacts/``.

The page builds each board when it is shown, from the compact log it carries: the boards it shows are checked
against the board the Python fold gives at the same point (``tools.page.html.frame`` of the state there), both as
data (``kifu.board``) and as read back from the page itself.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from tests.tools.games import export, sampled_games
from tools.cli import main
from tools.page.frames import frame
from tools.travel.loaded import load_log
from tools.travel.trace import Memory

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
    page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
    page.wait_for_selector("#events .ev")
    return page, errors


def slide_to(page: Any, index: int) -> None:
    page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", str(index))


def battle_ids(page: Any, zone: str) -> list[int]:
    return page.eval_on_selector_all(f'[data-zone="{zone}"] .card', "els => els.map(e => Number(e.dataset.obj))")


def shown_board(page: Any) -> dict[str, Any]:
    """What the page shows of the board, read back from its elements."""
    shown: dict[str, Any] = page.evaluate("""() => {
        const text = (n) => n ? n.textContent : null;
        const zones = {}, power = {}, status = {};
        document.querySelectorAll("#board .zone").forEach((z) => {
            zones[z.dataset.zone] = {
                cards: Array.from(z.querySelectorAll(".card"), (c) => Number(c.dataset.obj)),
                hidden: text(z.querySelector(".hidden")),
            };
            z.querySelectorAll(".card").forEach((c) => {
                if (c.querySelector(".pw")) power[c.dataset.obj] = text(c.querySelector(".pw")).trim();
                if (c.querySelector(".st")) status[c.dataset.obj] = text(c.querySelector(".st")).trim();
            });
        });
        return {
            zones, power, status,
            players: Array.from(document.querySelectorAll("#board .player[data-player] h2"), (h) => h.textContent),
            pending: Array.from(document.querySelectorAll("#pending .pend"), (p) => Number(p.dataset.effect)),
            status_line: document.getElementById("status").textContent,
        };
    }""")
    return shown


def expected_shown(board: dict[str, Any]) -> dict[str, Any]:
    """What the page must show of ``board`` (a board as ``tools.page.html.frame`` makes it)."""
    zones: dict[str, Any] = {}
    for name, content in board["zones"].items():
        if isinstance(content, dict):
            hidden = content["count"] - len(content["visible"])
            zones[name] = {"cards": content["visible"], "hidden": f"{hidden} hidden" if hidden else None}
        elif name.endswith("deck"):
            zones[name] = {"cards": [], "hidden": f"{len(content)} cards"}
        else:
            zones[name] = {"cards": content, "hidden": None}
    listed = {str(o) for z in zones.values() for o in z["cards"]}
    players = []
    for p in board["players"]:
        stats = ", ".join(f"{k} {v}" for k, v in p["stats"].items())
        players.append(p["name"] + (f" · {stats}" if stats else "") + (f" · LOST: {p['lost']}" if p["lost"] else ""))
    line = f"turn {board['turn']}" + (f" · {board['phase']}" + (f" / {board['step']}" if board["step"] else "")
                                      if board["phase"] else "")
    return {
        "zones": zones, "players": players, "pending": [p["effect"] for p in board["pending"]],
        "power": {o: str(v) for o, v in board["power"].items() if o in listed},
        "status": {o: f"({v})" for o, v in board["status"].items() if o in listed},
        "status_line": line + f" · priority: {board['priority'] or 'nobody'}",
    }


def check_boards(page: Any, boards: dict[int, dict[str, Any]], indexes: dict[int, int]) -> None:
    """At each record (by sequence number), the page's board is the fold's, as data and as shown."""
    for seq, board in boards.items():
        slide_to(page, indexes[seq])
        assert page.get_attribute("body", "data-seq") == str(seq)
        assert page.evaluate("(i) => kifu.board(i)", indexes[seq]) == board, f"board after record {seq}"
        shown = shown_board(page)
        want = expected_shown(board)
        assert shown["status_line"].startswith(want.pop("status_line")), shown["status_line"]
        shown.pop("status_line")
        assert shown == want, f"the page shows another board after record {seq}"


def folded_boards(records: Any, seqs: set[int], viewer: int | None = None) -> dict[int, dict[str, Any]]:
    """The board after each record in ``seqs``, as the Python fold gives it (JSON-read, as the page holds it)."""
    from projections.state import GameState
    from tools.logs.folding import apply

    state, mem, out = GameState(), Memory(), {}
    for r in records:
        apply(state, r.seq, r.event, r.decision)
        mem.note(r.seq, r.event)
        if r.seq in seqs:
            out[r.seq] = json.loads(json.dumps(frame(state, viewer, mem)))
    return out


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


def sample_points(n: int, rng: random.Random, k: int = 8) -> set[int]:
    """Indexes to look at: the first and last records, both sides of the first full boards after the first
    one, and ``k`` at random."""
    from tools.page.html import KEYFRAME_EVERY

    edges = {KEYFRAME_EVERY - 1, KEYFRAME_EVERY, KEYFRAME_EVERY + 1, 2 * KEYFRAME_EVERY - 1}
    return {0, n - 1} | {i for i in edges if i < n} | set(rng.sample(range(n), min(k, n)))


@pytest.mark.parametrize("name", sampled_games())
def test_the_boards_the_page_builds_are_those_the_fold_gives(browser: Any, tmp_path: Path, name: str) -> None:
    for viewer in (None, 1):
        extra = ("--player", str(viewer)) if viewer is not None else ()
        log_path, html = write_page(tmp_path, name, *extra)
        log = load_log(str(log_path))
        indexes = {r.seq: i for i, r in enumerate(log.records)}
        points = sample_points(len(log.records), random.Random(f"{name} {viewer}"))
        boards = folded_boards(log.records, {log.records[i].seq for i in points}, viewer)
        page, errors = open_page(browser, html)
        order = sorted(boards)
        random.Random(name).shuffle(order)  # backwards and forwards, across full boards
        check_boards(page, {seq: boards[seq] for seq in order}, indexes)
        # Step by step with the ▶ button (each board built from the one before).
        start = min(len(log.records) - 4, len(log.records) // 3)
        steps = {log.records[i].seq for i in range(start, start + 4)}
        slide_to(page, start)
        for seq, board in folded_boards(log.records, steps, viewer).items():
            if seq != log.records[start].seq:
                page.click("#next")
            assert page.get_attribute("body", "data-seq") == str(seq)
            assert page.evaluate("(i) => kifu.board(i)", indexes[seq]) == board
        assert errors == []
        page.close()


LONG = 100_000


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: Any) -> tuple[Path, Path, float]:
    """A generated game of 100,000 events in a store, and its page (with the seconds it took to write)."""
    folder = tmp_path_factory.mktemp("long")
    db, out = folder / "synth.db", folder / "synth.html"
    result = CliRunner().invoke(main, ["synth", "--db", str(db), "--events", str(LONG)])
    assert result.exit_code == 0, result.output
    began = time.perf_counter()
    result = CliRunner().invoke(main, ["view", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return db, out, time.perf_counter() - began


def test_a_page_of_100000_events_is_small_opens_and_scrubs_to_the_right_boards(
        browser: Any, long_game: tuple[Path, Path, float]) -> None:
    from tools.logs.sources import open_log

    db, html, made = long_game
    size = html.stat().st_size
    assert size <= 10_000_000, f"a page of {LONG} events takes {size:,} bytes"
    with open_log(str(db)) as source:
        from eventsource.records import decode

        records = [decode(raw) for raw in source.records()]
    assert len(records) == LONG
    indexes = {r.seq: i for i, r in enumerate(records)}
    points = sample_points(LONG, random.Random(LONG), k=12)
    boards = folded_boards(records, {records[i].seq for i in points})
    del records

    began = time.perf_counter()
    page, errors = open_page(browser, html)
    opened = time.perf_counter() - began
    assert page.get_attribute("body", "data-seq") == str(LONG)
    order = sorted(boards)
    random.Random(1).shuffle(order)
    timings = []
    for seq in order:  # how long the page takes to build and lay out a board it jumps to
        timings.append(page.evaluate("""(i) => {
            const s = document.getElementById("slider"), t = performance.now();
            s.value = String(i); s.dispatchEvent(new Event("input"));
            document.body.offsetHeight;
            return performance.now() - t;
        }""", indexes[seq]))
    check_boards(page, {seq: boards[seq] for seq in order}, indexes)
    page.screenshot(path=str(ARTIFACTS / "view-100000.png"))
    assert errors == []
    page.close()
    figures = {"events": LONG, "page_bytes": size, "write_seconds": round(made, 1),
               "open_seconds": round(opened, 2), "jump_ms_median": round(sorted(timings)[len(timings) // 2], 1),
               "jump_ms_max": round(max(timings), 1)}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "view-100000.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(figures)
    # Generous (a jump takes tens of milliseconds; a loaded machine may be slower): a page that rebuilt boards
    # from the start of the game, or touched every row of the list, would take seconds.
    assert max(timings) < 2_000, figures


# -- moving about, who must act, the stack (issue #21) -----------------------------------------------------


@pytest.fixture(scope="module")
def demo_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of the demo's game (``kifu demo``: Duel Masters, seed 2026)."""
    folder = tmp_path_factory.mktemp("demo-page")
    db, out = folder / "demo.db", folder / "demo.html"
    assert CliRunner().invoke(main, ["demo", "--db", str(db)]).exit_code == 0
    result = CliRunner().invoke(main, ["view", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def seq_shown(page: Any) -> int:
    return int(page.get_attribute("body", "data-seq"))


def test_each_arrow_key_moves_one_record_after_the_slider_was_used(browser: Any, demo_page: Path) -> None:
    page, errors = open_page(browser, demo_page)
    page.focus("#slider")
    slide_to(page, 330)  # record 331; records 332 and 342 ask a choice, and are not skipped
    assert seq_shown(page) == 331
    for want in (332, 333):
        page.keyboard.press("ArrowRight")
        assert seq_shown(page) == want
    page.keyboard.press("ArrowLeft")
    assert seq_shown(page) == 332
    page.click("#current")  # the slider no longer focused: the page's own keys
    page.keyboard.press("ArrowRight")
    assert seq_shown(page) == 333
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert seq_shown(page) == 331
    assert errors == []
    page.close()


def test_a_record_is_reached_by_the_box_and_by_the_address(browser: Any, demo_page: Path) -> None:
    page, errors = open_page(browser, demo_page)
    page.fill("#goto", "342")
    page.press("#goto", "Enter")
    assert seq_shown(page) == 342
    page.evaluate("() => { location.hash = '#record-100'; }")
    page.wait_for_function("() => document.body.dataset.seq === '100'")
    page.goto(demo_page.as_uri() + "#record-338")  # (a file URL: no response to check; the page says where it is)
    page.wait_for_selector("body[data-ready]", state="attached")
    assert seq_shown(page) == 338
    assert errors == []
    page.close()


def test_to_act_marks_whoever_must_act_and_nobody_in_the_middle_of_a_procedure(
        browser: Any, demo_page: Path) -> None:
    page, errors = open_page(browser, demo_page)
    acting = "() => Array.from(document.querySelectorAll('#board .player.acting'), (p) => p.dataset.player)"
    slide_to(page, 341)  # record 342: Bob's turn, Alice chooses which of her abilities resolves next
    assert page.evaluate(acting) == ["0"]
    assert "Alice to choose which pending ability resolves next" in page.inner_text("#status")
    slide_to(page, 337)  # record 338: effect #2 resolving, nobody asked
    assert page.evaluate(acting) == []
    assert "in progress: #2 効果バトル resolving · nobody is asked at this point" in page.inner_text("#status")
    slide_to(page, 320)  # record 321: Bob's main step begins; Bob acts next (record 322)
    assert page.evaluate(acting) == ["1"]
    assert errors == []
    page.close()


def test_magic_lists_the_battlefield_above_the_deck_and_its_stack_says_what_resolves_next(
        browser: Any, tmp_path: Path) -> None:
    log_path, html = write_page(tmp_path, "magic")
    log = load_log(str(log_path))
    page, errors = open_page(browser, html)
    zones = page.eval_on_selector_all('#board .player[data-player="0"] .zone', "els => els.map(e => e.dataset.zone)")
    assert zones.index("0.battlefield") < zones.index("0.deck"), zones
    stacked = [r.seq for r in log.records if len([p for p in log.state_at(r.seq).pending.values()
                                                  if p.holder == "stack" and not p.resolving]) >= 1
               and not any(p.resolving for p in log.state_at(r.seq).pending.values())]
    assert stacked, "no stack in the sample game"
    for seq in stacked[:: max(1, len(stacked) // 5)]:
        page.evaluate("(i) => kifu.go(i)", seq - 1)
        top = max((p for p in log.state_at(seq).pending.values() if p.holder == "stack"), key=lambda p: p.key)
        rows = page.eval_on_selector_all("#pending .pend", "els => els.map(e => [e.dataset.effect, e.textContent])")
        assert [e for e, text in rows if "resolves next" in text] == [str(top.effect)], (seq, rows)
    assert errors == []
    page.close()


def test_the_chain_shows_the_targets_of_its_entries(browser: Any, tmp_path: Path) -> None:
    log_path, html = write_page(tmp_path, "vision")
    log = load_log(str(log_path))
    page, errors = open_page(browser, html)
    seq = next(r.seq for r in log.records if any(p.targets for p in log.state_at(r.seq).pending.values()))
    page.evaluate("(i) => kifu.go(i)", seq - 1)
    targeted = next(p for p in log.state_at(seq).pending.values() if p.targets)
    row = page.inner_text(f'#pending .pend[data-effect="{targeted.effect}"]')
    assert " · targets " in row, row
    assert errors == []
    page.close()
