"""The scenario format is checked when a file is read: what kifu cannot check is refused (exit 2) instead of
passing silently; and the keys a judge needed: toughness, damage, defense, the subject of a pending effect,
the order effects resolved in, effects placed by the set-up, the rules version."""

from __future__ import annotations

from pathlib import Path

import pytest

from statemachine.games import profile
from statemachine.scenario import EXPECTATIONS, ScenarioError, load, run_file
from tests.hardening.cli import kifu

DM_BOARD = """game = "duel_masters"
[setup]
turn = 3
cards = [
  { handle = "rias", card = "mist_rias", zone = "battle" },
  { handle = "raiya", card = "raiya", zone = "hand" },
  { handle = "m1", card = "aqua_hulcus", zone = "mana" },
  { handle = "m2", card = "aqua_hulcus", zone = "mana" },
  { handle = "d1", card = "spark_spell", zone = "deck" },
  { handle = "d2", card = "spark_spell", zone = "deck" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },  # both decks hold a card: an empty one loses
]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'id = "{name}"\n' + text, encoding="utf-8")
    return path


def exit_of(path: Path) -> tuple[int, str]:
    result = kifu("scenario", "run", str(path))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(("expect", "message"), [
    ('no_events = [{ kind = "Trigered" }]', "unknown event kind 'Trigered'"),
    ('events = [{ kind = "Triggered", sorce = "@rias" }]', "event kind Triggered has no field(s) sorce"),
    ('events_unordered = [{ sorce = "@rias" }]', "no event kind has the field(s) sorce"),
    ("request = {}", "an empty table checks nothing"),
    ("zones = {}", "an empty table checks nothing"),
    ("events = []", "non-empty list"),
    ("no_events = [{}]", "non-empty list of non-empty tables"),
    ('pending = [{ lable = "x" }]', "unknown key(s) lable"),
    ('request = { player = 0, knd = "target" }', "unknown key(s) knd"),
    ("pending_soon = []", "unknown expectation 'pending_soon'"),
])
def test_an_expectation_kifu_cannot_check_is_refused_with_exit_2(tmp_path: Path, expect: str, message: str) -> None:
    path = write(tmp_path, "bad", DM_BOARD + f'[[steps]]\ndo = {{ player = 0, action = "summon", args = ["@raiya"] }}'
                                             f"\n[steps.expect]\n{expect}\n")
    with pytest.raises(ScenarioError, match="step 1"):
        load(path)
    code, output = exit_of(path)
    assert code == 2 and message in output, output


def test_the_id_must_equal_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "DM-X-S01.toml"
    path.write_text('id = "DM-X-S02"\n' + DM_BOARD, encoding="utf-8")
    code, output = exit_of(path)
    assert code == 2 and "must equal the file name" in output


def test_a_rejection_without_a_decision_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "bad", DM_BOARD + '[[steps]]\nreject = "DM-W-14"\n')
    code, output = exit_of(path)
    assert code == 2 and "no decision" in output


def test_every_expectation_key_is_listed_when_one_is_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, "bad", DM_BOARD + "[[steps]]\n[steps.expect]\npowr = {}\n")
    code, output = exit_of(path)
    assert code == 2 and all(k in output for k in EXPECTATIONS)


@pytest.mark.parametrize("rules", ["1.0", "1.1"])
def test_a_scenario_runs_under_the_rules_version_it_names(tmp_path: Path, rules: str) -> None:
    from statemachine.scenario import Run

    path = write(tmp_path, "versioned", f'rules = "{rules}"\n' + DM_BOARD)
    run = Run(load(path), str(path))
    assert run.profile.version == rules
    assert run.engine.state.profile_version == rules


def test_a_scenario_names_the_newest_rules_by_default(tmp_path: Path) -> None:
    from statemachine.scenario import Run

    path = write(tmp_path, "newest", DM_BOARD)
    assert Run(load(path), str(path)).profile.version == profile("duel_masters").version


def test_a_rules_version_not_installed_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "old", 'rules = "0.3"\n' + DM_BOARD)
    code, output = exit_of(path)
    assert code == 2 and "1.0" in output, output


def test_a_passing_and_a_failing_new_expectation(tmp_path: Path) -> None:
    """The new per-card keys read the board: a wrong value fails (exit 1) naming what was found."""
    board = """game = "magic"
