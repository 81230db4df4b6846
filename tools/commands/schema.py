"""``kifu schema``: the JSON Schema of the exchange format, for tools written outside kifu."""

from __future__ import annotations

import json

import click

from tools.logs.schema import schema as build_schema


@click.command("schema")
@click.argument("what", type=click.Choice(["line", "event", "messages"]), default="line")
def schema(what: str) -> None:
    """Print the JSON Schema of an exported record line (the default), of the event union alone, or of the
    WebSocket messages of `kifu serve` (`messages`: what the server sends, by `type`, and what a client sends).

    A line holds the event twice: `body`, its canonical bytes in base64 (what the hash covers), and `event`,
    the same event as an object whose `kind` names its type.
    """
    if what == "messages":
        from tools.serve.messages import schema as messages

        click.echo(json.dumps(messages(), indent=2, ensure_ascii=False))
        return
    click.echo(json.dumps(build_schema(what), indent=2, ensure_ascii=False))
