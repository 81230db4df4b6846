"""Cards are checked when read, in every game: an unknown keyword, selector, effect, filter key or parameter value
is refused at load naming the file, the card, the ability and the field, and listing the valid names (STYLE 5);
nothing a released card uses is refused."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from statemachine.games import PROFILES, profile
from statemachine.loader import CardFileError, parse_cards
from statemachine.vocabulary import KEYWORD, SELECTOR
from tests.hardening.cli import kifu

GAMES = sorted(PROFILES)
# A trigger and a plain effect each game has, to build a card around a damaged part.
TRIGGER = {"duel_masters": "enters", "magic": "enters", "shadowverse": "fanfare", "vision": "enters"}
WHERE = {"duel_masters": "battle", "magic": "battlefield", "shadowverse": "field", "vision": "field"}


def card(game: str, **ability: Any) -> dict[str, Any]:
    body = {"id": "a1", "label": "test", "trigger": {"on": TRIGGER[game], "where": WHERE[game]}, **ability}
    return {"id": "probe", "name": "Probe", "abilities": [body]}


def refused(game: str, raw: dict[str, Any]) -> CardFileError:
    p = profile(game)
    with pytest.raises(CardFileError) as err:
        parse_cards({"card": [raw]}, "cards/bad.toml", p.vocabulary, p.trigger_kinds)
    assert str(err.value).startswith("cards/bad.toml: card 'probe'")
    return err.value


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_keyword_is_refused_listing_the_known_ones(game: str) -> None:
    err = refused(game, {"id": "probe", "name": "Probe", "keywords": ["bloker"]})
    assert err.field == "$.keywords[0]"
    known = profile(game).vocabulary.names[KEYWORD]
    assert "unknown keyword 'bloker'" in str(err)
    assert all(k in str(err) for k in known), "the message lists every keyword the game knows"


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_effect_is_refused_naming_the_ability(game: str) -> None:
    err = refused(game, card(game, effects=[{"name": "drow"}]))
    assert (err.ability, err.field) == ("a1", "$.abilities[0].effects[0].name")
    assert "unknown effect 'drow'" in str(err) and "draw" in str(err)


@pytest.mark.parametrize("game", GAMES)
def test_an_amount_of_the_wrong_type_is_refused(game: str) -> None:
    err = refused(game, card(game, effects=[{"name": "draw", "params": {"count": "two"}}]))
    assert (err.ability, err.field) == ("a1", "$.abilities[0].effects[0].params.count")
    assert "Expected `int`, got `str`" in str(err)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_parameter_is_refused_listing_the_known_ones(game: str) -> None:
    err = refused(game, card(game, effects=[{"name": "draw", "params": {"cnt": 1}}]))
    assert "unknown field `cnt`" in str(err) and "count" in str(err.args[0].partition("known:")[2])


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_trigger_filter_key_is_refused(game: str) -> None:
    raw = card(game, effects=[])
    raw["abilities"][0]["trigger"]["filter"] = {"tpyes": ["creature"]}
    err = refused(game, raw)
    assert err.field == "$.abilities[0].trigger.filter.tpyes"
    assert "unknown trigger filter 'tpyes'" in str(err) and "types" in str(err)


@pytest.mark.parametrize(("to", "effect"), [("enemy_leadr", "damage"), ("own_folowers", "buff")])
def test_an_unknown_shadowverse_selector_is_refused_at_load(to: str, effect: str) -> None:
    """Before, such a card loaded and failed mid-game with a traceback."""
    err = refused("shadowverse", card("shadowverse", effects=[{"name": effect, "params": {"to": to}}]))
    assert err.field == "$.abilities[0].effects[0].params.to"
    assert f"unknown selector {to!r}" in str(err)
    assert all(s in str(err) for s in profile("shadowverse").vocabulary.names[SELECTOR])


@pytest.mark.parametrize(("game", "effect", "params", "field", "listed"), [
    ("duel_masters", "destroy_all", {"whose": "enemy"}, "whose", "all, opponent, you"),
    ("magic", "draw", {"who": "them"}, "who", "active, each_player, target, you"),
    ("vision", "target", {"what": "creature"}, "what", "character, character_or_player"),
    ("shadowverse", "buff", {"until": "forever"}, "until", "end_of_turn, overflow, start_of_turn"),
])
def test_a_value_outside_a_closed_set_is_refused_listing_the_set(game: str, effect: str, params: dict[str, Any],
                                                                 field: str, listed: str) -> None:
    err = refused(game, card(game, effects=[{"name": effect, "params": params}]))
    assert err.field == f"$.abilities[0].effects[0].params.{field}"
    assert "Invalid enum value" in str(err) and listed in str(err)


def test_a_keyword_given_by_an_effect_is_checked_like_a_printed_one() -> None:
    err = refused("shadowverse", card("shadowverse", effects=[
        {"name": "summon", "params": {"card": "knight", "keywords": ["rush", "rsh"]}}]))
    assert err.field == "$.abilities[0].effects[0].params.keywords[1]"
    err = refused("shadowverse", card("shadowverse", effects=[{"name": "gain_keyword", "params": {"keyword": "wrd"}}]))
    assert err.field == "$.abilities[0].effects[0].params.keyword"


def test_an_effect_carried_by_another_is_checked_too() -> None:
    err = refused("shadowverse", card("shadowverse", effects=[
        {"name": "if_burial_rite", "params": {"then": "buf", "params": {}}}]))
    assert err.field == "$.abilities[0].effects[0].params.then" and "unknown effect 'buf'" in str(err)
    err = refused("shadowverse", card("shadowverse", effects=[
        {"name": "if_burial_rite", "params": {"then": "damage", "params": {"to": "enemy_leadr"}}}]))
    assert err.field == "$.abilities[0].effects[0].params.params.to"


@pytest.mark.parametrize("game", ["shadowverse", "vision"])
def test_a_condition_an_if_step_judges_is_checked_at_load(game: str) -> None:
    """Its parameters as the condition takes them: once a damaged card loaded and failed when played."""
    condition = {"shadowverse": "overflow", "vision": "hand_fewer_than_opponent"}[game]
    err = refused(game, card(game, effects=[{"name": "if", "params": {
        "condition": condition, "condition_params": {"zone": "discard"}, "then": "draw", "params": {}}}]))
    assert err.field.startswith("$.abilities[0].effects[0].params.condition_params"), err.field
    assert f"condition {condition!r}" in str(err)


@pytest.mark.parametrize(("game", "good", "bad"), [
    ("shadowverse", ["countdown_3", "accelerate_some_spell"], "countdown_x"),
    ("vision", ["node:2", "uses:3"], "node:two"),
])
def test_keyword_families_take_their_parameter(game: str, good: list[str], bad: str) -> None:
    p = profile(game)
    parse_cards({"card": [{"id": "ok", "name": "Ok", "keywords": good}]}, "f.toml", p.vocabulary, p.trigger_kinds)
    assert refused(game, {"id": "probe", "name": "Probe", "keywords": [bad]}).field == "$.keywords[0]"


@pytest.mark.parametrize("game", GAMES)
def test_every_released_card_passes_the_checks(game: str) -> None:
    """Validation refuses only what no released card uses: pool 1.0 loads (its digest is checked by the
    release table) and every keyword a card of it prints is declared."""
    p = profile(game, "1.0")
    for c in p.pool.cards.values():
        assert all(p.vocabulary.knows(KEYWORD, k) for k in c.keywords), c.id


def test_a_scenario_with_an_unknown_selector_exits_2(tmp_path: Path) -> None:
    text = """id = "bad"\ngame = "shadowverse"\n[[card]]\nid = "probe"\nname = "Probe"\ntypes = ["follower"]
cost = 1\npower = 1\ntoughness = 1\n[[card.abilities]]\nid = "a1"\nlabel = "x"
trigger = { on = "fanfare", where = "field" }
effects = [{ name = "damage", params = { amount = 1, to = "enemy_leadr" } }]\n"""
    tomllib.loads(text)
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = kifu("scenario", "run", str(path))
    assert result.exit_code == 2, result.output
    assert "ability 'a1'" in result.output and "unknown selector 'enemy_leadr'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("game", "where", "known"), [
    ("duel_masters", "battel", "battle"),
    ("magic", "battle", "battlefield"),  # the default zone of a trigger is Duel Masters': Magic must name its own
    ("vision", "feild", "field"),
    ("shadowverse", "battle", "cemetery"),
])
def test_a_trigger_working_from_a_zone_the_game_lacks_is_refused(game: str, where: str, known: str) -> None:
    raw = card(game, effects=[])
    raw["abilities"][0]["trigger"]["where"] = where
    err = refused(game, raw)
    assert err.field == "$.abilities[0].trigger.where"
    assert f"unknown zone {where!r}" in str(err) and known in str(err)
