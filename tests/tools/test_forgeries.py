"""The forgery corpus: kinds of tampering an adversary would try on a log of each of the four games, each
re-sealed so the hash chain holds, each caught by ``kifu audit`` with the finding a judge needs — its kind,
its record and the field that differs.

What the rules cannot derive is taken as given and said so: the players' names, the deck lists, the seed and
the options. Names swapped alone give a self-consistent log that only a signature can tell from the real one
(``test_names_swapped_alone_are_an_input_only_a_signature_vouches_for``); swapping them with anything that
keeps each player with their own deck or decisions is caught.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from eventsource import events as ev
from eventsource import exchange
from eventsource.records import RawRecord, Record
from statemachine.games import profile
from tests.registry import NAMES as GAMES
from tests.tools.forgeries import (
    FIXTURES,
    Expected,
    Forged,
    RawForged,
    branch_point_envelope,
    cheaper,
    created,
    envelope,
    first,
    first_card,
    forked,
    head_from_the_middle,
    head_of_the_real_game,
    int_widened,
    log,
    opening_end,
    played,
    played_on_past_head,
    printed_respelled,
    raws_of,
    removed_span,
    renumber,
    replace,
    trailing_channel,
    unused_card,
    with_setup,
)
from tests.tools.tamper import change_event, records_of, reseal
from tools.cli import main

# -- the corpus ---------------------------------------------------------------------------------------------


def _first_field(a: ev.Event, b: ev.Event) -> str:
    return next(f.name for f in msgspec.structs.fields(a) if getattr(a, f.name) != getattr(b, f.name))


def played_on(game: str, kind: str, **change: int) -> Forged:
    """One player's cards of ``kind`` printed cheaper or stronger, the game played on from that board by the
    rules of the edited pool, and the log made to name the real pool."""
    cid = first_card(log(game), 0, kind, change.get("cost", -1) + 1)
    records = played(game, 5, 40, cheaper([cid], **change))
    assert any(isinstance(r.event, ev.ChoiceMade) for r in records)
    field = "printed.cost" if "cost" in change else "printed.power"
    return records, Expected("card", created(records, cid), field)


def printed_changed_unused(game: str, **change: object) -> Forged:
    records = log(game)
    r = unused_card(records)
    assert isinstance(r.event, ev.ObjectCreated)
    name = next(iter(change))
    return (replace(records, r.seq, printed=msgspec.structs.replace(r.event.printed, **change)),
            Expected("card", r.seq, f"printed.{name}"))


def definition_changed_unused(game: str) -> Forged:
    records = log(game)
    r = unused_card(records)
    assert isinstance(r.event, ev.ObjectCreated)
    other = next(e for x in records if isinstance((e := x.event), ev.ObjectCreated)
                 and e.printed.name != r.event.printed.name)
    return replace(records, r.seq, definition=other.definition), Expected("card", r.seq, "printed")


def definition_unknown(game: str) -> Forged:
    records = log(game)
    r = unused_card(records)
    return replace(records, r.seq, definition="no_such_card"), Expected("card", r.seq, "definition")


def setup_added(game: str) -> Forged:
    """setup=N over the dealt opening: the shuffle in it is the rules' to give, not a board's."""
    records = log(game)
    shuffle = first(records, ev.Shuffled).seq
    return with_setup(records, opening_end(records)), Expected("not-a-board", shuffle, "kind")


def setup_added_stacked(game: str) -> Forged:
    """setup=N over the deck lists only, and the shuffle stacked: the rules deal nothing after a given board,
    so the stacked shuffle is a record they do not give."""
    records = log(game)
    shuffle = first(records, ev.Shuffled)
    assert isinstance(shuffle.event, ev.Shuffled)
    stacked = replace(records, shuffle.seq, order=tuple(sorted(shuffle.event.order)))
    return with_setup(stacked, shuffle.seq - 1), Expected("divergent", shuffle.seq, "kind")


def envelope_changed(game: str, kind: type[ev.Event], field: str) -> Forged:
    records = log(game)
    r = first(records, kind, after=opening_end(records))
    return envelope(records, r.seq, **{field: getattr(r, field) + 1}), Expected("envelope", r.seq, field)


def started_changed(game: str, **change: str) -> Forged:
    records = log(game)
    return replace(records, 1, **change), Expected("version", 1, next(iter(change)))


def names_and_decks_swapped(game: str) -> Forged:
    """Names swapped and each player's deck list moved with them to the other seat: the deal is then the
    other seat's, and the rules part from the log at the first decision whose cards matter."""
    records = log(game)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    cards = [r.event for r in records if isinstance(r.event, ev.ObjectCreated)]
    decks = [[c for c in cards if c.owner == p] for p in (0, 1)]
    assert len(decks[0]) == len(decks[1])
    out = replace(records, 1, players=tuple(reversed(started.players)))
    for p, deck in enumerate(decks):
        for mine, theirs in zip(deck, decks[1 - p], strict=True):
            seq = next(r.seq for r in records if isinstance(r.event, ev.ObjectCreated) and r.event.obj == mine.obj)
            out = replace(out, seq, definition=theirs.definition, printed=theirs.printed)
    return out, Expected("divergent", opening_end(records) + 1, at_least=True)


