"""``kifu snapshot``: keep snapshots of a game's states in its store, so that time travel on it is fast.

Writers leave them as a log grows (the engine as it commits, ``kifu synth``, ``kifu import``); a store written
by an older kifu or by another program has none, and the time-travel commands then fold it from its first
record (they never write to the store they read). This command folds the game once and stores a snapshot
every 256 records, each keyed to the hash of its record. Snapshots are derived data: ``kifu audit`` and
``kifu verify`` never read them.
"""

from __future__ import annotations

import click

from eventsource.integrity import Finding, verify
from projections.timeline import SNAPSHOT_EVERY, Timeline
from tools.commands.options import db_option
from tools.errors import BadInput, note_damage
from tools.logs.stores import is_store_location, open_store, pick_game


@click.command("snapshot")
@db_option(help_text="The store holding the game: a SQLite path or a postgresql:// URL.")
@click.option("--game", "game", default=None, metavar="GAME",
              help="The game, when the store holds several (a store holding one needs no name).")
def snapshot(db: str, game: str | None) -> None:
    """Store a snapshot of the game's state every 256 records (derived data, for at, why, why-not and diff).

    Only snapshots are written; the records are not changed. A snapshot is keyed to its record's hash, so one
    that no longer matches the log is passed over.
    """
    if not is_store_location(db):
        raise BadInput(f"{db} is not a store (an exported file has no room for snapshots: kifu import it)")
    with open_store(db, write=False) as reader:  # the store and the game must be there: nothing is created
        info = pick_game(reader, game, db)
    with open_store(db, write=True) as store:
        Timeline(store, info.game, every=SNAPSHOT_EVERY).warm()
        found = verify(store.read_raw(info.game))  # (the fold reads bodies only: the chain is checked here)
    if isinstance(found, Finding):
        note_damage(f"{db} is damaged: {found}; snapshots are keyed to the records as stored (kifu audit)")
    click.echo(f"game {info.game}: {info.length} records, a snapshot every {SNAPSHOT_EVERY} kept in {db}")
