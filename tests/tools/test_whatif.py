"""What-if forks on every game with a sample: ``kifu fork`` a bot game mid-game, ``kifu decide`` something other
than what was played (the listing and the refusals are Engine.legal's and Engine.decide's), ``kifu diff`` the
original against the fork, ``kifu audit`` the fork (both parts re-adjudicated, the branch point named)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource.memory import MemoryStore
from eventsource.records import Record, decode
from eventsource.sqlite import SQLiteStore
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.forks import branches
from statemachine.games import profile
from tests.tools.games import export, play, sampled_games
from tests.tools.tamper import change_event, records_of, reseal
from tools.cli import main
from tools.travel.loaded import LogStore, PrefixStore, load_log

GAMES = sampled_games()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _rules(records: list[Record]) -> object:
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    return profile(started.profile, started.profile_version)


def branch_point(records: list[Record]) -> tuple[int, int, Decision]:
    """A point in the second half of the game where another decision than the recorded one is legal: the point,
    the index of that other decision in Engine.legal's listing, and the decision."""
    store = LogStore()
    game = records[0].game
    store.load(game, list(play(game.removeprefix("sample-"))))
    rules = _rules(records)
    for r in records[len(records) // 2:]:
        if not isinstance(r.event, ev.ChoiceMade):
            continue
        engine = Engine.load(rules, PrefixStore(store, game, r.seq - 1), game)  # type: ignore[arg-type]
        made = Decision(r.event.player, r.event.action, tuple(r.event.args))
        others = [(i, d) for i, d in enumerate(engine.legal().decisions) if d != made]
        if others:
            return r.seq - 1, *others[0]
    raise AssertionError("no point with another legal decision")


def listing(out: str) -> list[str]:
    """The decisions ``kifu decide`` lists, as typed (ACTION ARGS), in its order."""
    return [m.group(1).strip() for m in re.finditer(r"^\s+\d+  (.+?)(?:   \(.*\))?$", out, re.M)]


def typed(d: Decision) -> str:
    return " ".join([d.action, *map(str, d.args)])


@pytest.mark.parametrize("name", GAMES)
def test_fork_play_otherwise_diff_and_audit(name: str, tmp_path: Path) -> None:
    log = export(name, tmp_path / f"{name}.jsonl")
    records = records_of(log)
    at, index, other = branch_point(records)
    db = tmp_path / "whatif.db"

    code, out, _ = run("fork", log, at, "--db", db, "--as", "what-if")
    assert code == 0, out
    assert f"after record {at} into game 'what-if'" in out
    assert f"the original went on with record {at + 1}:" in out
    with SQLiteStore(db) as store:
        engine = Engine.load(_rules(records), store, "what-if")  # type: ignore[arg-type]
        legal = engine.legal()
        assert [r.event for r in store.read("what-if", 1, at)] == [r.event for r in records[:at]]
    code, out, _ = run("decide", "--db", db, "what-if")
    assert code == 0
    assert listing(out) == [typed(d) for d in legal.decisions]

    code, out, _ = run("decide", "--db", db, "what-if", index)
    assert code == 0, out
    assert f"played: records {at + 2} to" in out
    with SQLiteStore(db) as store:
        played = next(iter(store.read("what-if", at + 2, at + 2))).event
    assert played == ev.ChoiceMade(other.player, other.action, other.args) != records[at].event
    for _ in range(3):  # then a few more, typed as ACTION ARGS (a request for several options has no listing)
        with SQLiteStore(db) as store:
            legal = Engine.load(_rules(records), store, "what-if").legal()  # type: ignore[arg-type]
        if legal.player is None:
            break
        req = legal.request
        d = legal.decisions[0] if legal.decisions or req is None else Decision(
            req.player, req.action, req.options[:req.minimum])
        code, out, _ = run("decide", "--db", db, "what-if", d.action, *map(str, d.args))
        assert code == 0, out
    with SQLiteStore(db) as store:
        head = store.head("what-if")

    code, out, _ = run("diff", log, min(head, records[-1].seq), head, "--other", db, "--other-game", "what-if")
    assert code == 0
    assert f"the two logs share records 1 to {at}" in out
    assert f"'what-if' has its branch point (record {at + 1}), then record {at + 2}:" in out
    assert "nothing changed" not in out
    code, out, _ = run("diff", log, min(head, records[-1].seq), head, "--other", db, "--other-game", "what-if",
                       "--json")
    data = json.loads(out)
    assert (data["game_a"], data["game_b"], data["shared"]) == (f"sample-{name}", "what-if", at)
    original, forked = load_log(str(log)), load_log(str(db), "what-if")
    a, b = original.state_at(min(head, records[-1].seq)), forked.state_at(head)
    for c in data["changes"]:  # objects are compared only where both games numbered the same card alike
        assert a.objects[c["obj"]].card == b.objects[c["obj"]].card == c["card"]

    code, out, _ = run("audit", db, "what-if")
    assert code == 0, out
    assert re.search(rf"fork +ok +branched from 'sample-{name}' after record {at} \(its head there "
                     rf"{records[at - 1].hash.hex()}\)", out)
    assert re.search(rf"rules +ok +the rules give every one of its {head} records", out)


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_decision_names_the_rule_and_appends_nothing(name: str, tmp_path: Path) -> None:
    log = export(name, tmp_path / f"{name}.jsonl")
    records = records_of(log)
    at, _, other = branch_point(records)
    db = tmp_path / "whatif.db"
    assert run("fork", log, at, "--db", db, "--as", "what-if")[0] == 0
    wrong = Decision(1 - other.player, other.action, other.args)  # the player the rules do not wait for
    with SQLiteStore(db) as store:
        engine = Engine.load(_rules(records), store, "what-if")  # type: ignore[arg-type]
        with pytest.raises(IllegalDecision) as refused:
            engine.decide(wrong)
        before = store.head("what-if")
    code, _, err = run("decide", "--db", db, "what-if", other.action, *map(str, other.args),
                       "--player", str(wrong.player))
    assert code == 2
    assert f"[{refused.value.rule}]" in err and refused.value.reason in err and "nothing was appended" in err
    code, _, err = run("decide", "--db", db, "--game", "what-if", "999")  # the game named as everywhere else
    assert code == 2 and "no decision 999" in err
    with SQLiteStore(db) as store:
        assert store.head("what-if") == before


@pytest.mark.parametrize("name", GAMES[:2])
def test_a_fork_starts_only_where_the_rules_wait_for_a_decision(name: str, tmp_path: Path) -> None:
    log = export(name, tmp_path / f"{name}.jsonl")
    records = records_of(log)
    inside = next(r.seq for r in records[len(records) // 2:]
                  if not isinstance(records[r.seq].event, ev.ChoiceMade) and r.seq < records[-1].seq)
    code, _, err = run("fork", log, inside, "--db", tmp_path / "f.db")
    assert code == 2
    assert f"record {inside} of 'sample-{name}' is in the middle of the rules' work" in err
    nxt = next(r.seq - 1 for r in records[inside:] if isinstance(r.event, ev.ChoiceMade))
    assert f"{nxt}" in err.rsplit("after record", 1)[1]
    assert run("fork", log, records[-1].seq + 5, "--db", tmp_path / "f.db")[0] == 2
    assert run("fork", log, 1, "--db", tmp_path / "f.db")[0] == 2  # the set-up is not a decision point
    assert run("games", "--db", tmp_path / "f.db")[1].count("sample") == 0


@pytest.mark.parametrize("name", GAMES[:2])
def test_an_altered_copied_part_is_a_finding_of_the_fork_check(name: str, tmp_path: Path) -> None:
    log = export(name, tmp_path / f"{name}.jsonl")
    at, index, _ = branch_point(records_of(log))
    db = tmp_path / "whatif.db"
    assert run("fork", log, at, "--db", db, "--as", "what-if")[0] == 0
    assert run("decide", "--db", db, "what-if", index)[0] == 0
    assert run("export", "--db", db, "what-if", "-o", tmp_path / "fork.jsonl")[0] == 0
    fork = records_of(tmp_path / "fork.jsonl")
    made = next(r for r in fork[at // 2:] if isinstance(r.event, ev.ChoiceMade))
    assert isinstance(made.event, ev.ChoiceMade)
    changed = ev.ChoiceMade(made.event.player, made.event.action, (*made.event.args, 0))
    forged = reseal(change_event(fork, made.seq, changed), tmp_path / "forged.jsonl")
    code, out, _ = run("audit", forged)
    assert code == 1
    assert re.search(rf"fork +FINDING .*branched from 'sample-{name}' after record {at}", out)
    assert f"not-the-source at record {at + 1}" in out and f"records 1 to {at} are not those of 'sample-{name}'" in out


@pytest.mark.parametrize("name", GAMES)
def test_engine_fork_re_adjudicates_both_parts_and_a_fork_of_a_fork(name: str) -> None:
    raws = list(play(name))
    records = [decode(r) for r in raws]
    rules = _rules(records)
    at, _, other = branch_point(records)
    source = LogStore()
    source.load(records[0].game, raws)
    store = MemoryStore()
    fork = Engine.fork(rules, source, records[0].game, at, store=store, game="f1")  # type: ignore[arg-type]
    fork.decide(other)
    replayed = Engine.replay(rules, list(store.read("f1")))  # type: ignore[arg-type]
    assert replayed.state == fork.state
    head = store.head("f1")
    again = Engine.fork(rules, store, "f1", head, store=store, game="f2")  # type: ignore[arg-type]
    assert again.state.seq == head + 1
    found = branches(list(store.read_raw("f2")))
    assert [(b.seq, b.source, b.at, b.problem) for b in found] == [(at + 1, records[0].game, at, ""),
                                                                   (head + 1, "f1", head, "")]
    with pytest.raises(IllegalDecision):
        again.decide(Decision(other.player, "no-such-action"))
    assert store.head("f2") == head + 1


@pytest.mark.parametrize("name", GAMES[2:])
def test_the_fork_check_compares_with_the_source_when_the_store_holds_it(name: str, tmp_path: Path) -> None:
    """The original in the same store agrees at the branch point; another game under the source's id does not."""
    log = export(name, tmp_path / f"{name}.jsonl")
    at, _, _ = branch_point(records_of(log))
    same, other = tmp_path / "same.db", tmp_path / "other.db"
    for db, source in ((same, log), (other, export(name, tmp_path / "other.jsonl", seed=2027))):
        assert run("import", source, "--db", db)[0] == 0
        assert run("fork", log, at, "--db", db, "--as", "what-if")[0] == 0
    code, out, _ = run("audit", same, "what-if")
    assert code == 0 and f"note: 'sample-{name}' is in this store and has the same hash at record {at}" in out
    code, out, _ = run("audit", other, "what-if")
    assert code == 1
    assert re.search(rf"fork +FINDING +branched from 'sample-{name}' after record {at}", out)
    assert f"source-differs at record {at + 1}" in out and "the source changed or is another game" in out
    assert re.search(r"rules +ok", out)  # the fork itself is still a game the rules give
