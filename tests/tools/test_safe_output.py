"""Text from a log is shown, never obeyed: control characters in names reach neither the terminal nor the page raw."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from eventsource.sqlite import SQLiteStore
from statemachine.engine import Engine
from statemachine.games import profile
from statemachine.games.duel_masters.demo import DECK_A, DECK_B
from tools.cli import main
from tools.logs.safe import visible

HOSTILE = "Al\x1b[2Jice\x07\x9b31m"  # clear the screen, ring the bell, a C1 CSI
TAG = "<!--<script>"


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.db"
    with SQLiteStore(path) as store:
        Engine.new(profile("duel_masters"), [HOSTILE, TAG], [list(DECK_A), list(DECK_B)], 3, store=store, game="g")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_visible_shows_every_control_character_but_tab_and_newline() -> None:
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible(HOSTILE) == "Al\\x1b[2Jice\\x07\\x9b31m"
    assert all(ord(c) >= 0x20 or c in "\t\n" for c in visible("".join(map(chr, range(0x20)))))


@pytest.mark.parametrize("command", [["replay"], ["at", "--", "{db}", "41"], ["games", "--db"]])
def test_commands_print_a_hostile_name_as_escapes(hostile_db: Path, command: list[str]) -> None:
    args = [a.replace("{db}", str(hostile_db)) for a in command]
    if "{db}" not in " ".join(command):
        args.append(str(hostile_db))
    code, out, _ = run(*args)
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out


def test_on_a_terminal_a_hostile_name_is_shown_as_escapes(hostile_db: Path) -> None:
    """Off a terminal click drops ANSI sequences itself; on one, only kifu stands between a log and the screen."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    kifu = Path(sys.executable).with_name("kifu")
    proc = subprocess.run([str(kifu), "at", str(hostile_db), "41"], stdout=follower, stderr=subprocess.PIPE,
                          timeout=120, check=False)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert proc.returncode == 0, proc.stderr
    text = out.decode("utf-8")
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "Al\\x1b[2Jice\\x07\\x9b31m" in text


def test_an_error_message_naming_hostile_input_is_escaped(hostile_db: Path) -> None:
    code, _, err = run("replay", str(hostile_db), "no\x1b[2Jsuch")
    assert code == 2
    assert "\x1b" not in err and "no\\x1b[2Jsuch" in err


def test_the_page_embeds_any_name_so_that_the_script_still_reads_it(hostile_db: Path, tmp_path: Path) -> None:
    from tools.page.html import read_page

    out = tmp_path / "game.html"
    code, _, _ = run("view", str(hostile_db), "-o", str(out), "--player", "1")  # the page's head names seat 1
    assert code == 0
    html = out.read_text(encoding="utf-8")
    head = re.search(r'<script id="kifu-data"[^>]*>(.*?)</script>', html, re.S)
    packed = re.search(r'<script id="kifu-log"[^>]*>(.*?)</script>', html, re.S)
    assert head is not None and packed is not None
    assert "<" not in head.group(1)  # nothing in the data can open a comment or end the script
    assert json.loads(head.group(1))["viewer"] == TAG  # the script reads the name back whole
    assert re.fullmatch(r"[A-Za-z0-9+/]*=*", packed.group(1))  # the log is base64: no markup at all
    first = read_page(html).board(0)
    assert [p["name"] for p in first["players"]] == [HOSTILE, TAG]


# A player named to write the judge's clipboard (OSC 52), retitle the window (OSC 0), clear the screen (CSI 2J)
# and turn the text after it backwards (U+202E), in a game whose id does the same (#21).
CLIPBOARD = "Al\x1b]52;c;aGk=\x07i\x1b]0;pwn\x07ce\x1b[2J\u202e"
GAME_ID = "g\x1b[2J\u202eid"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.fixture
def clipboard_db(tmp_path: Path) -> Path:
    path = tmp_path / "clipboard.db"
    with SQLiteStore(path) as store:
        engine = Engine.new(profile("duel_masters"), [CLIPBOARD, "Bob\u202e"], [list(DECK_A), list(DECK_B)], 3,
                            store=store, game=GAME_ID)
        for _ in range(3):
            engine.decide(engine.legal().decisions[0])
    return path


