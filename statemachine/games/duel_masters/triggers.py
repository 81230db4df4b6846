"""Duel Masters trigger words and the state each is checked in (seed 001, DM-LB-06, DM-LB-07).

"Leaves" and "is destroyed" look back at the state just before the move; "enters", "is put into" and
"is put into the hand" read the state just after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eventsource import events as ev
from projections.characteristics import ObjectView, current_or_last_known, view
from projections.state import UNDER
from statemachine.games.duel_masters.board import BATTLE, BATTLE_LOST, DESTROY, GRAVEYARD, HAND, SUMMON, WATCH, kind_of
from statemachine.triggers import Instance, Listener, TriggerKind, matches_filter

if TYPE_CHECKING:
    from statemachine.engine import Engine


def _enters(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == BATTLE else []


def _put_without_mana(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # Anything that puts a creature into the battle zone other than summoning with mana.
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == BATTLE and e.cause != SUMMON else []


def _destroyed(e: ev.Event, _: dict[str, Any]) -> list[int]:
    # A creature destroyed is destroyed wherever it went: to the graveyard, or where its 破壊置換 sent it
    # instead (「墓地に置くかわりに手札に戻す」, DM-GAME-REPLACE): the cause says it was destroyed.
    if isinstance(e, ev.ZoneChanged) and kind_of(e.src) == BATTLE and e.cause in (DESTROY, BATTLE_LOST):
        return [e.old]
    return []


def _leaves(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.old] if isinstance(e, ev.ZoneChanged) and kind_of(e.src) == BATTLE else []


def _put_into_graveyard(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == GRAVEYARD else []


def _put_into_hand(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.new] if isinstance(e, ev.ZoneChanged) and kind_of(e.dst) == HAND else []


def _attacks(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.attacker] if isinstance(e, ev.Attacked) else []


def _chosen(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return list(e.objects) if isinstance(e, ev.Chosen) else []


def _chosen_by(e: ev.Event, holder: ObjectView, subject: ObjectView, flt: dict[str, Any]) -> bool:
    # 「相手がこのクリーチャーを選んだ時」: filter {by = "opponent"} names who must have chosen.
    by = flt.get("by", "any")
    assert isinstance(e, ev.Chosen)
    return bool(by == "any" or (by == "opponent") == (e.player != holder.controller))


def _from_under(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return [e.old] if isinstance(e, ev.ZoneChanged) and e.src == UNDER else []


def _was_under_holder(e: ev.Event, holder: ObjectView, subject: ObjectView, flt: dict[str, Any]) -> bool:
    # 「このクリーチャーの下にあるカードが…置かれた時」: the moved card lay under the holder just before.
    return flt.get("under") != "self" or subject.on == holder.obj


def _fired(e: ev.Event, _: dict[str, Any]) -> list[int]:
    return []  # fired by the game itself at the moment its turn says (``profile.fire_turn_end``)


KINDS: dict[str, TriggerKind] = {
    "leaves_from_under": TriggerKind("leaves_from_under", ev.BEFORE, _from_under, _was_under_holder),
    "enters": TriggerKind("enters", ev.AFTER, _enters),
    "put_without_mana": TriggerKind("put_without_mana", ev.AFTER, _put_without_mana),
    "destroyed": TriggerKind("destroyed", ev.BEFORE, _destroyed),
    "leaves": TriggerKind("leaves", ev.BEFORE, _leaves),
    "put_into_graveyard": TriggerKind("put_into_graveyard", ev.AFTER, _put_into_graveyard),
    "put_into_hand": TriggerKind("put_into_hand", ev.AFTER, _put_into_hand),
    "attacks": TriggerKind("attacks", ev.AFTER, _attacks),
    "chosen": TriggerKind("chosen", ev.AFTER, _chosen, _chosen_by),
    # 「ターンの終わりに」 (DM-GAME-TURN-END): fired as the end step begins; the subject is the holder itself and
    # ``whose`` names whose turn it is ("you": the holder's controller's).
    "turn_ends": TriggerKind("turn_ends", ev.AFTER, _fired),
    # 「ブロックした時」 (DM-GAME-BLOCK, pool 1.4): fired by the block itself (``fire_on``); the blocker is the subject
    "blocks": TriggerKind("blocks", ev.AFTER, _fired),
    # 「バトルする時」 (DM-GAME-BATTLE, pool 1.4): fired for each creature of an attack's battle before it is fought;
    # the creature battling is the subject. The battle of an effect (効果バトル, step ``battle``) fires it from rules
    # 1.5 (switch ``effect_battle_fires``).
    "battles": TriggerKind("battles", ev.AFTER, _fired),
}


def fire_on(engine: Engine, word: str, *subjects: int) -> bool:
    """Trigger the abilities of creatures in the battle zone that listen for ``word``, a moment the game fires
    itself (no event marks it: a block, a battle about to be fought), about each of ``subjects``, as one group;
    whether any triggered. ``subject`` and ``whose`` of each trigger are read as for an event's subject."""
    st = engine.state
    found: list[Instance] = []
    for subject in subjects:
        seen = view(st, subject)
        for lst in engine.index.listeners(word):
            obj = st.objects.get(lst.obj)
            t = lst.ability.trigger
            if obj is None or kind_of(obj.zone) != BATTLE or t is None:
                continue
            holder = view(st, lst.obj)
            mine = holder.controller == seen.controller
            about = {"self": lst.obj == subject, "other": lst.obj != subject}.get(t.subject, True)
            whose = {"you": mine, "opponent": not mine}.get(t.whose, True)
            if lst.ability.id not in holder.chars.abilities or not about or not whose:
                continue
            if matches_filter(seen, t.filter, engine.index.tests):
                found.append(Instance(lst, holder.controller, holder, seen, st.seq, ev.AFTER))
        found += _watching(engine, word, subject, seen)
    if found:
        engine.policy.triggered(engine, found)
    return bool(found)


def _watching(engine: Engine, word: str, subject: int, seen: ObjectView) -> list[Instance]:
    """The abilities watching ``subject`` this turn for ``word`` (「このターン、…した時」, ``steps.watch_this_turn``):
    each triggers for the controller of the effect that made it; its source is that effect's card, as it is now or
    was when it last moved this turn (a spell now in the graveyard)."""
    st = engine.state
    out: list[Instance] = []
    for m in sorted(st.modifiers.values(), key=lambda m: m.effect):
        if m.kind != WATCH or m.target != subject:
            continue
        holder = current_or_last_known(st, m.source)
        if holder is None:
            continue  # its card is gone beyond what this turn remembers
        card = engine.profile.pool[st.cards[holder.card].definition]
        ability = card.ability(m.value)  # (named at load: ``steps.check_watch``)
        if ability.trigger is None or ability.trigger.on != word:
            continue
        out.append(Instance(Listener(m.source, card, ability), m.amount, holder, seen, st.seq, ev.AFTER))
    return out