def names_and_seats_swapped(game: str) -> Forged:
    """Names swapped and every decision moved to the other seat, so each person keeps their own decisions:
    the first one is not the other seat's to make."""
    records = log(game)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    out = replace(records, 1, players=tuple(reversed(started.players)))
    for r in records:
        if isinstance(r.event, ev.ChoiceMade):
            out = replace(out, r.seq, player=1 - r.event.player)
    return out, Expected("illegal", first(records, ev.ChoiceMade).seq, check="legality")


def shuffle_changed(game: str) -> Forged:
    records = log(game)
    r = first(records, ev.Shuffled)
    assert isinstance(r.event, ev.Shuffled)
    return replace(records, r.seq, order=tuple(reversed(r.event.order))), Expected("divergent", r.seq, "order")


def seed_changed(game: str) -> Forged:
    records = log(game)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    return (replace(records, 1, seed=started.seed + 1),
            Expected("divergent", first(records, ev.Shuffled).seq, "order"))


def simultaneous_reordered(game: str) -> Forged:
    """Two events the rules emit together (the same decision and cause, one kind) swapped in place."""
    records = log(game)
    a, b = next((a, b) for a, b in itertools.pairwise(records)
                if a.seq > opening_end(records) and type(a.event) is type(b.event)
                and (a.decision, a.cause) == (b.decision, b.cause) and a.event != b.event)
    out = change_event(change_event(records, a.seq, b.event), b.seq, a.event)
    return out, Expected("divergent", a.seq, _first_field(b.event, a.event))


