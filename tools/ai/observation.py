"""The observation vector of kifu's games for game-playing programs, and its layout: one for the PettingZoo
environments (``tools.ai.pettingzoo``) and the OpenSpiel games' observation tensor (``tools.ai.spiel``).

Built from what the player sees (``projections.views.player_view``, the per-seat view proven not to leak), never
from the hidden state. ``sections`` lists every range of one game's vector and what it means; ``document`` writes
them all as ``docs/ai.md`` (a test keeps that file current).

The slots say which card sits where an action points: the game's actions address cards by position ("summon
hand[2]", ``tools.ai.actions``' ``Pos`` slots), so for each zone an action can address, for each position, the
vector holds the card there (its number in the pool's name order, plus one; 0 for an empty position or a card the
player cannot see), whether it is tapped, its power, the cards under it and its other statuses. A request's
options are cards too: for each option an action picks (``0 .. MAX_OPTIONS-1``), the card it names and where it
lies (side, zone kind, position: the same position the slots use), or the pending effect it names (its place in
the pending range and its source card). The pending range lists every triggered ability or effect waiting in a
pool, stack, chain or queue, with its controller and its source.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Final

import numpy as np
from msgspec import Struct

from projections.state import GameState, Pending
from projections.views import can_see, player_view
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile
from statemachine.vocabulary import ZONE
from tools.ai.actions import MAX_OPTIONS, MAX_POS, Pos, numbering

HEADER: Final = 6
STAT_BUCKETS: Final = 16
REQUEST: Final = 6
STATUS_BUCKETS: Final = 8
SLOT: Final = 4 + STATUS_BUCKETS  # per addressed position: card number (+1), tapped, power, cards under, statuses
OTHER: Final = ""  # the zone row for any kind the game's vocabulary does not name
MAX_PENDING: Final = 16  # pending effects shown (more wait only in long chains of triggers)
PENDING: Final = 9  # per pending effect (``sections``)
OPTION: Final = 7  # per option of the open request (``sections``)
# Where an effect waits: triggered but not yet put anywhere, Duel Masters' pool, Magic's stack, Vision's chain,
# Shadowverse's queue (``projections.state.Pending.holder``).
HOLDERS: Final = ("", "pool", "stack", "chain", "queue")
ME, OP, SHARED = 1, 2, 3  # the side a card lies on: my zone, my opponent's, a zone of no one's (stack, chain)
OBJECT, EFFECT, VALUE = 1, 2, 3  # what a request's option names (``RulesProfile.option_kinds``)
WORD_CODES: Final = 1 << 16  # a word (a colour, a mode) is shown as crc32(word) % WORD_CODES


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
    place = (f"side ({ME}: mine, {OP}: my opponent's, {SHARED}: no one's, as the stack), zone kind (its place in "
             f"the zones list above, plus one), position in that zone (plus one; the slots' position)")
    holders = ", ".join(f"{i + 1}: {h or 'triggered, not yet put in one'}" for i, h in enumerate(HOLDERS))
    parts = [
        ("header", HEADER, "turn number; it is my turn; I have priority; a choice is asked of me; effects waiting; "
                           "the game is over"),
        ("step", len(lay.steps), f"the step now, one-hot: {', '.join(lay.steps)}"),
        ("zones", 2 * len(lay.zones) * lay.per_zone,
         f"for me, then my opponent, for each zone kind ({zones}): how many cards lie there, how many of those I "
         f"see are tapped, then how many I see of each of the {len(lay.cards)} cards of the pool (in id order)"),
        ("shared", lay.per_zone, "the zones of no one (Magic's stack, Vision's chain), as one zone row above"),
        ("stats", 2 * STAT_BUCKETS, f"for me, then my opponent: each counter (life, mana, PP, ...) added to bucket "
                                    f"crc32(name) % {STAT_BUCKETS}"),
        ("request", REQUEST, f"the choice asked of me: how many options, the least and most to pick, how many "
                             f"picked, what it is (crc32(kind) % {WORD_CODES}), the pending effect asking (its "
                             f"place in the pending range, plus one; 0: none)"),
        ("options", MAX_OPTIONS * OPTION,
         f"for each option 0..{MAX_OPTIONS - 1} of the choice asked of me (the action of the same number picks "
         f"it): what it names ({OBJECT}: a card, {EFFECT}: a pending effect, {VALUE}: a number or word; 0: no "
         f"option), the card (its number in the pool's id order plus one; 0: not seen; an effect's: its source), "
         f"where that card lies ({place}; 0s: not seen), the value (a number; a word as crc32(word) % "
         f"{WORD_CODES}; an effect: its place in the pending range, plus one), and 1 if it is picked"),
        ("pending", MAX_PENDING * PENDING,
         f"the first {MAX_PENDING} effects waiting, by holder then in each holder's order (its key: bottom of a "
         f"stack first): 1, its controller (side as in options), its holder ({holders}), its source card (number "
         f"plus one; 0: not seen), where the source lies (as in options), 1 if it is resolving, how many targets "
         f"it has"),
        ("slots", len(lay.slots) * MAX_POS * SLOT,
         f"for each zone an action addresses by position ({slots}), for each position 0..{MAX_POS - 1}: the card "
         f"there (its number in the pool's id order plus one; 0: empty or not seen), 1 if it is tapped, its power "
         f"now (0: none), how many cards lie under it, then each of its statuses (summoning sickness, damage, "
         f"counters, ...: the value) added to bucket crc32(name) % {STATUS_BUCKETS}"),
    ]
    out, at = [], 0
    for name, n, meaning in parts:
        out.append((name, at, at + n, meaning))
        at += n
    return out


def start(lay: Layout, name: str) -> int:
    """Where the range ``name`` of ``sections`` begins."""
    return next(s for part, s, _, _ in sections(lay) if part == name)


def waiting(state: GameState) -> list[Pending]:
    """The pending effects in the order the pending range lists them: by holder, then each holder's key."""
    return sorted(state.pending.values(),
                  key=lambda p: (HOLDERS.index(p.holder) if p.holder in HOLDERS else len(HOLDERS), p.key, p.effect))


