"""Options shared by several commands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from eventsource.records import HASH_SIZE
from tools.logs.stores import DEFAULT_DB

F = TypeVar("F", bound=Callable[..., object])


DB_HELP = "The store: a SQLite path or a postgresql://user@host:port/db URL."


def db_option(*, help_text: str = DB_HELP) -> Callable[[F], F]:
    return click.option(
        "--db",
        "db",
        default=DEFAULT_DB,
        show_default=True,
        envvar="KIFU_DB",
        show_envvar=True,
        metavar="PATH",
        help=help_text,
    )


GAME_HELP = "The game, when the store holds several (a store holding one needs no name)."


def game_option() -> Callable[[F], F]:
    """``--game GAME``, the same on every command that reads one game. Put it right above the function: it
    hands the choice to the function's ``game`` parameter, which a command that also takes the game as a
    positional ``[GAME]`` (the older form, still accepted) shares; naming two different games is an error."""

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            chosen = kwargs.pop("game_option", None)
            if chosen is not None:
                given = kwargs.get("game")
                if given is not None and given != chosen:
                    raise click.UsageError(f"two games named: {given!r} and --game {chosen!r}")
                kwargs["game"] = chosen
            return f(*args, **kwargs)

        return click.option("--game", "game_option", default=None, metavar="GAME", help=GAME_HELP)(run)  # type: ignore[return-value]

    return wrap


def parse_head(ctx: click.Context, param: click.Parameter, value: str | None) -> bytes | None:
    """A head hash as ``kifu games`` prints it: 32 hexadecimal digits."""
    if value is None:
        return None
    try:
        head = bytes.fromhex(value)
    except ValueError:
        head = b""
    if len(head) != HASH_SIZE:
        raise click.BadParameter(f"a head hash is {2 * HASH_SIZE} hexadecimal digits (see kifu games)")
    return head


def head_option(help_text: str) -> Callable[[F], F]:
    return click.option("--head", metavar="HEX", callback=parse_head, help=help_text)


def player_option(help_text: str = "Show only what player P (a seat number, else a name) may see.") -> Callable[[F], F]:
    return click.option("--player", "player", metavar="P", default=None, help=help_text)


def resolve_player(names: list[str], wanted: str | None) -> int | None:
    """A player by index or name (None stays None: the omniscient view); BadInput naming the players."""
    if wanted is None:
        return None
    from tools.logs.seats import seat_of

    return seat_of(names, wanted)
