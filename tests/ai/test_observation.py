"""The observation shows the card each action addresses (tools.ai.observation's slots), and docs/ai.md is the
layout as tools.ai.observation.document() writes it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from tools.ai.actions import FIRST_SHAPE, MAX_POS
from tools.ai.observation import SLOT, document, layout, observation, sections
from tools.ai.pettingzoo import KifuEnv

GAMES = ("duel_masters", "magic", "shadowverse", "vision")
DOC = Path(__file__).parents[2] / "docs" / "ai.md"


@pytest.mark.parametrize("game", GAMES)
def test_every_action_finds_the_card_it_addresses_in_the_observation(game: str) -> None:
    lay = layout(game)
    checked = 0
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
                for action in legal:
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
                        checked += 1
            env.step(rng.choice(legal))
    assert checked > 20, "the playouts reached actions that address cards"


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
