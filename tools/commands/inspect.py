"""Time travel: ``kifu at`` (the state at one point) and ``kifu diff`` (what changed between two points)."""

from __future__ import annotations

import json

import click

from projections.diff import diff_states
from tools.board import board_data, board_lines
from tools.commands.options import player_option, resolve_player
from tools.difftext import diff_json, diff_lines
from tools.loaded import load_log


@click.command("at")
@click.argument("log_path", metavar="LOG")
@click.argument("n", type=click.IntRange(min=0), metavar="N")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
@player_option()
@click.option("--all", "full", is_flag=True, help="List every card of every zone (decks included).")
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
def at(log_path: str, n: int, game: str | None, player: str | None, full: bool, as_json: bool) -> None:
    """The state just after record N: the board, what is pending and where (pool, stack, chain or queue),
    who has priority or must choose, the turn and phase.

    N = 0 is before anything. With --player P only what player P could see at that point is shown: the
    opponent's hand, every deck and face-down cards become counts, as projections.views hides them.
    """
    log = load_log(log_path, game)
    state = log.state_at(log.check_point(n))
    viewer = resolve_player([p.name for p in state.players] or _started_names(log), player)
    data = board_data(state, viewer, log.memory if viewer is None else None)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    if viewer is not None:
        click.echo(f"as {state.players[viewer].name} sees it (hidden information redacted)")
    for line in board_lines(data, full=full):
        click.echo(line)


def _started_names(log: object) -> list[str]:
    started = getattr(log, "started", None)
    return list(started.players) if started is not None else []


@click.command("diff")
@click.argument("log_path", metavar="LOG")
@click.argument("a", type=click.IntRange(min=0), metavar="A")
@click.argument("b", type=click.IntRange(min=0), metavar="B")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
@click.option("--json", "as_json", is_flag=True, help="Print the differences as one JSON object.")
def diff(log_path: str, a: int, b: int, game: str | None, as_json: bool) -> None:
    """What changed from just after record A to just after record B: per zone (cards that came and went),
    per object (status, power, controller, the cards under it), per player (counters), the turn and phase,
    and the pending effects that appeared, resolved or fizzled.

    Each card is followed by its card id across zone changes, so "moved from hand to battle" reads as one
    change even though the card became a new object.
    """
    log = load_log(log_path, game)
    before, after = log.state_at(log.check_point(a)), log.state_at(log.check_point(b))
    d = diff_states(before, after)
    if as_json:
        click.echo(json.dumps(diff_json(d), ensure_ascii=False, indent=2))
        return
    for line in diff_lines(d, before, after, log.memory):
        click.echo(line)
