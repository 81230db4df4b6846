"""A synthetic but realistic game log of any length, for benchmarks and tests.

Two players with 40-card decks (ten definitions, four copies each) play a Duel-Masters-like game that never
ends: turns and steps, untapping, draws, mana charges, summons paid by tapping mana, evolution onto a
creature, spells that go to the stack and then the graveyard, enter / attack / destroyed triggers waiting in
the turn player's pool first, target and resolve-order choices, effects that fizzle when their target is
gone, power pumps and ignored abilities until end of turn, battles, broken shields with shield triggers,
random discards, life changes, and a graveyard shuffled back into an empty deck.

The log is made the way the engine makes one: each event is folded with :func:`projections.state.evolve` as it
is emitted, and the simulation reads positions and what is where from that state, so every log folds cleanly.
A player decision (a ``ChoiceMade``) opens a new decision; its consequences, and the automatic steps after
them, belong to it: 14 events each on average, from a 4-event mana charge to a turn change of 20 or more.
The game stays bounded: 80 objects, a look-back that is cleared each turn, continuous effects that end each
turn, and pools that empty before each decision.

Everything derives from the seed: game randomness through :mod:`eventsource.randomness` (recorded as
``Shuffled`` and ``RandomDrawn`` events), and the simulated players' choices from a generator derived from the
same seed. Nothing here touches module-level ``random``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from eventsource import events as ev
from eventsource import randomness
from eventsource.records import NewEvent
from projections.characteristics import view
from projections.state import UNDER, GameState, Pending, evolve

PLAYERS: Final = ("Aki", "Ben")
COPIES: Final = 4
MAX_MANA: Final = 10  # a player stops charging mana here
MAX_BATTLE: Final = 6  # nor summons past this many creatures
MAX_HAND: Final = 9  # and discards down to this at the end of the turn
START_LIFE: Final = 20
UNTIL_END_OF_TURN: Final = "end_of_turn"


@dataclass(frozen=True)
class Definition:
    ident: str
    name: str
    kind: str  # "creature", "evolution" or "spell"
    cost: int
    power: int | None
    abilities: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def printed(self) -> ev.Characteristics:
        types = ("Spell",) if self.kind == "spell" else ("Creature",)
        subtypes = ("Evolution",) if self.kind == "evolution" else ()
        return ev.Characteristics(
            self.name, types, subtypes, ("fire",) if self.cost % 2 else ("water",), self.cost, self.power,
            keywords=self.keywords, abilities=self.abilities,
        )


DECK: Final[tuple[Definition, ...]] = (
    Definition("syn.ember_scout", "Ember Scout", "creature", 2, 2000, ("enter_silence",)),
    Definition("syn.tide_reader", "Tide Reader", "creature", 3, 1000, ("enter_draw2", "turn_draw"),
               ("blocker",)),
    Definition("syn.grove_warden", "Grove Warden", "creature", 4, 4000,
               ("enter_boost", "destroyed_shield", "ally_destroyed_draw"), ("blocker",)),
    Definition("syn.ash_reaver", "Ash Reaver", "creature", 5, 5000, ("enter_destroy", "win_untap")),
    Definition("syn.storm_herald", "Storm Herald", "creature", 4, 3000, ("enter_pump", "ally_attack_pump")),
    Definition("syn.night_stalker", "Night Stalker", "creature", 3, 3000, ("attack_discard", "win_untap")),
    Definition("syn.dawn_keeper", "Dawn Keeper", "creature", 3, 2000,
               ("attack_heal", "ally_enter_pump", "end_untap")),
    Definition("syn.crown_dragon", "Crown Dragon", "evolution", 5, 9000,
               ("enter_destroy", "enter_burn_mana", "enter_boost", "destroyed_shield")),
    Definition("syn.sever", "Sever", "spell", 3, None, ("spell_destroy2",), ("shield_trigger",)),
    Definition("syn.insight", "Insight", "spell", 2, None, ("spell_draw3",), ("shield_trigger",)),
)
BY_IDENT: Final[dict[str, Definition]] = {d.ident: d for d in DECK}
CARD_POOL_DIGEST: Final = hashlib.blake2b(repr(DECK).encode(), digest_size=16).hexdigest()


class _Game:
    """The simulation: emits events, folds each one, and reads the state it folded."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.mind = randomness.generator(seed, -1)  # the simulated players' choices, apart from game draws
        self.state = GameState()
        self.seq = 0
        self.decision = 0
        self.current: list[NewEvent] = []
        self.done: list[list[NewEvent]] = []
        self.next_cause = 0  # the end-of-turn choice the next turn follows from

    # -- emitting ----------------------------------------------------------------------------------------

    def emit(self, event: ev.Event, cause: int = 0) -> int:
        self.seq += 1
        evolve(self.state, self.seq, event, self.decision)
        self.current.append(NewEvent(event, self.decision, cause))
        return self.seq

    def choose(self, player: int, action: str, args: tuple[int | str, ...] = (), requested: int = 0) -> int:
        """A player decision: it closes the decision before it and opens its own."""
        if self.current:
            self.done.append(self.current)
            self.current = []
        self.decision += 1
        return self.emit(ev.ChoiceMade(player, action, args), requested)

    def ask(self, player: int, kind: str, options: list[int], effect: int | None = None,
            cause: int = 0) -> int:
        return self.emit(ev.ChoiceRequested(player, kind, tuple(options), 1, 1, effect), cause)

    # -- reading the state -------------------------------------------------------------------------------

    def zone(self, player: int, name: str) -> list[int]:
        return self.state.zones.get(f"{player}.{name}", [])

    def definition(self, oid: int) -> Definition:
        return BY_IDENT[self.state.facts(oid).definition]

    def tapped(self, oid: int) -> bool:
        return bool(self.state.objects[oid].status.get("tapped"))

    def power(self, oid: int) -> int:
        return view(self.state, oid).power

    def abilities(self, oid: int) -> tuple[str, ...]:
        return view(self.state, oid).chars.abilities  # () while its abilities are ignored

    # -- moving cards ------------------------------------------------------------------------------------

    def move(self, oid: int, dst: str, why: str, cause: int, *, face_down: bool = False,
             pos: int = -1) -> int:
        """A zone change; returns the new object id (a card that moves is a new object)."""
        st = self.state
        obj = st.objects[oid]
        src_pos = 0 if obj.zone == UNDER else st.zones[obj.zone].index(oid)
        new = st.next_object
        dst_pos = pos if pos >= 0 else len(st.zones.get(dst, []))
        self.emit(ev.ZoneChanged(oid, new, obj.card, obj.zone, src_pos, dst, dst_pos, why, face_down), cause)
        return new

    def draw(self, player: int, cause: int) -> None:
        if not self.zone(player, "deck"):
            self.reshuffle(player, cause)
        deck = self.zone(player, "deck")
        if deck:
            self.reveal(self.move(deck[0], f"{player}.hand", "draw", cause), (player,))

    def reveal(self, oid: int, to: tuple[int, ...]) -> None:
        """Who saw a hidden card, and when: a drawn card is shown to its owner, a shield trigger to both."""
        facts = self.state.facts(oid)
        self.emit(ev.Revealed(oid, to, self.state.objects[oid].card, facts.definition), self.seq)

    def reshuffle(self, player: int, cause: int) -> None:
        """An empty deck takes its graveyard back, shuffled (the game never ends by decking out)."""
        for oid in list(self.zone(player, "graveyard")):
            self.move(oid, f"{player}.deck", "reshuffle", cause)
        deck = self.zone(player, "deck")
        if deck:
            order = randomness.shuffled(self.seed, self.state.random_draws, list(deck))
            self.emit(ev.Shuffled(f"{player}.deck", order), cause)

    def destroy(self, oid: int, why: str, cause: int) -> None:
        """Destroy a creature; its destroyed triggers are checked in the state just before (DM-LB)."""
        st = self.state
        owner = st.objects[oid].controller
        abilities = self.abilities(oid)
        card = st.objects[oid].card
        under = list(st.objects[oid].under)
        at = self.move(oid, f"{owner}.graveyard", why, cause)
        moved = self.seq
        for below in under:
            self.move(below, f"{owner}.graveyard", "evolution_source", moved)
        if "destroyed_shield" in abilities:
            self.trigger("destroyed_shield", oid, card, owner, moved, ev.BEFORE, subject=at)
        for other in self.zone(owner, "battle"):
            if "ally_destroyed_draw" in self.abilities(other):
                self.trigger("ally_destroyed_draw", other, self.state.objects[other].card, owner, moved,
                             ev.BEFORE, subject=at)

    # -- triggers and the pending pools ------------------------------------------------------------------

    def trigger(self, ability: str, source: int, card: int, controller: int, by: int, checked: str,
                subject: int | None = None) -> None:
        eid = self.state.next_effect
        seq = self.emit(ev.Triggered(eid, ability, source, card, controller, by, checked, (), subject), by)
        self.emit(ev.EffectPending(eid, f"{controller}.pool", controller, ability), seq)

    def resolve_pools(self) -> None:
        """The turn player's pool first; its owner orders what waits there, and is asked again whenever a new
        trigger joins a pool before the order is done."""
        st = self.state
        while st.pending:
            active = st.active
            owner = active if any(p.controller == active for p in st.pending.values()) else 1 - active
            order = [p.effect for p in st.pending.values() if p.controller == owner]
            if len({st.pending[e].ability for e in order}) > 1:  # the order of identical effects is moot
                req = self.ask(owner, "order", order)
                self.mind.shuffle(order)
                self.choose(owner, "order", tuple(order), req)
            known = set(st.pending)
            for eid in order:
                self.resolve(eid)
                if not known.issuperset(st.pending):
                    break

    def resolve(self, eid: int) -> None:
        pend = self.state.pending[eid]
        start = self.emit(ev.EffectResolving(eid), pend.by or self.seq)
        for carry_out in (self._draw_or_remove, self._modify):
            done = carry_out(pend, start)
            if done is not None:
                break
        else:
            raise AssertionError(f"no behaviour for {pend.ability}")
        fizzled, start = done  # a choice made while resolving is the cause of what follows
        if fizzled:
            self.emit(ev.EffectFizzled(eid, fizzled), start)
        else:
            self.emit(ev.EffectResolved(eid), start)

    def _draw_or_remove(self, pend: Pending, start: int) -> tuple[str, int] | None:
        """Draws, destructions, moves of mana, hand and shield cards: why it fizzled ("" if it did not) and the
        record its last event followed, or None if the ability is not one of these."""
        st = self.state
        me, foe = pend.controller, 1 - pend.controller
        ability = pend.ability
        fizzled = ""
        if ability in ("turn_draw", "ally_destroyed_draw"):
            self.draw(me, start)
            return fizzled, start
        if ability in ("enter_draw2", "spell_draw3"):
            for _ in range(int(ability[-1])):
                self.draw(me, start)
            return fizzled, start
        if ability in ("enter_destroy", "spell_destroy2"):
            targets = list(self.zone(foe, "battle"))
            count = 2 if ability == "spell_destroy2" else 1
            if not targets:
                fizzled = "no legal target"
            else:
                if len(targets) > count:
                    req = self.ask(me, "target", targets, pend.effect, start)
                    targets = sorted(targets, key=self.power)[:count]
                    start = self.choose(me, "target", tuple(targets), req)
                for target in targets:
                    self.destroy(target, "destroyed", start)
            return fizzled, start
        if ability == "enter_boost":  # "you may": a player with enough mana declines
            deck = self.zone(me, "deck")
            if not deck or len(self.zone(me, "mana")) >= MAX_MANA:
                fizzled = "declined"
            else:
                boosted = self.move(deck[0], f"{me}.mana", "boost", start)
                self.emit(ev.StatusSet(boosted, "tapped", 1), self.seq)
            return fizzled, start
        if ability == "enter_burn_mana":
            mana = self.zone(foe, "mana")
            if not mana:
                fizzled = "no mana"
            else:
                self.move(mana[-1], f"{foe}.graveyard", "burn_mana", start)
            return fizzled, start
        if ability == "attack_discard":
            hand = self.zone(foe, "hand")
            if not hand:
                fizzled = "empty hand"
            else:
                n = st.random_draws
                value = randomness.below(self.seed, n, len(hand))
                self.emit(ev.RandomDrawn("discard", len(hand), value), start)
                self.move(hand[value], f"{foe}.graveyard", "discard", self.seq)
            return fizzled, start
        if ability == "destroyed_shield":
            deck = self.zone(me, "deck")
            if not deck:
                fizzled = "empty deck"
            else:
                self.move(deck[0], f"{me}.shields", "add_shield", start, face_down=True)
            return fizzled, start
        return None

    def _modify(self, pend: Pending, start: int) -> tuple[str, int] | None:
        """Power, silence, untap and life: why it fizzled ("" if it did not) and the record its last event
        followed, or None if the ability is not one of these."""
        st = self.state
        me, foe = pend.controller, 1 - pend.controller
        ability = pend.ability
        fizzled = ""
        if ability == "ally_attack_pump":
            if pend.subject is None or pend.subject not in st.objects:
                fizzled = "attacker left"
            else:
                effect = st.next_effect
                self.emit(ev.ContinuousEffectStarted(effect, pend.source, "power", pend.subject, 1000,
                                                     until=UNTIL_END_OF_TURN), start)
            return fizzled, start
        if ability in ("enter_pump", "ally_enter_pump"):
            mine = list(self.zone(me, "battle"))
            if not mine:
                fizzled = "no creature"
            for target in mine:
                effect = st.next_effect
                self.emit(ev.ContinuousEffectStarted(effect, pend.source, "power", target, 2000,
                                                     until=UNTIL_END_OF_TURN), start)
            return fizzled, start
        if ability == "enter_silence":
            targets = self.zone(foe, "battle")
            if not targets:
                fizzled = "no legal target"
            else:
                effect = st.next_effect
                target = max(targets, key=self.power)
                self.emit(ev.ContinuousEffectStarted(effect, pend.source, "ignore_abilities", target,
                                                     until=UNTIL_END_OF_TURN), start)
            return fizzled, start
        if ability in ("win_untap", "end_untap"):
            if pend.source not in st.objects:
                fizzled = "source left"
            else:
                self.emit(ev.StatusSet(pend.source, "tapped", 0), start)
            return fizzled, start
        if ability == "attack_heal":
            self.emit(ev.PlayerStat(me, "life", min(START_LIFE, st.stat(me, "life") + 2)), start)
            return fizzled, start
        return None

    # -- playing cards -----------------------------------------------------------------------------------

    def playable(self, player: int) -> list[int]:
        untapped = sum(1 for m in self.zone(player, "mana") if not self.tapped(m))
        bases = [c for c in self.zone(player, "battle") if not self.state.objects[c].under]
        room = len(self.zone(player, "battle")) < MAX_BATTLE
        out = []
        for oid in self.zone(player, "hand"):
            d = self.definition(oid)
            if d.cost > untapped:
                continue
            if (d.kind == "creature" and room) or (d.kind == "evolution" and bases) or d.kind == "spell":
                out.append(oid)
        return out

    def play(self, player: int, oid: int, requested: int) -> None:
        st = self.state
        d = self.definition(oid)
        choice = self.choose(player, "play", (oid,), requested)
        mana = [m for m in self.zone(player, "mana") if not self.tapped(m)][: d.cost]
        paid = self.emit(ev.CostPaid(player, "mana", d.cost, tuple(mana)), choice)
        for m in mana:
            self.emit(ev.StatusSet(m, "tapped", 1), paid)
        if d.kind == "spell":
            self.cast(player, oid, paid)
            return
        base = None
        if d.kind == "evolution":
            base = self.mind.choice([c for c in self.zone(player, "battle") if not st.objects[c].under])
        new = self.move(oid, f"{player}.battle", "summon", paid)
        entered = self.seq
        if base is not None:
            self.emit(ev.Stacked(new, base), entered)
        else:
            self.emit(ev.StatusSet(new, "sick", 1), entered)
        for ability in self.abilities(new):
            if ability.startswith("enter_"):
                self.trigger(ability, new, st.objects[new].card, player, entered, ev.AFTER)
        for other in self.zone(player, "battle"):
            if other != new and "ally_enter_pump" in self.abilities(other):
                self.trigger("ally_enter_pump", other, st.objects[other].card, player, entered, ev.AFTER, new)
        self.resolve_pools()

    def cast(self, player: int, oid: int, cause: int) -> None:
        st = self.state
        d = self.definition(oid)
        on_stack = self.move(oid, "stack", "cast", cause)
        eid = st.next_effect
        self.emit(ev.EffectPending(eid, "stack", player, d.abilities[0]), self.seq)
        self.resolve(eid)
        self.move(on_stack, f"{player}.graveyard", "resolved", self.seq)
        self.resolve_pools()

    # -- attacking ---------------------------------------------------------------------------------------

    def attack(self, player: int, ready: list[int], requested: int) -> None:
        """Declare attackers all at once; then each attack in turn may be blocked, and battles or breaks."""
        st = self.state
        foe = 1 - player
        attacks: list[tuple[int, int]] = []
        for attacker in ready:
            tapped_foes = [c for c in self.zone(foe, "battle") if self.tapped(c)]
            target = self.mind.choice(tapped_foes) if tapped_foes and self.mind.random() < 0.3 else -1 - foe
            attacks.append((attacker, target))
        choice = self.choose(player, "attack", tuple(x for pair in attacks for x in pair), requested)
        for attacker, _ in attacks:
            self.emit(ev.StatusSet(attacker, "tapped", 1), choice)
            declared = self.seq
            for ability in self.abilities(attacker):
                if ability.startswith("attack_"):
                    self.trigger(ability, attacker, st.objects[attacker].card, player, declared, ev.AFTER)
            for other in self.zone(player, "battle"):
                if other != attacker and "ally_attack_pump" in self.abilities(other):
                    self.trigger("ally_attack_pump", other, st.objects[other].card, player, declared,
                                 ev.AFTER, attacker)
        self.resolve_pools()
        attacks = [(a, t) for a, t in attacks if a in st.objects]
        blockers = [c for c in self.zone(foe, "battle") if not self.tapped(c)
                    and "blocker" in view(st, c).chars.keywords]
        blocks: dict[int, int] = {}
        if attacks and blockers:
            req = self.ask(foe, "block", blockers, cause=choice)
            for attacker, _ in attacks:
                if blockers and self.mind.random() < 0.4:
                    blocks[attacker] = blockers.pop(self.mind.randrange(len(blockers)))
            choice = self.choose(foe, "block", tuple(x for pair in blocks.items() for x in pair), req)
            for blocker in blocks.values():
                self.emit(ev.StatusSet(blocker, "tapped", 1), choice)
        for attacker, target in attacks:
            if attacker in st.objects:
                self.fight(player, attacker, blocks.get(attacker, target), choice)

    def fight(self, player: int, attacker: int, target: int, cause: int) -> None:
        st = self.state
        foe = 1 - player
        if target >= 0:
            if target in st.objects:
                self.battle(attacker, target, cause)
        elif self.zone(foe, "shields"):
            for _ in range(2 if self.power(attacker) >= 6000 else 1):  # double breaker
                if self.zone(foe, "shields"):
                    self.break_shield(foe, cause)
        else:
            life = st.stat(foe, "life")
            self.emit(ev.PlayerStat(foe, "life", max(1, life - 3)), cause)
        self.resolve_pools()

    def battle(self, attacker: int, defender: int, cause: int) -> None:
        st = self.state
        pa, pd = self.power(attacker), self.power(defender)
        if pa >= pd:
            self.destroy(defender, "battle", cause)
        if pd >= pa:
            self.destroy(attacker, "battle", cause)
        for winner in (attacker, defender):
            if winner in st.objects and "win_untap" in self.abilities(winner):
                obj = st.objects[winner]
                self.trigger("win_untap", winner, obj.card, obj.controller, self.seq, ev.AFTER)

    def break_shield(self, foe: int, cause: int) -> None:
        st = self.state
        new = self.move(self.zone(foe, "shields")[0], f"{foe}.hand", "break", cause)
        broken = self.seq
        self.reveal(new, (foe,))
        self.emit(ev.PlayerStat(foe, "shields_broken", st.stat(foe, "shields_broken") + 1), broken)
        d = self.definition(new)
        if "shield_trigger" in d.keywords:
            req = self.ask(foe, "shield_trigger", [new], cause=broken)
            if self.mind.random() < 0.8:
                choice = self.choose(foe, "cast", (new,), req)
                self.reveal(new, (0, 1))
                self.cast(foe, new, choice)
            else:
                self.choose(foe, "decline", (), req)

    # -- the turn ----------------------------------------------------------------------------------------

    def setup(self) -> None:
        st = self.state
        self.emit(ev.GameStarted("synthetic", "1", PLAYERS, self.seed, "synthetic", "1", CARD_POOL_DIGEST))
        card = 0
        for player in (0, 1):
            for i, d in enumerate(d for d in DECK for _ in range(COPIES)):
                card += 1
                self.emit(ev.ObjectCreated(card, card, d.ident, player, f"{player}.deck", i, d.printed()))
        for player in (0, 1):
            deck = self.zone(player, "deck")
            self.emit(ev.Shuffled(f"{player}.deck", randomness.shuffled(self.seed, st.random_draws, deck)))
            self.emit(ev.PlayerStat(player, "life", START_LIFE))
            for _ in range(5):
                self.move(self.zone(player, "deck")[0], f"{player}.shields", "setup", 0, face_down=True)
            for _ in range(5):
                self.draw(player, 0)

    def turn(self, cause: int) -> None:
        st = self.state
        player = st.turn % 2
        for m in [m.effect for m in st.modifiers.values() if m.until == UNTIL_END_OF_TURN]:
            self.emit(ev.ContinuousEffectEnded(m), cause)
        began = self.emit(ev.TurnBegan(st.turn + 1, player), cause)
        self.emit(ev.StepBegan("start", "untap"), began)
        for oid in self.zone(player, "mana") + self.zone(player, "battle"):
            status = st.objects[oid].status
            for key in ("tapped", "sick"):
                if status.get(key):
                    self.emit(ev.StatusSet(oid, key, 0), began)
        for oid in self.zone(player, "battle"):
            if "turn_draw" in self.abilities(oid):
                self.trigger("turn_draw", oid, st.objects[oid].card, player, began, ev.AFTER)
        self.resolve_pools()
        self.emit(ev.StepBegan("start", "draw"), began)
        if st.turn > 1:
            self.draw(player, began)
        self.emit(ev.StepBegan("main", "charge"), began)
        hand = self.zone(player, "hand")
        if hand and len(self.zone(player, "mana")) < MAX_MANA:
            req = self.ask(player, "charge", list(hand))
            oid = self.mind.choice(hand)
            choice = self.choose(player, "charge", (oid,), req)
            self.move(oid, f"{player}.mana", "charge", choice)
        self.emit(ev.StepBegan("main", "main"))
        for _ in range(2):
            options = self.playable(player)
            if not options:
                break
            req = self.ask(player, "play", options)
            self.play(player, self.mind.choice(options), req)
        self.emit(ev.StepBegan("battle", "attack"))
        ready = [c for c in self.zone(player, "battle")
                 if not self.tapped(c) and not st.objects[c].status.get("sick")]
        if ready:
            req = self.ask(player, "attack", ready)
            self.attack(player, [c for c in ready if self.mind.random() < 0.9], req)
        end = self.emit(ev.StepBegan("end", "end"))
        for oid in self.zone(player, "battle"):
            if "end_untap" in self.abilities(oid):
                self.trigger("end_untap", oid, st.objects[oid].card, player, end, ev.AFTER)
        self.resolve_pools()
        hand = self.zone(player, "hand")
        if len(hand) > MAX_HAND:
            req = self.ask(player, "discard", list(hand), cause=end)
            gone = self.mind.sample(hand, len(hand) - MAX_HAND)
            choice = self.choose(player, "discard", tuple(gone), req)
            for oid in gone:
                self.move(oid, f"{player}.graveyard", "discard", choice)
        req = self.ask(player, "end_turn", [])
        self.next_cause = self.choose(player, "end_turn", (), req)

    def decisions(self) -> Iterator[list[NewEvent]]:
        self.setup()
        while True:
            self.turn(self.next_cause)
            yield from self.done
            self.done.clear()


def decisions(seed: int = 0) -> Iterator[list[NewEvent]]:
    """The game's decisions, forever, each as the events appended for it (the first is the set-up)."""
    return _Game(seed).decisions()


def batches(seed: int, n: int) -> Iterator[list[NewEvent]]:
    """Decisions until exactly ``n`` events have been given (the last one cut short if need be)."""
    left = n
    for batch in decisions(seed):
        if left <= 0:
            return
        yield batch[:left]
        left -= len(batch)


def events(seed: int, n: int) -> list[NewEvent]:
    """The first ``n`` events of the game with this seed."""
    return [e for batch in batches(seed, n) for e in batch]
