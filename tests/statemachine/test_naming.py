"""Names beside ids (``statemachine.naming``): the request a player must answer and the refusal of a decision
name every id they hold — an object by its card's name (``灰色熊#12``), a pending effect by its label and source,
a player by name — in all four games; as a player sees it, an object hidden from them keeps its bare id.

Each case is a board set up by a scenario ``Run``; what is asserted is the card names and labels the card files
give those cards, beside the ids the engine gave them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from statemachine.decisions import Decision, IllegalDecision
from statemachine.games import PROFILES, profile_class
from statemachine.naming import ARG_KINDS, Names
from statemachine.scenario import Run, Scenario
from statemachine.scenario.model import Failure


def board(game: str, setup: dict[str, Any], steps: Sequence[tuple[int, str, tuple[Any, ...]]] = ()) -> Run:
    run = Run(msgspec.convert({"id": "test", "game": game, "setup": setup}, Scenario), "<test>")
    for player, action, args in steps:
        run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))
    return run


def refusal(run: Run, player: int, action: str, *args: Any) -> IllegalDecision:
    seq = run.engine.state.seq
    with pytest.raises(IllegalDecision) as refused:
        run.engine.decide(Decision(player, action, tuple(run.arg(a) for a in args)))
    assert run.engine.state.seq == seq  # a refusal appends nothing, named or not
    return refused.value


def options(run: Run, viewer: int | None = None) -> list[str]:
    req = run.engine.request
    assert req is not None
    return run.engine.names(viewer).options(req.kind, req.options)


# -- Duel Masters -------------------------------------------------------------------------------------------

DM_PENDING = [{"handle": "rias", "card": "mist_rias", "zone": "battle"},
              {"handle": "hulcus", "card": "aqua_hulcus", "zone": "hand"},
              *[{"card": "aqua_hulcus", "zone": "mana"} for _ in range(3)],
              *[{"card": "bronze_arm_tribe", "owner": p, "zone": "deck"} for p in (0, 1) for _ in range(3)]]


def test_duel_masters_the_pool_asks_by_label_and_source_and_a_wrong_pick_is_refused_naming_it() -> None:
    """DM-W-09: which of two pending draws resolves next; the options are effects, named by their labels."""
    run = board("duel_masters", {"turn": 5, "step": "main", "cards": DM_PENDING}, [(0, "summon", ("@hulcus",))])
    rias, hulcus = run.obj("rias"), run.obj("hulcus")
    by_source = {p.source: p.effect for p in run.engine.state.pending.values()}
    assert sorted(options(run)) == sorted([f"#{by_source[rias]} 1ドロー from 雷鳴の守護者ミスト・リエス#{rias}",
                                           f"#{by_source[hulcus]} 1ドロー from アクア・ハルカス#{hulcus}"])
    refused = refusal(run, 1, "resolve", by_source[hulcus])  # not player 1's to pick
    assert str(refused).startswith(f"illegal decision P1 resolve {by_source[hulcus]} "
                                   f"(#{by_source[hulcus]} 1ドロー from アクア・ハルカス#{hulcus}): ")
    assert refused.named == (f"P1 resolve {by_source[hulcus]} "
                             f"(#{by_source[hulcus]} 1ドロー from アクア・ハルカス#{hulcus})")


DM_ATTACK = [{"handle": "atk", "card": "bronze_arm_tribe", "owner": 0, "zone": "battle"},
             {"handle": "s1", "card": "bolshack_dragon", "owner": 1, "zone": "shields"},
             {"handle": "s2", "card": "aqua_hulcus", "owner": 1, "zone": "shields"},
             {"handle": "hand1", "card": "mist_rias", "owner": 1, "zone": "hand"},
             *[{"card": "bronze_arm_tribe", "owner": p, "zone": "deck"} for p in (0, 1) for _ in range(3)]]


def test_duel_masters_face_down_shields_are_named_for_the_judge_only() -> None:
    """Breaking one of two shields: the attacker chooses among face-down cards. A judge's names show what they
    are; the attacker's (and even their owner's) show bare ids, and so does the refusal of a wrong answer."""
    run = board("duel_masters", {"turn": 5, "step": "attack", "cards": DM_ATTACK}, [(0, "attack", ("@atk", "player"))])
    s1, s2 = run.obj("s1"), run.obj("s2")
    assert run.engine.request is not None and run.engine.request.kind == "shields"
    assert sorted(options(run)) == sorted([f"ボルシャック・ドラゴン#{s1}", f"アクア・ハルカス#{s2}"])
    assert sorted(options(run, 0)) == sorted([f"#{s1}", f"#{s2}"])
    assert sorted(options(run, 1)) == sorted([f"#{s1}", f"#{s2}"])
    refused = refusal(run, 0, "choose", s1, s2)  # one shield, not two
    assert refused.named == f"P0 choose {s1} {s2}"
    assert "ボルシャック" not in str(refused) and "ハルカス" not in str(refused)
    assert re.search(rf"of \[#{min(s1, s2)}, #{max(s1, s2)}\]|of \[#{max(s1, s2)}, #{min(s1, s2)}\]", str(refused))
    # the hand card the opponent holds: named for its owner, not for the attacker
    hand1 = run.obj("hand1")
    assert run.engine.names(1).obj(hand1) == f"雷鳴の守護者ミスト・リエス#{hand1}"
    assert run.engine.names(0).obj(hand1) == f"#{hand1}"


# -- Magic --------------------------------------------------------------------------------------------------

MTG_BASE = {"turn": 3, "active": 0, "step": "main1", "stats": {"0.life": 20, "1.life": 20}}
MTG_DELUGE = [{"handle": "artist", "card": "blood_artist", "zone": "battlefield"},
              {"handle": "b1", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
              {"handle": "deluge", "card": "toxic_deluge", "zone": "hand"},
              *[{"card": "swamp", "zone": "battlefield"} for _ in range(3)]]
DRAIN = "対象のプレイヤーは1点のライフを失い、あなたは1点のライフを得る"


def test_magic_waiting_triggers_are_ordered_by_their_labels() -> None:
    """MTG-P-20: two Blood Artist triggers wait (MTG-P-08, recorded with no label yet); the order request
    names each by the ability's label and its source, read back as it last existed (it died)."""
    run = board("magic", {**MTG_BASE, "cards": MTG_DELUGE},
                [(0, "cast", ("@deluge",)), (0, "choose", (2,)), (0, "mana", ("auto",)), (0, "pass", ()),
                 (1, "pass", ())])
    req = run.engine.request
    assert req is not None and req.kind == "stack_order"
    artist = next(p.source for p in run.engine.state.pending.values())
    waiting = sorted(p.effect for p in run.engine.state.pending.values() if p.holder == "")
    assert len(waiting) == 2 and all(not run.engine.state.pending[e].label for e in waiting)
    assert sorted(options(run)) == [f"#{e} {DRAIN} from 血の芸術家#{artist}" for e in waiting]
    refused = refusal(run, 0, "choose", waiting[0] + 100)
    assert f"are not among the options [#{waiting[0]} {DRAIN} from 血の芸術家#{artist}, " in str(refused)


