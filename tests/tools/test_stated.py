"""What the tools state at a point, on the demo's Duel Masters game and the samples of the other games: each id
redacted by the kind of thing it names, what is in progress where nobody is asked, who must act, text in the
game's words (no internal value), and what the tools print accepted back as input."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.records import Record
from projections.state import GameState, evolve
from projections.views import redact_event
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games import hidden_zones, option_kinds
from tests.tools.games import export, sampled_games
from tools.cli import main
from tools.travel.board import board_data, board_lines


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's game (``kifu demo``: Duel Masters, seed 2026)."""
    db = tmp_path_factory.mktemp("stated") / "demo.db"
    assert invoke("demo", "--db", str(db)).exit_code == 0
    return db


def line(output: str, seq: int) -> str:
    found = [x for x in output.splitlines() if re.match(rf"\s*{seq}\s", x)]
    assert found, f"no line of record {seq}"
    return found[0]


def test_a_seat_sees_every_option_that_is_an_effect_not_an_object(demo: Path) -> None:
    # Record 342 asks Alice which of her two pending abilities (#3, #4) resolves next: effect ids, which the seat
    # view once redacted as if they were object ids hidden from Bob (#3 and #4 are also objects in decks).
    for seat in ("Bob", "Alice", None):
        out = invoke("replay", str(demo), "--turn", "10", *(("--player", seat) if seat else ())).output
        asked = line(out, 342)
        assert "#3 自分のクリーチャーが破壊された時" in asked and "#4 自分のクリーチャーが破壊された時" in asked, asked
        at = invoke("at", str(demo), "342", *(("--player", seat) if seat else ())).output
        assert "#3 自分のクリーチャーが破壊された時" in at and "#4 自分のクリーチャーが破壊された時" in at, at


@pytest.mark.parametrize("seq", [336, 338])
def test_in_the_middle_of_a_procedure_at_says_what_is_in_progress_and_that_nobody_is_asked(
        demo: Path, seq: int) -> None:
    for seat in (None, "Alice", "Bob"):
        out = invoke("at", str(demo), str(seq), *(("--player", seat) if seat else ())).output
        assert "a player's action" not in out
        assert "in progress: #2 効果バトル from 爆炎シューター マッカラン#127 resolving" in out, out
        assert "nobody is asked at this point" in out, out
        assert "· to act" not in out, out  # nobody must act here


def test_to_act_marks_whoever_must_act_not_the_turn_player(demo: Path) -> None:
    # Record 342: Bob's turn, Alice must choose which of her abilities resolves next.
    out = invoke("at", str(demo), "342").output
    titles = [x for x in out.splitlines() if x.startswith(("Alice (0)", "Bob (1)"))]
    assert titles[0].startswith("Alice (0) · to act") and "to act" not in titles[1], titles
    # Record 322's decision is Bob's own summon in his main step: at 321 Bob must act.
    out = invoke("at", str(demo), "321").output
    titles = [x for x in out.splitlines() if x.startswith(("Alice (0)", "Bob (1)"))]
    assert "to act" not in titles[0] and titles[1].startswith("Bob (1) · to act"), titles


INTERNAL = [
    (r"card -\d", "a card by a negative id"),
    (r"#-\d", "an object id that is a player or hidden"),
    (r"order: -?\d+(, -?\d+)+", "an order key's numbers"),
    (r"\b[a-z]+_[a-z_]+\b(?! =)", "an identifier"),
]


@pytest.mark.parametrize("game", sampled_games())
def test_text_speaks_the_games_words_not_internal_values(game: str, tmp_path: Path, demo: Path) -> None:
    log = demo if game == "duel_masters" else export(game, tmp_path / f"{game}.jsonl")
    for seat in (None, "0", "1"):
        out = invoke("replay", str(log), *(("--player", seat) if seat else ())).output
        for pattern, what in INTERNAL[:3]:
            found = re.findall(rf".*{pattern}.*", out)
            assert not found, f"{game} as {seat or 'the judge'}: {what}: {found[:3]}"
        asked = [x for x in out.splitlines() if " to choose " in x]
        for x in asked:
            kind = x.split(" to choose ", 1)[1].split(" (", 1)[0]
            assert "_" not in kind, f"{game}: a request by its identifier: {x}"


def test_a_card_named_as_the_tools_print_it_is_accepted_back(demo: Path) -> None:
    by_id = invoke("why-not", str(demo), "338", "#120")
    by_name = invoke("why-not", str(demo), "338", "爆炎シューター マッカラン#120")
    assert by_id.exit_code == 0, by_id.output
    assert (by_name.exit_code, by_name.output) == (by_id.exit_code, by_id.output)


# -- a property over the sample games: what ``at`` states agrees with the fold and the rules ------------------


