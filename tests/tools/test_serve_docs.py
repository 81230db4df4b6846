"""docs/server.md's client examples, run as a reader would run them: the Python client (``python``) and the
JavaScript one (``node``, as an ES module) each play a whole Shadowverse match against the real ``kifu serve``
on a free loopback port, its address put in place of the example's. Each prints the match and its winner for
both seats; the match has ended on the server, with that winner."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.tools.serving import ROOT, Serve, fresh_server

DOC = ROOT / "docs" / "server.md"
EXAMPLE_SERVER = "http://127.0.0.1:8000"
NODE_20_FLAGS = ("--experimental-websocket",)  # (Node 22 has WebSocket built in; 20 asks for it)


def example(heading: str, language: str) -> str:
    """The code block in ``language`` under the section whose heading starts with ``heading``."""
    section = DOC.read_text(encoding="utf-8").split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert found, f"no {language} example under '{heading}' in {DOC}"
    assert EXAMPLE_SERVER in found[1]
    return found[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    server = fresh_server(tmp_path_factory.mktemp("docs"))
    yield server
    server.stop()


def check_printed(out: str, served: Serve) -> None:
    """Both seats printed ``MATCH winner W``, for the same match, which the server says ended so."""
    lines = re.findall(r"^(m-\S+) winner (\S+)$", out, re.M)
    assert len(lines) == 2 and lines[0] == lines[1], out
    match, winner = lines[0]
    info = httpx.get(f"{served.url}/api/matches/{match}").json()
    assert info["ended"] and str(info["winner"]) == ("None" if winner in ("None", "null") else winner), info


def test_the_python_client_example_plays_a_match_to_its_end(served: Serve, tmp_path: Path) -> None:
    script = tmp_path / "client.py"
    script.write_text(example("A Python client", "python").replace(EXAMPLE_SERVER, served.url), encoding="utf-8")
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    check_printed(ran.stdout, served)


def test_the_javascript_client_example_plays_a_match_to_its_end(served: Serve, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "node is missing: the JavaScript example is run with Node 20 or later"
    script = tmp_path / "client.mjs"
    script.write_text(example("A JavaScript client", "js").replace(EXAMPLE_SERVER, served.url), encoding="utf-8")
    version = int(subprocess.run([node, "--version"], capture_output=True, text=True).stdout.lstrip("v").split(".")[0])
    flags = NODE_20_FLAGS if version < 22 else ()
    ran = subprocess.run([node, *flags, str(script)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "refused" not in ran.stdout, ran.stdout
    check_printed(ran.stdout, served)