def test_magic_a_target_request_names_creatures_and_players() -> None:
    """A Shock's target: any creature or player (players as ``-1 - player``), named; casting a land is refused
    naming the land."""
    run = board("magic", {**MTG_BASE, "cards": [
        {"handle": "shock", "card": "shock", "zone": "hand"},
        {"handle": "bears", "card": "grizzly_bears", "owner": 1, "zone": "battlefield"},
        {"handle": "m", "card": "mountain", "zone": "battlefield"}]}, [(0, "cast", ("@shock",))])
    bears = run.obj("bears")
    assert sorted(options(run)) == sorted([f"灰色熊#{bears}", "you (-1)", "opponent (-2)"])
    refused = refusal(run, 1, "cast", "@m")
    assert refused.named == f"P1 cast {run.obj('m')} (山#{run.obj('m')})"


# -- Vision of Phantasm -------------------------------------------------------------------------------------

VOP_CARDS = [{"handle": "x", "card": "miko_apprentice", "owner": 0, "zone": "hand"},
             {"handle": "q", "card": "tea_break", "owner": 0, "zone": "hand"},
             {"handle": "guard", "card": "youkai_guard", "owner": 0, "zone": "field"},
             *[{"card": "kedama", "owner": 0, "zone": "node"} for _ in range(3)],
             {"card": "kedama", "owner": 0, "zone": "deck"},
             {"handle": "p", "card": "danmaku", "owner": 1, "zone": "hand"},
             {"handle": "k", "card": "kedama", "owner": 1, "zone": "field"},
             *[{"card": "kedama", "owner": 1, "zone": "node"} for _ in range(2)]]


def test_vision_a_target_request_and_refusals_name_what_each_player_may_know() -> None:
    """VOP-I-10: after A announces 見習い巫女, B holds priority. A playing お茶会 now is refused naming A's own
    card; A naming B's hand card is refused naming nothing; B's 弾幕 asks for its target, named."""
    run = board("vision", {"turn": 3, "active": 0, "step": "main", "cards": VOP_CARDS}, [(0, "play", ("@x",))])
    q, p = run.obj("q"), run.obj("p")
    refused = refusal(run, 0, "play", q)
    assert refused.rule == "VOP-I-10" and refused.named == f"P0 play {q} (お茶会#{q})"
    peek = refusal(run, 0, "play", p)
    assert peek.named == f"P0 play {p}" and "弾幕" not in str(peek)
    run.engine.decide(Decision(1, "play", (p,)))
    guard, k = run.obj("guard"), run.obj("k")
    assert sorted(options(run, 1)) == sorted([f"妖怪の門番#{guard}", f"毛玉#{k}"])


