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
from tools.safe import visible

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
    from tools.html import read_page

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