[setup]
step = "main1"
stats = { "0.life" = 20, "1.life" = 20 }
cards = [
  { handle = "bears", card = "grizzly_bears", zone = "battlefield", status = { damage = 1 }, toughness = 2 },
  { handle = "elves", card = "llanowar_elves", zone = "battlefield" },
]
[[steps]]
[steps.expect]
"""
    ok = write(tmp_path, "ok", board + 'toughness = { "@bears" = 4, "@elves" = 1 }\ndamage = { "@bears" = 1, '
                                       '"@elves" = 0 }\ndefense = { "@bears" = 3, "@elves" = 1 }\n')
    assert run_file(ok).ok, run_file(ok).message
    bad = write(tmp_path, "bad", board + 'defense = { "@bears" = 4 }\n')
    result = run_file(bad)
    assert not result.ok and "@bears defense is 3, expected 4" in result.message


def passes(tmp_path: Path, name: str, text: str) -> None:
    result = run_file(write(tmp_path, name, text))
    assert result.ok, result.message


def test_pending_effects_placed_by_the_setup_name_their_subject_and_resolve(tmp_path: Path) -> None:
    """Duel Masters: two abilities placed in the pool, each about a different creature (its subject); the
    pool then works as if they had triggered: the owner picks one, it resolves (draws), then the other."""
    passes(tmp_path, "placed_pool", """game = "duel_masters"
[setup]
turn = 3
cards = [
  { handle = "rias", card = "mist_rias", zone = "battle" },
  { handle = "a", card = "creature_a", zone = "battle" },
  { handle = "raiya", card = "raiya", zone = "battle" },
  { handle = "victim", card = "dark_soldier", zone = "graveyard" },
  { handle = "d1", card = "spark_spell", zone = "deck" },
  { handle = "d2", card = "spark_spell", zone = "deck" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },  # both decks hold a card: an empty one loses
]
effects = [
  { source = "rias", ability = "draw", subject = "raiya" },
  { source = "a", ability = "your_destroyed", subject = "victim" },
]
[[steps]]
[steps.expect]
pending = [{ source = "@rias", subject = "@raiya", side = "A" }, { source = "@a", subject = "@victim", side = "A" }]
request = { player = 0, kind = "resolve_next" }
[[steps]]
do = { player = 0, action = "resolve", args = ["!a"] }
[steps.expect]
resolved = [{ source = "@a", ability = "your_destroyed", subject = "@victim", outcome = "resolved" }]
zones = { "0.hand" = ["@d1"] }
request = { player = 0, kind = "may" }
[[steps]]
do = { player = 0, action = "choose", args = ["yes"] }
[steps.expect]
resolved = [{ source = "@rias", subject = "@raiya" }]
zones = { "0.hand" = ["@d1", "@d2"] }
""")


def test_a_stack_item_placed_by_the_setup_resolves_on_its_target(tmp_path: Path) -> None:
    """Magic: Blood Artist's ability placed on the stack targeting player 1; both pass and it resolves."""
    passes(tmp_path, "placed_stack", """game = "magic"
[setup]
step = "main1"
stats = { "0.life" = 20, "1.life" = 20 }
cards = [{ handle = "artist", card = "blood_artist", zone = "battlefield" }]
effects = [{ source = "artist", ability = "creature_dies_drain", targets = ["player1"] }]
[[steps]]
[steps.expect]
stack = [{ source = "@artist", controller = 0, targets = ["player1"], resolving = false }]
priority = 0
[[steps]]
do = { player = 0, action = "pass" }
[[steps]]
do = { player = 1, action = "pass" }
[steps.expect]
resolved = [{ source = "@artist", outcome = "resolved" }]
stats = { "0.life" = 21, "1.life" = 19 }
stack = []
""")


