"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from tools.stores import DEFAULT_DB

F = TypeVar("F", bound=Callable[..., object])


DB_HELP = "The store: a SQLite path (postgresql:// URLs to come)."


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
