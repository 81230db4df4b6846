"""``kifu demo``: plays the shipped sample game into a store and prints its trace.

The game itself lives in ``statemachine.demo`` (the rules layer); this command only imports it lazily, so
every other command works while the rules are still being written.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from eventsource import signing
from tools import errors
from tools.commands.options import db_option
from tools.logs.sources import open_log
from tools.travel.trace import trace_lines

DEMO_MODULE = "statemachine.demo"


def load_demo() -> Any | None:
    """``statemachine.demo``, or None if this build does not have it yet (other import errors propagate)."""
    try:
        return importlib.import_module(DEMO_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name in (DEMO_MODULE, "statemachine"):
            return None
        raise


@click.command("demo")
@db_option(help_text="Where to record the sample game: a SQLite path.")
@click.option("--game", default="duel_masters", show_default=True,
              help="Which game's sample to play: duel_masters, magic, vision, shadowverse (as installed).")
@click.option("--key", "key", metavar="PRIVATE", default=None,
              help="Sign every committed head and the game's end with this private key (kifu keys new).")
def demo(db: str, game: str, key: str | None) -> None:
    """Play a short sample game into a SQLite log and print a readable trace of it.

    The trace shows turns, zone changes, triggers, what was pending, choices and resolutions; the game stays
    in the store for `kifu games`, `kifu replay`, `kifu audit` and `kifu export`. With --key the game is signed,
    so `kifu audit --key PUBLIC` can tell who recorded it and whether it was cut short.
    """
    module = load_demo()
    if module is None:
        click.echo(
            f"error: kifu demo needs the sample game ({DEMO_MODULE}), which this build does not include yet",
            err=True,
        )
        raise click.exceptions.Exit(errors.BAD_INPUT)
    signer = signing.load_private(key) if key is not None else None
    # (a signer is passed only when asked for: a sample module without signing still runs unsigned)
    extra = {"signer": signer} if signer is not None else {}
    result = module.run(db, click.echo, game=game, **extra)
    # ``run`` may print its own trace and return None or an exit code, or return the id of the game it
    # recorded and let the command line print the trace (the rules layer cannot import tools.travel.trace).
    if isinstance(result, str):
        with open_log(db, result) as source:
            for line in trace_lines(source.records()):
                click.echo(line)
        result = None
    if isinstance(result, int) and result != errors.OK:
        raise click.exceptions.Exit(result)
