"""Replacement and prevention effects (CR 614, 615): continuous effects that change an event before it happens.

Such an effect is a continuous effect in force like any other (``ContinuousEffectStarted``, a ``Modifier`` of the
projection), so it starts, lasts ("this turn": ``until``) and ends by events. What it watches is its ``kind``:

- ``prevent_damage`` (CR 615.7, a prevention shield): "prevent the next N damage that would be dealt to ~": ``target``
  is what it protects (an object, or a player as ``-1 - player``), ``amount`` the damage it still prevents.
- ``prevent_next_time`` (CR 615.7): "the next time [a source] would deal damage to ~, prevent that damage": used
  up by one event of damage, whatever its amount.
- ``instead`` (CR 614.1a, 614.6): "if ~ would <move> this turn, <other move> instead": ``target`` is the object,
  ``value`` ``"<what>><instead>"`` in the game's words (Magic "graveyard>exile": "if it would die, exile it
  instead"; a game may say "destroyed>banished"). ``target`` ``ANY`` watches every object (a rule of the whole
  game, "each follower that would be destroyed is banished instead"); ``"<what>><instead>@<type>"`` watches only
  objects of that type (Shadowverse's ブラッドムーン: followers, not amulets).

A shield may watch only some sources: ``value`` ``"source=<object>"`` (a source chosen as the effect began) or
``"color=<colour>"``; the game decides what a source's colour is (``source_colors``). The rules code about to emit
an event asks here what it becomes, and emits, with it, the events that use a shield up (its end, and a shield
for what is left): so a log shows every shield used, and a replay folds the same state.

Which of several effects applies first is timestamp order (the oldest first); CR 616.1 lets the affected player
choose, which no card of the pools makes matter (each shield only lowers the amount).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from eventsource import events as ev
from projections.state import EVERY_OBJECT, GameState, Modifier

PREVENT_DAMAGE = "prevent_damage"
PREVENT_NEXT_TIME = "prevent_next_time"
INSTEAD = "instead"
ANY = EVERY_OBJECT  # an ``instead`` effect's target that watches every object
SHIELDS = (PREVENT_DAMAGE, PREVENT_NEXT_TIME)


def watches_source(m: Modifier, source: int, source_colors: Iterable[str]) -> bool:
    """Whether a shield applies to damage from ``source`` (of those colours)."""
    if not m.value:
        return True
    key, _, want = m.value.partition("=")
    if key == "source":
        return want == str(source)
    if key == "color":
        return want in source_colors
    return False


class Shields:
    """The prevention shields in force while one group of damage events is made: each use is remembered, so two
    hits of one group never spend the same prevention twice, and ``events`` records what was used."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.left: dict[int, int] = {}  # effect -> amount left, for the shields used so far
        self.spent: set[int] = set()  # "next time" shields used up

    def prevent(self, to: int, amount: int, source: int, source_colors: Callable[[], Iterable[str]]) -> int:
        """The damage of ``amount`` from ``source`` to ``to`` that is left after the shields on ``to``."""
        for m in sorted(self.state.modifiers.values(), key=lambda m: m.effect):
            if amount <= 0:
                break
            if m.kind not in SHIELDS or m.target != to or m.effect in self.spent:
                continue
            if not watches_source(m, source, source_colors()):
                continue
            if m.kind == PREVENT_NEXT_TIME:
                self.spent.add(m.effect)
                return 0
            have = self.left.get(m.effect, m.amount)
            used = min(have, amount)
            if used:
                self.left[m.effect] = have - used
                amount -= used
        return amount

    def events(self) -> list[ev.Event]:
        """A shield used up ends; one used in part ends and a shield for what is left starts in its place."""
        out: list[ev.Event] = []
        eid = self.state.next_effect
        for effect in sorted(set(self.left) | self.spent):
            m = self.state.modifiers[effect]
            left = self.left.get(effect, 0)
            if effect not in self.spent and left == m.amount:
                continue
            out.append(ev.ContinuousEffectEnded(effect))
            if effect not in self.spent and left > 0:
                out.append(ev.ContinuousEffectStarted(eid, m.source, m.kind, m.target, amount=left, value=m.value,
                                                      until=m.until))
                eid += 1
        return out


def instead(state: GameState, obj: int, what: str, types: Iterable[str] = ()) -> str | None:
    """What an object's ``what`` (a game's word: "graveyard", "destroyed") is replaced by, if an effect in force
    says so (the oldest effect applies, CR 616.1). ``types``: the object's types, read by an effect that watches
    only objects of one type."""
    for m in sorted(state.modifiers.values(), key=lambda m: m.effect):
        if m.kind == INSTEAD and m.target in (obj, ANY):
            rule, _, only = m.value.partition("@")
            was, _, now = rule.partition(">")
            if was == what and now and (not only or only in types):
                return now
    return None


def shield(effect: int, source: int, to: int, amount: int = 0, *, watching: str = "", next_time: bool = False,
           until: str = "end_of_turn") -> ev.ContinuousEffectStarted:
    """The event that starts a prevention shield on ``to`` (``amount``: the next N damage; ``next_time``: the next
    time damage would be dealt), watching sources as ``watching`` says ("", "source=<id>", "color=<c>")."""
    kind = PREVENT_NEXT_TIME if next_time else PREVENT_DAMAGE
    return ev.ContinuousEffectStarted(effect, source, kind, to, amount=amount, value=watching, until=until)


def replacement(effect: int, source: int, obj: int, what: str, now: str,
                until: str = "end_of_turn", *, only: str = "") -> ev.ContinuousEffectStarted:
    """The event that starts "if ``obj`` would ``what``, ``now`` instead" (``obj`` may be ``ANY``; ``only``: a
    type, for an effect that watches only objects of that type)."""
    return ev.ContinuousEffectStarted(effect, source, INSTEAD, obj, value=replacement_value(what, now, only),
                                      until=until)


def replacement_value(what: str, now: str, only: str = "") -> str:
    """The ``value`` of an ``instead`` effect: ``"<what>><now>"``, ``"@<type>"`` after it for one type only."""
    return f"{what}>{now}" + (f"@{only}" if only else "")
