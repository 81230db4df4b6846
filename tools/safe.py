"""Safe text output: what a log holds is shown, never obeyed.

Player names, game ids and card text come from files anyone can write. Written raw to a terminal, an
``ESC[2J`` in a player name would clear the judge's screen, and other control sequences can retitle the window,
move the cursor or hide text. Every control character but tab and newline is therefore shown as an escape
(``\\x1b``) in the command line's text output; JSON output escapes them by itself.
"""

from __future__ import annotations

from typing import Any, TextIO

# C0 controls but tab and newline, DEL, and the C1 controls (which some terminals obey as ESC-sequences).
_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + [0x7F, *range(0x80, 0xA0)]
_VISIBLE = str.maketrans({c: f"\\x{c:02x}" for c in _CONTROLS} | {0x2028: "\\u2028", 0x2029: "\\u2029"})


def visible(text: str) -> str:
    """``text`` with every control character shown as an escape instead of acted on."""
    return text.translate(_VISIBLE)


class VisibleStream:
    """A text stream that writes through ``visible``; everything else goes to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

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
