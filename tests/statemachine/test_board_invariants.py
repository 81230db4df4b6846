"""Board invariants (``projections.invariants``, each game's ``invariants.py``): every invariant of every game
catches a board built to break it. That random playouts of every game keep them is in the conformance battery
(``tests/test_conformance.py``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from eventsource.memory import MemoryStore
from projections.invariants import Breach, Guard, ImpossibleBoard, breaches
from projections.state import GameState, Modifier, Pending, copy
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile_class
from tests.registry import NAMES as GAMES
from tools.cli import main

SCENARIOS = Path(__file__).parents[1] / "scenarios"


# -- every invariant can fail: a real board of each game, broken one way per invariant -------------------------


def real_board(game: str, decisions: int = 40) -> GameState:
    """The board of a sample game after ``decisions`` bot decisions: the first seed from 3 whose game is still on
    there with cards in player 0's hand and deck (the boards below break those)."""
    demo = importlib.import_module(f"{PROFILES[game][0]}.demo")
    for seed in range(3, 13):
        rules, players, decks = demo.sample_game(seed)
        engine = Engine.new(rules, players, decks, seed, store=MemoryStore())
        chooser = [RandomBot(3), RandomBot(4)]
        for _ in range(decisions):
            legal = engine.legal()
            if legal.player is None:
                break
            engine.decide(chooser[legal.player].choose(legal))
        st = engine.state
        if not st.ended and st.zones.get("0.hand") and st.zones.get("0.deck"):
            return copy(st)
    raise AssertionError(f"every {game} sample game ended within {decisions} decisions")


def in_zone(state: GameState, kind: str, player: int = 0) -> int:
    return state.zones[f"{player}.{kind}"][0]


def put(state: GameState, oid: int, zone: str) -> None:
    """Move an object as the fold would, without the rules: off its list, onto another."""
    obj = state.objects[oid]
    state.zones[obj.zone].remove(oid)
    state.zones.setdefault(zone, []).append(oid)
    obj.zone = zone


def waiting(state: GameState, holder: str, source: int, key: tuple[int, ...] = ()) -> int:
    eid = state.next_effect
    card = state.objects[source].card if source in state.objects else -1
    state.pending[eid] = Pending(eid, "x", 0, source, card, 0, "after", state.seq, holder=holder, label="x", key=key)
    state.next_effect += 1
    return eid


HOLDER = {"duel_masters": "pool", "magic": "stack", "vision": "chain", "shadowverse": "queue"}
HAND_STATUS = {"duel_masters": "tapped", "magic": "tapped", "vision": "tapped", "shadowverse": "damage"}
BAD_STAT = {"duel_masters": ("charged", 2), "magic": ("mana.G", -1), "vision": ("node_set", 2),
            "shadowverse": ("ep", 4)}
Breaker = Callable[[str, GameState], None]


def _two_zones(game: str, s: GameState) -> None:
    s.zones["0.hand"].append(in_zone(s, "deck"))  # a card in the deck, listed in the hand too


def _under_but_elsewhere(game: str, s: GameState) -> None:
    s.objects[in_zone(s, "hand")].under.append(in_zone(s, "deck"))


def _pending_from_nothing(game: str, s: GameState) -> None:
    waiting(s, HOLDER[game], 10**6)


def _modifier_on_nothing(game: str, s: GameState) -> None:
    s.modifiers[s.next_effect] = Modifier(s.next_effect, -1, "power", 10**6, 1000, "", "end_of_turn", s.seq)
    s.next_effect += 1


def _stack_spell_of_nothing(game: str, s: GameState) -> None:
    put(s, in_zone(s, "hand"), "stack")  # a card on the stack that no spell is


def _chain_card_of_nothing(game: str, s: GameState) -> None:
    put(s, in_zone(s, "hand"), "chain")


def _evolution_alone(game: str, s: GameState) -> None:
    oid = in_zone(s, "deck")
    put(s, oid, "0.battle")
    facts = s.cards[s.objects[oid].card]
    printed = msgspec.structs.replace(facts.printed, types=("creature", "evolution"))
    s.cards[s.objects[oid].card] = msgspec.structs.replace(facts, printed=printed)


def _field_of_six(game: str, s: GameState) -> None:
    for oid in list(s.zones["0.deck"][: 6 - len(s.zones.get("0.field", []))]):
        put(s, oid, "0.field")


def _same_queue_place(game: str, s: GameState) -> None:
    src = in_zone(s, "hand")
    waiting(s, "queue", src, (1, 0))
    waiting(s, "queue", src, (1, 0))


def _waits_nowhere(s: GameState) -> None:
    waiting(s, "nowhere", in_zone(s, "hand"))


def _set_stat(key: str, value: int, player: int = 0) -> Breaker:
    def breaker(game: str, s: GameState) -> None:
        s.players[player].stats[key] = value

    return breaker


