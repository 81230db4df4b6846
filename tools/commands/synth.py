"""``kifu synth``: a generated game of any length in a store, to try the tools on a long log.

The log is ``tools.logs.synthetic``'s (the one ``python -m bench`` measures): a Duel-Masters-like game that folds
cleanly and never ends, made from a seed. It is not a game of any rules profile, so ``kifu verify`` and the
rules checks of ``kifu audit`` have nothing to re-run it with; the chain, the fold and every time-travel
command (``at``, ``diff``, ``view``, ``replay``) work on it as on any log.
"""

from __future__ import annotations

import click

from eventsource.records import NewEvent
from projections.timeline import Keeper
from tools.commands.options import db_option
from tools.errors import BadInput
from tools.logs.stores import open_store
from tools.progress import bar, on_terminal

CHUNK = 5_000  # events per transaction: a generated log needs no commit per decision


@click.command("synth")
@db_option(help_text="The store to write the generated game to (created if missing): a SQLite path or a URL.")
@click.option("--events", "n", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="How many events the game has.")
@click.option("--seed", type=int, default=1, show_default=True, help="Everything in the game derives from it.")
@click.option("--as", "name", default=None, metavar="GAME", help="The game's id [default: synth-EVENTS-SEED].")
def synth(db: str, n: int, seed: int, name: str | None) -> None:
    """Write a generated game of --events events to a store (the log the benchmarks use)."""
    from tools.logs import synthetic

    game = name or f"synth-{n}-{seed}"
    with open_store(db, write=True) as store:
        if store.head(game):
            raise BadInput(f"game {game!r} already exists in {db}; choose another --as or --seed")
        written = 0
        keeper = Keeper(store, game)  # a snapshot every 256 records, as the engine leaves them
        with bar("generating", n, on_terminal() and n > 50_000) as advance:
            chunk: list[NewEvent] = []
            for batch in synthetic.batches(seed, n):
                chunk.extend(batch)
                if len(chunk) >= CHUNK:
                    keeper.stored(store.append(game, chunk), [e.event for e in chunk])
                    written += len(chunk)
                    advance(len(chunk))
                    chunk = []
            if chunk:
                keeper.stored(store.append(game, chunk), [e.event for e in chunk])
                written += len(chunk)
                advance(len(chunk))
        keeper.close()
        head = store._head(game)[1]
    click.echo(f"wrote game {game}: {written} events, head {head.hex()}, into {db}")
