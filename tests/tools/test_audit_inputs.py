"""The audit judges a log's inputs as the rules read them (#21): an option no rules version reads is a finding
naming it, a deck its rules version does not allow is a finding naming the rule, and every summary says whether
the decks were checked, and under which rules version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.memory import MemoryStore
from eventsource.records import Record
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.games.duel_masters.versions import RELEASES as DM_RELEASES
from statemachine.games.shadowverse.versions import RELEASES as SV_RELEASES
from statemachine.scenario.run import Run, load
from tests.tools.forgeries import log
from tests.tools.tamper import change_event, reseal
from tools.cli import main


def _audit(path: Path) -> tuple[int, dict[str, Any], str]:
    runner = CliRunner()
    as_json = runner.invoke(main, ["audit", str(path), "--json"])
    as_text = runner.invoke(main, ["audit", str(path)])
    assert "Traceback" not in as_json.output + as_text.output, as_json.output + as_text.output
    return as_json.exit_code, json.loads(as_json.stdout), as_text.stdout


def _with_options(records: list[Record], **changes: str) -> list[Record]:
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    options = tuple(sorted({**dict(started.options), **changes}.items()))
    return change_event(records, 1, msgspec.structs.replace(started, options=options))


def _rules_finding(report: dict[str, Any]) -> dict[str, Any]:
    rules = next(c for c in report["checks"] if c["check"] == "rules")
    assert rules["status"] == "finding", rules
    return dict(rules["finding"])


@pytest.mark.parametrize(("game", "key", "value"), [
    ("duel_masters", "deck_out", "OFF"), ("shadowverse", "mulligan", "nope"), ("magic", "lookbak_ruling", "x"),
    ("vision", "totally_bogus", "anything"), ("shadowverse", "setup", "²"),
])
def test_an_option_no_rules_version_reads_is_a_finding_naming_it(game: str, key: str, value: str,
                                                                 tmp_path: Path) -> None:
    forged = reseal(_with_options(log(game), **{key: value}), tmp_path / "forged.jsonl")
    code, report, text = _audit(forged)
    assert code == 1 and not report["clean"]
    found = _rules_finding(report)
    assert (found["kind"], found["seq"], found["field"]) == ("options", 1, f"options.{key}")
    assert repr(key) in found["message"] or repr(value) in found["message"], found  # the key, or its value
    assert f"options.{key}" in text


def _played(game: str, decks: list[list[str]], version: str | None, decisions: int = 6) -> list[Record]:
    prof, players, _ = sample(game)(5)
    rules = type(prof)(version=version)
    store = MemoryStore()
    engine = Engine.new(rules, list(players), decks, 5, store=store, game="g")
    for _ in range(decisions):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(legal.decisions[0])
    return list(store.read("g"))


def test_a_deck_of_one_card_under_rules_that_check_decks_is_a_finding_naming_the_rule(tmp_path: Path) -> None:
    _, _, legal = sample("duel_masters")(5)
    records = _played("duel_masters", legal, None)
    # The forger makes player 1's whole deck one card (every ObjectCreated of its owner) and re-seals the log.
    forged = list(records)
    for r in records:
        if isinstance(r.event, ev.ObjectCreated) and r.event.owner == 1 and r.event.zone.endswith("deck"):
            forged = change_event(forged, r.seq, msgspec.structs.replace(r.event, definition="mist_rias"))
    code, report, _text = _audit(reseal(forged, tmp_path / "forged.jsonl"))
    assert code == 1
    found = _rules_finding(report)
    assert found["kind"] == "deck" and "40 cards named 雷鳴の守護者ミスト・リエス" in found["message"]
    assert "DM-GAME-DECK" in found["message"] and "deck 2" in found["message"]


def test_a_clean_log_says_its_decks_were_checked_and_under_which_rules(tmp_path: Path) -> None:
    _, _, legal = sample("shadowverse")(5)
    path = reseal(_played("shadowverse", legal, None), tmp_path / "g.jsonl")
    code, _report, text = _audit(path)
    assert code == 0, text
    summary = next(line for line in text.splitlines() if line.startswith("summary:"))
    assert "The deck lists were checked against SV-GAME-DECK (40 cards, at most 3 of one card), as shadowverse " \
           f"rules {SV_RELEASES.latest.version} requires." in summary  # the newest release records the game


def test_decks_an_older_release_takes_as_given_are_said_so_naming_the_version(tmp_path: Path) -> None:
    """A deck of 40 copies of one card, recorded under Duel Masters 1.1 (which checks no decks): the log is what
    1.1 plays, byte for byte, so it audits clean, and the summary says the decks were taken as given under 1.1."""
    records = _played("duel_masters", [["mist_rias"] * 40, ["dark_soldier"] * 3], "1.1")
    path = reseal(records, tmp_path / "g.jsonl")
    code, _report, text = _audit(path)
    assert code == 0, text
    summary = next(line for line in text.splitlines() if line.startswith("summary:"))
    assert "The deck lists were taken as given: duel_masters rules 1.1 checks no deck construction." in summary
    verified = CliRunner().invoke(main, ["verify", str(path)])
    assert "the deck lists were taken as given: duel_masters rules 1.1 checks no deck construction" in verified.stdout


def test_a_given_board_says_no_deck_was_checked(tmp_path: Path) -> None:
    root = Path(__file__).parents[1] / "scenarios" / "duel_masters" / "DM-W-S06.toml"
    run = Run(load(root), str(root))
    run.run()
    out = tmp_path / "s.jsonl"
    exchange.write(run.engine.store.read_raw(run.engine.game), out)
    code, report, text = _audit(out)
    assert code == 1 and _rules_finding(report)["kind"] == "given-setup"
    summary = next(line for line in text.splitlines() if line.startswith("summary:"))
    assert ("the game began from a given board, not from decks, so no deck construction was checked "
            f"(duel_masters rules {DM_RELEASES.latest.version})") in summary  # a scenario plays the newest release


def test_a_log_cut_before_a_players_first_card_is_a_deck_finding_not_a_crash(tmp_path: Path) -> None:
    """Found by the log fuzz: a log cut after the first player's cards gives the second player no card at all;
    the deck check named that player's first card, and there was none."""
    _, _, legal = sample("vision")(5)
    records = _played("vision", legal, None)
    last_of_first = max(r.seq for r in records if isinstance(r.event, ev.ObjectCreated) and r.event.owner == 0)
    assert not any(isinstance(r.event, ev.ObjectCreated) and r.event.owner == 1 for r in records[:last_of_first])
    code, report, _text = _audit(reseal(records[:last_of_first], tmp_path / "cut.jsonl"))
    assert code == 1 and not report["clean"]
    found = _rules_finding(report)
    assert found["kind"] == "deck" and found["seq"] == 1, found