def test_the_order_a_queue_settled_in_within_one_decision_is_read_directly(tmp_path: Path) -> None:
    """Shadowverse: Belenus's Last Words (placed by the setup) deals 1 to each enemy follower; both soldiers
    die and their Last Words join the queue and settle left to right (SV-O-25), all before the first
    decision."""
    passes(tmp_path, "settled", """game = "shadowverse"
[setup]
turn = 4
stats = { "0.life" = 20, "1.life" = 20 }
cards = [
  { handle = "belenus", card = "belenus", zone = "cemetery" },
  { handle = "s1", card = "lw_soldier", owner = 1, zone = "field" },
  { handle = "s2", card = "lw_soldier", owner = 1, zone = "field" },
]
effects = [{ source = "belenus", ability = "lw" }]
[[steps]]
[steps.expect]
resolved = [{ source = "@belenus" }, { source = "@s1", ability = "lw" }, { source = "@s2", ability = "lw" }]
stats = { "0.life" = 18 }
""")
    with pytest.raises(AssertionError, match="resolved, in order"):
        passes(tmp_path, "wrong_order", """game = "shadowverse"
[setup]
turn = 4
cards = [
  { handle = "belenus", card = "belenus", zone = "cemetery" },
  { handle = "s1", card = "lw_soldier", owner = 1, zone = "field" },
  { handle = "s2", card = "lw_soldier", owner = 1, zone = "field" },
]
effects = [{ source = "belenus", ability = "lw" }]
[[steps]]
[steps.expect]
resolved = [{ source = "@belenus" }, { source = "@s2" }, { source = "@s1" }]
""")


@pytest.mark.parametrize(("effect", "message"), [
    ('{ source = "nobody", ability = "draw" }', "unknown handle 'nobody'"),
    ('{ source = "rias", ability = "drow" }', "mist_rias has no ability 'drow' (it has: draw)"),
    ('{ source = "rias", ability = "draw", controller = 5 }', "there is no player 5"),
])
def test_a_placed_effect_that_cannot_exist_is_refused(tmp_path: Path, effect: str, message: str) -> None:
    path = write(tmp_path, "bad", DM_BOARD.replace("[setup]\n", f"[setup]\neffects = [{effect}]\n"))
    code, output = exit_of(path)
    assert code == 2 and message in output, output


def test_a_chain_placed_by_the_setup_opens_an_interference(tmp_path: Path) -> None:
    """Vision: an automatic effect placed in the chain with its target; the non-acting player may interfere
    first (VOP-I-08); when both pass it resolves on its target."""
    passes(tmp_path, "placed_chain", """game = "vision"
[setup]
turn = 3
cards = [
  { handle = "c", card = "miko_apprentice", owner = 0, zone = "field" },
  { handle = "bk", card = "kedama", owner = 1, zone = "field" },
  { handle = "bg", card = "youkai_guard", owner = 1, zone = "field" },
]
effects = [{ source = "c", ability = "cip", targets = ["bk"] }]
[[steps]]
[steps.expect]
chain = [{ source = "@c", ability = "cip", controller = 0, targets = ["@bk"] }]
priority = 1
[[steps]]
do = { player = 1, action = "pass" }
[steps.expect]
priority = 0
[[steps]]
do = { player = 0, action = "pass" }
[steps.expect]
resolved = [{ source = "@c", ability = "cip", outcome = "resolved" }]
zones = { "1.field" = ["@bg"], "1.discard" = ["@bk"] }
chain = []
""")


def test_a_spell_placed_on_the_stack_resolves_and_can_be_answered(tmp_path: Path) -> None:
    """Magic: 稲妻 (Lightning Bolt) placed on the stack targeting a creature; both pass and the spell resolves:
    3 damage, the bears die (a state-based action) and the bolt goes to its owner's graveyard."""
    passes(tmp_path, "placed_spell", """game = "magic"
[setup]
step = "main1"
stats = { "0.life" = 20, "1.life" = 20 }
cards = [
  { handle = "bolt", card = "lightning_bolt", zone = "stack" },
  { handle = "bears", card = "grizzly_bears", owner = 1, zone = "battlefield" },
]
effects = [{ source = "bolt", ability = "spell", targets = ["bears"] }]
[[steps]]
[steps.expect]
stack = [{ label = "稲妻", source = "@bolt", controller = 0, targets = ["@bears"] }]
[[steps]]
do = { player = 0, action = "pass" }
[[steps]]
do = { player = 1, action = "pass" }
[steps.expect]
resolved = [{ source = "@bolt", outcome = "resolved" }]
zones = { "0.graveyard" = ["@bolt"], "1.graveyard" = ["@bears"], "stack" = [] }
""")


