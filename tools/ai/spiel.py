"""kifu's games as OpenSpiel games: ``kifu_duel_masters``, ``kifu_magic``, ``kifu_shadowverse``, ``kifu_vision``.

Importing this module registers them with ``pyspiel.register_game`` (the ``ai`` extra)::

    import pyspiel
    import tools.ai.spiel  # noqa: F401 - registers the games
    game = pyspiel.load_game("kifu_duel_masters", {"seed": 7})

Each is the game's sample match (``demo.sample_game``), two players; ``version`` picks an installed rules version
("" = the newest). **Every new initial state is a new episode**: a new deal and a new future, dealt from the seed
``tools.ai.match.episode_seed(seed, episode)`` of the game parameter ``seed`` and the episode's index, counted per
game object from 0 (as OpenSpiel's sampled-stochastic games draw each new state's seed from the game's generator):
the same ``seed`` gives the same sequence of deals. A state takes its index when it is first used — played, asked who
acts, or observed (OpenSpiel makes a throw-away initial state for each clone and each time it asks a tensor's shape;
those take none) — so the n-th initial state a program uses is episode n. A clone of a state is the same episode.

``decks`` plays your own decks instead of the sample ones: card ids, separated by commas, one list per seat, the
seats separated by ``|`` (``"mist_rias,mist_rias,...|magnum,..."``). They are checked against the card pool and
the game's deck-construction rule (``statemachine.decks``) when the game is loaded, with an error naming the card
or the rule.

**Sampled stochastic, not explicit chance nodes.** kifu draws every shuffle and random choice from the game's
recorded seed in the middle of a rules procedure (``Engine.shuffle``, ``Engine.random_below``), and a shuffle of a
40-card deck has 40! outcomes: no chance node could list them, and stopping a procedure at each draw would change
the engine the log is verified against. So the games are ``SAMPLED_STOCHASTIC``: a state carries its seed, a clone
plays the same future, and ``resample_from_infostate`` draws the seed again with the hidden cards, so a search
that determinizes never sees the real future.

Actions are ``tools.ai.actions``' numbering. Information states and observations are built from what the player
has seen (``tools.ai.match.Sight``, ``projections.views``), never from hidden state: the observation is the board
as the player sees it now (``player_view``), the open request as they see it and their picks so far; the
information state adds a digest of the whole log as they saw it (perfect recall). The observation tensor is the
PettingZoo environment's observation, one layout for both (``tools.ai.observation``, range by range in
``docs/ai.md``): counts per zone, statuses, figures, the request, and which card sits where each action points;
the information-state tensor adds the cards the player knows to lie where they cannot see them. ``serialize``
writes the match's log (kifu's exchange format) and ``deserialize`` folds it again.

**Saving a game and a state together.** ``pyspiel.serialize_game_and_state`` cannot save a game defined in Python
that is sampled stochastic: it asks the game for its generator's state (C++ ``Game::GetRNGState``), which
OpenSpiel's trampoline for Python games (``PyGame``) does not forward, so it fails with "GetRNGState
unimplemented" for every such game (and pickling a state goes through it too). Declaring the games deterministic
would hide their shuffles from the algorithms, so kifu keeps them sampled stochastic and offers its own pair:
``serialize_game_and_state(game, state)`` writes the game's parameters, its episode count (its "generator
state": which deal the next new initial state gets) and the state; ``deserialize_game_and_state(text)`` gives back
a game and a state that play on alike, and whose next new initial state is the one the saved game would have made.
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from eventsource.errors import KifuError
from projections.state import snapshot
from statemachine.games import profile
from tools.ai.actions import numbering
from tools.ai.match import Match, check_decks, episode_seed
from tools.ai.observation import layout, observation
from tools.ai.resample import resample

GAMES = ("duel_masters", "magic", "shadowverse", "vision")
MAX_GAME_LENGTH = 100_000  # actions; random play ends a game in a few hundred (Magic: about 1,500)


def short_name(game: str) -> str:
    return f"kifu_{game}"


def _game_type(game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"kifu {profile(game).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0, "version": "", "decks": ""},
    )


class KifuGame(pyspiel.Game):  # type: ignore[misc]
    """One kifu game as an OpenSpiel game (``game``: a ``statemachine.games`` name)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.kifu = self.game_name
        self.version: str | None = str(params.get("version", "")) or None
        self.seed = int(params.get("seed", 0))
        self.deck_text = str(params.get("decks", ""))
        self.decks = parse_decks(self.deck_text)
        prof = profile(self.kifu, self.version)
        if self.decks is not None:
            check_decks(prof, self.decks)
        self.episodes = Episodes()
        self.definitions = sorted(prof.pool.cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=numbering(self.kifu).num_distinct_actions, max_chance_outcomes=0, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_game_type(self.kifu), info,
                         {"seed": self.seed, "version": self.version or "", "decks": self.deck_text})

    def new_initial_state(self) -> KifuState:
        state = KifuState(self)
        self.episodes.latest = state._ticket
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KifuObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return KifuObserver(self, recall)


