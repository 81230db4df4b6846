"""kifu's games as PettingZoo AEC environments: ``env("duel_masters")`` (needs the ``ai`` extra).

Agents ``player_0`` and ``player_1`` are the seats. The agent selected is the player the rules wait for — the
active player, the player with priority, or whoever must answer a choice mid-procedure — so one agent may act many
times in a row, as AEC allows. Actions are ``tools.ai.actions``' numbering (``Discrete(num_distinct_actions)``): a
request that takes several options is answered one pick at a time, then ``DONE``. An action that is not legal now
raises ``IllegalAction`` naming it (the mask says which are legal).

Each agent's observation is a vector (``Box``; ``tools.ai.observation``, its layout range by range in
``docs/ai.md``) built from what the player sees (``projections.views.player_view``, the per-seat view proven not
to leak), never from the hidden state: it says which card sits where each action points, what each option of a
request names and which effects wait. The action mask is in the agent's info, ``infos[agent]["action_mask"]``
(what ``last()`` returns as ``info``): PettingZoo's convention for an array observation (its ``api_test`` samples
from it), so the API test passes without a warning, which a dict observation of a non-PettingZoo environment cannot.

The mask has a 1 for each legal action of the agent (all 0 when it is not the one to act). Rewards are
+1 for the winner and -1 for the loser when the game ends (0 each for a game without a winner); a game still going
after ``max_decisions`` decisions is truncated.

Each ``reset`` is a new episode: a new deal and a new future, dealt from ``tools.ai.match.episode_seed(seed,
episode)``. ``reset(seed=s)`` starts the sequence of ``s`` (episode 0) and each ``reset()`` after it takes the next
episode of it, so the same seed gives the same sequence (a new environment counts from seed 0). ``decks`` (card
ids, one list per seat) plays your own decks instead of the sample ones (``demo.sample_game``), checked against the
card pool and the game's deck-construction rule (``statemachine.decks``) when the environment is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from eventsource.branching import BranchLog
from eventsource.errors import KifuError
from statemachine.decisions import Legal
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile
from tools.ai.actions import ActionSpaceExceeded, Numbering, numbering
from tools.ai.match import check_decks, episode_seed, setup
from tools.ai.observation import layout, observation

LIMIT: Final = 1e9  # the observation's bounds (counts and counters stay far inside)

Obs = np.ndarray


class IllegalAction(KifuError):
    """An action that is not legal now (``action_mask`` is 0 for it)."""


class KifuEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """One kifu game as a PettingZoo AEC environment (see the module's docstring)."""

    def __init__(self, game: str, *, version: str | None = None, max_decisions: int = 3000,
                 render_mode: str | None = None, decks: Sequence[Sequence[str]] | None = None) -> None:
        super().__init__()
        if game not in PROFILES:
            raise KifuError(f"no game {game!r} (known: {', '.join(sorted(PROFILES))})")
        if render_mode not in (None, "ansi"):
            raise KifuError(f"render mode {render_mode!r}: only 'ansi' (text) is offered")
        self.game, self.version, self.max_decisions, self.render_mode = game, version, max_decisions, render_mode
        self.decks = None if decks is None else [list(deck) for deck in decks]
        if self.decks is not None:
            check_decks(profile(game, version), self.decks)
        self.metadata = {"name": f"kifu_{game}_v0", "render_modes": ["ansi"], "is_parallelizable": False}
        self.numbering: Numbering = numbering(game)
        self.layout = layout(game, version)
        n = self.numbering.num_distinct_actions
        self.possible_agents = ["player_0", "player_1"]
        self._observation_spaces = {a: spaces.Box(-LIMIT, LIMIT, (self.layout.size,), np.float32)
                                    for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.seed, self.episode = 0, -1  # reset() without a seed takes the next episode of this seed
        self.engine: Engine | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- playing --------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: the next one of the seed given last, or the first of ``seed`` (``options`` are not
        used)."""
        if seed is None:
            self.episode += 1
        else:
            self.seed, self.episode = seed, 0
            for i, a in enumerate(self.possible_agents):
                self._action_spaces[a].seed(seed + i)
                self._observation_spaces[a].seed(seed + i)
        dealt = episode_seed(self.seed, self.episode)
        prof, players, decks = setup(self.game, dealt, self.version, self.decks)
        self.engine = Engine.new(prof, players, decks, dealt, store=BranchLog(), game="game")
        self.picked: tuple[int, ...] = ()
        self.decisions = 0
        self._legal = self.engine.legal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        engine = self._engine()
        if action is None or int(action) not in self.legal_actions():
            name = "no action" if action is None else f"action {action} ({self.numbering.action_name(int(action))})"
            raise IllegalAction(f"{name} is not legal for {agent} now: see its info's action_mask")
        self._cumulative_rewards[agent] = 0.0
        try:
            done = self.numbering.apply(engine, self.picked, int(action), self._legal)
        except ActionSpaceExceeded as exc:
            raise IllegalAction(str(exc)) from exc
        if isinstance(done, tuple):
            self.picked = done
        else:
            engine.decide(done)
            self.picked, self._legal = (), engine.legal()
            self.decisions += 1
        self._clear_rewards()
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Select who acts next, or end the game: rewards when it is over, truncation at the decision limit."""
        st = self._engine().state
        if st.ended:
            for p, a in enumerate(self.agents):
                self.terminations[a] = True
                self.rewards[a] = 0.0 if st.winner is None else (1.0 if p == st.winner else -1.0)
        elif self.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        elif self._legal.player is not None:
            self.agent_selection = self.possible_agents[self._legal.player]
        for agent in self.agents:
            self.infos[agent] = {"action_mask": self.action_mask(agent)}

    def legal_actions(self) -> list[int]:
        """The actions legal now for the agent selected."""
        engine = self._engine()
        if engine.state.ended:
            return []
        return self.numbering.legal_actions(engine, self.picked, self._legal)

    # -- observing -------------------------------------------------------------------------------------------

    def observe(self, agent: str) -> Obs:
        return observation(self._engine(), self.possible_agents.index(agent), self.picked, self.layout)

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each action legal for ``agent`` now (all 0 when it is not the one to act)."""
        mask = np.zeros(self.numbering.num_distinct_actions, np.int8)
        if self._legal.player == self.possible_agents.index(agent) and not self._engine().state.ended:
            mask[self.legal_actions()] = 1
        return mask

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        st = self._engine().state
        who = "nobody" if self._legal.player is None else self.possible_agents[self._legal.player]
        return f"{self.game}: turn {st.turn}, step {st.step or '-'}, {who} to act, record {st.seq}"

    def close(self) -> None:
        self.engine = None

    def _engine(self) -> Engine:
        if self.engine is None:
            raise KifuError("the environment has no game: call reset() first")
        return self.engine

    @property
    def legal(self) -> Legal:
        """The engine's legal decisions now (who must decide, and what they may do)."""
        return self._legal


def raw_env(game: str, **kwargs: Any) -> KifuEnv:
    return KifuEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The environment of ``game`` (``duel_masters``, ``magic``, ``shadowverse``, ``vision``), with PettingZoo's
    order-enforcing wrapper (an action before ``reset``, or observing an agent that is gone, raises)."""
    wrapped: AECEnv[str, Obs, int] = wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))
    return wrapped
