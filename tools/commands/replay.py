"""``kifu replay``: a game's log as a readable trace."""

from __future__ import annotations

import sys

import click

from tools import errors
from tools.commands.options import game_option
from tools.errors import BadInput
from tools.logging import get_logger
from tools.logs.folding import Inconsistent
from tools.logs.sources import LineProblem, open_log
from tools.progress import Counter, bar, on_terminal, wanted
from tools.travel.trace import Filters, Trace, resolve_kind

log = get_logger("kifu.replay")


@click.command("replay")
@click.argument("log_path", metavar="LOG")
@click.argument("game", required=False)
@click.option("--turn", type=click.IntRange(min=0), metavar="N", help="Only turn N (0 is the set-up).")
@click.option("--player", "viewer", metavar="P", default=None,
              help="The game as player P (a seat number, else a name) knew it: what P could not see stays hidden.")
@click.option(
    "--about", "players", multiple=True, metavar="P",
    help="Only events about player P (a seat number, else a name); repeatable.",
)
@click.option(
    "--kind", "kinds", multiple=True, metavar="KIND",
    help="Only events of this kind (ZoneChanged, zone_changed, Triggered, ...); repeatable.",
)
@click.option("--all", "everything", is_flag=True,
              help="One line per record, even for the cards the set-up creates (summarised by default).")
@game_option()
def replay(
    log_path: str, game: str | None, turn: int | None, viewer: str | None, players: tuple[str, ...],
    kinds: tuple[str, ...], everything: bool,
) -> None:
    """Fold a game's log and print it as a trace, one line per event, grouped by turn.

    LOG is an exported JSON-lines file or a store (a SQLite file); GAME may be left out when the store holds a
    single game. Each line starts with the record's sequence number; zone changes name the card that moved,
    triggers their source, cause and the state they were checked in, pending effects their holder, then the
    choices, resolutions and fizzles with their reasons. The cards the set-up creates are summarised in one
    line per zone (--all prints each).

    The hash chain is checked on the way: if it breaks, the trace is still printed, a warning says where, and
    the exit code is 1 (run `kifu audit` for the full report).
    """
    filters = Filters(turn, players, frozenset(resolve_kind(k) for k in kinds), everything, viewer)
    trace = Trace(filters)
    problem: LineProblem | None = None
    inconsistent: Inconsistent | None = None
    out = sys.stdout
    with open_log(log_path, game) as source:
        length = source.length() if on_terminal() else 0
        with bar("replaying", length, wanted(length)) as advance:
            counter = Counter(advance)
            for item in source.scan():
                if isinstance(item, LineProblem):
                    problem = item
                    break
                try:
                    lines = trace.feed(item)
                except Inconsistent as exc:
                    inconsistent = exc
                    break
                if lines:
                    out.write("\n".join(lines) + "\n")
                counter.tick()
                if trace.done:
                    break
            tail = trace.finish()
            if tail:
                out.write("\n".join(tail) + "\n")
            counter.flush()
        out.flush()
    log.info("replayed", source=log_path, game=source.game, records=trace.state.seq)
    if turn is not None and turn > trace.state.turn and problem is None and inconsistent is None:
        raise BadInput(f"game {source.game} has turns 0 to {trace.state.turn}; there is no turn {turn}")
    messages = []
    if trace.broken is not None:
        messages.append(f"warning: the hash chain breaks: {trace.broken}; run kifu audit {log_path}")
    if problem is not None:
        messages.append(f"error: line {problem.line}: {problem.message}; the trace stops there")
    if inconsistent is not None:
        messages.append(f"error: {inconsistent}; the trace stops there (run kifu audit {log_path})")
    for message in messages:
        click.echo(message, err=True)
    if messages:
        raise click.exceptions.Exit(errors.FINDING)
