"""A scenario's set-up as the events that make its board: the game's start, each card where the file puts it
(with its statuses and modifications), player counters, effects placed directly where they wait, the turn and
the step. The board is then folded like any other log, so an impossible one is refused by the fold."""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import TAPPED
from projections.invariants import KERNEL
from projections.state import UNDER
from statemachine.cards import CardPool
from statemachine.options import BadOption
from statemachine.profile import RulesProfile
from statemachine.scenario.model import CardSpec, EffectSpec, Scenario, ScenarioError, SetupRefused

UNDER_RULE = next(i for i in KERNEL if i.name == "under")  # KIFU-UNDER


class Board:
    """The set-up events of one scenario and the handles they give (handle -> card id)."""

    def __init__(self, sc: Scenario, path: str, profile: RulesProfile, pool: CardPool) -> None:
        self.sc, self.path, self.profile, self.pool = sc, path, profile, pool
        self.handles: dict[str, int] = {}
        self.events = self._events()

    def _fail(self, message: str) -> ScenarioError:
        return ScenarioError(f"{self.path}: {message}")

    def _events(self) -> list[ev.Event]:
        sc, st, pool = self.sc, self.sc.setup, self.pool
        players = range(len(st.players))
        if st.active not in players:
            raise self._fail(f"setup.active: there is no player {st.active}")
        for n, spec in enumerate(st.cards, start=1):
            if spec.owner not in players:
                raise self._fail(f"setup card {n}: there is no player {spec.owner} to own it")
        for key in st.stats:
            who = key.partition(".")[0]
            if not who.isdecimal() or int(who) not in players:
                raise self._fail(f"setup.stats: {key!r} does not name a player (\"0.life\")")
        # The options the file states, and no others: a scenario plays the rules a real game plays (its id is its
        # game id, not an option); one that needs another reading or no deck-out says so in its own file.
        options = dict(sc.options)
        try:
            self.profile.parse_options(options.items())
        except BadOption as exc:
            raise self._fail(str(exc)) from exc
        out: list[ev.Event] = [ev.GameStarted(sc.game, self.profile.version, tuple(st.players), sc.seed, pool.name,
                                              pool.version, pool.digest, tuple(sorted(options.items())))]
        later: list[ev.Event] = []
        positions: dict[str, int] = {}
        for n, spec in enumerate(st.cards, start=1):
            out.append(self._card(n, spec, positions))
            later += self._modifications(n, spec, len([e for e in later if isinstance(e, ev.ContinuousEffectStarted)]))
        held: dict[str, int] = {}
        for n, spec in enumerate(st.cards, start=1):
            for h in spec.under:
                if h not in self.handles:
                    raise self._fail(f"setup card {n}: unknown handle {h!r} in under")
                if h in held:  # a second Stacked would move it: the board stated is not the one folded
                    raise SetupRefused(UNDER_RULE.rule, f"{self.path}: setup card {n}: {h!r} is under setup card "
                                       f"{held[h]} too, and {UNDER_RULE.says} [{UNDER_RULE.rule}]")
                held[h] = n
                out.append(ev.Stacked(n, self.handles[h]))
        for key, value in st.stats.items():
            player, _, stat = key.partition(".")
            later.append(ev.PlayerStat(int(player), stat, value))
        later += self._derived_counters()
        step = next((s for s in self.profile.steps if s.name == st.step), None)
        if step is None:
            raise self._fail(f"setup: no step {st.step!r} in {sc.game}")
        out += later
        out += [ev.TurnBegan(st.turn, st.active), ev.StepBegan(step.phase, step.name)]
        return out + self._effects(len(out))

    def _derived_counters(self) -> list[ev.Event]:
        """The counters the turn implies (``RulesProfile.setup_counters``: Shadowverse's turns begun and who went
        second), which the set-up does not state again; one it states otherwise is refused."""
        st = self.sc.setup
        derived = self.profile.setup_counters(st.turn, st.active)
        out: list[ev.Event] = []
        for (player, stat), value in sorted(derived.items()):
            key = f"{player}.{stat}"
            if key in st.stats and st.stats[key] != value:
                raise self._fail(f"setup.stats: {key!r} = {st.stats[key]} contradicts turn = {st.turn}, active = "
                                 f"{st.active}, which make it {value} ({stat}: "
                                 f"{self.profile.derived_counters[stat]}); a set-up states the turn once")
            if key not in st.stats and value:
                out.append(ev.PlayerStat(player, stat, value))
        return out

    def _card(self, n: int, spec: CardSpec, positions: dict[str, int]) -> ev.Event:
        if spec.card not in self.pool:
            raise self._fail(f"setup card {n}: no card {spec.card!r} in the pool")
        handle = spec.handle or f"{spec.card}#{n}"
        if handle in self.handles:
            raise self._fail(f"setup card {n}: handle {handle!r} is used twice")
        self.handles[handle] = n
        zone = spec.zone or self.profile.vocabulary.home_zone
        if not zone:
            raise self._fail(f"setup card {n}: say its zone ({self.sc.game} names no zone a card is in by default)")
        # A shared zone (no player's) is named by the bare word. A card set up "under" nothing lies in the kernel's
        # pseudo-zone of cards under another, held by none: a board the kernel's KIFU-UNDER refuses.
        z = zone if zone in self.profile.shared_zones or zone == UNDER else f"{spec.owner}.{zone}"
        pos = positions.get(z, 0)
        positions[z] = pos + 1
        face_down = spec.face_down if spec.face_down is not None else zone in self.profile.hidden_zones
        return ev.ObjectCreated(n, n, spec.card, spec.owner, z, pos, self.pool[spec.card].printed(), face_down)

    def _modifications(self, n: int, spec: CardSpec, started: int) -> list[ev.Event]:
        out: list[ev.Event] = []
        if spec.tapped:
            out.append(ev.StatusSet(n, TAPPED, 1))
        if spec.sick:
            if not self.profile.summoning_sickness:
                raise self._fail(f"setup card {n}: sick = true, but {self.sc.game} has no summoning sickness")
            out.append(ev.StatusSet(n, self.profile.summoning_sickness, 1))
        effect = started + 1
        for kind, amount in (("ignore_abilities", int(spec.ignored)), ("power", spec.power),
                             ("toughness", spec.toughness)):
            if amount:
                out.append(ev.ContinuousEffectStarted(effect, n, kind, n, amount=0 if kind == "ignore_abilities"
                                                      else amount))
                effect += 1
        return out + [ev.StatusSet(n, k, v) for k, v in sorted(spec.status.items())]

    def _effects(self, seq: int) -> list[ev.Event]:
        """Effects placed where they wait, each as if its ability had triggered (caused by the set-up)."""
        out: list[ev.Event] = []
        policy = self.profile.make_policy()
        for i, spec in enumerate(self.sc.setup.effects, start=1):
            where = f"setup.effects[{i - 1}]"
            holder = spec.holder or policy.holder
            source = self._handle(spec.source, where)
            card = self.pool[self.sc.setup.cards[source - 1].card]
            actions = policy.set_up_actions
            ability = next((a for a in card.abilities if a.id == spec.ability), None)
            if ability is None and spec.ability not in actions:
                known = [a.id for a in card.abilities] + list(actions)
                raise self._fail(f"{where}: {card.id} has no ability {spec.ability!r} (it has: "
                                 f"{', '.join(known) or 'none'})")
            controller = spec.controller if spec.controller is not None else self.sc.setup.cards[source - 1].owner
            if controller not in range(len(self.sc.setup.players)):
                raise self._fail(f"{where}: there is no player {controller}")
            subject = self._handle(spec.subject, where) if spec.subject else None
            label = spec.label or (ability.label if ability is not None else card.name)
            in_zone = self.sc.setup.cards[source - 1].zone
            if ability is None and actions[spec.ability] and in_zone != holder:
                raise self._fail(f"{where}: a card placed as {spec.ability!r} is in the {holder} zone (its setup "
                                 f"card has zone = {in_zone!r})")
            index = card.abilities.index(ability) if ability is not None else None
            placed = policy.set_up_waiting(i, holder, source, index, spec.ability, controller, label, subject, seq)
            out += placed
            if spec.targets:
                out.append(ev.Chosen(controller, tuple(self._target(t, where) for t in spec.targets), i))
        out += policy.set_up_done([e for e in out if isinstance(e, ev.EffectPending)])
        return out

    def _handle(self, handle: str, where: str) -> int:
        h = handle.removeprefix("@")
        if h not in self.handles:
            raise self._fail(f"{where}: unknown handle {handle!r}")
        return self.handles[h]

    def _target(self, name: str, where: str) -> int:
        try:
            ref = player_ref(name, self.sc.setup.players)
        except ScenarioError as exc:
            raise self._fail(f"{where}: {exc}") from exc
        return ref if ref is not None else self._handle(name, where)


def player_ref(name: str, players: list[str]) -> int | None:
    """A player written where an object may stand (a target, an option), as the kernel takes it (``-1 -
    player``): by seat (``player0``, as the runner prints players) or by name (``player:you``); None for
    anything else. A player named that is not in the scenario is an error, never a literal option."""
    if name.startswith("player") and name[6:].isdecimal():
        seat = int(name[6:])
    elif name.startswith("player:"):
        if name[7:] not in players:
            raise ScenarioError(f"no player {name[7:]!r} in this scenario (players: {', '.join(players)})")
        seat = players.index(name[7:])
    else:
        return None
    if seat >= len(players):
        raise ScenarioError(f"no player {seat} in this scenario (players 0 to {len(players) - 1})")
    return -1 - seat


__all__ = ["Board", "EffectSpec"]
