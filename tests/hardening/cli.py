"""Running ``kifu`` in-process and checking it failed cleanly: a non-zero exit and no traceback."""

from __future__ import annotations

from click.testing import CliRunner, Result

from tools.cli import main


def kifu(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def failed_cleanly(result: Result, allowed: tuple[int, ...] = (1, 2)) -> str | None:
    """Why ``result`` is not a clean failure (None when it is)."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback

        return "uncaught " + "".join(traceback.format_exception(exc))
    if "Traceback" in result.output:
        return f"a traceback was printed:\n{result.output}"
    if result.exit_code not in allowed:
        return f"exit {result.exit_code}, expected one of {allowed}:\n{result.output}"
    return None