class Seer:
    """Where ``player`` sees cards lie, and which: the card's number and place as the options and pending ranges
    show them."""

    def __init__(self, engine: Engine, player: int, lay: Layout) -> None:
        self.state, self.player, self.hidden = engine.state, player, engine.profile.hidden_zones
        self.zone_at = {z: i for i, z in enumerate(lay.zones)}
        self.card_at = {c: i for i, c in enumerate(lay.cards)}

    def card(self, oid: int) -> tuple[int, int, int, int]:
        """(card number + 1, side, zone kind + 1, position + 1) of object ``oid``; 0s for one not seen."""
        st = self.state
        if oid not in st.objects or not can_see(st, self.player, oid, hidden=self.hidden):
            return (0, 0, 0, 0)
        zone = st.objects[oid].zone
        owner, _, kind = zone.partition(".")
        if not owner.isdecimal():
            side, kind = SHARED, zone
        else:
            side = ME if int(owner) == self.player else OP
        ids = st.zone(zone)
        return (1 + self.card_at.get(st.facts(oid).definition, -1), side,
                1 + self.zone_at.get(kind, self.zone_at[OTHER]), 1 + ids.index(oid) if oid in ids else 0)

    def source(self, pend: Pending) -> tuple[int, int, int, int]:
        """The source of a pending effect as ``card`` shows it: the object it triggered from, or, once that left
        its zone, the object its card is now (a creature destroyed: its card in the graveyard)."""
        if pend.source in self.state.objects:
            return self.card(pend.source)
        now = next((o.id for o in self.state.objects.values() if o.card == pend.source_card), None)
        return (0, 0, 0, 0) if now is None else self.card(now)


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
    shared = start(lay, "shared")
    for name, content in seen["zones"].items():
        owner, _, kind = name.partition(".")
        if not owner.isdecimal():
            row, slot = shared, None
        elif int(owner) in sides:
            side = sides.index(int(owner))
            row = at + (side * len(lay.zones) + zone_at.get(kind, zone_at[OTHER])) * lay.per_zone
            slot = addressed.get((int(owner), kind))
        else:
            continue
        shown = content if isinstance(content, list) else content["visible"]
        out[row] += len(content) if isinstance(content, list) else content["count"]
        order = st.zone(name)
        for card in shown:
            tapped = bool(card["status"].get("tapped"))
            out[row + 1] += tapped
            if card["definition"] in card_at:
                out[row + 2 + card_at[card["definition"]]] += 1
            position = order.index(card["obj"])
            if slot is not None and position < MAX_POS:
                i = lay.slot_at(*slot, position)
                out[i:i + 4] = (1 + card_at.get(card["definition"], -1), tapped, card["power"] or 0, card["under"])
                for key, value in card["status"].items():
                    out[i + 4 + zlib.crc32(key.encode()) % STATUS_BUCKETS] += value
    at = start(lay, "stats")
    for side, p in enumerate(sides):
        for key, value in seen["players"][p]["stats"].items():
            out[at + side * STAT_BUCKETS + zlib.crc32(key.encode()) % STAT_BUCKETS] += value
    seer, pending = Seer(engine, player, lay), waiting(st)
    place = {p.effect: i for i, p in enumerate(pending)}
    at = start(lay, "pending")
    for i, pend in enumerate(pending[:MAX_PENDING]):
        holder = HOLDERS.index(pend.holder) + 1 if pend.holder in HOLDERS else 0
        out[at + i * PENDING:at + (i + 1) * PENDING] = (
            1, ME if pend.controller == player else OP, holder, *seer.source(pend), pend.resolving,
            len(pend.targets))
    if mine:
        assert req is not None
        asking = place[req.effect] + 1 if req.effect in place else 0
        out[start(lay, "request"):start(lay, "request") + REQUEST] = (
            len(req.options), req.minimum, req.maximum, len(picked), word(req.kind), asking)
        options(out, start(lay, "options"), req.options[:MAX_OPTIONS], picked, engine.profile.option_kinds.get(
            req.kind, "object"), seer, {e: (i + 1, pending[i]) for e, i in place.items()})
    return out


