"""The debugger: ``kifu debug`` (a local web app over a log or a scenario) and ``kifu query`` (a value at every
record where it changed, or the records where a condition holds, one line each)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tools import errors
from tools.commands.options import player_option
from tools.errors import BadInput


@click.command("debug")
@click.argument("target", metavar="LOG | SCENARIO.toml")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: any free one).")
@click.option("--no-browser", is_flag=True, help="Only print the URL; do not open a browser.")
@click.option("--forks", "forks", default=None, metavar="PATH",
              help="The SQLite store what-if branches are kept in [default: a new private folder].")
@click.option("--db", "db", default=None, metavar="PATH",
              help="For a scenario: keep its log in this store (else in the private folder).")
def debug(target: str, game: str | None, port: int, no_browser: bool, forks: str | None, db: str | None) -> None:
    """Open the debugger on LOG (a store or an exported file) or on a scenario file.

    A local web app (on 127.0.0.1, opened with a URL that carries a secret token): step by event, decision or
    turn; click any value for the record and rule that set it and the causes back to the decision; why and
    why-not; stop where a condition holds, forward or back; a value at every record; play another legal decision
    in a what-if branch. For a scenario, it runs the scenario keeping its log and opens at its first failing
    expectation; editing the file runs it again. The JSON API is described at /openapi.json.
    """
    from tools.debug.serve import serve
    from tools.debug.session import Session, Source, run_scenario, scratch_dir

    folder = scratch_dir()
    path = Path(target)
    source = run_scenario(path, folder, 1, db) if path.suffix == ".toml" else Source(target, game)
    session = Session(source, forks or str(folder / "forks.db"))
    session.info()  # (opens the log: a log that cannot be read is refused before anything listens)
    session.close()  # (the server reopens it on its own thread)
    session.warm = True  # (and then fills the indices a value's origin reads, in the background)
    serve(session, port=port, open_browser=not no_browser)


@click.command("query")
@click.argument("log_path", metavar="LOG")
@click.argument("expression", metavar="EXPR")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
@player_option()
@click.option("--where", "as_condition", is_flag=True,
              help="EXPR is a condition: list the records where it holds (not a value where it changed).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
def query(log_path: str, expression: str, game: str | None, player: str | None, as_condition: bool,
          as_json: bool) -> None:
    """A value at every record where it changed: EXPR is a value (power CARD, toughness CARD, zone CARD,
    controller CARD, status CARD KEY, stat PLAYER KEY, life PLAYER, pending [HOLDER], size ZONE, turn, phase,
    step, priority). With --where, EXPR is a condition and each record where it holds is listed (event KIND,
    triggers CARD, leaves ZONE, enters ZONE, decision [PLAYER], changes VALUE, VALUE OP X; joined by 'and').

    CARD is #OBJECT, card:ID or a card's name, followed across zone changes. With --player P, as seat P knew the
    game (a card hidden from P reads "hidden"). Folds the log once from its start, streaming. (The condition
    refused [PLAYER] finds nothing here: a refused decision appends nothing to a log; kifu debug stops at the
    refusals its session knows of.)
    """
    from tools.debug.expressions import parse_condition, parse_value
    from tools.debug.search import Match, Progress, changes, searching
    from tools.debug.session import Session, Source, names_of
    from tools.progress import bar, wanted

    session = Session(Source(log_path, game), forks_db="")
    try:
        log = session.log(None)
        viewer = session.seat(log, player)
        found = 0
        with bar("query", log.last, wanted(log.last)) as advance:
            if as_condition:
                cond = parse_condition(expression, names_of(log))
                at = 0
                while True:
                    match = None
                    for item in searching(log, cond, at, "next", viewer):
                        if isinstance(item, Progress):
                            advance(item.seq)
                        elif isinstance(item, Match):
                            match = item
                    if match is None:
                        break
                    found += 1
                    _print(as_json, {"seq": match.seq, "line": log.line(match.seq)} if viewer is None else
                           {"seq": match.seq}, f"{log.line(match.seq)}" if viewer is None else f"record {match.seq}")
                    at = match.seq
            else:
                value = parse_value(expression.split(), names_of(log))
                for change in changes(log, value, viewer):
                    if isinstance(change, Progress):
                        advance(change.seq)
                        continue
                    seq, v = change
                    found += 1
                    _print(as_json, {"seq": seq, "value": v}, f"record {seq}: {expression} = {v}")
    finally:
        session.close()
    if found == 0 and as_condition:
        raise click.exceptions.Exit(errors.FINDING)


def _print(as_json: bool, data: dict[str, object], text: str) -> None:
    click.echo(json.dumps(data, ensure_ascii=False) if as_json else text)


__all__ = ["BadInput", "debug", "query"]
