"""``kifu cards``: every card is listed with its pieces, the scenarios that play it and its provenance; a card no
scenario plays may not enter a pool; ``kifu cards check`` validates card files, pins an unreleased pool's digest
and opens the release a new pool needs."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest

from eventsource.errors import KifuError
from statemachine.games.duel_masters import DuelMasters
from statemachine.loader import CardFileError
from statemachine.releases import load_releases
from tests.hardening.cli import kifu
from tools.cards.catalogue import catalogue, check, check_game


def test_every_card_in_a_pool_is_played_by_a_scenario() -> None:
    unplayed = sorted(f"{e.game}/{e.id}" for e in catalogue() if not e.played)
    assert not unplayed, f"cards no scenario plays (write one under tests/scenarios/<game>/): {unplayed}"


def test_the_catalogue_names_pieces_scenarios_provenance_and_checking() -> None:
    result = kifu("cards", "--game", "duel_masters", "--json")
    assert result.exit_code == 0, result.output
    entries = {e["id"]: e for e in json.loads(result.output)}
    assert {e["game"] for e in entries.values()} == {"duel_masters"}
    assassin = entries["bone_assassin"]
    assert "keyword:slayer" in assassin["pieces"] and assassin["scenarios"] == ["DM-CARD-S01"]
    assert assassin["checked"] and assassin["source"] == "checked" and assassin["since"] == "1.2"
    cotton = entries["faithful_cotton"]
    assert {"trigger:turn_ends", "effect:untap", "keyword:cant_attack_players"} <= set(cotton["pieces"])
    assert not entries["terror_pit"]["checked"] and entries["terror_pit"]["source"] == "memory"
    lich = {e.id: e for e in catalogue(["shadowverse"])}["lich"]
    assert lich.scenarios == [] and lich.made_by == ["servant_of_darkness"] and lich.played


def test_the_listing_says_what_is_not_played_and_fails_on_it(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    for game in ("vision", "magic"):
        result = kifu("cards", "--game", game, "--unplayed")
        assert result.exit_code == 0 and result.output.startswith("0 cards"), result.output
    # Read against an empty scenario folder, no card is played: each is listed and the listing fails.
    command = importlib.import_module("tools.commands.cards")
    monkeypatch.setattr(command, "catalogue", lambda games=None: catalogue(games, roots=(tmp_path,)))
    result = kifu("cards", "--game", "magic", "--unplayed")
    assert result.exit_code == 1 and "magic/counterspell" in result.output and "NOT PLAYED" in result.output


def test_the_shipped_pools_are_pinned() -> None:
    assert all(p.action == "current" for p in check()), "run: kifu cards check"


@pytest.fixture
def dm_copy(tmp_path: Path) -> tuple[type[DuelMasters], Path]:
    shutil.copytree(DuelMasters.cards, tmp_path / "cards")
    shutil.copy(DuelMasters.cards.parent / "releases.toml", tmp_path / "releases.toml")

    class Copy(DuelMasters):
        cards = tmp_path / "cards"

    return Copy, tmp_path


NEW_CARD = '''
[[card]]
id = "probe_soldier"
name = "試験兵"
types = ["creature"]
subtypes = ["Liquid People"]
colors = ["water"]
cost = 3
power = 1000
keywords = ["blocker"]
provenance = "[memory] a test of adding a card"
since = "1.7"
'''


def test_adding_a_card_opens_its_pool_and_release_with_the_digest(dm_copy: tuple[type[DuelMasters], Path]) -> None:
    cls, root = dm_copy
    (root / "cards" / "new.toml").write_text(NEW_CARD, encoding="utf-8")
    done = check_game(cls, root / "releases.toml", root / "fixtures")
    assert [(p.version, p.action) for p in done][-1] == ("1.7", "opened")
    releases = load_releases(root / "releases.toml", type(DuelMasters(version="1.3").rules))
    assert releases.versions[-1] == "1.7" and releases.latest.pool == "1.7"
    assert releases.pool_digests["1.7"] == done[-1].digest
    assert [p.action for p in check_game(cls, root / "releases.toml", root / "fixtures")][-1] == "current"


def test_an_unreleased_pool_is_re_pinned_a_released_one_refused(dm_copy: tuple[type[DuelMasters], Path]) -> None:
    cls, root = dm_copy
    (root / "cards" / "new.toml").write_text(NEW_CARD.replace('"1.7"', '"1.5"'), encoding="utf-8")
    fixtures = root / "fixtures"
    fixtures.mkdir()
    assert check_game(cls, root / "releases.toml", fixtures)[-1].action == "re-pinned"
    (root / "cards" / "new.toml").write_text(NEW_CARD.replace('"1.7"', '"1.5"').replace("1000", "2000"),
                                             encoding="utf-8")
    (fixtures / "duel_masters-1.5.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(KifuError, match="released"):
        check_game(cls, root / "releases.toml", fixtures)


def test_a_card_that_cannot_load_is_named_and_nothing_is_written(dm_copy: tuple[type[DuelMasters], Path]) -> None:
    cls, root = dm_copy
    before = (root / "releases.toml").read_text(encoding="utf-8")
    (root / "cards" / "new.toml").write_text(NEW_CARD.replace('"blocker"', '"blockr"'), encoding="utf-8")
    with pytest.raises(CardFileError, match=r"probe_soldier.*unknown keyword 'blockr'"):
        check_game(cls, root / "releases.toml", root / "fixtures")
    assert (root / "releases.toml").read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("game", "effect"), [
    ("duel_masters", {"name": "mana_boost", "params": {"count": -1}}),
    ("shadowverse", {"name": "gain_pp_orb", "params": {"amount": -1}}),
    ("vision", {"name": "target_draws", "params": {"count": -2}}),
])
def test_a_negative_amount_is_refused_at_load_naming_card_and_path(game: str, effect: dict[str, object]) -> None:
    from statemachine.games import profile_class
    from statemachine.loader import parse_cards

    cls = profile_class(game)
    card = {"id": "minus", "name": "負数", "abilities": [
        {"id": "a", "label": "x", "kind": "spell", "effects": [effect]}]}
    with pytest.raises(CardFileError) as caught:
        parse_cards({"card": [card]}, "minus.toml", cls.vocabulary, cls.trigger_kinds)
    err = caught.value
    assert (err.card, err.ability) == ("minus", "a") and err.field is not None
    assert err.field.startswith("$.abilities[0].effects[0].params.") and "negative" in str(err)