def test_a_play_placed_in_the_chain_resolves_as_the_card_entering(tmp_path: Path) -> None:
    """Vision: a character's play placed in the chain (its card in the chain zone); both pass, it enters and
    its own enters-effect arises in the same interference (VOP-I-17)."""
    passes(tmp_path, "placed_play", """game = "vision"
[setup]
turn = 3
cards = [
  { handle = "c", card = "miko_apprentice", owner = 0, zone = "chain" },
  { handle = "bk", card = "kedama", owner = 1, zone = "field" },
]
effects = [{ source = "c", ability = "play" }]
[[steps]]
[steps.expect]
chain = [{ source = "@c", ability = "play", controller = 0 }]
priority = 1
[[steps]]
do = { player = 1, action = "pass" }
[[steps]]
do = { player = 0, action = "pass" }
[steps.expect]
events = [{ kind = "EffectResolved", source = "@c", ability = "play" },
          { kind = "EffectPending", source = "@c", ability = "cip" }]
zones = { "0.field" = ["@c"] }
request = { player = 0, kind = "target" }
""")


@pytest.mark.parametrize(("expect", "message"), [
    ("pending_after = { resolution = 1 }", "expected { resolution = n, pool = [rows] }"),
    ('pending_after = { resolution = "one", pool = [] }', "resolution must be an integer"),
    ('stats = { life = 20 }', "'life' do(es) not name a player's counter"),
])
def test_an_expectation_of_the_wrong_shape_is_refused_when_read(tmp_path: Path, expect: str, message: str) -> None:
    path = write(tmp_path, "bad", DM_BOARD + f"[[steps]]\n[steps.expect]\n{expect}\n")
    code, output = exit_of(path)
    assert code == 2 and message in output, output


def test_an_unknown_game_is_refused_naming_the_file_and_the_games(tmp_path: Path) -> None:
    path = write(tmp_path, "pokemon", 'game = "pokemon"\n')
    code, output = exit_of(path)
    assert code == 2 and f"{path}: no rules profile 'pokemon'" in output and "duel_masters" in output


# -- a set-up that must be refused (refused = RULE) ------------------------------------------------------------

UNDER_TWO = """game = "duel_masters"
refused = "{rule}"
[setup]
turn = 3
cards = [
  {{ handle = "evo1", card = "jababa_hat", zone = "battle", under = ["base"] }},
  {{ handle = "evo2", card = "jababa_hat", zone = "battle", under = [{second}] }},
  {{ handle = "base", card = "dark_soldier", zone = "battle" }},
  {{ handle = "other", card = "dark_soldier", zone = "battle" }},
]
"""


def test_a_card_stated_under_two_objects_is_refused_naming_kifu_under(tmp_path: Path) -> None:
    assert run_file(write(tmp_path, "two", UNDER_TWO.format(rule="KIFU-UNDER", second='"base"'))).ok


def test_a_set_up_expected_refused_that_is_a_board_fails(tmp_path: Path) -> None:
    result = run_file(write(tmp_path, "fine", UNDER_TWO.format(rule="KIFU-UNDER", second='"other"')))
    assert not result.ok and "refused = 'KIFU-UNDER' says it cannot be" in result.message


def test_a_set_up_refused_for_another_rule_fails(tmp_path: Path) -> None:
    result = run_file(write(tmp_path, "other", UNDER_TWO.format(rule="KIFU-ZONE", second='"base"')))
    assert not result.ok and "refused naming KIFU-UNDER, not KIFU-ZONE" in result.message


def test_a_set_up_that_cannot_be_has_no_steps(tmp_path: Path) -> None:
    text = UNDER_TWO.format(rule="KIFU-UNDER", second='"base"') + '[[steps]]\ndo = { player = 0, action = "x" }\n'
    with pytest.raises(ScenarioError, match="no step can follow it"):
        load(write(tmp_path, "steps", text))