def extra_choice(game: str) -> Forged:
    """A decision recorded twice: a copy of a ChoiceMade inserted after its consequences."""
    records = log(game)
    r = first(records, ev.ChoiceMade, after=len(records) // 2)
    at = first(records, ev.ChoiceMade, after=r.seq).seq - 1
    out = renumber([*records[:at], r, *records[at:]])
    return out, Expected("divergent", at + 1, "")


def missing_choice(game: str) -> Forged:
    """A decision's ChoiceMade taken out, its consequences left in place."""
    records = log(game)
    r = first(records, ev.ChoiceMade, after=len(records) // 2)
    return renumber([x for x in records if x.seq != r.seq]), Expected("divergent", r.seq, "record")


def missing_decision(game: str) -> Forged:
    """A whole decision taken out, its ChoiceMade and every consequence: here one player's pass, so the other
    passes twice in succession, a board no game has (the fold finds it before the rules run)."""
    records = log(game)
    r = first(records, ev.ChoiceMade, after=len(records) // 2)
    return removed_span(records, r.seq), impossible(r.seq + 1, "passes", "VOP-I-11")


def other_seat(game: str) -> Forged:
    records = log(game)
    r = first(records, ev.ChoiceMade, after=len(records) // 3)
    assert isinstance(r.event, ev.ChoiceMade)
    return replace(records, r.seq, player=1 - r.event.player), Expected("illegal", r.seq, check="legality")


def option_changed(game: str, key: str, value: str, at: Callable[[list[Record]], int]) -> Forged:
    records = log(game)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    options = tuple(sorted({**dict(started.options), key: value}.items()))
    return replace(records, 1, options=options), Expected("divergent", at(records), "")


def spliced(game: str) -> Forged:
    """A record of another game of the same decks (another seed) spliced in after the first decision."""
    records = log(game)
    other = played(game, 11, 20)
    alien = first(other, ev.PlayerStat, after=opening_end(other))
    at = first(records, ev.ChoiceMade).seq
    out = renumber([*records[:at], msgspec.structs.replace(alien, decision=records[at - 1].decision), *records[at:]])
    return out, Expected("divergent", at + 1, "")


def consequence_changed(game: str, kind: type[ev.Event], field: str) -> Forged:
    records = log(game)
    r = first(records, kind, after=opening_end(records))
    value = getattr(r.event, field)
    new = value + 3 if isinstance(value, int) else tuple(reversed(value)) if isinstance(value, tuple) else "x"
    return replace(records, r.seq, **{field: new}), Expected("divergent", r.seq, field)


def winner_changed(game: str) -> Forged:
    records = log(game)
    end = records[-1]
    assert isinstance(end.event, ev.GameEnded) and end.event.winner is not None
    return replace(records, end.seq, winner=1 - end.event.winner), Expected("divergent", end.seq, "winner")


def card_changed(game: str, field: str, change: Callable[[ev.ObjectCreated], object]) -> Forged:
    """One field of a card's ObjectCreated changed (``change`` gives the new value from the old event)."""
    records = log(game)
    r = unused_card(records)
    assert isinstance(r.event, ev.ObjectCreated)
    return replace(records, r.seq, **{field: change(r.event)}), Expected("divergent", r.seq, field)


def player_added(game: str) -> Forged:
    records = log(game)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    return replace(records, 1, players=(*started.players, "Mallory")), Expected("divergent", 1, "players")


# -- impossible boards: every record applies, but the board the rules wait on is none a game can be in --------


def impossible(seq: int, invariant: str, rule: str) -> Expected:
    return Expected("impossible", seq, check="fold", invariant=invariant, rule=rule)


def stat_set(game: str, key: str, value: int, invariant: str, rule: str) -> Forged:
    """A player's number set out of its range (a life total, evolve points, a charge count)."""
    records = log(game)
    r = first(records, ev.PlayerStat, after=opening_end(records),
              where=lambda e: isinstance(e, ev.PlayerStat) and e.key == key)
    return replace(records, r.seq, value=value), impossible(r.seq, invariant, rule)


def evolution_left_alone(game: str) -> Forged:
    """A creature that was put onto another (a NEO creature evolving) printed as an evolution creature, and the
    record that put the other under it replaced by a harmless one: an evolution creature stands in the battle
    zone with nothing under it from the move that put it there."""
    records = log(game)
    stacked = first(records, ev.Stacked, after=500)
    assert isinstance(stacked.event, ev.Stacked)
    entered = first(records, ev.ZoneChanged,
                    where=lambda e: isinstance(e, ev.ZoneChanged) and e.new == stacked.event.top)  # type: ignore[union-attr]
    assert isinstance(entered.event, ev.ZoneChanged)
    made = first(records, ev.ObjectCreated,
                 where=lambda e: isinstance(e, ev.ObjectCreated) and e.card == entered.event.card)  # type: ignore[union-attr]
    assert isinstance(made.event, ev.ObjectCreated)
    printed = msgspec.structs.replace(made.event.printed, types=("creature", "evolution"))
    out = change_event(replace(records, made.seq, printed=printed), stacked.seq, ev.RandomDrawn("nothing", 1, 0))
    return out, impossible(entered.seq, "evolution-under", "DM-GAME-EVOLVE")


def tapped_in_deck(game: str, rule: str) -> Forged:
    """A tap moved onto a card lying in its deck, where nothing is tapped."""
    records = log(game)
    r = first(records, ev.StatusSet, after=opening_end(records),
              where=lambda e: isinstance(e, ev.StatusSet) and e.key == "tapped" and e.value == 1)
    deck_card = unused_card(records).event
    assert isinstance(deck_card, ev.ObjectCreated)
    return replace(records, r.seq, obj=deck_card.obj), impossible(r.seq, "status-place", rule)


def stack_object_renamed(game: str) -> Forged:
    """A spell on the stack made to name another object as its card: a stack item for a spell that is not
    there, and a card on the stack that no spell is."""
    records = log(game)
    r = first(records, ev.EffectPending, after=opening_end(records),
              where=lambda e: isinstance(e, ev.EffectPending) and e.holder == "stack" and e.key[2] == -1)
    assert isinstance(r.event, ev.EffectPending)
    key = (r.event.key[0], r.event.key[1] + 1000, *r.event.key[2:])
    return replace(records, r.seq, key=key), impossible(r.seq, "stack-objects", "MTG-P-22")


def effect_held_elsewhere(game: str, holder: str, rule: str) -> Forged:
    """An effect put where no effect of the game waits (a chain link put in a pool)."""
    records = log(game)
    r = first(records, ev.EffectPending, after=opening_end(records))
    return replace(records, r.seq, holder=holder), impossible(r.seq, "holder", rule)


def moved_from_elsewhere(game: str) -> Forged:
    """A card moved out of a zone it is not in (it would lie in two zones): the fold refuses the record."""
    records = log(game)
    r = first(records, ev.ZoneChanged, after=opening_end(records))
    assert isinstance(r.event, ev.ZoneChanged)
    other = "1.graveyard" if r.event.src != "1.graveyard" else "0.graveyard"
    return replace(records, r.seq, src=other), Expected("inconsistent", r.seq, check="fold")


def event_cause_edited(game: str) -> Forged:
    """A ZoneChanged's own ``cause`` field (why the card moved) edited: an event field, not the envelope's."""
    records = log(game)
    r = first(records, ev.ZoneChanged, after=opening_end(records))
    return replace(records, r.seq, cause="edited"), Expected("divergent", r.seq, "cause")


def _last_loss(records: list[Record]) -> int:
    return first(records, ev.PlayerLost).seq


def _first_request(records: list[Record]) -> int:
    return first(records, ev.ChoiceRequested).seq


NAMES = {"duel_masters": "Duel Masters", "magic": "Magic", "vision": "Vision", "shadowverse": "Shadowverse"}

# Kinds added for #21, each tried on a log of every one of the four games.
NEW_KINDS: dict[str, Callable[[str], Forged | RawForged]] = {
    "a body's integer written in a wider msgpack form": int_widened,
    "2 KB of trailing elements after a decision's last field (a hidden channel)": trailing_channel,
    "a card's printed defaults spelled out in its body": lambda g: printed_respelled(
        g, power=None, toughness=None, keywords=[], abilities=[]),
    "a key no characteristic holds in a card's body": lambda g: printed_respelled(g, note="hidden"),
    "a game played on for 15 decisions past its published head": played_on_past_head,
    "a head taken from the middle of the log": head_from_the_middle,
    "a re-sealed forgery audited with the real game's head": head_of_the_real_game,
    "a branch point's envelope decision changed": lambda g: branch_point_envelope(g, "decision"),
    "a branch point's envelope cause changed": lambda g: branch_point_envelope(g, "cause"),
    "a ZoneChanged's own cause field edited": event_cause_edited,
}

CORPUS: dict[str, Callable[[], Forged | RawForged]] = {
    "cost lowered in ObjectCreated, then played on (Duel Masters)": lambda: played_on("duel_masters", "creature",
                                                                                    cost=1),
    "power raised in ObjectCreated, then played on (Magic)": lambda: played_on("magic", "creature", power=9),
    "cost lowered in ObjectCreated, then played on (Vision)": lambda: played_on("vision", "character", cost=0),
    "cost lowered in ObjectCreated, then played on (Shadowverse)": lambda: played_on("shadowverse", "follower",
                                                                                   cost=0),
    "printed name changed on a card never used": lambda: printed_changed_unused("duel_masters", name="偽物"),
    "printed power changed on a card never used": lambda: printed_changed_unused("shadowverse", power=99),
    "definition changed on a card never used": lambda: definition_changed_unused("vision"),
    "definition not in the card pool": lambda: definition_unknown("magic"),
    "setup=N added over a dealt opening": lambda: setup_added("duel_masters"),
    "setup=N added and the shuffle stacked": lambda: setup_added_stacked("shadowverse"),
    "envelope decision changed": lambda: envelope_changed("magic", ev.PlayerStat, "decision"),
    "envelope cause changed": lambda: envelope_changed("vision", ev.Triggered, "cause"),
    "envelope cause of a decision changed": lambda: envelope_changed("shadowverse", ev.ChoiceMade, "cause"),
    "card-pool digest changed": lambda: started_changed("duel_masters", card_pool_digest="0" * 32),
    "card-pool version changed": lambda: started_changed("shadowverse", card_pool_version="0.9"),
    "card-pool name changed": lambda: started_changed("magic", card_pool="magic-custom"),
    "players' names swapped with their decks": lambda: names_and_decks_swapped("vision"),
    "players' names swapped with their decisions": lambda: names_and_seats_swapped("shadowverse"),
    "a different shuffle (random result)": lambda: shuffle_changed("duel_masters"),
    "a different seed": lambda: seed_changed("magic"),
    "a group of simultaneous events reordered": lambda: simultaneous_reordered("vision"),
    "an extra choice": lambda: extra_choice("magic"),
    "a missing choice": lambda: missing_choice("duel_masters"),
    "a whole decision removed": lambda: missing_decision("vision"),
    "a decision moved to the other seat": lambda: other_seat("vision"),
    "option deck_out=off added": lambda: option_changed("duel_masters", "deck_out", "off", _last_loss),
    "option mulligan=off added": lambda: option_changed("shadowverse", "mulligan", "off", _first_request),
    "an event of another game spliced in": lambda: spliced("duel_masters"),
    "a life total changed": lambda: consequence_changed("magic", ev.PlayerStat, "value"),
    "a request's options changed": lambda: consequence_changed("vision", ev.ChoiceRequested, "options"),
    "the winner changed": lambda: winner_changed("shadowverse"),
    "a card created face up": lambda: card_changed("shadowverse", "face_down", lambda e: not e.face_down),
    "a card created at another position": lambda: card_changed("duel_masters", "position", lambda e: e.position + 1),
    "a card's number changed": lambda: card_changed("magic", "card", lambda e: e.card + 1000),
    "a player added": lambda: player_added("magic"),
    "a leader's defense set to 0, the game going on (Shadowverse)": lambda: stat_set(
        "shadowverse", "life", 0, "leader-alive", "SV-O-71"),
    "evolve points set above their range (Shadowverse)": lambda: stat_set(
        "shadowverse", "ep", 5, "stat-range", "SV-GAME-EVOLVE"),
    "damage on a player set to a lost game's, the game going on (Vision)": lambda: stat_set(
        "vision", "damage", 25, "life", "VOP-GAME-LIFE"),
    "a second node set in one turn (Vision)": lambda: stat_set("vision", "node_set", 2, "stat-range",
                                                               "VOP-GAME-NODE"),
    "a second charge in one turn (Duel Masters)": lambda: stat_set("duel_masters", "charged", 2, "stat-range",
                                                                   "DM-GAME-CHARGE"),
    "an evolution creature with nothing under it (Duel Masters)": lambda: evolution_left_alone("duel_masters"),
    "a spell on the stack naming an object that is not there (Magic)": lambda: stack_object_renamed("magic"),
    "a chain link held in a pool (Vision)": lambda: effect_held_elsewhere("vision", "pool", "VOP-I-13"),
    "maximum PP set above 10 (Shadowverse)": lambda: stat_set("shadowverse", "max_pp", 11, "stat-range", "SV-O-55"),
    "a card moved out of a zone it is not in (Magic)": lambda: moved_from_elsewhere("magic"),
    "a card in the deck tapped (Duel Masters)": lambda: tapped_in_deck("duel_masters", "DM-GAME-MANA"),
    "a card in the deck tapped (Magic)": lambda: tapped_in_deck("magic", "MTG-C-06"),
    **{f"{kind} ({NAMES[game]})": (lambda make=make, game=game: make(game))
       for kind, make in NEW_KINDS.items() for game in GAMES},
}


def audit(path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["audit", str(path), "--json", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.stdout)


def finding(report: dict[str, Any], check: str) -> dict[str, Any]:
    found = next(c for c in report["checks"] if c["check"] == check)
    assert found["status"] == "finding", found
    return dict(found["finding"])


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_each_forgery_is_caught_with_the_finding_a_judge_needs(name: str, tmp_path: Path) -> None:
    records, expected = CORPUS[name]()
    forged = tmp_path / "forged.jsonl"
    if isinstance(records[0], RawRecord):  # bodies the engine never wrote, every hash recomputed
        exchange.write(records, forged)  # type: ignore[arg-type]
    else:
        reseal(records, forged)  # type: ignore[arg-type]
    code, report = audit(forged, *expected.args)
    assert code == 1, report
    integrity = report["checks"][0]
    assert integrity["check"] == "integrity"
    if expected.check != "integrity":  # re-sealed: the chain holds
        assert integrity["status"] == "ok", integrity
    if "--head" in expected.args:  # a head that is not the log's end is a finding, and it stops nothing
        assert finding(report, "head")["kind"] in ("extended", "unmatched")
        assert not any("did not pass head" in c["summary"] for c in report["checks"]), report["checks"]
    assert report["clean"] is False
    got = finding(report, expected.check)
    assert got["kind"] == expected.kind, got
    assert got["seq"] >= expected.seq if expected.at_least else got["seq"] == expected.seq, got
    assert got["field"].startswith(expected.field), got
    if expected.invariant:  # an impossible board: the finding names the invariant and the rule that breaks
        assert (got["invariant"], got["rule"]) == (expected.invariant, expected.rule), got
        assert f"invariant {expected.invariant}" in got["message"], got
    if expected.field:
        assert expected.field.split(".")[0] in got["message"] or expected.field in json.dumps(got), got


def test_the_corpus_has_at_least_25_kinds_over_all_four_games() -> None:
    assert len(CORPUS) >= 25
    for game in ("Duel Masters", "Magic", "Vision", "Shadowverse"):
        assert any(game in name for name in CORPUS)


def test_a_log_cut_at_a_decision_boundary_is_caught_with_the_head(tmp_path: Path) -> None:
    records = log("magic")
    whole = reseal(records, tmp_path / "whole.jsonl")
    code, report = audit(whole)
    assert code == 0
    cut_at = first(records, ev.ChoiceMade, after=len(records) // 2).seq - 1  # the end of a decision
    cut = reseal(records[:cut_at], tmp_path / "cut.jsonl")
    code, report = audit(cut)  # unanchored, it chains and re-adjudicates: its completeness is unproven
    assert code == 0
    result = CliRunner().invoke(main, ["audit", str(cut)])
    assert "completeness is unproven: it does not end in GameEnded" in result.stdout.splitlines()[-1]
    code, report = audit(cut, "--head", report_head(whole))
    assert code == 1
    got = finding(report, "head")
    assert got["kind"] == "unmatched" and got["seq"] == cut_at, got
    assert report["anchored"] is False


def test_a_game_adjourned_at_a_published_head_and_played_on_is_caught_with_that_head(tmp_path: Path) -> None:
    # #21: the head published when the game was adjourned, then 15 more decisions in the file.
    records = log("magic")
    choices = [r.seq for r in records if isinstance(r.event, ev.ChoiceMade)]
    adjourned, played_to = choices[40] - 1, choices[55] - 1
    head = report_head(reseal(records[:adjourned], tmp_path / "adjourned.jsonl"))
    on = reseal(records[:played_to], tmp_path / "played-on.jsonl")
    code, report = audit(on, "--head", head)
    assert code == 1
    got = finding(report, "head")
    assert (got["kind"], got["seq"]) == ("extended", adjourned + 1), got
    assert [c["status"] for c in report["checks"]] == ["ok", "finding", "ok", "ok", "ok"]  # the rest still ran
    result = CliRunner().invoke(main, ["audit", str(on), "--head", head])
    assert "Its completeness is unproven" in result.stdout.splitlines()[-1]
    assert "the head you gave is not its end" in result.stdout.splitlines()[-1]
    result = CliRunner().invoke(main, ["import", str(on), "--db", str(tmp_path / "into.db"), "--head", head])
    assert result.exit_code == 1 and f"extended at record {adjourned + 1}" in result.stderr, result.output
    # and at the head it was adjourned at, the file's end is proven: no caveat
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "adjourned.jsonl"), "--head", head])
    assert result.exit_code == 0 and "completeness" not in result.stdout, result.stdout


def test_a_head_from_the_middle_of_a_whole_game_is_a_finding(tmp_path: Path) -> None:
    records = log("duel_masters")
    head = report_head(reseal(records[:601], tmp_path / "first-601.jsonl"))
    code, report = audit(reseal(records, tmp_path / "whole.jsonl"), "--head", head)
    assert code == 1
    got = finding(report, "head")
    assert (got["kind"], got["seq"]) == ("extended", 602), got
    assert f"is record 601's, but the log goes on for {len(records) - 601} records past it" in got["message"]


def test_a_head_that_matches_no_record_lets_every_other_check_show_its_findings() -> None:
    # #21: the re-sealed forgery in docs/examples, audited with the real game's head
    examples = Path(__file__).parents[2] / "docs" / "examples"
    real = report_head(examples / "disputed-game.jsonl")
    code, report = audit(examples / "disputed-game-forged.jsonl", "--head", real)
    assert code == 1
    assert finding(report, "head")["kind"] == "unmatched"
    assert finding(report, "rules")["seq"] == 173
    assert finding(report, "legality")["seq"] == 173
    assert next(c for c in report["checks"] if c["check"] == "fold")["status"] == "ok"


def report_head(path: Path) -> str:
    code, report = audit(path)
    assert code == 0
    return str(report["head"])


def test_a_whole_log_ends_the_game_and_says_nothing_of_completeness(tmp_path: Path) -> None:
    whole = reseal(log("vision"), tmp_path / "whole.jsonl")
    result = CliRunner().invoke(main, ["audit", str(whole)])
    assert result.exit_code == 0
    assert "completeness" not in result.stdout


def test_names_swapped_alone_are_an_input_only_a_signature_vouches_for(tmp_path: Path) -> None:
    # The players' names are an input: swapped alone, every record is still what the rules give for those
    # inputs. The audit cannot tell (no rules can); it says what it took as given.
    records = log("duel_masters")
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    swapped = reseal(replace(records, 1, players=tuple(reversed(started.players))), tmp_path / "swapped.jsonl")
    code, report = audit(swapped)
    assert code == 0
    rules = next(c for c in report["checks"] if c["check"] == "rules")
    note = "taken as given, as no rules can derive them: the players (Bob, Alice)"
    assert any(n.startswith(note) and "only a signature proves who recorded them" in n for n in rules["notes"])


def test_setup_added_is_caught_even_when_the_judge_accepts_given_set_ups(tmp_path: Path) -> None:
    for make in (setup_added, setup_added_stacked):
        records, expected = make("magic")
        forged = reseal(records, tmp_path / "forged.jsonl")
        code, report = audit(forged, "--given-setup-ok")
        assert code == 1
        got = finding(report, "rules")
        assert (got["kind"], got["seq"]) == (expected.kind, expected.seq)


def test_the_rules_version_is_the_log_s_and_a_pool_it_does_not_play_with_is_a_finding(tmp_path: Path) -> None:
    records = log("vision")
    rules = profile("vision", "1.0")
    assert records[0].event == msgspec.structs.replace(records[0].event, card_pool_digest=rules.pool.digest)
    forged = reseal(replace(records, 1, card_pool_digest="f" * 32), tmp_path / "forged.jsonl")
    result = CliRunner().invoke(main, ["audit", str(forged)])
    assert result.exit_code == 1
    assert "clean:" not in result.stdout
    assert "card_pool_digest" in result.stdout and rules.pool.digest in result.stdout
    result = CliRunner().invoke(main, ["verify", str(forged)])
    assert result.exit_code == 1
    assert "NOTE: the log's card_pool_digest is not the one its rules version plays with" in result.stdout


# -- a given set-up, honestly declared ----------------------------------------------------------------------


def given_log(path: Path, scenario: str, decisions: int = 6) -> tuple[Path, int]:
    """A game begun from a scenario's board (``Engine.from_setup``) and played on by bots, exported."""
    from eventsource import exchange
    from statemachine.bots import RandomBot
    from statemachine.scenario import Run, load

    run = Run(load(scenario), scenario)
    engine, bots = run.engine, [RandomBot(3), RandomBot(4)]
    for _ in range(decisions):
        legal = engine.legal()
        if legal.player is None:
            break
        engine.decide(bots[legal.player].choose(legal))
    raws = list(engine.store.read_raw(engine.game))
    exchange.write(raws, path)
    started = engine.store.read(engine.game, 1, 2)
    options = dict(next(iter(started)).event.options)  # type: ignore[attr-defined]
    return path, int(options["setup"])


SCENARIOS = Path(__file__).parents[1] / "scenarios"


PLACED = """game = "magic"
id = "placed"
[setup]
step = "main1"
stats = { "0.life" = 20, "1.life" = 20 }
cards = [{ handle = "artist", card = "blood_artist", zone = "battlefield" }]
effects = [{ source = "artist", ability = "creature_dies_drain", targets = ["player1"] }]
"""


@pytest.mark.parametrize("scenario", ["duel_masters/DM-LB-S01.toml", "duel_masters/DM-W-S01.toml",
                                      "vision/VOP-I-S06.toml", "placed"])  # (an effect placed waiting on a board)
def test_a_given_set_up_is_said_and_is_clean_only_when_the_judge_accepts_it(scenario: str, tmp_path: Path) -> None:
    if scenario == "placed":
        (tmp_path / "placed.toml").write_text(PLACED, encoding="utf-8")
    source = tmp_path / "placed.toml" if scenario == "placed" else SCENARIOS / scenario
    path, given = given_log(tmp_path / "given.jsonl", str(source))
    said = f"the board at record {given} was given, not dealt"
    code, report = audit(path)
    assert code == 1
    got = finding(report, "rules")
    assert (got["kind"], got["seq"], got["field"]) == ("given-setup", given, "options.setup")
    assert said in got["message"]
    for args, exit_code in (((), 1), (("--given-setup-ok",), 0)):
        result = CliRunner().invoke(main, ["audit", str(path), *args])
        assert result.exit_code == exit_code, result.stdout
        assert said[0].upper() + said[1:] in result.stdout.splitlines()[-1]  # in the summary, either way
        result = CliRunner().invoke(main, ["verify", str(path), *args])
        assert result.exit_code == exit_code, result.stdout
        assert f"GIVEN: {said}" in result.stdout and "SAME:" in result.stdout


def test_a_given_board_is_held_to_the_card_pool(tmp_path: Path) -> None:
    path, given = given_log(tmp_path / "given.jsonl", str(SCENARIOS / "duel_masters/DM-W-S01.toml"))
    records = records_of(path)
    card = first(records, ev.ObjectCreated)
    assert isinstance(card.event, ev.ObjectCreated) and card.seq <= given
    cost = (card.event.printed.cost or 0) + 2
    forged = reseal(replace(records, card.seq, printed=msgspec.structs.replace(card.event.printed, cost=cost)),
                    tmp_path / "forged.jsonl")
    code, report = audit(forged, "--given-setup-ok")
    assert code == 1
    got = finding(report, "rules")
    assert (got["kind"], got["seq"], got["field"]) == ("card", card.seq, "printed.cost")


# -- #21: what a finding is called, and what a fork's copied part proves ---------------------------------------


def test_an_event_field_edited_is_named_as_that_event_s_field_not_as_the_envelope(tmp_path: Path) -> None:
    records, expected = event_cause_edited("duel_masters")
    code, report = audit(reseal(records, tmp_path / "forged.jsonl"))
    assert code == 1
    got = finding(report, "rules")
    assert (got["kind"], got["seq"], got["field"]) == ("divergent", expected.seq, "cause"), got
    assert "the event field ZoneChanged.cause differs" in got["message"]
    assert "envelope" not in got["message"]
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "forged.jsonl")])
    assert "divergent: ZoneChanged.cause differs" in result.stdout, result.stdout
    # while the envelope's own cause, edited, is the envelope's
    records, expected = envelope_changed("duel_masters", ev.ZoneChanged, "cause")
    code, report = audit(reseal(records, tmp_path / "envelope.jsonl"))
    got = finding(report, "rules")
    assert (got["kind"], got["seq"], got["field"]) == ("envelope", expected.seq, "cause"), got
    assert "the envelope's cause is" in got["message"]


