"""``kifu scenario run PATH...``: run scenario files (or folders of them), one line per scenario."""

from __future__ import annotations

from contextlib import ExitStack

import click

from eventsource.store import EventStore
from statemachine.scenario import ScenarioError, files, run_file
from tools import errors
from tools.errors import BadInput
from tools.logs.stores import open_store


@click.group("scenario")
def scenario() -> None:
    """Scenario files: set up a board, script the decisions, check what must hold (docs/scenarios.md)."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
@click.option("--db", "db", default=None, metavar="PATH",
              help="Keep each scenario's log in this store, under the scenario's id (then kifu at, why, audit, "
                   "debug ... read it); a store that already holds that id is refused.")
def run(paths: tuple[str, ...], quiet: bool, db: str | None) -> None:
    """Run scenario files or folders; exit 0 only if every scenario passes (1 if one fails, 2 if one cannot
    be read)."""
    with ExitStack() as stack:
        store = stack.enter_context(open_store(db, write=True)) if db is not None else None
        _run(paths, quiet, store)


def _run(paths: tuple[str, ...], quiet: bool, store: EventStore | None) -> None:
    passed = failed = broken = 0
    for path in files(paths):
        try:
            result = run_file(path, store)
        except ScenarioError as exc:
            broken += 1
            click.echo(f"ERROR {path}: {exc}")
            continue
        if result.ok:
            passed += 1
            if not quiet:
                click.echo(f"ok    {result.id}  {path}")
        else:
            failed += 1
            click.echo(f"FAIL  {result.id}  {path}\n{_indent(result.message)}")
    if passed + failed + broken == 0:
        raise BadInput(f"no scenario files (*.toml) in {', '.join(paths)}")
    click.echo(f"{passed} passed, {failed} failed" + (f", {broken} unreadable" if broken else ""))
    if broken:
        raise click.exceptions.Exit(errors.BAD_INPUT)
    if failed:
        raise click.exceptions.Exit(errors.FINDING)


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.splitlines())
