"""Structured logs through structlog, always on stderr so that stdout stays the command's output.

On a terminal the logs are rendered for people (structlog's console renderer); ``--log-json`` renders one JSON
object per line for machines. Without ``-v`` only warnings and errors are shown, except with ``--log-json``,
whose readers usually want the informational events as well.
"""

from __future__ import annotations

import logging as stdlib_logging
import sys
from typing import Any, TextIO

import structlog
from structlog.typing import Processor

LEVELS = (stdlib_logging.WARNING, stdlib_logging.INFO, stdlib_logging.DEBUG)


class _StderrLoggerFactory:
    """Resolves ``sys.stderr`` when a logger is made, not when logging is configured (so a test runner's or a
    progress bar's replacement stream is honoured)."""

    def __call__(self, *args: Any) -> structlog.PrintLogger:
        stream: TextIO = sys.stderr
        return structlog.PrintLogger(stream)


def level_for(verbosity: int, json: bool) -> int:
    if verbosity <= 0 and json:
        return stdlib_logging.INFO
    return LEVELS[max(0, min(verbosity, len(LEVELS) - 1))]


def configure(*, json: bool = False, verbosity: int = 0) -> None:
    """Set up structlog for one run of the command line."""
    processors: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if json:
        processors += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level_for(verbosity, json)),
        logger_factory=_StderrLoggerFactory(),
        cache_logger_on_first_use=False,
    )


def get_logger(name: str) -> Any:
    """A structlog logger bound to ``name`` (typed ``Any`` as structlog's own ``get_logger`` is)."""
    return structlog.get_logger(component=name)