def test_visible_shows_bidirectional_overrides_and_every_c1_control_as_escapes() -> None:
    assert visible(CLIPBOARD) == "Al\\x1b]52;c;aGk=\\x07i\\x1b]0;pwn\\x07ce\\x1b[2J\\u202e"
    assert RAW.search(visible("".join(map(chr, range(0x2100))).replace("\t", "").replace("\n", ""))) is None


# Every command that prints a name or a game id, with what it needs (a db, a log, an output file).
NAMING = [
    ["games", "--db", "{db}"],
    ["replay", "{db}"],
    ["replay", "{db}", "--player", "1"],
    ["at", "{db}", "110"],
    ["at", "{db}", "110", "--player", "0"],
    ["diff", "{db}", "108", "112"],
    ["why-not", "{db}", "110", "#91"],
    ["audit", "{db}"],
    ["verify", "{db}"],
    ["export", "--db", "{db}", "-o", "-"],
    ["export", "--db", "{db}", "-o", "{out}.jsonl"],
    ["view", "{db}", "-o", "{out}.html"],
    ["snapshot", "--db", "{db}"],
    ["fork", "{db}", "110", "--db", "{out}.db"],
    ["decide", "--db", "{db}", GAME_ID],
]


@pytest.mark.parametrize("command", NAMING, ids=lambda c: "-".join(a for a in c[:2] if "{" not in a))
@pytest.mark.parametrize("verbose", [[], ["-vv"]], ids=["quiet", "logs"])
def test_no_command_writes_a_control_or_override_character_on_a_pipe(
        clipboard_db: Path, tmp_path: Path, command: list[str], verbose: list[str]) -> None:
    """CliRunner's streams are pipes, where click would strip CSI sequences itself: a saved report would show a
    name other than the log's. Both stdout and stderr (with the logs) show every such character as an escape."""
    args = [a.replace("{db}", str(clipboard_db)).replace("{out}", str(tmp_path / "out")) for a in command]
    result = CliRunner().invoke(main, verbose + args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    for stream in (result.stdout, result.stderr):
        assert RAW.search(stream) is None, stream
    shown = result.stdout + result.stderr
    assert "Al\\x1b]52;c;aGk=\\x07i\\x1b]0;pwn\\x07ce\\x1b[2J\\u202e" in shown or "g\\x1b[2J\\u202eid" in shown


def test_the_logs_in_json_escape_them_too(clipboard_db: Path) -> None:
    result = CliRunner().invoke(main, ["--log-json", "-v", "verify", str(clipboard_db)])
    assert result.exit_code == 0
    assert RAW.search(result.stderr) is None
    assert json.loads(result.stderr.splitlines()[-1])["game"] == GAME_ID


def test_an_exported_file_reads_back_the_same_names_and_holds_no_raw_override(clipboard_db: Path,
                                                                              tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert CliRunner().invoke(main, ["export", "--db", str(clipboard_db), "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert RAW.search(text) is None
    first = json.loads(text.splitlines()[0])
    assert first["game"] == GAME_ID and first["event"]["players"] == [CLIPBOARD, "Bob\u202e"]


def _on_a_terminal(*args: str) -> str:
    """What ``kifu ARGS`` writes to a terminal, stdout and stderr both (a pseudo-terminal)."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    kifu = Path(sys.executable).with_name("kifu")
    subprocess.run([str(kifu), *args], stdout=follower, stderr=follower, timeout=120, check=False)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    return out.decode("utf-8")


def test_on_a_terminal_names_and_logs_are_escaped_and_the_logs_keep_their_colours(clipboard_db: Path,
                                                                                  tmp_path: Path) -> None:
    text = _on_a_terminal("-v", "view", str(clipboard_db), "-o", str(tmp_path / "page.html"))
    assert "g\\x1b[2J\\u202eid" in text
    assert "\u202e" not in text and "\x07" not in text and "\x1b[2J" not in text and "\x1b]" not in text
    assert "\x1b[" in text  # structlog's colours are still there: only what the log holds is escaped
