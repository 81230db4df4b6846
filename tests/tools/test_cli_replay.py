"""kifu replay: the trace of a game, its filters, and what it says about a damaged log."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.sqlite import SQLiteStore
from projections.state import GameState
from tests.fixtures.scripted import record_game, scripted_game
from tests.tools.conftest import BOLSHACK, GAME, HULCUS
from tests.tools.tamper import forge
from tools.cli import main
from tools.travel.trace import Filters, render, trace_lines


def replay(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["replay", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


EXPECTED = [
    "── setup ",
    "      1  game started: duel_masters 0.1, players Alice (0), Bob (1), seed 7, card pool dm-sample 1",
    f"      2  {BOLSHACK}#1 created in Alice's hand[0] (card 1, bolshack_dragon, owner Alice)",
    "── turn 1 · Alice ",
    f"      9  {BOLSHACK}: Alice's hand[0] → Alice's battle[0] (#1 → #4), summon",
    f"     10  trigger #1: when_summoned of {BOLSHACK}#4 (Alice), caused by record 9 (ZoneChanged), "
    "checked in the state after it",
    f"     11  pending #1 destroy a creature from {BOLSHACK}#4 in pool, held by Alice",
    f"     12  Alice to choose target (1) from {HULCUS}#2 for #1 destroy a creature from {BOLSHACK}#4",
    f"     13  Alice: target {HULCUS}#2",
    f"     15  {HULCUS}: Bob's battle[0] → Bob's graveyard[0] (#2 → #5), destroyed",
    f"     16  trigger #2: when_destroyed of {HULCUS}#2 (Bob), caused by record 15 (ZoneChanged), "
    "checked in the state before it",
    f"     17  resolved #1 destroy a creature from {BOLSHACK}#4",
    f"     19  fizzled #2 return a creature to hand from {HULCUS}#2: no creature in the graveyard to return",
    "── turn 2 · Bob ",
    "     23  game over, Alice wins: Bob conceded",
]


@pytest.mark.parametrize("source", ["db", "exported"])
def test_trace(source: str, request: pytest.FixtureRequest) -> None:
    path: Path = request.getfixturevalue(source)
    code, out, err = replay(str(path))
    assert code == 0, err
    lines = out.splitlines()
    found = [next((i for i, line in enumerate(lines) if line.startswith(want)), -1) for want in EXPECTED]
    assert -1 not in found, [w for w, i in zip(EXPECTED, found, strict=True) if i < 0]
    assert found == sorted(found)  # in this order
    assert sum(1 for line in lines if line[:8].strip().isdigit()) == 23  # one line per event


def test_filter_by_turn(db: Path) -> None:
    code, out, _ = replay(str(db), "--turn", "2")
    assert code == 0
    assert out.splitlines() == [
        "── turn 2 · Bob " + "─" * 48,
        "     20  turn 2 begins: Bob",
        "     21  main phase",
        "     22  Bob: shields = 1",
        "     23  game over, Alice wins: Bob conceded",
    ]


def test_filter_by_kind(db: Path) -> None:
    code, out, _ = replay(str(db), "--kind", "triggered", "--kind", "EffectFizzled")
    assert code == 0
    events = [line.split()[0] for line in out.splitlines() if line[:8].strip().isdigit()]
    assert events == ["10", "16", "19"]


def test_filter_by_player(db: Path) -> None:
    by_name = replay(str(db), "--about", "Bob")
    by_index = replay(str(db), "--about", "1")
    assert by_name == by_index
    seqs = [int(line.split()[0]) for line in by_name[1].splitlines() if line[:8].strip().isdigit()]
    assert 9 not in seqs and 10 not in seqs  # Alice's summon and trigger
    assert {15, 16, 18, 19, 20, 22} <= set(seqs)  # Bob's creature, trigger, pending, fizzle, turn, stat


def test_bad_filters_are_bad_input(db: Path) -> None:
    code, out, err = replay(str(db), "--kind", "nope")
    assert (code, out) == (2, "")
    assert "unknown event kind 'nope'; kinds are:" in err
    code, out, err = replay(str(db), "--about", "Carol")
    assert (code, out) == (2, "")
    assert "no player 'Carol' in this game; players: Alice (0), Bob (1)" in err
    assert replay(str(db), "--turn", "-1")[0] == 2


def test_broken_chain_still_traces_but_warns(tmp_path: Path, lines: list[bytes]) -> None:
    lines[8] = forge(lines[8], dst="0.mana")
    path = tmp_path / "forged.jsonl"
    path.write_bytes(b"".join(lines))
    code, out, err = replay(str(path))
    assert code == 1
    assert f"{BOLSHACK}: Alice's hand[0] → Alice's mana[0]" in out
    assert "warning: the hash chain breaks: record 9 does not match its hash" in err


def test_a_log_that_does_not_fold_stops_with_a_finding(tmp_path: Path, lines: list[bytes]) -> None:
    lines[8] = forge(lines[8], old=77)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(b"".join(lines))
    code, out, err = replay(str(path))
    assert code == 1
    assert out.splitlines()[-1].startswith("      8  ")
    assert "error: record 9 cannot apply to the state before it: object 77 is not in the game" in err


def test_trace_lines_for_other_tools(db: Path) -> None:
    with SQLiteStore(db) as store:
        lines = list(trace_lines(store.read_raw(GAME), Filters(turn=1)))
    assert lines[0].startswith("── turn 1 · Alice")
    assert lines[-1].startswith("     19  fizzled #2")



def test_every_event_kind_has_its_own_line() -> None:
    """No kind falls through to the generic rendering: a new event kind needs its line in tools.travel.trace."""
    state = GameState()
    for cls in ev.EVENT_TYPES:
        line = render(state, _sample(cls))
        assert not line.startswith(cls.__name__), line


def _sample(cls: type[Any]) -> Any:
    """An instance of an event type with plain values in its required fields."""
    args: list[object] = []
    for f in msgspec.structs.fields(cls):
        if not f.required:
            break
        options = getattr(f.type, "__args__", (f.type,))
        if getattr(f.type, "__origin__", None) is tuple:
            args.append(())
        elif f.type is ev.Characteristics:
            args.append(ev.Characteristics("x"))
        elif int in options:
            args.append(1)
        elif str in options:
            args.append("x")
        else:
            args.append(())
    return cls(*args)


@pytest.mark.parametrize("seed", [1, 2])
def test_scripted_games_replay_and_audit_clean(tmp_path: Path, seed: int) -> None:
    """Legal logs with every kind of event the core folds: one trace line per record, and a clean audit."""
    db = tmp_path / "scripted.db"
    with SQLiteStore(db) as store:
        record_game(store, "scripted", scripted_game(random.Random(seed), 300))
        length = store.head("scripted")
    code, out, err = replay(str(db), "--all")  # one line per record
    assert code == 0, err
    assert sum(1 for line in out.splitlines() if line[:8].strip().isdigit()) == length
    result = CliRunner().invoke(main, ["audit", "--no-rules", str(db)])  # scripted, not played by the rules
    assert result.exit_code == 0, result.output


def test_player_means_the_game_as_that_seat_knew_it_as_in_view(tmp_path: Path) -> None:
    """``--player P`` is one thing everywhere: replay prints each record as ``kifu view --player P`` shows it, and
    leaves out what P never saw; the other seat's draws and face-down shields are not named."""
    import re

    from tests.tools.games import export
    from tools.page.html import read_page

    log = export("duel_masters", tmp_path / "dm.jsonl")
    page = tmp_path / "dm.html"
    assert CliRunner().invoke(main, ["view", str(log), "-o", str(page), "--player", "1"]).exit_code == 0
    seen = read_page(page.read_text(encoding="utf-8")).events()
    code, out, _ = replay(str(log), "--player", "1", "--all")
    assert code == 0
    lines = {int(line.split()[0]): line.split(maxsplit=1)[1] for line in out.splitlines()
             if line[:8].strip().isdigit()}
    assert lines and all(seen[seq] == text for seq, text in lines.items())
    hidden = {seq for seq, text in seen.items() if text == "(hidden from this player)"}
    assert not hidden & set(lines)
    omniscient = replay(str(log), "--all")[1]
    first = re.search(r"players (.+?) \(0\), ", omniscient)
    assert first is not None
    their_draws = [line for line in omniscient.splitlines()
                   if f": {first.group(1)}'s deck[0] → {first.group(1)}'s hand" in line]
    assert their_draws
    for line in their_draws:
        seq, card = int(line.split()[0]), line.split(maxsplit=1)[1].split(":")[0]
        assert seq in lines and card not in lines[seq], lines.get(seq)  # seat 1 saw a draw, not the card


def test_a_shadowverse_trace_says_the_queue_order_in_words(tmp_path: Path) -> None:
    """SV-O-10..14: the sort key a judge reads is hand / leader and field / direct summon, turn player first,
    order of entry, printed order — not a row of numbers."""
    log = Path(__file__).resolve().parents[1] / "fixtures" / "releases" / "shadowverse-1.1.jsonl"
    code, out, _ = replay(str(log), "--kind", "EffectPending")
    assert code == 0
    pending = [line for line in out.splitlines() if " pending #" in line]
    assert pending and all(", order: triggered at record " in line for line in pending)
    assert any("turn player" in line and "printed ability" in line for line in pending)
