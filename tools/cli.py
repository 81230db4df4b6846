"""The ``kifu`` command line: one click group, one module per command group under ``tools.commands``.

Exit codes are the same for every command (``tools.errors``): 0 ok, 1 a problem found in a log, 2 input that
cannot be used. Bad input never shows a traceback: :class:`KifuGroup` turns the errors listed in
``tools.errors.BAD_INPUT_ERRORS`` into ``error: ...`` on stderr and exit 2, wherever they are raised.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Final

import click

from tools import errors
from tools import logging as kifu_logging
from tools.logs.safe import install, visible

# Every command and where it lives (module, function). A command's
# module is imported only when that command runs (or --help lists them all): ``kifu at`` on a long store
# answers in a fraction of a second, and importing every command's dependencies would cost more than that.
COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "games": ("store", "games"),
    "export": ("store", "export"),
    "import": ("store", "import_"),
    "audit": ("audit", "audit"),
    "replay": ("replay", "replay"),
    "verify": ("verify", "verify"),
    "at": ("inspect", "at"),
    "diff": ("inspect", "diff"),
    "fork": ("whatif", "fork"),
    "decide": ("whatif", "decide"),
    "why": ("explain", "why"),
    "why-not": ("explain", "why_not"),
    "view": ("view", "view"),
    "demo": ("demo", "demo"),
    "keys": ("keys", "keys"),
    "schema": ("schema", "schema"),
    "synth": ("synth", "synth"),
    "snapshot": ("snapshot", "snapshot"),
    "scenario": ("scenario", "scenario"),
    "vocabulary": ("vocabulary", "vocabulary"),
    "debug": ("debug", "debug"),
    "query": ("debug", "query"),
    "serve": ("serve", "serve"),
    "bots": ("serve", "bots"),
    "cards": ("cards", "cards"),
}


class KifuGroup(click.Group):
    """A group whose commands turn bad input into ``error: ...`` and exit 2, and whose commands are imported
    when used (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attribute = COMMANDS[cmd_name]
            command: click.Command = getattr(importlib.import_module(f"tools.commands.{module}"), attribute)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            damage = ctx.meta.get(errors.DAMAGE)
            if damage:  # the command answered from a damaged log: say so, and never exit 0 (tools.errors)
                for message in damage:
                    click.echo(f"warning: {visible(message)}", err=True)
                ctx.exit(errors.FINDING)
            return result
        except BrokenPipeError:
            # The reader went away (``kifu replay ... | head``): stop quietly, as other Unix tools do.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(errors.OK)
        except errors.BAD_INPUT_ERRORS as exc:
            kifu_logging.get_logger("kifu").debug("bad input", error=type(exc).__name__, detail=str(exc))
            click.echo(f"error: {visible(errors.describe(exc))}", err=True)
            ctx.exit(errors.BAD_INPUT)


# ``color``: click never strips ANSI sequences itself (it would off a terminal, so a saved report would show a
# name other than the log's); every one is shown as an escape instead, on a terminal and a pipe alike.
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 110, "color": True}


@click.group(cls=KifuGroup, context_settings=CONTEXT)
@click.option("--log-json", is_flag=True, help="Write logs (on stderr) as JSON lines instead of for people.")
@click.option("-v", "--verbose", count=True, help="More logs: -v for info, -vv for debug.")
@click.version_option(package_name="kifu", prog_name="kifu")
def main(log_json: bool, verbose: int) -> None:
    """kifu: the written record of a card game. Replay, audit and move games between stores.

    Exit codes: 0 ok, 1 a problem found in a log, 2 input that cannot be used.
    """
    kifu_logging.configure(json=log_json, verbosity=verbose)
    # Text from logs is shown, never obeyed by the terminal (tools.logs.safe): everything written goes through here.
    sys.stdout, sys.stderr = install(sys.stdout), install(sys.stderr)


if __name__ == "__main__":
    main()
