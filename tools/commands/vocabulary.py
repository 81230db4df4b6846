"""``kifu vocabulary``: the reference of every name card and scenario files may use (docs/vocabulary.md)."""

from __future__ import annotations

from pathlib import Path

import click

from tools import errors
from tools.cards.vocabulary import DOC, render
from tools.logs.output import regular_target, write_atomically


@click.command("vocabulary")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the reference to this file instead of printing it.")
@click.option("--check", is_flag=True, help=f"Exit 1 if {DOC.name} in docs/ is not what the code says now.")
def vocabulary(output: Path | None, check: bool) -> None:
    """Print the vocabulary reference, generated from the code: per game, the decisions, requests, effects
    (with their parameters and types), conditions, costs, triggers, filters, keywords and selectors; and every
    scenario expectation key."""
    if output is not None:
        regular_target(output, "kifu vocabulary")  # (refused before the reference is made)
    text = render()
    if check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            click.echo(f"{DOC} is not current: run `kifu vocabulary -o {DOC}`", err=True)
            raise click.exceptions.Exit(errors.FINDING)
        click.echo(f"{DOC} is current")
        return
    if output is not None:
        write_atomically(output, lambda path: path.write_text(text, encoding="utf-8"), "kifu vocabulary")
        return
    click.echo(text, nl=False)