def _prefix_renamed(game: str) -> list[Record]:
    """A fork whose copied part has the players' names swapped (an input no rules can check) and its branch
    point's head recomputed over the changed part, as a forger would."""
    records = forked(game)
    mark = first(records, ev.Forked)
    assert isinstance(mark.event, ev.Forked)
    started = records[0].event
    assert isinstance(started, ev.GameStarted)
    changed = replace(records, 1, players=tuple(reversed(started.players)))
    head = raws_of([msgspec.structs.replace(r, game=mark.event.source) for r in changed[: mark.seq - 1]])[-1].hash
    return replace(changed, mark.seq, head=head.hex())


@pytest.mark.parametrize("game", GAMES)
def test_a_fork_s_copied_part_is_not_said_to_be_the_source_s_without_the_source(game: str, tmp_path: Path) -> None:
    forged = reseal(_prefix_renamed(game), tmp_path / "fork.jsonl")
    code, report = audit(forged)
    assert code == 0  # re-chained to the head it names, and every record what the rules give: nothing to find
    fork = next(c for c in report["checks"] if c["check"] == "fork")
    at = first(_prefix_renamed(game), ev.Forked).seq - 1
    assert f"records 1 to {at} are the source's" not in fork["summary"]
    assert "cannot be proven without the source" in fork["summary"]
    result = CliRunner().invoke(main, ["audit", str(forged)])
    assert "cannot be proven without the source" in result.stdout.splitlines()[-1]
    # given the source, the copied part is compared with it
    source = FIXTURES / f"{game}-1.0.jsonl"
    code, report = audit(forged, "--source", str(source))
    assert code == 1
    got = finding(report, "fork")
    assert got["kind"] == "source-differs" and "in the source given has hash" in got["message"], got
    honest_file = reseal(forked(game), tmp_path / "honest-file.jsonl")
    code, report = audit(honest_file, "--source", str(source))
    assert code == 0
    fork = next(c for c in report["checks"] if c["check"] == "fork")
    assert f"records 1 to {at} are the source's" in fork["summary"]
    assert any("is in the source given and has the same hash" in n for n in fork["notes"])
    # and so it is with the source in the same store
    db = tmp_path / "store.db"
    for path in (source, forged):
        assert CliRunner().invoke(main, ["import", str(path), "--db", str(db)]).exit_code == 0
    code, report = audit(db, "what-if")
    assert code == 1
    assert finding(report, "fork")["kind"] == "source-differs"
    assert CliRunner().invoke(main, ["audit", str(db), "what-if"]).exit_code == 1
    # and a fork that is its source's, audited beside it, is said to be
    honest = reseal(forked(game), tmp_path / "honest.jsonl")
    db2 = tmp_path / "honest.db"
    for path in (source, honest):
        assert CliRunner().invoke(main, ["import", str(path), "--db", str(db2)]).exit_code == 0
    code, report = audit(db2, "what-if")
    assert code == 0
    assert f"records 1 to {at} are the source's" in next(c for c in report["checks"] if c["check"] == "fork")["summary"]
