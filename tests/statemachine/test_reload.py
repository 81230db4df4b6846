"""Loading a game from its log when the rules have a bug: the bug propagates, from ``Engine.load`` and from the
audits, instead of a quiet restore or a finding about the log. (That a game restored before every decision, as
``kifu decide`` does, records byte for byte what one engine does is in the conformance battery,
``tests/test_conformance.py``.)"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest

from eventsource import exchange
from eventsource.memory import MemoryStore
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games import PROFILES
from statemachine.profile import RulesProfile
from tests.registry import NAMES as GAMES
from tools.audit.adjudication import readjudicate
from tools.audit.crossrules import first_divergence
from tools.logs.sources import open_log
from tools.travel.loaded import load_log
from tools.travel.streamed import StreamedLog

# -- a bug in the rules is no log to fall back on ----------------------------------------------------------------


def _recorded(game: str, decisions: int) -> tuple[RulesProfile, MemoryStore]:
    rules, players, decks = importlib.import_module(f"{PROFILES[game][0]}.demo").sample_game(3)
    store = MemoryStore()
    engine = Engine.new(rules, players, decks, 3, store=store, game="g")
    bots = [RandomBot(3), RandomBot(4)]
    made, asked = 0, decisions > 0
    while made < decisions or asked:  # the last decision is an action, not the answer to a request
        legal = engine.legal()
        assert legal.player is not None
        asked = engine.request is not None
        engine.decide(bots[legal.player].choose(legal))
        made += 1
    return rules, store


def _inject(monkeypatch: pytest.MonkeyPatch, rules: RulesProfile, bug: Callable[..., None]) -> None:
    """``bug`` in place of the rules' code that takes an action (the game's own, and its resolution policy's)."""
    monkeypatch.setattr(type(rules), "act", bug)
    monkeypatch.setattr(type(rules.make_policy()), "decide", bug)


class RulesBug(Exception):
    """Injected into the rules' code: what a mistake there raises (no error about the log)."""


def _broken(*_: object) -> None:
    raise RulesBug("a bug in the rules")


def _refuses(_: RulesProfile, __: Engine, decision: Decision) -> None:
    raise IllegalDecision(decision, "TEST", "the rules refuse what the log has (a log they do not give)")


@pytest.mark.parametrize("game", GAMES)
def test_a_bug_in_the_rules_propagates_from_load_instead_of_a_quiet_restore(game: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rules, store = _recorded(game, 6)
    _inject(monkeypatch, rules, _broken)  # re-running the last decision reaches it
    with pytest.raises(RulesBug):
        Engine.load(rules, store, "g")
    # Where the log is one the rules do not give (a decision the rules refuse), the log's fold is restored.
    monkeypatch.undo()
    made = Engine.load(rules, store, "g").state
    _inject(monkeypatch, rules, _refuses)
    assert Engine.load(rules, store, "g").state == made


@pytest.mark.parametrize("game", GAMES)
def test_a_bug_in_the_rules_propagates_from_loading_a_game_not_yet_begun(game: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    rules, store = _recorded(game, 0)
    monkeypatch.setattr(type(rules), "begin", _broken)
    with pytest.raises(RulesBug):
        Engine.load(rules, store, "g")


@pytest.mark.parametrize("game", GAMES)
def test_a_bug_in_the_rules_propagates_from_the_audits(game: str, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """An audit (re-adjudication, read as a stream) and a comparison of releases (crossrules) report what a log
    the rules do not give shows; a bug in the rules is no finding about the log: it propagates."""
    rules, store = _recorded(game, 6)
    path = tmp_path / "game.jsonl"
    exchange.write(store.read_raw("g"), path)
    _inject(monkeypatch, rules, _broken)
    with pytest.raises(RulesBug), open_log(str(path)) as source:
        readjudicate(StreamedLog.open(source), rules)
    with pytest.raises(RulesBug):
        first_divergence(load_log(str(path)), rules)
