"""``kifu verify``: re-adjudication of one game's log under the rules it names."""

from __future__ import annotations

import json

import click

from tools import errors
from tools.adjudication import readjudicate
from tools.loaded import load_log
from tools.logging import get_logger
from tools.verdict import verify_json, verify_lines

log = get_logger("kifu.verify")


@click.command("verify")
@click.argument("log_path", metavar="LOG")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--all", "full", is_flag=True, help="List every card of every zone in the state shown.")
def verify(log_path: str, game: str | None, as_json: bool, full: bool) -> None:
    """Re-adjudicate a game: run the rules again on its set-up, seed and decisions, and compare.

    The rules are the profile the log names (its GameStarted record). If the log names rules or a card pool
    other than those installed, that is said first. Then every recorded consequence is compared with what
    the rules give; the first divergence is reported with both events, the decision it belongs to and the
    state just before it. A decision the rules refuse is reported with the rule it breaks.

    LOG is an exported JSON-lines file or a store; GAME may be left out when the store holds one game.
    Exit 0 the log and the rules agree, 1 they diverge, 2 the log or its rules cannot be read.
    """
    loaded = load_log(log_path, game)
    profile = loaded.profile()
    result = readjudicate(loaded, profile)
    log.info("verified", source=log_path, game=loaded.game, same=result.same, decisions=result.decisions,
             divergence=result.divergence.seq if result.divergence else None)
    if as_json:
        click.echo(json.dumps(verify_json(loaded, result), ensure_ascii=False, indent=2))
    else:
        for line in verify_lines(loaded, result, full=full):
            click.echo(line)
    if not result.same:
        raise click.exceptions.Exit(errors.FINDING)
