"""One ``kifu serve`` per SQLite file: the worker that serves it is the only one that appends to it.

On SQLite a worker has no way to hear of another process's appends (PostgreSQL notifies them; a file does not),
so a worker that trusted its cached engines while a second server appended to the same file would show stale
boards. A worker that holds the file's claim knows every append to it is its own: its cached engines are current
without a read of the store's head — several reads per decision saved. The claim is an exclusive ``flock`` on a
file beside the store, held for the life of the process (the kernel drops it when the process dies, SIGKILL
included, so a restarted server claims it again at once).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from tools.errors import BadInput

_held: dict[Path, int] = {}  # the claims this process holds: the lock file's descriptor, kept open


def claim_path(store: Path) -> Path:
    return store.with_name(store.name + ".serve-lock")


def claim(store: Path) -> None:
    """Claim ``store`` for this process (once; a second call is a no-op), or refuse naming who holds it."""
    store = store.resolve()
    if store in _held:
        return
    fd = os.open(claim_path(store), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
        os.close(fd)
        raise BadInput(f"{store} is served already (by process {holder}): one kifu serve per SQLite file — "
                       f"several workers share a PostgreSQL store") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    _held[store] = fd