class Episodes:
    """A game object's count of the episodes its states have taken (shared by clones, not copied)."""

    def __init__(self) -> None:
        self.taken = 0
        self.latest: Ticket | None = None  # the ticket of the initial state made last

    def take(self) -> int:
        self.taken += 1
        return self.taken - 1

    def __deepcopy__(self, memo: dict[int, Any]) -> Episodes:
        return self


class Ticket:
    """Which episode one initial state is: taken from the game's count when the state is first used. Clones share
    it (OpenSpiel's clone deep-copies a state's attributes), so a clone of a state not used yet is its episode."""

    def __init__(self, episodes: Episodes) -> None:
        self.episodes = episodes
        self.episode: int | None = None

    def take(self) -> int:
        if self.episode is None:
            self.episode = self.episodes.take()
        return self.episode

    def next(self) -> int:
        """The episode this state is, or will be if it is the next one used."""
        return self.episodes.taken if self.episode is None else self.episode

    def __deepcopy__(self, memo: dict[int, Any]) -> Ticket:
        return self


class KifuState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a ``tools.ai.match.Match``, dealt when first used (a clone's deal is never made)."""

    def __init__(self, game: KifuGame, match: Match | None = None) -> None:
        super().__init__(game)
        # Plain attributes only: OpenSpiel's own clone deep-copies them and its serialize pickles them.
        self._kifu, self._version, self._seed, self._decks = game.kifu, game.version, game.seed, game.decks
        self._ticket = Ticket(game.episodes)
        self._match = match

    @property
    def match(self) -> Match:
        """The match, to read (a state not played yet reads its episode's deal, shared; taking the episode)."""
        return self._match if self._match is not None else self._deal(self._ticket.take())

    def observed(self) -> Match:
        """The match as ``match``, but the initial state made last and not used yet takes no episode: OpenSpiel
        makes a throw-away initial state and writes its tensor each time it asks a tensor's shape (that is, before
        every tensor it writes). It shows the deal it will have if it is the next state used."""
        if self._match is None and self._ticket.episode is None and self._ticket.episodes.latest is self._ticket:
            return self._deal(self._ticket.next())
        return self.match

    def _deal(self, episode: int) -> Match:
        return _dealt(self._kifu, self._version, episode_seed(self._seed, episode), self._decks)

    def _own(self) -> Match:
        """The match, to play on: a state not played yet takes its own copy of the deal first."""
        if self._match is None:
            self._match = self.match.clone()
        return self._match

    @property
    def episode(self) -> int:
        """The index of this state's episode in its game (taking it if the state has none yet)."""
        return self._ticket.take()

    def current_player(self) -> int:
        m = self.match
        if m.ended:
            return int(pyspiel.PlayerId.TERMINAL)
        player = m.current_player()
        assert player is not None
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.match.legal_actions() if player == self.match.current_player() else []

    def _apply_action(self, action: int) -> None:
        self._own().apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.match.numbering.action_name(int(action))

    def is_terminal(self) -> bool:
        return self.match.ended

    def returns(self) -> list[float]:
        return self.match.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KifuState:
        """A state ``player_id`` cannot tell from this one, its hidden cards and seed drawn again
        (``tools.ai.resample``) from a generator seeded by ``probability_sampler()``."""
        rng = random.Random(int(probability_sampler() * 2**53))
        out = KifuState(self.get_game(), resample(self.match, player_id, rng))
        out._ticket = self._ticket  # the same episode
        return out

    def __str__(self) -> str:
        m = self.match
        st = m.engine.state
        digest = hashlib.blake2b(snapshot(st), digest_size=8).hexdigest()
        return (f"{m.engine.profile.name} record {st.seq}, turn {st.turn}, step {st.step}, "
                f"{'ended' if st.ended else f'player {m.current_player()} to act'}, picked {list(m.picked)}, "
                f"state {digest}")


class KifuObserver:
    """Observations and information states (``recall``) of one game, as OpenSpiel's Python observers are. The
    tensor is the PettingZoo environment's observation (``tools.ai.observation``, ``docs/ai.md``); the
    information-state tensor adds the cards the player knows to lie where they cannot see them (how many, then
    how many of each card of the pool)."""

    def __init__(self, game: KifuGame, recall: bool) -> None:
        self.recall = recall
        self.layout = layout(game.kifu, game.version)
        self.index = {d: i for i, d in enumerate(self.layout.cards)}
        pieces: list[tuple[str, int]] = [("observation", self.layout.size)]
        if recall:
            pieces.append(("known", 1 + len(self.layout.cards)))
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[at:at + n]
            at += n

    def set_from(self, state: KifuState, player: int) -> None:
        m = state.observed()
        self.dict["observation"][:] = observation(m.engine, player, m.picked, self.layout)
        if self.recall:
            known = self.dict["known"]
            known.fill(0)
            st = m.engine.state
            for oid in m.sight.known[player]:
                if oid in st.objects:
                    known[0] += 1
                    d = st.facts(oid).definition
                    if d in self.index:
                        known[1 + self.index[d]] += 1

    def string_from(self, state: KifuState, player: int) -> str:
        m = state.match
        return m.information_state(player) if self.recall else m.view(player)


GAME_SECTION, STATE_SECTION = "[kifu game]\n", "\n[kifu state]\n"


def serialize_game_and_state(game: KifuGame, state: KifuState) -> str:
    """The game (its name, parameters and episode count) and the state as text: ``pyspiel.serialize_game_and_state``
    for kifu's games, which OpenSpiel's own cannot save (see the module's docstring)."""
    head = {"game": short_name(game.kifu), "params": game.get_parameters(), "episodes": game.episodes.taken,
            "episode": state.episode}
    saved: str = state.serialize()
    return GAME_SECTION + json.dumps(head, sort_keys=True) + STATE_SECTION + saved


def deserialize_game_and_state(text: str) -> tuple[KifuGame, KifuState]:
    """The game and state ``serialize_game_and_state`` wrote; a text it did not write is refused by name."""
    if not text.startswith(GAME_SECTION) or STATE_SECTION not in text:
        raise KifuError("not a saved kifu game and state: it begins with a [kifu game] line, then a [kifu state] one")
    head_text, _, state_text = text[len(GAME_SECTION):].partition(STATE_SECTION)
    try:
        head = json.loads(head_text)
        name, params, taken, episode = head["game"], head["params"], int(head["episodes"]), int(head["episode"])
    except (ValueError, KeyError, TypeError) as exc:
        raise KifuError(f"the [kifu game] section is not the game's name, parameters and episodes: {exc}") from exc
    if name not in {short_name(g) for g in GAMES}:
        raise KifuError(f"no kifu game {name!r} (known: {', '.join(short_name(g) for g in GAMES)})")
    game: KifuGame = pyspiel.load_game(name, params)
    game.episodes.taken = taken
    state: KifuState = game.deserialize_state(state_text)
    state._ticket = Ticket(game.episodes)
    state._ticket.episode = episode
    return game, state


def parse_decks(text: str) -> list[list[str]] | None:
    """The ``decks`` parameter as card-id lists, one per seat (None: the sample decks)."""
    if not text.strip():
        return None
    return [[c.strip() for c in seat.split(",") if c.strip()] for seat in text.split("|")]


@lru_cache(maxsize=64)
def _deal(kifu: str, version: str | None, seed: int, decks: tuple[tuple[str, ...], ...] | None) -> Match:
    return Match.new(kifu, seed, version, decks)


def _dealt(kifu: str, version: str | None, seed: int, decks: list[list[str]] | None) -> Match:
    """The deal of one episode, read by its initial states (OpenSpiel makes one for each clone, and one each time
    it asks a tensor's shape) and copied by each that plays."""
    return _deal(kifu, version, seed, None if decks is None else tuple(map(tuple, decks)))


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game in GAMES:
        if short_name(game) in registered:
            continue
        cls = type(f"Kifu_{game}", (KifuGame,), {"game_name": game})
        pyspiel.register_game(_game_type(game), cls)


_register()
