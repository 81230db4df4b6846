"""``kifu schema``: the JSON Schema of the exchange format, for tools written outside kifu."""

from __future__ import annotations

import json

import click

from tools.logs.schema import schema as build_schema


@click.command("schema")
@click.argument("what", type=click.Choice(["line", "event"]), default="line")
def schema(what: str) -> None:
    """Print the JSON Schema of an exported record line (the default) or of the event union alone.

    A line holds the event twice: `body`, its canonical bytes in base64 (what the hash covers), and `event`,
    the same event as an object whose `kind` names its type.
    """
    click.echo(json.dumps(build_schema(what), indent=2, ensure_ascii=False))