def played_with_waits(game: str, seed: int) -> tuple[list[Record], dict[int, int | None]]:
    """A sample game's records, and at each record where the rules waited (the last of a decision's records),
    who the rules (``Engine.legal``) said must act."""
    profile, players, decks = importlib.import_module(f"statemachine.games.{game}.demo").sample_game(seed)
    engine = Engine.new(profile, players, decks, seed, store=MemoryStore(), game=f"{game}-{seed}")
    bots = [RandomBot(seed * 5 + i) for i in range(len(players))]
    waits: dict[int, int | None] = {}
    for _ in range(200):
        legal = engine.legal()
        waits[engine.state.seq] = legal.player
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    waits[engine.state.seq] = engine.legal().player
    return list(engine.store.read(engine.game)), waits


@pytest.mark.parametrize("game", sampled_games())
@pytest.mark.parametrize("seed", range(2))
def test_what_at_states_agrees_with_the_fold_at_every_record(game: str, seed: int) -> None:
    records, waits = played_with_waits(game, seed)
    state = GameState()
    for i, r in enumerate(records):
        evolve(state, r.seq, r.event, r.decision)
        after = records[i + 1].decision if i + 1 < len(records) else None
        for viewer in (None, *range(len(state.players))):
            data = board_data(state, viewer, next_decision=after)
            text = "\n".join(board_lines(data))
            where = f"{game} seed {seed} record {r.seq} as {viewer}"
            # Who must act: whom the rules waited for where they waited; nobody in the middle of a procedure.
            if r.seq in waits:
                assert not data["in_progress"] and data["acting"] == waits[r.seq], where
            else:
                assert data["in_progress"] and data["acting"] is None, where
                assert "nobody is asked at this point" in text and "· to act" not in text, where
            if data["acting"] is not None:
                marked = [line for line in text.splitlines() if " · to act" in line]
                assert marked == [next(line for line in text.splitlines() if line.startswith(
                    f"{state.players[data['acting']].name} ({data['acting']})"))], where
            # What is in progress: the effects resolving in the fold.
            resolving = sorted(p.effect for p in state.pending.values() if p.resolving)
            assert sorted(p["effect"] for p in data["pending"] if p["resolving"]) == resolving, where
            if data["in_progress"]:
                for eid in resolving:
                    assert f"#{eid} " in text.split("in progress: ", 1)[1].split(" · nobody", 1)[0], where
            # The open request and its options: the fold's, as the request's record shows them to this viewer.
            req = state.request
            if req is None:
                assert data["request"] is None, where
                continue
            asked = ev.ChoiceRequested(req.player, req.kind, req.options, req.minimum, req.maximum, req.effect)
            seen = redact_event(asked, viewer, state, hidden=hidden_zones(game), option_kinds=option_kinds(game))
            assert isinstance(seen, ev.ChoiceRequested), where
            assert (data["request"]["player"], data["request"]["kind"], tuple(data["request"]["options"])) == (
                seen.player, seen.kind, seen.options), where
            assert data["acting"] == req.player, where


SCENARIO = Path(__file__).parents[1] / "scenarios" / "magic" / "MTG-P-S04.toml"


@pytest.mark.parametrize("written", ["-2", '"player1"', '"player:opponent"'])
def test_a_scenario_names_a_player_as_a_target_by_seat_or_by_name(tmp_path: Path, written: str) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    assert "args = [-2]" in text
    path = tmp_path / SCENARIO.name
    path.write_text(text.replace("args = [-2]", f"args = [{written}]"), encoding="utf-8")
    result = invoke("scenario", "run", str(path))
    assert result.exit_code == 0, result.output


def test_a_scenario_naming_no_player_is_refused(tmp_path: Path) -> None:
    path = tmp_path / SCENARIO.name
    path.write_text(SCENARIO.read_text(encoding="utf-8").replace("args = [-2]", 'args = ["player:nobody"]'),
                    encoding="utf-8")
    result = invoke("scenario", "run", str(path))
    assert result.exit_code != 0 and "no player 'nobody'" in result.output, result.output


def test_decide_takes_ids_as_its_listing_prints_them(demo: Path, tmp_path: Path) -> None:
    db = tmp_path / "fork.db"
    assert invoke("fork", str(demo), "342", "--db", str(db), "--as", "f").exit_code == 0
    listing = invoke("decide", "--db", str(db), "f").output
    printed = "#4 自分のクリーチャーが破壊された時 from クリーチャーA#124"
    assert printed in listing, listing
    played = invoke("decide", "--db", str(db), "f", "resolve", printed)
    assert played.exit_code == 0, played.output
    wrong = invoke("decide", "--db", str(db), "f", "resolve", "火の司令官#4")
    assert wrong.exit_code == 2 and "which is" in wrong.output, wrong.output
