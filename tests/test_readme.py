"""The README's embedding example runs as written, and names exactly two set-up commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def test_the_embedding_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "README has no python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "DM-GAME-TURN" in capsys.readouterr().out


def test_exactly_two_setup_commands() -> None:
    setup = README.split("## Set-up", 1)[1].split("##", 1)[0]
    commands = re.findall(r"^make (\w+)", setup, re.M)
    assert commands == ["demo", "test"]


def shell_examples(text: str = README) -> list[tuple[str, str]]:
    """Every ``$ command`` in README's plain code blocks with the lines it shows printed, in order."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"^```\n(.*?)^```", text, re.S | re.M):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            examples.append((command, shown.rstrip("\n")))
    return examples


def test_readme_shows_shell_examples() -> None:
    commands = [command.split()[1] for command, _ in shell_examples()]
    assert {"demo", "audit", "why", "verify", "fork", "decide", "diff"} <= set(commands)


def test_every_shell_example_prints_what_readme_shows(tmp_path: Path) -> None:
    """#21: README's examples are run as written (in the repository, with ``kifu`` on PATH and ``/tmp/``
    turned into a fresh folder) and must print what README shows, line for line: drift fails ``make test``."""
    import os
    import subprocess
    import sys

    root = Path(__file__).parents[1]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "KIFU_DB": str(tmp_path / "kifu.db"), "COLUMNS": "110"}
    drift = []
    for command, shown in shell_examples():
        here = command.replace("/tmp/", f"{tmp_path}/")
        ran = subprocess.run(["bash", "-o", "pipefail", "-c", here], cwd=root, env=env, capture_output=True,
                             text=True, timeout=600, check=False)
        printed = ran.stdout.rstrip("\n").replace(f"{tmp_path}/", "/tmp/")
        if printed != shown:
            import difflib

            diff = "\n".join(difflib.unified_diff(shown.splitlines(), printed.splitlines(), "README", "kifu",
                                                  lineterm=""))
            drift.append(f"$ {command}\n{diff}\n{ran.stderr[-500:]}")
    assert not drift, "README's examples print otherwise now:\n\n" + "\n\n".join(drift)


def test_every_markdown_link_resolves_inside_the_repository() -> None:
    """#21: a link in any Markdown file of the repository names a file or folder of the repository (never
    ``../shared``, never a file that is not there); web links are left to the reader."""
    root = Path(__file__).parents[1]
    tracked = [p for p in root.rglob("*.md") if not {".venv", "node_modules", ".git"} & set(p.parts)
               and "egg-info" not in str(p)]
    broken = []
    for doc in tracked:
        text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (doc.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() or root.resolve() not in path.parents:
                broken.append(f"{doc.relative_to(root)}: {target}")
    assert broken == []


def test_no_doc_points_outside_the_repository() -> None:
    root = Path(__file__).parents[1]
    for doc in [root / "README.md", *(root / "docs").rglob("*.md")]:
        assert "../shared" not in doc.read_text(encoding="utf-8"), doc
