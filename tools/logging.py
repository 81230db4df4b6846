"""Structured logs through structlog, always on stderr so that stdout stays the command's output.

On a terminal the logs are rendered for people (structlog's console renderer, every text in them with its
control characters shown as escapes); ``--log-json`` renders one JSON object per line for machines (JSON with
every character outside ASCII escaped). Without ``-v`` only warnings and errors are shown, except with ``--log-json``,
whose readers usually want the informational events as well.

structlog (with the console renderer and what it imports) costs a tenth of a second to import, more than a
whole ``kifu at`` on a long store, so it is imported only when a message at a shown level is logged:
``configure`` records the settings, and ``get_logger`` gives a proxy that drops the levels not shown.
"""

from __future__ import annotations

import logging as stdlib_logging
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

from tools.logs.safe import raw, visible

LEVELS = (stdlib_logging.WARNING, stdlib_logging.INFO, stdlib_logging.DEBUG)
_METHOD_LEVELS = {"debug": stdlib_logging.DEBUG, "info": stdlib_logging.INFO, "msg": stdlib_logging.INFO,
                  "warning": stdlib_logging.WARNING, "warn": stdlib_logging.WARNING,
                  "error": stdlib_logging.ERROR, "exception": stdlib_logging.ERROR,
                  "critical": stdlib_logging.CRITICAL}


class _Settings:
    json = False
    level = stdlib_logging.WARNING
    applied = False  # whether structlog was configured with these settings


class _StderrLoggerFactory:
    """Resolves ``sys.stderr`` when a logger is made, not when logging is configured (so a test runner's or a
    progress bar's replacement stream is honoured)."""

    def __call__(self, *args: Any) -> Any:
        import structlog

        stream: TextIO = raw(sys.stderr)  # (the values are escaped by ``_shown``; the colours are the renderer's)
        return structlog.PrintLogger(stream)


def _shown(logger: Any, method: str, event_dict: MutableMapping[str, Any]) -> dict[str, Any]:
    """Every text in a log line with its control and bidirectional characters shown as escapes (``tools.logs.safe``):
    the console renderer writes text values as they are (others it writes as ``repr``, which escapes them)."""
    return {visible(str(k)): visible(v) if isinstance(v, str) else v for k, v in event_dict.items()}


def level_for(verbosity: int, json: bool) -> int:
    if verbosity <= 0 and json:
        return stdlib_logging.INFO
    return LEVELS[max(0, min(verbosity, len(LEVELS) - 1))]


def configure(*, json: bool = False, verbosity: int = 0) -> None:
    """Set up logging for one run of the command line (structlog itself is set up when first needed)."""
    _Settings.json, _Settings.level, _Settings.applied = json, level_for(verbosity, json), False


def _apply() -> None:
    import structlog
    from structlog.typing import Processor

    processors: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if _Settings.json:
        processors += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        processors += [_shown, structlog.dev.ConsoleRenderer(colors=raw(sys.stderr).isatty())]
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(_Settings.level),
        logger_factory=_StderrLoggerFactory(),
        cache_logger_on_first_use=False,
    )
    _Settings.applied = True


def _ignore(*args: Any, **kwargs: Any) -> None:
    return None


class _LazyLogger:
    """A logger that imports structlog only for a message that will be shown."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        level = _METHOD_LEVELS.get(attr)
        if level is not None and level < _Settings.level:
            return _ignore
        if not _Settings.applied:
            _apply()
        import structlog

        return getattr(structlog.get_logger(component=self._name), attr)


def get_logger(name: str) -> Any:
    """A structlog logger bound to ``name`` (typed ``Any`` as structlog's own ``get_logger`` is)."""
    return _LazyLogger(name)
