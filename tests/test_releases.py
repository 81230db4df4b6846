"""Versions are promises: every released version's recorded games still play out byte for byte under it.

For each game and each released version, ``tests/fixtures/releases`` holds a log recorded under that version
(re-adjudicated here under the version it names) and twenty seeded games as decisions and the head hash they
gave (played again here under that version). A change that alters how an old version plays fails here; a
behaviour change belongs in a new release behind a switch (statemachine/releases.py). That every game's pinned
pools load and an unknown version is refused is in the conformance battery (``tests/test_conformance.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import decode
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile, versions

FIXTURES = Path(__file__).parent / "fixtures" / "releases"
LOGS = sorted(FIXTURES.glob("*.jsonl"))
GAMES = sorted(FIXTURES.glob("*-games.json"))


def _named(path: Path) -> tuple[str, str]:
    game, _, version = path.name.removesuffix("-games.json").removesuffix(".jsonl").rpartition("-")
    return game, version


def test_every_released_version_of_every_game_has_fixtures() -> None:
    recorded = {_named(p) for p in LOGS} & {_named(p) for p in GAMES}
    for game in PROFILES:
        for version in versions(game)[:-1]:  # the newest is recorded when it is released
            assert (game, version) in recorded, f"{game} {version} has no recorded fixtures"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_log_re_adjudicates_under_the_version_it_names(path: Path) -> None:
    game, version = _named(path)
    records = [decode(r) for r in exchange.read(path)]
    started = records[0].event
    assert (started.profile, started.profile_version) == (game, version)  # type: ignore[union-attr]
    rules = profile(game, version)
    assert started.card_pool_digest == rules.pool.digest  # type: ignore[union-attr]
    replayed = Engine.replay(rules, records)
    assert replayed.state.seq == records[-1].seq and replayed.state.ended


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_recorded_games_play_to_the_same_head_under_their_version(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    rules = profile(data["game"], data["version"])
    for g in data["games"]:
        store, name = MemoryStore(), f"{data['game']}-{g['seed']}"  # the game id is part of every hash
        engine = Engine.new(rules, g["players"], g["decks"], g["seed"], store=store, game=name)
        for player, action, args in g["decisions"]:
            engine.decide(Decision(player, action, tuple(args)))
        assert engine.state.seq == g["records"], f"seed {g['seed']}"
        assert store._head(name)[1].hex() == g["head"], f"seed {g['seed']}"
