"""Moving games in and out of a store: ``kifu games``, ``kifu export``, ``kifu import``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from eventsource import exchange
from eventsource.integrity import chains
from eventsource.records import GENESIS, RawRecord
from eventsource.sqlite import SQLiteStore
from eventsource.store import EventStore, GameInfo
from projections.timeline import Keeper
from tools import errors
from tools.audit.checks import check_integrity
from tools.commands.options import db_option, game_option, head_option
from tools.errors import BadInput
from tools.logging import get_logger
from tools.logs.output import regular_target, write_atomically
from tools.logs.sources import LogSource, open_log
from tools.logs.stores import is_store_location, open_store, pick_game

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
        damage = _damage(store, infos)
    if not infos:
        click.echo(f"no games in {db}", err=True)
    width = max((len(g.game) for g in infos), default=0)
    for g in infos:
        click.echo(f"{g.game:<{width}}  {g.length:>8}  {g.head.hex()}")
    if damage:
        click.echo(f"error: {db} is damaged (SQLite's quick check: {'; '.join(damage[:3])}); these lengths and "
                   "heads cannot be trusted (kifu audit names the records)", err=True)
        raise click.exceptions.Exit(errors.FINDING)


def _damage(store: EventStore, infos: list[GameInfo]) -> list[str]:
    """What SQLite's own quick check finds wrong with a SQLite store (CorruptLog for a mistyped record)."""
    if not isinstance(store, SQLiteStore):
        return []
    for info in infos:
        store.check_game(info.game)
    return [*store.stray_rows(), *store.integrity_problems(quick=True)]


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
    """Write one game as a JSON-lines file, one record per line, exactly as stored, with its signatures.

    GAME may be left out when the store holds a single game. The file is written to a temporary file beside
    FILE and renamed when complete, so an interrupted export never leaves a partial FILE behind; FILE, if it
    exists, must be a regular file (never a device, a directory or a symbolic link). The head printed is that
    of the last record written; a store that yields fewer records than it lists is refused as damaged.
    """
    target = None if output == "-" else regular_target(Path(output), "kifu export")
    with open_store(db) as store:
        info = pick_game(store, game, db)
        source = LogSource(db, "store", info.game, store=store, info=info)
        signatures = source.signatures()
        exported = _Exported(db)
        records = exported.track(source.records())
        if target is None:
            out = sys.stdout.buffer
            by_seq = {s.seq: s for s in signatures}
            for raw in records:
                out.write(exchange.to_line(raw, by_seq.get(raw.seq)) + b"\n")
            out.flush()
        else:
            write_atomically(target, lambda path: exchange.write(records, path, signatures), "kifu export")
    log.info("exported", game=source.game, records=exported.count, output=output)
    click.echo(f"exported game {source.game}: {exported.count} records, head {exported.head.hex()}, "
               f"{len(signatures)} signatures, to {output}", err=True)


class _Exported:
    """How many records went out, and the hash of the last one."""

    def __init__(self, where: str) -> None:
        self.count, self.head, self.where = 0, GENESIS, where

    def track(self, records: Iterator[RawRecord]) -> Iterator[RawRecord]:
        """The records as stored; the first that does not chain on the one before is damage (exported all the
        same, as stored, so that a judge can see it: README's rule for every reading command)."""
        broken = False
        for raw in records:
            if not broken and (raw.seq != self.count + 1 or not chains(self.head, raw)):
                broken = True
                errors.note_damage(f"{self.where} is damaged at record {self.count + 1}: the record read there "
                                   f"(seq {raw.seq}) does not chain on the one before; exported as stored "
                                   "(kifu audit names the problem)")
            yield raw
            self.count, self.head = self.count + 1, raw.hash


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
        result, verified, ends = check_integrity(source, keep=records, head=head)
        signatures = source.signatures() if result.finding is None else []
    refused = result.finding or (ends.finding if ends is not None else None)
    if refused is not None:
        log.info("import refused", file=file, finding=str(refused))
        click.echo(f"error: refusing to import {file}: {refused}; nothing was appended", err=True)
        raise click.exceptions.Exit(errors.FINDING)
    with open_store(db, write=True) as store:
        existing = store.head(source.game)
        if existing:
            raise BadInput(
                f"game {source.game!r} already exists in {db} ({existing} records); nothing was appended"
            )
        store.append_raw(source.game, records, expected=0, signatures=signatures)
        keeper = Keeper(store, source.game)  # snapshots for time travel on the imported game
        keeper.stored(records)
        keeper.close()
    log.info("imported", game=source.game, records=len(records), signatures=len(signatures), db=db)
    last = verified.head.hex()
    signed = f", {len(signatures)} signatures" if signatures else ""
    click.echo(f"imported game {source.game}: {verified.records} records{signed}, hash chain checked, head {last}, "
               f"into {db} (the chain only: run kifu audit to re-adjudicate it)")
