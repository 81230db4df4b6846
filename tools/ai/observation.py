"""The observation vector of kifu's games for game-playing programs, and its layout: one for the PettingZoo
environments (``tools.ai.pettingzoo``) and the OpenSpiel games' observation tensor (``tools.ai.spiel``).

Built from what the player sees (``projections.views.player_view``, the per-seat view proven not to leak), never
from the hidden state. ``sections`` lists every range of one game's vector and what it means; ``document`` writes
them all as ``docs/ai.md`` (a test keeps that file current).

The slots say which card sits where an action points: the game's actions address cards by position ("summon
hand[2]", ``tools.ai.actions``' ``Pos`` slots), so for each zone an action can address, for each position, the
vector holds the card there (its number in the pool's name order, plus one; 0 for an empty position or a card the
player cannot see) and whether it is tapped.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np
from msgspec import Struct

from projections.views import player_view
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile
from statemachine.vocabulary import ZONE
from tools.ai.actions import MAX_POS, Pos, numbering

HEADER: Final = 6
STAT_BUCKETS: Final = 16
REQUEST: Final = 4
SLOT: Final = 2  # per addressed position: the card's number (+1), tapped
OTHER: Final = ""  # the zone row for any kind the game's vocabulary does not name


class Layout(Struct, frozen=True):
    """Where each part of one game's observation vector lies."""

    steps: tuple[str, ...]
    zones: tuple[str, ...]
    cards: tuple[str, ...]
    slots: tuple[tuple[str, str], ...]  # (whose, kind) of each zone an action addresses by position

    @property
    def per_zone(self) -> int:
        return 2 + len(self.cards)

    @property
    def size(self) -> int:
        return sections(self)[-1][2]

    def slot_at(self, whose: str, kind: str, position: int) -> int:
        """Where the slot of ``position`` of the ``whose`` (``me``/``op``) zone ``kind`` begins."""
        start = next(s for name, s, _, _ in sections(self) if name == "slots")
        return start + (self.slots.index((whose, kind)) * MAX_POS + position) * SLOT


@cache
def layout(game: str, version: str | None = None) -> Layout:
    prof = profile(game, version)
    zones = (*sorted(prof.vocabulary.names[ZONE]), OTHER)
    slots = sorted({(p.whose, p.kind) for shape in numbering(game).shapes for slot in shape.slots for p in slot
                    if isinstance(p, Pos)})
    return Layout(tuple(s.name for s in prof.steps), zones, tuple(sorted(prof.pool.cards)), tuple(slots))


@cache
def sections(lay: Layout) -> list[tuple[str, int, int, str]]:
    """Every range of the vector: (name, start, end, meaning), in order."""
    zones = ", ".join(z or "(any other)" for z in lay.zones)
    slots = ", ".join(f"{'my' if w == 'me' else 'their'} {k}" for w, k in lay.slots)
    parts = [
        ("header", HEADER, "turn number; it is my turn; I have priority; a choice is asked of me; effects waiting; "
                           "the game is over"),
        ("step", len(lay.steps), f"the step now, one-hot: {', '.join(lay.steps)}"),
        ("zones", 2 * len(lay.zones) * lay.per_zone,
         f"for me, then my opponent, for each zone kind ({zones}): how many cards lie there, how many of those I "
         f"see are tapped, then how many I see of each of the {len(lay.cards)} cards of the pool (in id order)"),
        ("stats", 2 * STAT_BUCKETS, f"for me, then my opponent: each counter (life, mana, PP, ...) added to bucket "
                                    f"crc32(name) % {STAT_BUCKETS}"),
        ("request", REQUEST, "the choice asked of me: how many options, the least and most to pick, how many picked"),
        ("slots", len(lay.slots) * MAX_POS * SLOT,
         f"for each zone an action addresses by position ({slots}), for each position 0..{MAX_POS - 1}: the card "
         f"there (its number in the pool's id order plus one; 0: empty or not seen), and 1 if it is tapped"),
    ]
    out, at = [], 0
    for name, n, meaning in parts:
        out.append((name, at, at + n, meaning))
        at += n
    return out


def observation(engine: Engine, player: int, picked: Sequence[int], lay: Layout) -> np.ndarray:
    """The vector ``player`` observes (see ``sections``): read from their view of the board only."""
    st = engine.state
    seen = player_view(st, player, hidden=engine.profile.hidden_zones)
    out = np.zeros(lay.size, np.float32)
    req = st.request  # the choice the rules wait for, as the log asked it
    mine = req is not None and req.player == player
    out[:HEADER] = (seen["turn"], seen["active"] == player, seen["priority"] == player, mine,
                    len(seen["pending"]), seen["ended"])
    at = HEADER
    if seen["step"] in lay.steps:
        out[at + lay.steps.index(seen["step"])] = 1
    at += len(lay.steps)
    zone_at = {z: i for i, z in enumerate(lay.zones)}
    card_at = {c: i for i, c in enumerate(lay.cards)}
    sides = (player, 1 - player)
    addressed = {(sides[["me", "op"].index(w)], k): (w, k) for w, k in lay.slots}
    for name, content in seen["zones"].items():
        owner, _, kind = name.partition(".")
        if not owner.isdecimal() or int(owner) not in sides:
            continue
        side = sides.index(int(owner))
        row = at + (side * len(lay.zones) + zone_at.get(kind, zone_at[OTHER])) * lay.per_zone
        shown = content if isinstance(content, list) else content["visible"]
        out[row] += len(content) if isinstance(content, list) else content["count"]
        slot = addressed.get((int(owner), kind))
        order = st.zone(name)
        for card in shown:
            tapped = bool(card["status"].get("tapped"))
            out[row + 1] += tapped
            if card["definition"] in card_at:
                out[row + 2 + card_at[card["definition"]]] += 1
            position = order.index(card["obj"])
            if slot is not None and position < MAX_POS:
                i = lay.slot_at(*slot, position)
                out[i:i + SLOT] = (1 + card_at.get(card["definition"], -1), tapped)
    at += 2 * len(lay.zones) * lay.per_zone
    for side, p in enumerate(sides):
        for key, value in seen["players"][p]["stats"].items():
            out[at + side * STAT_BUCKETS + zlib.crc32(key.encode()) % STAT_BUCKETS] += value
    at += 2 * STAT_BUCKETS
    if mine:
        assert req is not None
        out[at:at + REQUEST] = (len(req.options), req.minimum, req.maximum, len(picked))
    return out


def document() -> str:
    """``docs/ai.md``: the observation layout of every game, range by range."""
    lines = [
        "# Observations for game-playing programs",
        "",
        "Generated by `tools.ai.observation.document()` (a test checks it is current): the observation vector of",
        "each game, every range of it and what it means. It is the PettingZoo environment's `observation`",
        "(`tools.ai.pettingzoo`) and the OpenSpiel game's observation tensor (`tools.ai.spiel`); the OpenSpiel",
        "information-state tensor follows it with the cards the player knows to lie where they cannot see them",
        "(how many, then how many of each card of the pool, in id order). It is built from what the player sees,",
        "never from hidden state. Actions are `tools.ai.actions`' numbering; an action addressing a card by",
        "position (`summon hand[2]`) finds that card in the `slots` range.",
        "",
    ]
    for game in sorted(PROFILES):
        lay = layout(game)
        lines += [f"## `{game}` (rules {profile(game).version}): {lay.size} entries", "",
                  "| entries | part | meaning |", "|---|---|---|"]
        lines += [f"| {start}..{end - 1} | {name} | {meaning} |" for name, start, end, meaning in sections(lay)]
        lines.append("")
    return "\n".join(lines)
