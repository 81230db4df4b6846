"""Look-back for tools: any object that ever left a zone, as it was just before it left.

The fold keeps the look-back state of objects that left during the current turn (``GameState.last_known``),
which is all the rules ever need. For an object that left earlier, time travel answers the same question:
fold to the move that took it away and read the look-back state there.
"""

from __future__ import annotations

from collections.abc import Iterable

from eventsource import events as ev
from eventsource.records import Record
from projections.characteristics import ObjectView, last_known
from projections.timeline import Timeline


def departure(records: Iterable[Record], oid: int) -> Record | None:
    """The record of the move that took object ``oid`` out of its zone, if it ever left."""
    for r in records:
        if isinstance(r.event, ev.ZoneChanged) and r.event.old == oid:
            return r
    return None


def look_back(timeline: Timeline, oid: int) -> ObjectView | None:
    """Object ``oid`` as it was just before it left its zone (None if it never left)."""
    moved = departure(timeline.store.read(timeline.game), oid)
    if moved is None:
        return None
    return last_known(timeline.state_at(moved.seq), oid)