def options(out: np.ndarray, at: int, opts: Sequence[int | str], picked: Sequence[int], kind: str, seer: Seer,
            effects: Mapping[int, tuple[int, Pending]]) -> None:
    """Writes the options range: each option as the card, effect or value it names (see ``sections``; an
    integer that names no object, such as a player, is a value)."""
    chosen = set(picked)
    for i, opt in enumerate(opts):
        entry: tuple[float, ...]
        if kind == "effect" and isinstance(opt, int) and opt in effects:
            number, pend = effects[opt]
            entry = (EFFECT, *seer.source(pend), number)
        elif kind == "object" and isinstance(opt, int) and opt in seer.state.objects:
            entry = (OBJECT, *seer.card(opt), 0)
        else:
            entry = (VALUE, 0, 0, 0, 0, opt if isinstance(opt, int) else word(opt))
        out[at + i * OPTION:at + (i + 1) * OPTION] = (*entry, i in chosen)


def word(text: str) -> int:
    return zlib.crc32(text.encode()) % WORD_CODES


SAVING: Final = (
    "## Saving and restoring an OpenSpiel game and state",
    "",
    "`pyspiel.serialize_game_and_state` cannot save kifu's games, nor any game written in Python that is",
    "sampled stochastic: it asks the game for its generator's state (C++ `Game::GetRNGState`), which",
    "OpenSpiel's trampoline for Python games does not forward, so it fails with \"GetRNGState unimplemented\"",
    "(pickling a state goes through it too; a test checks this is still so). The supported way is",
    "`tools.ai.spiel.serialize_game_and_state(game, state)`, which writes the game's parameters, its episode",
    "count (which deal its next new initial state gets: the game's generator state) and the state (its log);",
    "`tools.ai.spiel.deserialize_game_and_state(text)` returns a game and a state that play on as the saved",
    "ones would, and whose next new initial state is the saved game's next episode. A state alone is",
    "`state.serialize()` and `game.deserialize_state(text)`.",
)


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
        "position (`summon hand[2]`) finds that card in the `slots` range, and an action picking option `i` of",
        "a request (a target, a shield to break, the effect to resolve next) finds what it picks in the `options`",
        "range: the card and where it lies, or the effect waiting and its source. PettingZoo's action mask is",
        "the agent's `info[\"action_mask\"]`.",
        "",
        *SAVING,
        "",
    ]
    for game in sorted(PROFILES):
        lay = layout(game)
        lines += [f"## `{game}` (rules {profile(game).version}): {lay.size} entries", "",
                  "| entries | part | meaning |", "|---|---|---|"]
        lines += [f"| {start}..{end - 1} | {name} | {meaning} |" for name, start, end, meaning in sections(lay)]
        lines.append("")
    return "\n".join(lines)
