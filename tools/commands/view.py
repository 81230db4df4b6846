"""``kifu view``: the game as one self-contained HTML page with a timeline."""

from __future__ import annotations

from pathlib import Path

import click

from tools.commands.options import game_option, player_option, resolve_player
from tools.html import build, page
from tools.loaded import load_log
from tools.logging import get_logger

log = get_logger("kifu.view")


@click.command("view")
@click.argument("log_path", metavar="LOG")
@click.argument("game", required=False)
@click.option("-o", "--output", required=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="Where to write the HTML page.")
@player_option("Show only what player P (an index or a name) could see, at every point.")
@game_option()
def view(log_path: str, game: str | None, output: str, player: str | None) -> None:
    """Write the game as one HTML file that works offline: a slider over every record, the board and what
    is pending at each point, and from each trigger a link to the record that caused it.

    The page has no outside resources (script, style and the game itself are inside it), so it can be
    mailed or archived with the log. With --player the boards and event lines hide what that player could
    not see, as `kifu at --player` does.
    """
    loaded = load_log(log_path, game)
    names = list(loaded.started.players) if loaded.started else []
    viewer = resolve_player(names, player)
    html = page(build(loaded, viewer))
    Path(output).write_text(html, encoding="utf-8")
    log.info("viewed", source=log_path, game=loaded.game, output=output, bytes=len(html.encode()))
    click.echo(f"wrote {output}: {loaded.last} records of game {loaded.game}"
               + (f" as {names[viewer]} sees it" if viewer is not None else ""), err=True)
