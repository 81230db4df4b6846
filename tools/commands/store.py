"""Moving games in and out of a store: ``kifu games``, ``kifu export``, ``kifu import``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from eventsource import exchange
from eventsource.records import RawRecord
from tools import errors
from tools.audit import check_integrity
from tools.commands.options import db_option, game_option, head_option
from tools.errors import BadInput
from tools.logging import get_logger
from tools.sources import open_log
from tools.stores import is_store_location, open_store, pick_game

log = get_logger("kifu.store")


@click.command("games")
@db_option()
def games(db: str) -> None:
    """List the games in a store, one per line: id, number of records, head hash.

    The head hash is the hash of a game's last record: publish or countersign it to anchor the game, since
    `kifu audit` proves a log is the one that ends in that hash.
    """
    with open_store(db) as store:
        infos = store.games()
    if not infos:
        click.echo(f"no games in {db}", err=True)
        return
    width = max(len(g.game) for g in infos)
    for g in infos:
        click.echo(f"{g.game:<{width}}  {g.length:>8}  {g.head.hex()}")


@click.command("export")
@db_option()
@click.argument("game", required=False)
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where to write the JSON-lines file ('-' for stdout).",
)
@game_option()
def export(db: str, game: str | None, output: str) -> None:
    """Write one game as a JSON-lines file, one record per line, exactly as stored.

    GAME may be left out when the store holds a single game. The file is written to FILE.part and renamed
    when complete, so an interrupted export never leaves a partial FILE behind.
    """
    with open_store(db) as store:
        info = pick_game(store, game, db)
        records = store.read_raw(info.game)
        if output == "-":
            out = sys.stdout.buffer
            n = sum(out.write(exchange.to_line(raw) + b"\n") > 0 for raw in records)
            out.flush()
        else:
            target = Path(output)
            partial = target.with_name(target.name + ".part")
            try:
                n = exchange.write(records, partial)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)
    log.info("exported", game=info.game, records=n, output=output)
    click.echo(f"exported game {info.game}: {n} records, head {info.head.hex()}, to {output}", err=True)


@click.command("import")
@click.argument("file", metavar="FILE")
@db_option(help_text="The store to append to (created if missing): a SQLite path.")
@head_option("The game's head hash as published: refuse a file that does not end there.")
def import_(file: str, db: str, head: bytes | None) -> None:
    """Append a game from an exported JSON-lines FILE to a store, after checking its hash chain.

    The whole file is checked first (every line, and the hash chain); a game id that already exists in the
    store is refused; the records are then appended in one transaction. If anything is wrong nothing is
    appended: exit 1 when its chain is broken, 2 when it cannot be read or the game exists.
    """
    if is_store_location(file):
        raise BadInput(f"{file} is a store; kifu import reads an exported JSON-lines file (see kifu export)")
    with open_log(file) as source:
        records: list[RawRecord] = []
        result, verified = check_integrity(source, keep=records, head=head)
    if result.finding is not None:
        log.info("import refused", file=file, finding=str(result.finding))
        click.echo(f"error: refusing to import {file}: {result.finding}; nothing was appended", err=True)
        raise click.exceptions.Exit(errors.FINDING)
    with open_store(db, write=True) as store:
        existing = store.head(source.game)
        if existing:
            raise BadInput(
                f"game {source.game!r} already exists in {db} ({existing} records); nothing was appended"
            )
        store.append_raw(source.game, records, expected=0)
    log.info("imported", game=source.game, records=len(records), db=db)
    last = verified.head.hex()
    click.echo(f"imported game {source.game}: {verified.records} records, hash chain checked, head {last}, into {db}"
               " (the chain only: run kifu audit to re-adjudicate it)")