# -- Shadowverse --------------------------------------------------------------------------------------------


def test_shadowverse_a_fanfare_target_is_named_and_a_wrong_one_refused_naming_both() -> None:
    """SV-O-32's board: ミュニエ's Fanfare asks for a target (ユリウス); choosing ミュニエ herself is refused,
    the refusal naming her and the options."""
    run = board("shadowverse", {"turn": 5, "active": 0, "step": "main",
                                "stats": {"0.life": 20, "1.life": 20, "0.max_pp": 3, "0.pp": 3},
                                "cards": [{"handle": "munier", "card": "munier", "zone": "hand"},
                                          {"handle": "julius", "card": "julius", "owner": 1, "zone": "field"}]},
                [(0, "play", ("@munier",))])
    julius, munier = run.obj("julius"), run.obj("munier")
    assert options(run) == [f"ユリウス#{julius}"] == options(run, 0)
    refused = refusal(run, 0, "choose", munier)
    assert refused.named == f"P0 choose {munier} (ミュニエ#{munier})"
    assert f"[ミュニエ#{munier}] are not among the options [ユリウス#{julius}]" in str(refused)


def test_without_a_game_every_integer_is_an_object_and_strings_are_shown_as_given() -> None:
    run = board("shadowverse", {"turn": 5, "active": 0, "step": "main",
                                "cards": [{"handle": "julius", "card": "julius", "owner": 1, "zone": "field"}]})
    julius = run.obj("julius")
    names = Names(run.engine.state)
    assert names.args("attack", (julius, "leader", 999, -2)) == [f"ユリウス#{julius}", "leader", "#999",
                                                                 "opponent (-2)"]
    assert names.decision(Decision(0, "attack", (julius, "leader"))) == f"P0 attack {julius} leader (ユリウス#{julius})"


# -- scenario failures ----------------------------------------------------------------------------------------


def failure(game: str, setup: dict[str, Any], steps: list[dict[str, Any]]) -> tuple[Run, str]:
    run = Run(msgspec.convert({"id": "test", "game": game, "setup": setup, "steps": steps}, Scenario), "<test>")
    with pytest.raises(Failure) as failed:
        run.run()
    return run, str(failed.value)


SV_SETUP = {"turn": 5, "active": 0, "step": "main", "stats": {"0.life": 20, "1.life": 20, "0.max_pp": 3, "0.pp": 3},
            "cards": [{"handle": "munier", "card": "munier", "zone": "hand"},
                      {"handle": "julius", "card": "julius", "owner": 1, "zone": "field"}]}


def test_a_scenario_failure_names_the_options_and_the_rejected_decision_by_handle() -> None:
    """What a scenario's author reads when a step fails: handles beside ids, never bare ids."""
    run, text = failure("shadowverse", SV_SETUP, [
        {"do": {"player": 0, "action": "play", "args": ["@munier"]},
         "expect": {"request": {"options": ["@munier"]}}}])
    julius, munier = run.obj("julius"), run.obj("munier")
    assert f"request options are [@julius (#{julius})], expected [@munier (#{munier})]" in text
    assert f"waiting for: 0 to target among [@julius (#{julius})]" in text
    run, text = failure("shadowverse", SV_SETUP, [
        {"do": {"player": 0, "action": "play", "args": ["@munier"]}},
        {"do": {"player": 0, "action": "choose", "args": ["@munier"]}}])
    julius, munier = run.obj("julius"), run.obj("munier")
    assert (f"decision P0 choose {munier} (@munier (#{munier})) was rejected: [ミュニエ#{munier}] are not among "
            f"the options [ユリウス#{julius}] [SV-O-35]") in text


def test_a_duel_masters_scenario_failure_names_a_wrong_rejection_by_handle() -> None:
    run, text = failure("duel_masters", {"turn": 5, "step": "main", "cards": DM_PENDING}, [
        {"do": {"player": 0, "action": "summon", "args": ["@hulcus"]}},
        {"do": {"player": 1, "action": "resolve", "args": ["!hulcus"]}, "reject": "DM-W-99"}])
    hulcus = run.obj("hulcus")
    effect = next(p.effect for p in run.engine.state.pending.values() if p.source == hulcus)
    assert f"decision P1 resolve {effect} (#{effect} 1ドロー from @hulcus (#{hulcus})) was rejected naming " in text
    assert ", expected DM-W-99: " in text


@pytest.mark.parametrize("game", sorted(PROFILES))
def test_every_game_declares_only_kinds_names_know(game: str) -> None:
    cls = profile_class(game)
    for action, kinds in cls.action_args.items():
        assert action in cls.decisions and kinds and set(kinds) <= set(ARG_KINDS), (game, action, kinds)
    assert set(cls.option_kinds.values()) <= set(ARG_KINDS), game
