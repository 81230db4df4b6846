"""A hypothesis state machine appends random legal decisions to a store and, after each, checks every projection
(the state, computed characteristics, look-back) against a naive reference fold written here with plain dicts.

The reference shares no code with ``projections``: it is the rules of the fold said again, as simply as possible.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.records import NewEvent
from projections.characteristics import ObjectView, current_or_last_known, last_known, view
from projections.state import GameState, evolve, snapshot
from tests.properties import examples

PLAYERS = 2
ZONE_KINDS = ("deck", "hand", "battle", "grave", "shields")
ZONES = tuple(f"{p}.{kind}" for p in range(PLAYERS) for kind in ZONE_KINDS)
KEYWORDS = ("blocker", "flying", "speed_attacker", "slayer")
ABILITIES = ("on_enter", "on_leave", "static")
STATUS_KEYS = ("tapped", "damage", "sick", "counters")
MOD_KINDS = ("power", "ignore_abilities", "grant_keyword", "remove_keyword", "set_flag")
UNDER = "under"


class Reference:
    """The game as plain dicts, evolved by hand."""

    def __init__(self) -> None:
        self.seq = 0
        self.started = False
        self.players: list[dict[str, Any]] = []
        self.cards: dict[int, dict[str, Any]] = {}
        self.objects: dict[int, dict[str, Any]] = {}
        self.zones: dict[str, list[int]] = {}
        self.modifiers: dict[int, dict[str, Any]] = {}
        self.last_known: dict[int, dict[str, Any]] = {}
        self.pending: dict[int, dict[str, Any]] = {}
        self.turn = 0
        self.active = 0
        self.phase = ""
        self.step = ""
        self.priority: int | None = None
        self.passes: list[int] = []
        self.draws = 0
        self.request: ev.ChoiceRequested | None = None
        self.flight = 0
        self.ever: set[int] = set()  # every object id that ever existed

    # -- the fold, by hand -------------------------------------------------------------------------------------

    def apply(self, e: ev.Event) -> None:
        self.seq += 1
        seq = self.seq
        if isinstance(e, ev.GameStarted):
            self.started = True
            self.players = [{"name": n, "stats": {}} for n in e.players]
        elif isinstance(e, ev.ObjectCreated):
            self.cards[e.card] = {"definition": e.definition, "owner": e.owner, "printed": e.printed}
            self._place(
                e.obj,
                {
                    "card": e.card,
                    "owner": e.owner,
                    "controller": e.owner,
                    "zone": e.zone,
                    "since": seq,
                    "face_down": e.face_down,
                    "status": {},
                    "under": [],
                    "on": None,
                },
                e.position,
            )
        elif isinstance(e, ev.ZoneChanged):
            o = self.objects.pop(e.old)
            if o["zone"] == UNDER:
                if o["on"] in self.objects:
                    self.objects[o["on"]]["under"].remove(e.old)
            else:
                self.zones[o["zone"]].remove(e.old)
            dropped = [m for m in self.modifiers.values() if m["target"] == e.old]
            for m in dropped:
                del self.modifiers[m["effect"]]
            self.last_known[e.old] = {
                "obj": copy.deepcopy(o),
                "mods": dropped,
                "left_at": seq,
                "under_cards": [self.objects[u]["card"] for u in o["under"] if u in self.objects],
            }
            for u in o["under"]:
                if u in self.objects:
                    self.objects[u]["on"] = None
            owner = self.cards[e.card]["owner"]
            self._place(
                e.new,
                {
                    "card": e.card,
                    "owner": owner,
                    "controller": owner if e.controller is None else e.controller,
                    "zone": e.dst,
                    "since": seq,
                    "face_down": e.face_down,
                    "status": {},
                    "under": [],
                    "on": None,
                },
                e.dst_pos,
            )
        elif isinstance(e, ev.Stacked):
            below = self.objects[e.below]
            if below["zone"] != UNDER:
                self.zones[below["zone"]].remove(e.below)
            elif below["on"] in self.objects:
                self.objects[below["on"]]["under"].remove(e.below)
            below["zone"], below["on"] = UNDER, e.top
            self.objects[e.top]["under"].append(e.below)
        elif isinstance(e, ev.StatusSet):
            if e.value:
                self.objects[e.obj]["status"][e.key] = e.value
            else:
                self.objects[e.obj]["status"].pop(e.key, None)
        elif isinstance(e, ev.Revealed):
            for p in e.to:
                self.objects[e.obj]["status"][f"seen_by_{p}"] = 1
        elif isinstance(e, ev.PlayerStat):
            self.players[e.player]["stats"][e.key] = e.value
        elif isinstance(e, ev.ContinuousEffectStarted):
            self.modifiers[e.effect] = {
                "effect": e.effect,
                "kind": e.kind,
                "target": e.target,
                "amount": e.amount,
                "value": e.value,
                "since": seq,
            }
        elif isinstance(e, ev.ContinuousEffectEnded):
            self.modifiers.pop(e.effect, None)
        elif isinstance(e, ev.Triggered):
            self.pending[e.effect] = {
                "holder": "",
                "label": "",
                "resolving": False,
                "source": e.source,
                "controller": e.controller,
                "ability": e.ability,
            }
        elif isinstance(e, ev.EffectPending):
            entry = self.pending.setdefault(
                e.effect, {"resolving": False, "source": -1, "ability": e.label, "controller": e.controller}
            )
            entry["holder"], entry["label"] = e.holder, e.label
            self.passes = []
        elif isinstance(e, ev.EffectResolving):
            self.pending[e.effect]["resolving"] = True
        elif isinstance(e, ev.EffectResolved | ev.EffectFizzled):
            del self.pending[e.effect]
            self.passes = []
        elif isinstance(e, ev.TurnBegan):
            self.turn, self.active, self.phase, self.step, self.priority = e.turn, e.player, "", "", None
            self.passes = []
            self.last_known = {}
        elif isinstance(e, ev.StepBegan):
            self.phase, self.step, self.priority = e.phase, e.step, None
            self.passes = []
        elif isinstance(e, ev.PriorityGiven):
            self.priority = e.player
        elif isinstance(e, ev.PriorityPassed):
            self.passes.append(e.player)
            self.priority = None
        elif isinstance(e, ev.Shuffled):
            self.zones[e.zone] = list(e.order)
            for oid in e.order:  # a shuffle ends what reveals told about where a card lies
                status = self.objects[oid]["status"]
                for key in [k for k in status if k.startswith("seen_by_")]:
                    del status[key]
            self.draws += 1
        elif isinstance(e, ev.RandomDrawn):
            self.draws += 1
        elif isinstance(e, ev.ChoiceRequested):
            self.request = e
        elif isinstance(e, ev.ChoiceMade):
            if self.request is None:
                self.flight = seq
            self.request = None
        else:
            raise AssertionError(f"the reference has no rule for {e!r}")

    def _place(self, oid: int, obj: dict[str, Any], pos: int) -> None:
        ids = self.zones.setdefault(obj["zone"], [])
        if 0 <= pos < len(ids):
            ids.insert(pos, oid)
        else:
            ids.append(oid)
        self.objects[oid] = obj
        self.ever.add(oid)

    # -- what the projections must say -------------------------------------------------------------------------

    def characteristics(self, card: int, mods: list[dict[str, Any]]) -> tuple[Any, ...]:
        printed: ev.Characteristics = self.cards[card]["printed"]
        power, keywords, ignored = printed.power, list(printed.keywords), False
        for m in sorted(mods, key=lambda m: (m["since"], m["effect"])):
            if m["kind"] == "power":
                power = (power or 0) + m["amount"]
            elif m["kind"] == "ignore_abilities":
                ignored = True
            elif m["kind"] == "grant_keyword" and m["value"] not in keywords:
                keywords.append(m["value"])
            elif m["kind"] == "remove_keyword" and m["value"] in keywords:
                keywords.remove(m["value"])
        if ignored:
            return printed.name, power, (), (), True
        return printed.name, power, tuple(keywords), printed.abilities, False

    def expected_view(
        self, o: dict[str, Any], oid: int, mods: list[dict[str, Any]], under_cards: list[int], left_at: int | None
    ) -> tuple[Any, ...]:
        return (
            oid,
            o["card"],
            self.cards[o["card"]]["definition"],
            o["owner"],
            o["controller"],
            o["zone"],
            self.characteristics(o["card"], mods),
            o["status"],
            tuple(under_cards),
            o["face_down"],
            o["since"],
            left_at,
            o["on"],
        )


def seen(v: ObjectView) -> tuple[Any, ...]:
    c = v.chars
    return (
        v.obj,
        v.card,
        v.definition,
        v.owner,
        v.controller,
        v.zone,
        (c.name, c.power, c.keywords, c.abilities, v.abilities_ignored),
        v.status,
        v.under_cards,
        v.face_down,
        v.since,
        v.left_at,
        v.on,
    )


def printed_characteristics() -> st.SearchStrategy[ev.Characteristics]:
    return st.builds(
        ev.Characteristics,
        name=st.sampled_from(["Bolshack", "Aqua Hulcus", "Bronze-Arm", "ボルシャック"]),
        power=st.one_of(st.none(), st.sampled_from([1000, 2000, 5000])),
        keywords=st.lists(st.sampled_from(KEYWORDS), unique=True, max_size=2).map(tuple),
        abilities=st.lists(st.sampled_from(ABILITIES), unique=True, max_size=2).map(tuple),
    )


class GameLog(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.store = MemoryStore()
        self.live = GameState()
        self.ref = Reference()
        self.next_id = 100  # object, card and effect ids: always fresh
        self.decision = 0

    def fresh(self) -> int:
        self.next_id += 1
        return self.next_id

    def decide(self, *events: ev.Event) -> None:
        """Append one decision, fold it live, and evolve the reference."""
        self.decision += 1
        records = self.store.append(
            "game", [NewEvent(e, self.decision) for e in events], expected=self.store.head("game")
        )
        for r in records:
            evolve(self.live, r.seq, ev.decode(r.body), r.decision)
        for e in events:
            self.ref.apply(e)

    def in_zones(self) -> list[int]:
        return sorted(o for o, d in self.ref.objects.items() if d["zone"] != UNDER)

    # -- rules: each appends a legal decision ------------------------------------------------------------------

    @precondition(lambda self: not self.ref.started)
    @rule()
    def start(self) -> None:
        self.decide(ev.GameStarted("test", "1", ("Aoi", "Ren"), 42, "pool", "1", "00"))

    @precondition(lambda self: self.ref.started)
    @rule(
        zone=st.sampled_from(ZONES),
        printed=printed_characteristics(),
        position=st.integers(-1, 6),
        face_down=st.booleans(),
        copies=st.integers(1, 3),
    )
    def create(self, zone: str, printed: ev.Characteristics, position: int, face_down: bool, copies: int) -> None:
        owner = int(zone[0])
        self.decide(
            *(
                ev.ObjectCreated(
                    self.fresh(), self.fresh(), f"def-{printed.name}", owner, zone, position, printed, face_down
                )
                for _ in range(copies)
            )
        )

    def _move(self, oid: int, dst: str, dst_pos: int, face_down: bool, controller: int | None) -> ev.ZoneChanged:
        o = self.ref.objects[oid]
        src_pos = 0 if o["zone"] == UNDER else self.ref.zones[o["zone"]].index(oid)
        return ev.ZoneChanged(
            oid, self.fresh(), o["card"], o["zone"], src_pos, dst, dst_pos, "rule", face_down, controller
        )

    @precondition(lambda self: self.ref.objects)
    @rule(
        data=st.data(),
        dst=st.sampled_from(ZONES),
        dst_pos=st.integers(-1, 6),
        face_down=st.booleans(),
        controller=st.one_of(st.none(), st.integers(0, PLAYERS - 1)),
    )
    def move(self, data: st.DataObject, dst: str, dst_pos: int, face_down: bool, controller: int | None) -> None:
        oid = data.draw(st.sampled_from(sorted(self.ref.objects)), label="moved")
        self.decide(self._move(oid, dst, dst_pos, face_down, controller))

    @precondition(lambda self: len(self.ref.objects) >= 2)
    @rule(data=st.data(), dst_pos=st.integers(-1, 3))
    def evolve_onto(self, data: st.DataObject, dst_pos: int) -> None:
        """A card enters the battle zone on top of another (evolution): a move, then the base goes under it."""
        candidates = self.in_zones()
        if not candidates:
            return
        base = data.draw(st.sampled_from(candidates), label="base")
        evo = data.draw(st.sampled_from([o for o in sorted(self.ref.objects) if o != base]), label="evolution")
        owner = self.ref.objects[base]["owner"]
        moved = self._move(evo, f"{owner}.battle", dst_pos, False, None)
        self.decide(moved, ev.Stacked(moved.new, base))

    @precondition(lambda self: len(self.ref.objects) >= 2)
    @rule(data=st.data())
    def put_under(self, data: st.DataObject) -> None:
        tops = self.in_zones()
        if not tops:
            return
        top = data.draw(st.sampled_from(tops), label="top")
        below = data.draw(st.sampled_from([o for o in sorted(self.ref.objects) if o != top]), label="below")
        self.decide(ev.Stacked(top, below))

    @precondition(lambda self: self.ref.objects)
    @rule(data=st.data(), key=st.sampled_from(STATUS_KEYS), value=st.integers(0, 3))
    def set_status(self, data: st.DataObject, key: str, value: int) -> None:
        self.decide(ev.StatusSet(data.draw(st.sampled_from(sorted(self.ref.objects))), key, value))

    @precondition(lambda self: self.ref.objects)
    @rule(
        data=st.data(),
        effects=st.lists(
            st.tuples(st.sampled_from(MOD_KINDS), st.sampled_from([-3000, 1000, 2000]), st.sampled_from(KEYWORDS)),
            min_size=1,
            max_size=4,
        ),
    )
    def start_effects(self, data: st.DataObject, effects: list[tuple[str, int, str]]) -> None:
        """Continuous effects on one object (or a player), in force from now on, in this order."""
        target = data.draw(st.one_of(st.sampled_from(sorted(self.ref.objects)), st.sampled_from([-1, -2])))
        self.decide(
            *(
                ev.ContinuousEffectStarted(self.fresh(), target, kind, target, amount, value)
                for kind, amount, value in effects
            )
        )

    @precondition(lambda self: self.ref.modifiers)
    @rule(data=st.data())
    def end_effect(self, data: st.DataObject) -> None:
        self.decide(ev.ContinuousEffectEnded(data.draw(st.sampled_from(sorted(self.ref.modifiers)))))

    @precondition(lambda self: self.ref.started and (self.ref.objects or self.ref.last_known))
    @rule(data=st.data(), checked=st.sampled_from([ev.BEFORE, ev.AFTER]), then_pend=st.booleans())
    def trigger(self, data: st.DataObject, checked: str, then_pend: bool) -> None:
        source = data.draw(st.sampled_from(sorted({*self.ref.objects, *self.ref.last_known})), label="source")
        known = self.ref.objects.get(source) or self.ref.last_known[source]["obj"]
        eid = self.fresh()
        events: list[ev.Event] = [
            ev.Triggered(
                eid,
                "on_leave" if checked == ev.BEFORE else "on_enter",
                source,
                known["card"],
                known["owner"],
                self.ref.seq,
                checked,
            )
        ]
        if then_pend:
            events.append(ev.EffectPending(eid, f"{known['owner']}.pool", known["owner"], "draw", (known["owner"],)))
        self.decide(*events)

    @precondition(lambda self: self.ref.started)
    @rule(holder=st.sampled_from(["stack", "chain", "0.pool", "queue"]), controller=st.integers(0, PLAYERS - 1))
    def cast(self, holder: str, controller: int) -> None:
        self.decide(ev.EffectPending(self.fresh(), holder, controller, "a spell"))

    @precondition(lambda self: any(p["holder"] == "" for p in self.ref.pending.values()))
    @rule(data=st.data())
    def pend(self, data: st.DataObject) -> None:
        eid = data.draw(st.sampled_from(sorted(e for e, p in self.ref.pending.items() if p["holder"] == "")))
        self.decide(ev.EffectPending(eid, "stack", self.ref.pending[eid]["controller"], "put on the stack"))

    @precondition(lambda self: self.ref.pending)
    @rule(data=st.data(), outcome=st.sampled_from(["resolving", "resolved", "fizzled", "both"]))
    def resolve(self, data: st.DataObject, outcome: str) -> None:
        eid = data.draw(st.sampled_from(sorted(self.ref.pending)))
        events: dict[str, list[ev.Event]] = {
            "resolving": [ev.EffectResolving(eid)],
            "resolved": [ev.EffectResolved(eid)],
            "fizzled": [ev.EffectFizzled(eid, "no legal target")],
            "both": [ev.EffectResolving(eid), ev.EffectResolved(eid)],
        }
        self.decide(*events[outcome])

    @precondition(lambda self: self.ref.started)
    @rule(next_player=st.booleans())
    def next_turn(self, next_player: bool) -> None:
        self.decide(ev.TurnBegan(self.ref.turn + 1, (self.ref.active + next_player) % PLAYERS))

    @precondition(lambda self: self.ref.started)
    @rule(
        phase=st.sampled_from(["start", "draw", "main", "battle", "end"]), step=st.sampled_from(["", "untap", "attack"])
    )
    def next_step(self, phase: str, step: str) -> None:
        self.decide(ev.StepBegan(phase, step))

    @precondition(lambda self: self.ref.started)
    @rule(player=st.integers(0, PLAYERS - 1), passes=st.booleans())
    def priority(self, player: int, passes: bool) -> None:
        self.decide(*([ev.PriorityGiven(player)] + ([ev.PriorityPassed(player)] if passes else [])))

    @precondition(lambda self: self.ref.started)
    @rule(player=st.integers(0, PLAYERS - 1), key=st.sampled_from(["life", "mana"]), value=st.integers(-5, 40))
    def stat(self, player: int, key: str, value: int) -> None:
        self.decide(ev.PlayerStat(player, key, value))

    @precondition(lambda self: self.ref.objects)
    @rule(data=st.data(), to=st.lists(st.integers(0, PLAYERS - 1), min_size=1, max_size=2, unique=True))
    def reveal(self, data: st.DataObject, to: list[int]) -> None:
        oid = data.draw(st.sampled_from(sorted(self.ref.objects)))
        card = self.ref.objects[oid]["card"]
        self.decide(ev.Revealed(oid, tuple(to), card, self.ref.cards[card]["definition"]))

    @precondition(lambda self: any(self.ref.zones.values()))
    @rule(data=st.data())
    def shuffle(self, data: st.DataObject) -> None:
        zone = data.draw(st.sampled_from(sorted(z for z, ids in self.ref.zones.items() if ids)))
        order = data.draw(st.permutations(self.ref.zones[zone]))
        self.decide(ev.Shuffled(zone, tuple(order)), ev.RandomDrawn("die", 6, data.draw(st.integers(0, 5))))

    @precondition(lambda self: self.ref.started)
    @rule(player=st.integers(0, PLAYERS - 1), requested=st.booleans())
    def choose(self, player: int, requested: bool) -> None:
        made = ev.ChoiceMade(player, "pick", (1, "x"))
        self.decide(*([ev.ChoiceRequested(player, "pick", (1, 2)), made] if requested else [made]))

    # -- invariants --------------------------------------------------------------------------------------------

    @invariant()
    def state_matches_the_reference(self) -> None:
        s, r = self.live, self.ref
        assert s.seq == r.seq
        assert s.started == r.started
        assert [(p.name, p.stats) for p in s.players] == [(p["name"], p["stats"]) for p in r.players]
        assert {z: ids for z, ids in s.zones.items() if ids} == {z: ids for z, ids in r.zones.items() if ids}
        assert sorted(s.objects) == sorted(r.objects)
        for oid, o in r.objects.items():
            g = s.objects[oid]
            assert (g.card, g.owner, g.controller, g.zone, g.since, g.face_down, g.status, g.under, g.on) == (
                o["card"],
                o["owner"],
                o["controller"],
                o["zone"],
                o["since"],
                o["face_down"],
                o["status"],
                o["under"],
                o["on"],
            ), oid
        assert {e: (m.kind, m.target, m.amount, m.value, m.since) for e, m in s.modifiers.items()} == {
            e: (m["kind"], m["target"], m["amount"], m["value"], m["since"]) for e, m in r.modifiers.items()
        }
        assert {
            e: (p.holder, p.label, p.resolving, p.source, p.controller, p.ability) for e, p in s.pending.items()
        } == {
            e: (p["holder"], p["label"], p["resolving"], p["source"], p["controller"], p["ability"])
            for e, p in r.pending.items()
        }
        assert (s.turn, s.active, s.phase, s.step, s.priority, s.passes, s.random_draws) == (
            r.turn,
            r.active,
            r.phase,
            r.step,
            r.priority,
            r.passes,
            r.draws,
        )
        assert (s.request, s.flight) == (r.request, r.flight)

    @invariant()
    def characteristics_match_the_reference(self) -> None:
        r = self.ref
        for oid, o in r.objects.items():
            mods = [m for m in r.modifiers.values() if m["target"] == oid]
            under = [r.objects[u]["card"] for u in o["under"] if u in r.objects]
            want = r.expected_view(o, oid, mods, under, None)
            assert seen(view(self.live, oid)) == want
            found = current_or_last_known(self.live, oid)
            assert found is not None and seen(found) == want

    @invariant()
    def look_back_matches_the_reference(self) -> None:
        r = self.ref
        for oid in r.ever - set(r.objects):
            lk = r.last_known.get(oid)
            got = last_known(self.live, oid)
            if lk is None:  # it left in an earlier turn: look-back lives one turn
                assert got is None and current_or_last_known(self.live, oid) is None
                continue
            assert got is not None
            want = r.expected_view(lk["obj"], oid, lk["mods"], lk["under_cards"], lk["left_at"])
            assert seen(got) == want
            found = current_or_last_known(self.live, oid)
            assert found is not None and seen(found) == want

    @invariant()
    def replaying_the_store_gives_the_live_state(self) -> None:
        replayed = GameState()
        for rec in self.store.read("game"):
            evolve(replayed, rec.seq, rec.event, rec.decision)
        assert snapshot(replayed) == snapshot(self.live)


GameLog.TestCase.settings = settings(
    max_examples=examples(100), stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_projections_follow_the_reference_fold = GameLog.TestCase
