"""The observation shows the card each action addresses (tools.ai.observation's slots), and docs/ai.md is the
layout as tools.ai.observation.document() writes it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from projections.characteristics import view
from projections.views import can_see
from statemachine.decisions import Decision
from statemachine.engine import Engine
from statemachine.scenario import Run
from statemachine.scenario.run import load
from tools.ai.actions import DONE, FIRST_SHAPE, MAX_POS
from tools.ai.observation import (
    EFFECT,
    HOLDERS,
    MAX_PENDING,
    ME,
    OBJECT,
    OP,
    OPTION,
    PENDING,
    SHARED,
    SLOT,
    VALUE,
    Layout,
    document,
    layout,
    observation,
    sections,
    start,
    waiting,
)
from tools.ai.pettingzoo import KifuEnv

GAMES = ("duel_masters", "magic", "shadowverse", "vision")
DOC = Path(__file__).parents[2] / "docs" / "ai.md"
SCENARIOS = Path(__file__).parents[1] / "scenarios" / "duel_masters"


@pytest.mark.parametrize("game", GAMES)
def test_every_action_finds_the_card_it_addresses_in_the_observation(game: str) -> None:
    lay = layout(game)
    checked = picks = waits = 0
    for seed in range(3):
        env = KifuEnv(game)
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if any(env.terminations.values()) or any(env.truncations.values()):
                break
            engine, player = env._engine(), env.legal.player
            assert player is not None
            legal = env.legal_actions()
            if rng.random() < 0.2:  # a random point of the game: every legal action in it
                st = engine.state
                obs = observation(engine, player, env.picked, lay)
                waits += show_the_pending(obs, lay, engine, player)
                for action in legal:
                    if action < DONE:  # a request's pick: the option it picks, shown in the options range
                        picks += show_the_option(obs, lay, engine, player, action, env.picked)
                        continue
                    decision = env.numbering.decode(engine, player, action) if action >= FIRST_SHAPE else None
                    for arg in decision.args if decision else ():
                        if not isinstance(arg, int) or arg not in st.objects:
                            continue
                        zone = st.objects[arg].zone
                        owner, _, kind = zone.partition(".")
                        whose = "me" if int(owner) == player else "op"
                        at = lay.slot_at(whose, kind, st.zone(zone).index(arg))
                        card = lay.cards.index(st.facts(arg).definition) + 1
                        assert obs[at] == card, f"{env.numbering.action_name(action)}: {zone} {arg}"
                        shown = view(st, arg)  # its statuses and power as the board shows them
                        status = {k: v for k, v in shown.status.items() if not k.startswith("seen_by")}
                        assert tuple(obs[at + 1:at + 4]) == (bool(status.get("tapped")), shown.chars.power or 0,
                                                              len(shown.under_cards))
                        assert obs[at + 4:at + SLOT].sum() == sum(status.values())
                        checked += 1
            env.step(rng.choice(legal))
    assert checked > 20, "the playouts reached actions that address cards"
    assert picks > 5, "the playouts reached requests that pick cards"
    assert waits > 0 or game == "shadowverse", "the playouts reached effects waiting"  # its queue empties at once


def show_the_pending(obs: np.ndarray, lay: Layout, engine: Engine, player: int) -> int:
    """Checks the pending range lists each effect waiting: its controller, holder and source card; how many."""
    st = engine.state
    for i, pend in enumerate(waiting(st)[:MAX_PENDING]):
        at = start(lay, "pending") + i * PENDING
        present, controller, holder, card = obs[at:at + 4]
        assert (present, controller) == (1, ME if pend.controller == player else OP)
        assert HOLDERS[int(holder) - 1] == pend.holder
        source = pend.source if pend.source in st.objects else next(
            (o.id for o in st.objects.values() if o.card == pend.source_card), None)
        if source is not None and can_see(st, player, source, hidden=engine.profile.hidden_zones):
            assert card == lay.cards.index(st.cards[pend.source_card].definition) + 1
        else:
            assert card == 0, "a source the player cannot see is not shown"
    rest = start(lay, "pending") + min(len(st.pending), MAX_PENDING) * PENDING
    assert not obs[rest:start(lay, "slots")].any(), "no entry beyond the effects waiting"
    return len(st.pending)


def test_dm_w_s06_the_effects_to_resolve_and_a_source_gone_to_hand_are_shown_as_their_player_sees_them() -> None:
    # DM-W-S06 (DM-W-09): two abilities wait in the pool, ミスト・リエス' draw and ライヤ's bounce, and their owner
    # picks which resolves first; the bounce returns ミスト・リエス itself to the hand and the draw stays (DM-W-06).
    run = Run(load(SCENARIOS / "DM-W-S06.toml"), "DM-W-S06")
    engine, lay = run.engine, layout("duel_masters")
    engine.decide(Decision(0, "summon", (run.obj("raiya"),)))
    req = engine.request
    assert req is not None and req.kind == "resolve_next" and len(req.options) == 2
    obs = observation(engine, 0, (), lay)
    assert show_the_pending(obs, lay, engine, 0) == 2
    for i, effect in enumerate(req.options):
        assert isinstance(effect, int)
        assert show_the_option(obs, lay, engine, 0, i, ()) == 1
        at = start(lay, "options") + i * OPTION
        source = engine.state.pending[effect].source_card
        assert obs[at + 1] == lay.cards.index(engine.state.cards[source].definition) + 1
    names = {lay.cards[int(obs[start(lay, "options") + i * OPTION + 1]) - 1] for i in range(2)}
    assert names == {"mist_rias", "raiya"}
    assert not obs[start(lay, "options") + 2 * OPTION:start(lay, "pending")].any(), "no option beyond the two"
    assert observation(engine, 1, (), lay)[start(lay, "options"):start(lay, "pending")].sum() == 0, \
        "the opponent is not asked: no options shown"

    engine.decide(Decision(0, "resolve", (run.pending_of("raiya"),)))
    engine.decide(Decision(0, "choose", (run.obj("rias"),)))
    (draw,) = waiting(engine.state)
    rias = run.obj("rias")
    assert draw.source != rias and engine.state.objects[rias].zone == "0.hand", "the source left: its card is in hand"
    entry = start(lay, "pending")
    mine = observation(engine, 0, (), lay)[entry:entry + PENDING]
    hand = engine.state.zone("0.hand").index(rias)
    assert tuple(mine[:7]) == (1, ME, HOLDERS.index("pool") + 1, lay.cards.index("mist_rias") + 1, ME,
                               lay.zones.index("hand") + 1, hand + 1)
    theirs = observation(engine, 1, (), lay)[entry:entry + PENDING]
    assert tuple(theirs[:7]) == (1, OP, HOLDERS.index("pool") + 1, 0, 0, 0, 0), "a card in my hand is hidden"
    assert show_the_pending(observation(engine, 1, (), lay), lay, engine, 1) == 1


def show_the_option(obs: np.ndarray, lay: Layout, engine: Engine, player: int, action: int,
                    picked: tuple[int, ...]) -> int:
    """Checks the options range shows what ``action`` (a pick of option ``action``) picks; 1 if it names a card
    or an effect."""
    st = engine.state
    assert st.request is not None and st.request.player == player
    option = st.request.options[action]
    at = start(lay, "options") + action * OPTION
    what, card, side, zone, position, value, chosen = obs[at:at + OPTION]
    assert chosen == (action in picked)
    kind = engine.profile.option_kinds.get(st.request.kind, "object")
    if kind == "effect":
        assert isinstance(option, int)
        pending = waiting(st)
        assert what == EFFECT and pending[int(value) - 1].effect == option
        source = start(lay, "pending") + (int(value) - 1) * PENDING + 3
        assert tuple(obs[source:source + 4]) == (card, side, zone, position), "the effect's source is the entry's"
        return 1
    if kind == "value" or not (isinstance(option, int) and option in st.objects):  # a number, a word, a player
        assert what == VALUE and card == 0
        return 0
    assert what == OBJECT
    zone_name = st.objects[option].zone
    if not can_see(st, player, option, hidden=engine.profile.hidden_zones):
        assert (card, side, zone, position) == (0, 0, 0, 0), "a card the player cannot see is not shown"
        return 1
    owner, _, kind_name = zone_name.partition(".")
    assert card == lay.cards.index(st.facts(option).definition) + 1
    assert side == (SHARED if not owner.isdecimal() else ME if int(owner) == player else OP)
    assert lay.zones[int(zone) - 1] == (kind_name if owner.isdecimal() else zone_name)
    assert st.zone(zone_name)[int(position) - 1] == option
    if owner.isdecimal() and (("me" if side == ME else "op"), kind_name) in lay.slots and position <= MAX_POS:
        slot = lay.slot_at("me" if side == ME else "op", kind_name, int(position) - 1)
        assert obs[slot] == card, "the option's position is the slot's"
    return 1


@pytest.mark.parametrize("game", GAMES)
def test_the_sections_tile_the_vector(game: str) -> None:
    lay = layout(game)
    parts = sections(lay)
    assert parts[0][1] == 0 and parts[-1][2] == lay.size
    assert all(a[2] == b[1] for a, b in itertools.pairwise(parts))
    slots = next(p for p in parts if p[0] == "slots")
    assert slots[2] - slots[1] == len(lay.slots) * MAX_POS * SLOT and lay.slots


def test_docs_ai_md_is_the_generated_layout() -> None:
    assert DOC.read_text(encoding="utf-8") == document(), "regenerate: python -c 'from tools.ai.observation import " \
                                                           "document; print(document(), end=\"\")' > docs/ai.md"
