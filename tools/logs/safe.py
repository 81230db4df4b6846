"""Safe text output: what a log holds is shown, never obeyed.

Player names, game ids and card text come from files anyone can write. Written raw to a terminal, an
``ESC[2J`` in a player name would clear the judge's screen, an OSC 52 would write the judge's clipboard, and
other control sequences can retitle the window, move the cursor or hide text; a bidirectional override
(U+202E) makes the text after it read backwards. Every such character is therefore shown as an escape
(``\\x1b``, ``\\u202e``) in everything the command line writes as text: :func:`install` wraps stdout and stderr
once for a run (``tools.cli.main``), so every ``click.echo``, ``print`` and log line goes through
:func:`visible`, on a terminal and on a pipe alike (click is told never to strip ANSI sequences itself, which
it otherwise does off a terminal: a saved report would then show a name other than the log's).

Writers that colour their own output (structlog's console renderer, rich's progress bar) write to
:func:`raw` and escape the text they are given themselves (``tools.logging``). JSON output escapes control
characters by itself; ``eventsource.exchange`` escapes the rest.
"""

from __future__ import annotations

from typing import Any, Final, TextIO

# C0 controls but tab and newline, DEL, and the C1 controls (which some terminals obey as ESC-sequences).
_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + [0x7F, *range(0x80, 0xA0)]
# What reorders the text around it: the bidirectional marks, embeddings, overrides and isolates, and the line and
# paragraph separators (which some terminals break lines at).
BIDI: Final = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029)
_VISIBLE = str.maketrans({c: f"\\x{c:02x}" for c in _CONTROLS} | {c: f"\\u{c:04x}" for c in BIDI})


def visible(text: str) -> str:
    """``text`` with every control and bidirectional-formatting character shown as an escape instead of acted
    on."""
    return text.translate(_VISIBLE)


class VisibleStream:
    """A text stream that writes through ``visible``; everything else goes to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    @property
    def wrapped(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def install(stream: Any) -> Any:
    """``stream`` wrapped in a :class:`VisibleStream` (once)."""
    return stream if isinstance(stream, VisibleStream) else VisibleStream(stream)


def raw(stream: Any) -> Any:
    """The stream a :class:`VisibleStream` wraps (``stream`` itself otherwise): for writers that escape what
    they are given themselves and add their own colours."""
    return stream.wrapped if isinstance(stream, VisibleStream) else stream