BREAKERS: dict[str, Breaker] = {
    "one-zone": _two_zones,
    "under": _under_but_elsewhere,
    "pending-live": _pending_from_nothing,
    "turn": lambda game, s: setattr(s, "active", 2),
    "modifier-target": _modifier_on_nothing,
    "known-zone": lambda game, s: put(s, in_zone(s, "hand"), "0.nowhere"),
    "holder": lambda game, s: _waits_nowhere(s),
    "step": lambda game, s: setattr(s, "step", "nap"),
    "stat-range": lambda game, s: _set_stat(*BAD_STAT[game])(game, s),
    "status-place": lambda game, s: s.objects[in_zone(s, "hand")].status.__setitem__(HAND_STATUS[game], 1),
    "evolution-under": _evolution_alone,
    "stack-objects": _stack_spell_of_nothing,
    "chain-links": _chain_card_of_nothing,
    "life": _set_stat("damage", 20, 1),
    "zone-size": _field_of_six,
    "leader-alive": _set_stat("life", 0, 1),
    "queue-order": _same_queue_place,
    "passes": lambda game, s: setattr(s, "passes", [0, 1, 0]),
    "game-over": lambda game, s: _ended_before(s),
}


def _ended_before(s: GameState) -> None:
    """The game ended two records ago, and one more record followed it (KIFU-END)."""
    s.ended, s.ended_at = True, s.seq - 1


@pytest.mark.parametrize(("game", "name"), [(g, i.name) for g in GAMES for i in profile_class(g).invariants()])
def test_each_invariant_catches_a_board_built_to_break_it(game: str, name: str) -> None:
    board = real_board(game)
    rules = profile_class(game).invariants()
    assert breaches(board, rules) == [], "the real board is possible"
    BREAKERS[name](game, board)
    found = breaches(board, rules)
    assert name in {b.invariant for b in found}, found
    mine = next(b for b in found if b.invariant == name)
    assert mine.rule and mine.message and name in str(mine) and mine.rule in str(mine)


def test_every_game_declares_its_own_invariants_with_rule_ids() -> None:
    kernel = {"one-zone", "under", "pending-live", "turn", "modifier-target", "game-over", "known-zone", "holder",
              "step"}
    for game in GAMES:
        checks = profile_class(game).invariants()
        names = {c.name for c in checks}
        assert kernel <= names and len(names) > len(kernel) + 1, (game, names)
        assert all(c.rule and c.says for c in checks)
    assert "evolution-under" in {c.name for c in profile_class("duel_masters").invariants()}
    assert "zone-size" in {c.name for c in profile_class("shadowverse").invariants()}


def test_a_breach_names_the_invariant_its_rule_and_the_objects() -> None:
    board = real_board("shadowverse")
    _field_of_six("shadowverse", board)
    found = [b for b in breaches(board, profile_class("shadowverse").invariants()) if b.invariant == "zone-size"]
    assert found == [Breach("zone-size", "SV-GAME-PLAY", tuple(board.zones["0.field"]),
                            "0.field holds 6 objects, more than 5")]
    assert str(found[0]) == "invariant zone-size [SV-GAME-PLAY]: 0.field holds 6 objects, more than 5"


def test_the_guard_refuses_the_board_a_decision_began_on_naming_the_record() -> None:
    board = real_board("magic", 10)
    _stack_spell_of_nothing("magic", board)
    guard = Guard(lambda name: profile_class(name).invariants())
    guard.before(board, board.decision)  # the same decision goes on: nothing checked yet
    with pytest.raises(ImpossibleBoard, match=rf"record {board.seq}: the board after it is impossible: "
                       r"invariant stack-objects \[MTG-P-22\]: object \d+ lies on the stack") as caught:
        guard.before(board, board.decision + 1)
    assert caught.value.seq == board.seq and caught.value.breach.invariant == "stack-objects"


@pytest.mark.parametrize(("scenario", "handle", "rule"), [
    ("duel_masters/DM-W-S01.toml", "spark", "DM-GAME-MANA"),
    ("magic/MTG-AMT-S01.toml", "plow", "MTG-C-06"),
])
def test_a_scenario_that_sets_up_an_impossible_board_is_refused_naming_the_invariant(
        scenario: str, handle: str, rule: str, tmp_path: Path) -> None:
    """A judge's reconstruction is held to the same board invariants: a card in the hand set up tapped is no
    board of the game, refused before anything is played (exit 2), naming the invariant and its rule."""
    source = (SCENARIOS / scenario).read_text(encoding="utf-8")
    card = f'{{ handle = "{handle}",'
    line = next(x for x in source.splitlines() if card in x and 'zone = "hand" }' in x)
    broken = tmp_path / Path(scenario).name
    broken.write_text(source.replace(line, line.replace('zone = "hand" }', 'zone = "hand", tapped = true }')),
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(broken)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"invariant status-place [{rule}]" in result.output and "in 0.hand is marked tapped" in result.output
