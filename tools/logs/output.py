"""Writing an output file safely: whole or not at all, and never over something that is not a regular file.

``kifu export`` and ``kifu view`` write what they make to a temporary file beside the target, flush it to disk
and rename it over the target, so an interrupted run never leaves a partial file behind. The target, if it
exists, must be a regular file: a device (``/dev/null`` for a root user), a directory, a pipe or a symbolic link
(whose target could be anything the user can write) is refused as bad input before anything is written.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from tools.errors import BadInput


def regular_target(target: Path, command: str) -> Path:
    """``target`` if it is missing or a regular file; anything else is never replaced (``command`` says who
    refuses, as ``kifu export``)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise BadInput(f"cannot write {target}: {exc.strerror}") from exc
    if stat.S_ISLNK(mode):
        raise BadInput(f"{target} is a symbolic link; {command} replaces only a regular file")
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device, a pipe or a socket)"
        raise BadInput(f"{target} is {kind}; {command} replaces only a regular file")
    return target


def _mode_for(target: Path) -> int:
    """The replaced file's permissions, or those a new file gets (mkstemp's are owner-only)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(target: Path, write: Callable[[Path], object], command: str) -> None:
    """Write to a temporary file in ``target``'s directory, flush it to disk, then rename it over ``target``
    (checked with :func:`regular_target` before and again just before the rename)."""
    regular_target(target, command)
    folder = target.parent
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise BadInput(f"cannot write in {folder}: {exc.strerror}") from exc
    os.close(fd)
    partial = Path(name)
    try:
        os.chmod(partial, _mode_for(target))
        write(partial)
        with open(partial, "rb+") as handle:
            os.fsync(handle.fileno())
        regular_target(target, command)  # (still not something else: checked again just before the rename)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
