"""Determinization (tools.ai.resample): a re-drawn game the player cannot tell from the real one, its hidden
cards dealt again consistently with what the player has seen."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from pathlib import Path

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from projections.state import GameState, snapshot
from projections.views import can_see
from statemachine.games import profile
from statemachine.scenario.run import load
from statemachine.scenario.setup import Board
from tests.properties import SOAK, examples
from tests.registry import NAMES as GAMES
from tools.ai.match import Match
from tools.ai.resample import resample


def definitions_by_owner(state: GameState) -> Counter[tuple[int, str]]:
    return Counter((f.owner, f.definition) for f in state.cards.values())


@settings(max_examples=examples(20), deadline=None, derandomize=not SOAK, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 140), st.integers(0, 1))
def test_a_resampled_game_looks_the_same_to_the_player(game: str, seed: int, steps: int, player: int) -> None:
    m, rng = Match.new(game, seed % 50), random.Random(seed)
    for _ in range(steps):
        if m.ended:
            break
        m.apply(rng.choice(m.legal_actions()))
    real = snapshot(m.engine.state)
    hidden = m.engine.profile.hidden_zones
    for k in range(3):
        r = resample(m, player, random.Random(seed * 7 + k))
        assert r.information_state(player) == m.information_state(player)
        assert r.view(player) == m.view(player)
        if m.current_player() == player:
            assert r.legal_actions() == m.legal_actions()
        a, b = m.engine.state, r.engine.state
        for oid, obj in a.objects.items():
            # What the player sees, or saw go where they cannot see it, is what it was, where it was; only a
            # card shuffled into a zone since may lie anywhere among the cards shuffled with it.
            if can_see(a, player, oid, hidden=hidden) or oid in m.sight.known[player]:
                assert b.objects[oid].zone == obj.zone and b.facts(oid) == a.facts(oid)
                if obj.zone in a.zones and oid not in m.sight.unordered.get(obj.zone, ()):
                    assert b.zone(obj.zone).index(oid) == a.zone(obj.zone).index(oid)
        assert definitions_by_owner(b) == definitions_by_owner(a)  # the same cards, dealt again
        back = pickle.loads(pickle.dumps(r))
        assert snapshot(back.engine.state) == snapshot(r.engine.state)
        assert back.information_state(player) == r.information_state(player)
        for _ in range(5):  # the re-drawn world plays on
            if r.ended:
                break
            r.apply(rng.choice(r.legal_actions()))
    assert snapshot(m.engine.state) == real  # and the real game is untouched


BOARD = """
id = "LOOK"
game = "duel_masters"
title = "Wisdom-Feus looks at the top five and puts them on the bottom"
seed = 5
[setup]
turn = 5
active = 0
step = "main"
cards = [
  { handle = "feus", card = "wisdom_feus", zone = "hand" },
  %s
]
"""


def _cards() -> str:
    rows = [f'{{ card = "mist_rias", zone = "mana", handle = "m{i}" }}' for i in range(7)]
    rows += [f'{{ card = "{c}", zone = "deck", handle = "top{i}" }}' for i, c in
             enumerate(["bronze_arm_tribe", "creature_a", "magnum", "bolshack_dragon", "raiya"])]
    rows += [f'{{ card = "{c}", zone = "deck" }}' for c in ["mist_rias", "pig_creature", "hikou_otoko"] * 4]
    rows += ['{ card = "light_blocker", zone = "shields" }'] * 5
    rows += [f'{{ card = "{c}", zone = "{z}", owner = 1 }}' for z, cs in
             (("hand", ["magnum", "raiya", "red_zone"]), ("deck", ["mackallan", "fire_command"] * 4),
              ("shields", ["creature_a"] * 5)) for c in cs]
    return ",\n  ".join(rows)


def _looked(tmp_path: Path) -> Match:
    """Player 0's Wisdom-Feus has looked at the top five of their deck and put them on the bottom."""
    path = tmp_path / "LOOK.toml"
    path.write_text(BOARD % _cards(), encoding="utf-8")
    sc = load(path)
    prof = profile("duel_masters")
    m = Match.from_setup(prof, Board(sc, str(path), prof, prof.pool).events)
    st = m.engine.state
    feus = next(o for o in st.zone("0.hand") if st.facts(o).definition == "wisdom_feus")
    m.apply(m.numbering.encode(m.engine, m.legal().decisions[[d.args for d in m.legal().decisions].index((feus,))]))
    while not any(r.event.cause == "to_bottom" for r in m.store.read("g") if hasattr(r.event, "cause")):
        m.apply(m.legal_actions()[0])
    return m


def test_cards_seen_going_to_the_bottom_stay_there_and_the_rest_is_dealt_uniformly(tmp_path: Path) -> None:
    m = _looked(tmp_path)
    st = m.engine.state
    deck = list(st.zone("0.deck"))
    bottom = deck[-5:]
    assert sorted(st.facts(o).definition for o in bottom) == sorted(
        ["bronze_arm_tribe", "creature_a", "magnum", "bolshack_dragon", "raiya"])
    assert set(bottom) <= m.sight.known[0] and not set(bottom) & m.sight.known[1]
    top, opp_hand = Counter[str](), Counter[str]()
    seen_by_1_at_bottom: set[str] = set()
    draws = 340
    for k in range(draws):
        r0 = resample(m, 0, random.Random(k))
        s0 = r0.engine.state
        assert s0.zone("0.deck")[-5:] == bottom
        assert [s0.facts(o).definition for o in bottom] == [st.facts(o).definition for o in bottom]
        top[s0.facts(s0.zone("0.deck")[0]).definition] += 1
        opp_hand[s0.facts(s0.zone("1.hand")[0]).definition] += 1
        r1 = resample(m, 1, random.Random(10_000 + k))
        s1 = r1.engine.state
        seen_by_1_at_bottom.add(s1.facts(s1.zone("0.deck")[-1]).definition)
    # Player 0's unseen cards: the twelve under the five, and their own five face-down shields.
    pool = {"mist_rias": 4, "pig_creature": 4, "hikou_otoko": 4, "light_blocker": 5}
    assert _chi_square(top, pool, draws) < 16.27  # 3 degrees of freedom, p = 0.001 (seeds fixed: no flakes)
    # The opponent's unseen cards: hand, deck and shields, all alike to player 0.
    opp = {"magnum": 1, "raiya": 1, "red_zone": 1, "mackallan": 4, "fire_command": 4, "creature_a": 5}
    assert _chi_square(opp_hand, opp, draws) < 20.52  # 5 degrees of freedom, p = 0.001
    # Player 1 never saw those five: to them the bottom card is any of player 0's unseen cards.
    assert len(seen_by_1_at_bottom) >= 5


def _chi_square(seen: Counter[str], pool: dict[str, int], n: int) -> float:
    assert set(seen) <= set(pool)
    total = sum(pool.values())
    return sum((seen[d] - n * c / total) ** 2 / (n * c / total) for d, c in pool.items())
