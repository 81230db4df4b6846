"""``kifu view``: the game as one self-contained HTML page with a timeline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import click

from eventsource import events as ev
from eventsource import integrity
from eventsource.records import Record
from tools.commands.options import game_option, player_option, resolve_player
from tools.errors import BadInput, note_damage
from tools.logging import get_logger
from tools.logs.output import regular_target, write_atomically
from tools.logs.sources import LogSource, open_log
from tools.page.html import write_page
from tools.progress import Counter, bar, on_terminal, wanted
from tools.travel.streamed import decoded

log = get_logger("kifu.view")


@click.command("view")
@click.argument("log_path", metavar="LOG")
@click.argument("game", required=False)
@click.option("-o", "--output", required=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="Where to write the HTML page (a new file, or a regular file it replaces).")
@player_option("Show only what player P (a seat number, else a name) could see, at every point.")
@game_option()
def view(log_path: str, game: str | None, output: str, player: str | None) -> None:
    """Write the game as one HTML file that works offline: a slider over every record, the board and what
    is pending at each point, and from each trigger a link to the record that caused it.

    The page has no outside resources (script, style and the game itself are inside it), so it can be
    mailed or archived with the log. With --player the boards and event lines hide what that player could
    not see, as `kifu at --player` does. The log is read once, as it is stored (a bar shows the progress on a
    terminal): the page carries it compressed and builds each board when it is shown, so long games make
    pages of a few megabytes. FILE is written to a temporary file beside it and renamed when complete; if it
    exists it must be a regular file (never a device, a directory or a symbolic link).
    """
    target = regular_target(Path(output), "kifu view")
    with open_log(log_path, game) as source:
        names = list(_player_names(source))
        viewer = resolve_player(names, player)
        written = []

        total = source.length() if on_terminal() else 0

        def write(path: Path) -> None:
            with open(path, "wb") as out, bar("writing the page", total, wanted(total)) as advance:
                counter = Counter(advance)
                written.append(write_page(_checked(source, counter.tick), out, game=source.game,
                                          source=log_path, viewer=viewer))

        write_atomically(target, write, "kifu view")
    summary = written[0]
    size = target.stat().st_size
    log.info("viewed", source=log_path, game=source.game, output=output, bytes=size)
    click.echo(f"wrote {output}: {summary.records} records of game {source.game}"
               + (f" as {names[viewer]} sees it" if viewer is not None else "") + f" ({size:,} bytes)", err=True)


def _player_names(source: LogSource) -> tuple[str, ...]:
    """The players the log's first record names (none if it does not begin with the game's start)."""
    first = next(iter(source.records()), None)  # (the reader is dropped, and closed, at once)
    if first is None:
        raise BadInput(f"{source.location}: game {source.game!r} has no records")
    event = decoded(source.location, first).event
    return event.players if isinstance(event, ev.GameStarted) else ()


def _checked(source: LogSource, tick: Callable[[], None]) -> Iterator[Record]:
    """The records as read, checking the hash chain on the way: the page is made from the log as it is, but a
    broken chain is said (``kifu audit``'s finding, exit 1), never passed over. ``tick`` counts each record."""
    check, broken = integrity.ChainCheck(source.game), False
    for raw in source.records():
        if not broken and check.feed(raw) is not None:
            broken = True
            found = integrity.verify(source.records(), source.game)
            if isinstance(found, integrity.Finding):
                note_damage(f"{source.location}: the hash chain breaks at record {found.seq} ({found.problem}): "
                            f"{found.message}; run kifu audit {source.location}")
        tick()
        yield decoded(source.location, raw)
