"""Game options are typed per game and rules version, and deck construction is a rule of each game (#21, #22).

An option no rules version reads, or a value it does not read, is refused wherever a game's options come in
(``Engine.new``, ``Engine.from_setup``, a scenario); a deck that breaks its game's construction rule is refused
by ``Engine.new`` naming the rule, from the release that checks decks; releases before it take decks as given.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from statemachine import decks
from statemachine.demo import sample
from statemachine.engine import Engine
from statemachine.games import PROFILES, profile, versions
from statemachine.options import BadOption
from statemachine.scenario import ScenarioError
from statemachine.scenario.run import Run
from statemachine.scenario.run import load as load_scenario

GAMES = sorted(PROFILES)
# Each game's rule id, deck size and copies allowed (the games' READMEs, "Deck construction").
RULES = {"duel_masters": ("DM-GAME-DECK", 40, 4), "magic": ("MTG-GAME-DECK", 60, 4),
         "vision": ("VOP-GAME-DECK", 50, 3), "shadowverse": ("SV-GAME-DECK", 40, 3)}
# The first release of each game that checks decks and reads no scenario label.
CHECKED_FROM = {"duel_masters": "1.2", "magic": "1.2", "vision": "1.3", "shadowverse": "1.3"}


def _new(game: str, decks_: list[list[str]] | None = None, version: str | None = None,
         options: dict[str, str] | None = None) -> Engine:
    prof, players, sample_decks = sample(game)(7)
    rules = type(prof)(version=version)
    return Engine.new(rules, list(players), decks_ or sample_decks, 7, options=options)


def _nonbasic(game: str) -> str:
    """A card of the game's sample deck that the copy limit counts (not a Magic basic land)."""
    prof, _, sample_decks = sample(game)(7)
    rule = prof.deck_rule
    assert rule is not None
    return next(c for c in sample_decks[0] if not (rule.spared and rule.spared(prof.pool[c])))


# -- options ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_option_is_refused_naming_it_and_the_valid_ones(game: str) -> None:
    with pytest.raises(BadOption) as refused:
        _new(game, options={"lookbak_ruling": "before-2020-09-18"})
    message = str(refused.value)
    assert refused.value.key == "lookbak_ruling" and "'lookbak_ruling'" in message
    assert "deck_out" in message and "setup" in message  # the options it does read
    assert f"{game} rules {versions(game)[-1]}" in message


@pytest.mark.parametrize(("game", "key", "value"), [
    ("duel_masters", "deck_out", "OFF"), ("shadowverse", "mulligan", "nope"), ("shadowverse", "hand_limit", "²"),
    ("shadowverse", "hand_limit", "8.0"), ("shadowverse", "hand_limit", "0"), ("magic", "setup", "²"),
    ("duel_masters", "lookback_ruling", "yesterday"),
])
def test_a_value_no_rules_version_reads_is_refused(game: str, key: str, value: str) -> None:
    with pytest.raises(BadOption) as refused:
        _new(game, options={key: value})
    assert refused.value.key == key and repr(value) in str(refused.value)


def test_a_valid_option_is_read_typed() -> None:
    engine = _new("shadowverse", options={"hand_limit": "8", "mulligan": "off"})
    assert engine.options.hand_limit == 8 and engine.options.mulligan == "off"
    assert engine.options.count_timing is None  # not given: the default reading


def test_the_scenario_label_is_read_before_its_retirement_and_refused_after() -> None:
    for game in GAMES:
        new = CHECKED_FROM[game]
        older = [v for v in versions(game) if v < new]
        assert profile(game, older[-1]).parse_options([("scenario", "X-S01")]).scenario == "X-S01"
        with pytest.raises(BadOption, match="scenario"):
            profile(game, new).parse_options([("scenario", "X-S01")])


def test_a_scenario_with_options_no_game_has_is_refused_at_load(tmp_path: Path) -> None:
    path = tmp_path / "bogus.toml"
    path.write_text('id = "bogus"\ngame = "duel_masters"\noptions = { lookbak_ruling = "x", totally_bogus = "y" }\n'
                    '[setup]\ncards = []\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as refused:
        Run(load_scenario(path), str(path))
    assert "lookbak_ruling" in str(refused.value) and "lookback_ruling" in str(refused.value)


def test_no_scenario_states_an_option_the_game_does_not_read() -> None:
    root = Path(__file__).parents[1] / "scenarios"
    for path in sorted(root.rglob("*.toml")):
        sc = load_scenario(path)
        prof = profile(sc.game, sc.rules or None)
        prof.parse_options(sc.options.items())
        assert "scenario" not in sc.options


# -- deck construction ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_forty_copies_of_one_card_are_refused_naming_the_rule(game: str) -> None:
    rule, size, copies = RULES[game]
    card = _nonbasic(game)
    with pytest.raises(decks.IllegalDeck) as refused:
        _new(game, [[card] * size, sample(game)(7)[2][1]])
    assert [(p.player, p.rule) for p in refused.value.problems] == [(0, rule)]
    assert f"{size} cards named" in str(refused.value) and f"at most {copies}" in str(refused.value)


@pytest.mark.parametrize("game", GAMES)
def test_a_deck_of_three_cards_is_refused_naming_the_rule(game: str) -> None:
    rule, size, _ = RULES[game]
    legal = sample(game)(7)[2]
    with pytest.raises(decks.IllegalDeck) as refused:
        _new(game, [legal[0], legal[1][:3]])
    assert [(p.player, p.rule) for p in refused.value.problems] == [(1, rule)]
    assert f"3 cards; a deck holds {'at least' if game == 'magic' else 'exactly'} {size}" in str(refused.value)


@pytest.mark.parametrize("game", GAMES)
def test_each_sample_deck_is_legal_under_the_newest_rules(game: str) -> None:
    prof, _, sample_decks = sample(game)(2026)
    assert decks.checks_decks(prof)
    assert [prof.check_deck(d, seat) for seat, d in enumerate(sample_decks)] == [[], []]


@pytest.mark.parametrize("game", GAMES)
def test_releases_before_the_rule_take_decks_as_given(game: str) -> None:
    older = [v for v in versions(game) if v < CHECKED_FROM[game]][-1]
    card = _nonbasic(game)
    engine = _new(game, [[card] * 3, [card] * 3], version=older)
    assert engine.state.started
    assert decks.taken_as_given(engine.profile, given_board=False) == (
        f"the deck lists were taken as given: {game} rules {older} checks no deck construction")


def test_magic_basic_lands_are_spared_the_copy_limit() -> None:
    prof = profile("magic")
    deck = ["island"] * 30 + ["counterspell"] * 4 + ["mana_leak"] * 4 + ["doom_blade"] * 4 + ["divination"] * 4 + [
        "mind_rot"] * 4 + ["blood_artist"] * 4 + ["prodigal_sorcerer"] * 4 + ["ornithopter"] * 2
    assert len(deck) == 60 and prof.check_deck(deck) == []
    assert [p.rule for p in prof.check_deck([*deck, "mana_leak"])] == ["MTG-GAME-DECK"]
