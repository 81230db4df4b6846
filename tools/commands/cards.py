"""``kifu cards``: the card catalogue (every card, its pieces, the scenarios that play it, its provenance) and
``kifu cards check``, the one step that adds cards (docs/architecture.md, "Add a card")."""

from __future__ import annotations

import json

import click
import msgspec

from statemachine.games import PROFILES
from tools import errors
from tools.cards.catalogue import CardEntry, catalogue, check


@click.group("cards", invoke_without_command=True)
@click.option("--game", type=click.Choice(sorted(PROFILES)), help="Only this game's cards.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per card, as a list.")
@click.option("--unplayed", is_flag=True, help="Only cards no scenario plays; exit 1 if there are any.")
@click.pass_context
def cards(ctx: click.Context, game: str | None, as_json: bool, unplayed: bool) -> None:
    """List every card of each game's newest pool: the pieces it is written with (effects, triggers, conditions,
    keywords, fields), the scenarios that play it, its provenance and whether its text was checked against a
    printed source."""
    if ctx.invoked_subcommand is not None:
        return
    entries = catalogue([game] if game else None)
    if unplayed:
        entries = [e for e in entries if not e.played]
    if as_json:
        click.echo(json.dumps([{**msgspec.to_builtins(e), "played": e.played} for e in entries],
                              ensure_ascii=False, indent=1))
    else:
        for e in entries:
            click.echo(_line(e))
        checked = sum(e.checked for e in entries)
        played = sum(e.played for e in entries)
        click.echo(f"{len(entries)} cards: {played} played by a scenario, {checked} checked against a printed source")
    if unplayed and entries:
        raise click.exceptions.Exit(errors.FINDING)


def _line(e: CardEntry) -> str:
    plays = ", ".join(e.scenarios) or (f"made by {', '.join(e.made_by)}" if e.made_by else "NOT PLAYED")
    source = e.source or "-"
    return (f"{e.game}/{e.id}  {e.name}  [pool {e.since}+, {source}{', checked' if e.checked else ''}]\n"
            f"    pieces: {' '.join(e.pieces) or '(vanilla)'}\n    played by: {plays}")


@cards.command("check")
@click.option("--game", type=click.Choice(sorted(PROFILES)), help="Only this game.")
def check_command(game: str | None) -> None:
    """Validate every card file, pin the digest of each pool not yet released, and open the pool and release
    entry in releases.toml that a card's new ``since`` version needs. The one step after writing a card."""
    for p in check([game] if game else None):
        click.echo(f"{p.game} pool {p.version}: {p.action} ({p.digest})")
