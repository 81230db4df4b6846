"""``kifu verify LOG --rules VERSION``: would a game recorded under one release have gone differently under
another? Shadowverse games recorded under rules 1.0 on boards 1.1 plays otherwise (releases.toml: SV-O-98, an
unpaid EP cost stops the effect: シルヴィア at 0 EP no longer deals her 2 damage) and on boards it plays the same,
re-run under 1.1: the first divergence, the changelog entry that alone gives it, how the decision goes on
under 1.1, the state just before."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import decode
from statemachine.decisions import Decision
from statemachine.games import versions
from statemachine.scenario import Run, Scenario
from tools.audit.crossrules import under_version
from tools.cli import main
from tools.travel.loaded import load_log

FIXTURES = Path(__file__).parents[1] / "fixtures" / "releases"
EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "unpaid-ep.jsonl"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def sylvia_game(path: Path, ep: int, life: int = 20) -> Path:
    """Alice plays シルヴィア (her fanfare spends 1 EP, then deals 2 damage to the enemy leader) with ``ep`` evolve
    points, under rules 1.0; then both players end two turns each. Recorded to ``path``."""
    sc = msgspec.convert({"id": "unpaid-ep", "game": "shadowverse", "setup": {
        "players": ["Alice", "Bob"], "turn": 9, "active": 0, "step": "main",
        "cards": [{"handle": "s", "card": "sylvia", "zone": "hand"},
                  *[{"card": "goblin", "zone": "deck", "owner": p} for p in (0, 1) for _ in range(3)]],
        "stats": {"0.life": 20, "1.life": life, "0.pp": 4, "0.ep": ep}}}, Scenario)
    r = Run(sc, "<test>", version="1.0")
    r.engine.decide(Decision(0, "play", (r.obj("s"),)))
    for _ in range(4):
        player = r.engine.legal().player
        assert player is not None
        r.engine.decide(Decision(player, "end_turn"))
    exchange.write(list(r.engine.store.read_raw(r.engine.game)), path)
    return path


def play_record(path: Path) -> int:
    """The record of Alice's decision to play Sylvia (after however many records the set-up takes)."""
    return next(r.seq for r in map(decode, exchange.read(path)) if isinstance(r.event, ev.ChoiceMade))


def damage_record(path: Path) -> int:
    """The record where Bob's leader takes Sylvia's damage (rules 1.0 deal it even unpaid)."""
    return next(r.seq for r in map(decode, exchange.read(path))
                if r.decision and isinstance(r.event, ev.PlayerStat) and r.event.player == 1 and r.event.key == "life")


@pytest.mark.parametrize("life", [20, 7])
def test_sylvia_at_0_ep_diverges_under_1_1_by_the_unpaid_ep_change(tmp_path: Path, life: int) -> None:
    log = sylvia_game(tmp_path / "sylvia.jsonl", ep=0, life=life)
    hit = damage_record(log)
    code, out, _ = run("verify", log, "--rules", "1.1")
    assert code == 1
    assert "under shadowverse rules 1.1" in out and "the log's rules: shadowverse 1.0" in out
    assert "1.1  SV-O-98: An effect whose EP cost cannot be paid does nothing more" in out  # the changelog
    assert f"DIVERGENT at record {hit}, in decision 1 (record {play_record(log)}: Alice: play シルヴィア#1)" in out
    assert f"the log has (1.0):  record {hit}: Bob: life = {life - 2}" in out
    assert f"1.1 gives:  record {hit}: resolved #1 EP消費 from シルヴィア#8" in out
    assert ("because of: 1.1 SV-O-98 (switch unpaid_ep_stops = True): on 1.0's rules this change alone gives the "
            "same divergence") in out and out.count("because of:") == 1
    assert f"the state just before record {hit} (kifu at {log} {hit - 1}):" in out
    code, out, _ = run("verify", log, "--rules", "1.0")
    assert code == 0 and "SAME" in out


def test_the_json_names_every_change_tried_and_the_one_responsible(tmp_path: Path) -> None:
    log = sylvia_game(tmp_path / "sylvia.jsonl", ep=0)
    code, text, _ = run("verify", log, "--rules", "1.1", "--json")
    assert code == 1
    data = json.loads(text)
    assert (data["log_version"], data["version"], data["log_pool"], data["pool"]) == ("1.0", "1.1", "1.0", "1.1")
    assert {c["what"]: c["alone"] for c in data["culprits"]} == {
        "switch scenario_evolves_early = False": False, "switch unpaid_ep_stops = True": True,
        "switch bundle_from_card = True": False, "card pool 1.0 -> 1.1": False}
    assert data["divergence"]["expected"] == {"kind": "PlayerStat", "player": 1, "key": "life", "value": 18}
    assert data["instead"][0].startswith(f"record {data['divergence']['seq']}: resolved #1")


def test_sylvia_with_her_ep_paid_plays_the_same_under_1_1(tmp_path: Path) -> None:
    log = sylvia_game(tmp_path / "sylvia.jsonl", ep=1)
    result = under_version(load_log(str(log)), "1.1")
    assert result.same and not result.culprits
    code, out, _ = run("verify", log, "--rules", "1.1")
    assert code == 0 and f"SAME: under 1.1 the rules give all {load_log(str(log)).last} records" in out


@pytest.mark.parametrize("game", ["duel_masters", "magic", "shadowverse"])
def test_whole_recorded_games_the_changes_do_not_touch_are_the_same(game: str) -> None:
    """The release fixtures (a whole bot game each, recorded under 1.0) never meet a board 1.1 plays otherwise."""
    log = FIXTURES / f"{game}-1.0.jsonl"
    code, out, _ = run("verify", log, "--rules", "1.1")
    assert code == 0
    assert f"SAME: under 1.1 the rules give all {load_log(str(log)).last} records" in out
    for _, change in under_version(load_log(str(log)), "1.1").changes:  # the changelog is shown all the same
        assert f"1.1  {change.rule}: {change.why}" in out


@pytest.mark.parametrize("version", ["0.9", "2.0", "one"])
def test_a_version_not_installed_is_bad_input_naming_those_that_are(tmp_path: Path, version: str) -> None:
    log = sylvia_game(tmp_path / "sylvia.jsonl", ep=0)
    code, _, err = run("verify", log, "--rules", version)
    installed = ", ".join(versions("shadowverse"))
    assert code == 2 and f"no shadowverse rules {version} installed (installed: {installed})" in err


def test_the_guides_example_diverges_where_the_guide_says() -> None:
    """docs/examples/unpaid-ep.jsonl is the first board above, recorded under 1.0 for docs/judges.md."""
    result = under_version(load_log(str(EXAMPLE)), "1.1")
    assert result.divergence is not None and result.divergence.seq == damage_record(EXAMPLE)
    assert [c.what for c in result.responsible] == ["switch unpaid_ep_stops = True"]
    guide = (EXAMPLE.parents[1] / "judges.md").read_text(encoding="utf-8")
    assert f"DIVERGENT at record {result.divergence.seq}, in decision 1 (record 15: Alice: play シルヴィア#1)" in guide
