"""Time travel: ``kifu at`` (the state at one point) and ``kifu diff`` (what changed between two points)."""

from __future__ import annotations

import json
from contextlib import ExitStack

import click

from eventsource import events as ev
from projections.diff import diff_states
from tools.commands.options import player_option, resolve_player
from tools.travel.board import board_data, board_lines
from tools.travel.difftext import diff_json, diff_lines
from tools.travel.points import open_at_points
from tools.travel.streamed import PointLog


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

    On a store, only what the answer needs is read: the nearest snapshot at or before the point (kept in the
    store as the log grows; kifu snapshot adds them to an older store) and the records after it. The hash chain
    is checked over the records read and at the store's head; damage there is a warning and exit 1; the whole
    chain is kifu audit's to check. An exported file is read whole (kifu import it for fast answers on a long
    log).
    """
    with open_at_points(log_path, game) as log:
        state = log.state_at(log.check_point(n))
        viewer = resolve_player([p.name for p in state.players] or _started_names(log), player)
        after = log.get(n + 1)
        data = board_data(state, viewer, log.memory if viewer is None else None,
                          next_decision=after.decision if after is not None else None)
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
@click.option("--other", "other", default=None, metavar="LOG2",
              help="Take point B from this log instead (a fork, another game): compare two games.")
@click.option("--other-game", "other_game", default=None, metavar="GAME2",
              help="The game of LOG2 (LOG2 defaults to LOG, so --other-game alone compares two games of a store).")
@click.option("--json", "as_json", is_flag=True, help="Print the differences as one JSON object.")
def diff(log_path: str, a: int, b: int, game: str | None, other: str | None, other_game: str | None,
         as_json: bool) -> None:
    """What changed from just after record A to just after record B: per zone (cards that came and went),
    per object (status, power, controller, the cards under it), per player (counters), the turn and phase,
    and the pending effects that appeared, resolved or fizzled.

    Each card is followed by its card id across zone changes, so "moved from hand to battle" reads as one
    change even though the card became a new object.

    With --other (or --other-game), A is a point of LOG and B a point of LOG2: a what-if fork against its
    original (kifu fork), after any number of records of each. The records both logs share are said first
    (compared one by one as they stream: that part takes time as long as what they share).

    On a store, only what the answer needs is read: the nearest snapshot at or before each point (kept in the
    store as the log grows; kifu snapshot adds them to an older store) and the records after it. The hash chain
    is checked over the records read and at the store's head; damage there is a warning and exit 1; the whole
    chain is kifu audit's to check. An exported file is read whole (kifu import it for fast answers on a long
    log).
    """
    two = other is not None or other_game is not None
    with ExitStack() as stack:
        log = stack.enter_context(open_at_points(log_path, game))
        log2 = stack.enter_context(open_at_points(other or log_path, other_game)) if two else log
        _diff(log, log2, a, b, two, as_json)


def _diff(log: PointLog, log2: PointLog, a: int, b: int, two: bool, as_json: bool) -> None:
    before, after = log.state_at(log.check_point(a)), log2.state_at(log2.check_point(b))
    d = diff_states(before, after)
    shared = shared_records(log, log2) if two else None
    if as_json:
        data = diff_json(d)
        if two:
            data.update(game_a=log.game, game_b=log2.game, source_b=log2.location, shared=shared)
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    lines = diff_lines(d, before, after, log2.memory)
    if two:
        lines[0] = (f"from record {a} of {log.game!r} ({log.location}) to record {b} of {log2.game!r} "
                    f"({log2.location})")
        lines[1:1] = parting_lines(log, log2, shared or 0)
    for line in lines:
        click.echo(line)


def shared_records(one: PointLog, two: PointLog) -> int:
    """How many records from the start two logs have in common (the same events, decisions and causes): they
    are compared one by one, as they stream (time grows with what they share, memory does not)."""
    n = 0
    for x, y in zip(one.raws_from(1), two.raws_from(1), strict=False):
        if (x.seq, x.decision, x.cause, x.v, x.body) != (y.seq, y.decision, y.cause, y.v, y.body):
            break
        n += 1
    return n


def parting_lines(one: PointLog, two: PointLog, shared: int) -> list[str]:
    if shared == 0:
        return ["the two logs have no record in common (not a fork of one another)"]
    parts = [f"  {log.game!r} {_went_on(log, shared + 1)}" for log in (one, two) if shared < log.last]
    return [f"the two logs share records 1 to {shared}" + (", then:" if parts else ""), *parts]


def _went_on(log: PointLog, seq: int) -> str:
    event = log.record(seq).event
    if isinstance(event, ev.Forked) and seq < log.last:
        return f"has its branch point (record {seq}), then {log.line(seq + 1)}"
    if isinstance(event, ev.Forked):
        return f"has its branch point (record {seq}) and nothing played since"
    return f"went on with {log.line(seq)}"
