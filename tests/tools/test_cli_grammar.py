"""One grammar: every command names the game with --game (a store holding one game needs no name), and a question
about something that is not there is input the command cannot use (exit 2), never a silent success."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.sqlite import SQLiteStore
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games import profile
from statemachine.games.duel_masters.demo import DECK_A, DECK_B
from tools.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("grammar") / "two.db"
    with SQLiteStore(path) as store:
        for name, seed in (("first", 1), ("second", 2)):
            engine = Engine.new(profile("duel_masters"), ["A", "B"], [list(DECK_A), list(DECK_B)], seed, store=store,
                                game=name)
            bot = RandomBot(seed)
            for _ in range(80):
                legal = engine.legal()
                if legal.player is None:
                    break
                engine.decide(bot.choose(legal))
    return path


def a_trigger(db: Path, game: str) -> str:
    with SQLiteStore(db) as store:
        return str(next(r.seq for r in store.read(game) if isinstance(r.event, ev.Triggered)))


READING = [
    ["replay", "{db}"], ["verify", "{db}"], ["audit", "{db}"], ["at", "{db}", "50"], ["why", "{db}", "{trigger}"],
    ["diff", "{db}", "40", "50"], ["view", "{db}", "-o", "{out}"], ["export", "--db", "{db}", "-o", "{out}"],
]


@pytest.mark.parametrize("command", READING, ids=lambda c: c[0])
def test_every_reading_command_names_the_game_with_game(two_games: Path, tmp_path: Path,
                                                       command: list[str]) -> None:
    args = [a.replace("{db}", str(two_games)).replace("{out}", str(tmp_path / "out"))
            .replace("{trigger}", a_trigger(two_games, "second")) for a in command]
    code, _, err = run(*args)
    assert code == 2 and "first" in err and "second" in err  # two games: which one?
    code, _, err = run(*args, "--game", "second")
    assert code == 0, err


def test_a_positional_game_and_a_different_game_option_are_refused(two_games: Path) -> None:
    code, _, err = run("replay", str(two_games), "first", "--game", "second")
    assert code == 2 and "two games named" in err


def test_replay_of_a_turn_past_the_end_is_input_it_cannot_use(two_games: Path) -> None:
    code, _, err = run("replay", str(two_games), "--game", "first", "--turn", "99")
    assert code == 2 and "no turn 99" in err


def test_why_not_an_ability_the_card_lacks_is_input_it_cannot_use(two_games: Path) -> None:
    code, _, err = run("why-not", str(two_games), "45", "mist_rias", "no_such_ability", "--game", "first")
    assert code == 2 and "no ability 'no_such_ability'" in err


def test_scenario_run_on_a_folder_without_scenarios_is_input_it_cannot_use(tmp_path: Path) -> None:
    code, _, err = run("scenario", "run", str(tmp_path))
    assert code == 2 and "no scenario files" in err


def test_import_says_it_checked_the_chain_not_that_it_verified(two_games: Path, tmp_path: Path) -> None:
    out = tmp_path / "first.jsonl"
    assert run("export", "--db", str(two_games), "--game", "first", "-o", str(out))[0] == 0
    code, text, _ = run("import", str(out), "--db", str(tmp_path / "new.db"))
    assert code == 0 and "hash chain checked" in text and "verif" not in text


def test_one_changed_hash_digit_gives_the_same_verdict_from_every_reading_command(two_games: Path,
                                                                                 tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    assert run("export", "--db", str(two_games), "--game", "first", "-o", str(good))[0] == 0
    lines = good.read_bytes().splitlines(keepends=True)
    line = lines[30].decode()
    at = line.index('"hash":"') + len('"hash":"')
    flipped = "0" if line[at] != "0" else "1"
    lines[30] = (line[:at] + flipped + line[at + 1:]).encode()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join(lines))
    trigger = a_trigger(two_games, "first")
    for command in (["audit"], ["replay"], ["verify"], ["at", "--", "{log}", "40"], ["why", "--", "{log}", trigger],
                    ["diff", "--", "{log}", "20", "40"], ["view", "-o", str(tmp_path / "v.html")]):
        args = [command[0], *[a.replace("{log}", str(bad)) for a in command[1:]]]
        if "{log}" not in " ".join(command):
            args.insert(1, str(bad))
        code, _, err = run(*args)
        assert code == 1, (command, err)
        assert "31" in err or command[0] == "audit", (command, err)  # the record where the chain breaks


def test_synth_writes_a_long_generated_game_the_time_travel_commands_read(tmp_path: Path) -> None:
    db = tmp_path / "long.db"
    code, out, _ = run("synth", "--db", str(db), "--events", "12000", "--seed", "3")
    assert code == 0 and "wrote game synth-12000-3: 12000 events" in out
    assert run("synth", "--db", str(db), "--events", "12000", "--seed", "3")[0] == 2  # it exists already
    code, out, _ = run("at", str(db), "9000")
    assert code == 0 and out.startswith("record 9000 · turn ")
    code, out, _ = run("audit", str(db), "--no-rules")
    assert code == 0 and "12000 records" in out


def test_demo_played_twice_keeps_one_game_so_commands_naming_it_still_work(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    first = run("demo", "--db", db)
    again = run("demo", "--db", db)
    assert first[0] == 0 and again[0] == 0
    assert "already recorded as 'demo-duel-masters'" in again[1]
    code, out, _ = run("games", "--db", db)
    assert code == 0 and len(out.splitlines()) == 1
    assert run("at", db, "338", "--game", "demo-duel-masters")[0] == 0
