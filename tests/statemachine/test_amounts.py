"""Computed amounts (statemachine/amounts.py): checked when a card file loads, computed when the step runs.

The cards that use them, step by step, are the scenarios tests/scenarios/*/*-AMT-*.toml; here: what a card file
may not say (refused at load naming the card, the ability and the field, with the valid names), the arithmetic
and each game's rounding, and that a literal amount stays a literal (no event, same behaviour).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from statemachine.amounts import FORMS, AmountRules, Expr, check_amount, describe
from statemachine.games import profile
from statemachine.loader import CardFileError, parse_cards
from tests.statemachine.helpers import scenario


def _card(effect: dict[str, Any], *, kind: str = "spell") -> dict[str, Any]:
    return {"card": [{"id": "probe", "name": "探り", "types": ["spell"], "cost": 1, "abilities": [
        {"id": "text", "label": "text", "kind": kind, "effects": [effect]}]}]}


def _load(game: str, effect: dict[str, Any]) -> CardFileError:
    p = profile(game)
    with pytest.raises(CardFileError) as refused:
        parse_cards(_card(effect), "probe.toml", p.vocabulary, p.trigger_kinds)
    return refused.value


DM_DRAWLESS = {"name": "bounce_opponent_mana", "params": {"count": {"cuont": {"zone": "battle"}}}}
MTG_DAMAGE = {"name": "damage", "params": {"amount": {"powr_of": "target"}}}


@pytest.mark.parametrize(("game", "effect", "field", "words"), [
    ("duel_masters", DM_DRAWLESS, "$.abilities[0].effects[0].params.count.cuont", ["'cuont'", "count", "cost_of"]),
    ("magic", MTG_DAMAGE, "$.abilities[0].effects[0].params.amount.powr_of", ["'powr_of'", "power_of", "x"]),
])
def test_an_unknown_form_is_refused_naming_card_ability_field_and_the_forms(game: str, effect: dict[str, Any],
                                                                            field: str, words: list[str]) -> None:
    exc = _load(game, effect)
    assert exc.card == "probe" and exc.field == field
    assert "ability 'text'" in str(exc)
    for w in words:
        assert w in str(exc)


@pytest.mark.parametrize(("game", "effect", "field", "says"), [
    # a zone the game does not have (Magic has no "battle" zone; Duel Masters has no "battlefield")
    ("magic", {"name": "damage", "params": {"amount": {"count": {"zone": "battle"}}}},
     "params.amount.count.zone", "known: deck, hand, battlefield, graveyard, exile"),
    ("duel_masters", {"name": "bounce_opponent_creatures", "params": {"count": {"count": {"zone": "battlefield"}}}},
     "params.count.count.zone", "known: deck, hand, mana, battle, shields, graveyard"),
    # a reference that is not one
    ("magic", {"name": "damage", "params": {"amount": {"power_of": "enemy"}}}, "params.amount.power_of",
     "known: source, subject, target"),
    # X in a game where nothing chooses X; toughness where creatures have none
    ("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": {"x": True}}}, "params.count.x",
     "not an amount in this game"),
    ("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": {"toughness_of": "source"}}},
     "params.count.toughness_of", "not an amount in this game"),
    # Magic cards say how a half is rounded (CR 107.1a)
    ("magic", {"name": "damage", "params": {"amount": {"half": 5}}}, "params.amount.round", "CR 107.1a"),
    ("magic", {"name": "damage", "params": {"amount": {"half": 5, "round": "nearest"}}}, "params.amount.round",
     "known: up, down"),
    # arithmetic of the wrong shape, two forms at once, a filter misspelt, a string for a number
    ("magic", {"name": "damage", "params": {"amount": {"minus": [5, 1, 1]}}}, "params.amount.minus", "two amounts"),
    ("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": {"plus": [1]}}}, "params.count.plus",
     "two or more"),
    ("magic", {"name": "damage", "params": {"amount": {"x": True, "power_of": "source"}}}, "params.amount",
     "exactly one form"),
    ("magic", {"name": "damage", "params": {"amount": {"count": {"zone": "hand", "colour": ["red"]}}}},
     "params.amount.count.colour", "known: zone, whose"),
    ("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": "three"}}, "params.count",
     "an integer or a table"),
    ("magic", {"name": "draw", "params": {"count": {"times": [2, {"count": {"zone": "hand", "whose": "me"}}]}}},
     "params.count.times[1].count.whose", "you, opponent, any, target"),
])
def test_a_malformed_amount_is_refused_at_load(game: str, effect: dict[str, Any], field: str, says: str) -> None:
    exc = _load(game, effect)
    assert exc.field == f"$.abilities[0].effects[0].{field}", exc
    assert says in str(exc)


def test_every_form_is_listed_with_what_it_takes() -> None:
    assert set(FORMS) == {f for f in Expr.__struct_fields__ if f != "round"}
    assert all(f.takes and f.means for f in FORMS.values())


def test_each_game_declares_its_amounts_and_its_rounding() -> None:
    seen: dict[str, AmountRules] = {}
    for game in ("duel_masters", "magic", "vision", "shadowverse"):
        rules = profile(game).vocabulary.amounts
        assert rules is not None, game
        assert rules.rounding_rule, game  # where the rounding comes from, or "assumed"
        seen[game] = rules
    assert seen["magic"].rounding == "" and "107.1a" in seen["magic"].rounding_rule
    assert seen["magic"].has_x and not seen["duel_masters"].has_x


@pytest.mark.parametrize(("raw", "text"), [
    (3, "3"),
    ({"minus": [{"cost_of": "target"}, 1]}, "(cost of target - 1)"),
    ({"half": {"count": {"zone": "deck", "whose": "target"}}, "round": "down"}, "half(count(deck, target), down)"),
    ({"times": [2, {"plus": [{"x": True}, 1]}]}, "(2 * (X + 1))"),
])
def test_an_amount_reads_as_one_line(raw: Any, text: str) -> None:
    check_amount(raw, None)
    value = raw if isinstance(raw, int) else msgspec.convert(raw, Expr, strict=True)
    assert describe(value) == text


# -- computed on a board ------------------------------------------------------------------------------------

BLAZE = """
id = "probe"
game = "magic"
[setup]
turn = 3
active = 0
step = "main1"
stats = {{ "0.life" = 20, "1.life" = 20 }}
cards = [
  {{ handle = "spell", card = "probe_spell", zone = "hand" }},
  {{ handle = "m1", card = "mountain", zone = "battlefield" }},
  {{ handle = "b1", card = "grizzly_bears", zone = "battlefield" }},
  {{ handle = "b2", card = "grizzly_bears", zone = "battlefield" }},
  {{ handle = "b3", card = "hill_giant", owner = 1, zone = "battlefield" }},
]
[[card]]
id = "probe_spell"
name = "試し"
types = ["sorcery"]
colors = ["red"]
mana = "R"
cost = 1
  [[card.abilities]]
  id = "text"
  label = "試し"
  kind = "spell"
  effects = [
    {{ name = "target", params = {{ what = "player" }} }},
    {{ name = "damage", params = {{ amount = {amount}, target = 0 }} }},
  ]
[[steps]]
do = {{ player = 0, action = "cast", args = ["@spell"] }}
[[steps]]
do = {{ player = 0, action = "choose", args = [-2] }}
[[steps]]
do = {{ player = 0, action = "mana", args = ["auto"] }}
[[steps]]
do = {{ player = 0, action = "pass" }}
[[steps]]
do = {{ player = 1, action = "pass" }}
"""


def _magic_damage(amount: str) -> tuple[int, list[dict[str, Any]]]:
    run = scenario(BLAZE.format(amount=amount))
    run.run()
    st = run.engine.state
    import eventsource.events as ev

    computed = [ev.to_builtins(r.event) for r in run.all_events if isinstance(r.event, ev.AmountComputed)]
    return 20 - st.stat(1, "life"), computed


@pytest.mark.parametrize(("amount", "dealt", "value"), [
    ("4", 4, None),  # a literal: no event, as before amounts existed
    ('{ count = { zone = "battlefield", whose = "you", types = ["creature"] } }', 2, 2),  # your two bears
    ('{ count = { zone = "battlefield", whose = "any", types = ["creature"] } }', 3, 3),  # and their giant
    ('{ times = [{ count = { zone = "battlefield", whose = "opponent" } }, 3] }', 3, 3),
    ('{ plus = [{ count = { zone = "battlefield", whose = "you", types = ["land"] } }, 2, 1] }', 4, 4),
    ('{ half = 5, round = "up" }', 3, 3),
    ('{ half = 5, round = "down" }', 2, 2),
    ('{ minus = [1, 4] }', 0, 0),  # a negative result is zero (CR 107.1b)
    ('{ power_of = "source" }', 0, 0),  # a sorcery has no power
])
def test_magic_amounts_are_computed_as_the_spell_resolves(amount: str, dealt: int, value: int | None) -> None:
    got, computed = _magic_damage(amount)
    assert got == dealt
    if value is None:
        assert computed == []
    else:
        assert [c["value"] for c in computed] == [value]


DEATH_GATE_ON_NOTHING = """
id = "probe"
game = "duel_masters"
[setup]
turn = 5
active = 0
step = "main"
cards = [
  { handle = "gate", card = "death_gate", zone = "hand" },
  { handle = "m1", card = "dark_soldier", zone = "mana" },
  { handle = "m2", card = "dark_soldier", zone = "mana" },
  { handle = "m3", card = "dark_soldier", zone = "mana" },
  { handle = "m4", card = "dark_soldier", zone = "mana" },
  { handle = "m5", card = "dark_soldier", zone = "mana" },
  { handle = "m6", card = "dark_soldier", zone = "mana" },
  { handle = "zero", card = "zero_cost", zone = "graveyard" },
  { handle = "foe", card = "aqua_hulcus", owner = 1, zone = "battle", tapped = true },
  { handle = "d0", card = "dark_soldier", zone = "deck" },  # both decks hold a card: an empty one loses
  { handle = "d1", card = "dark_soldier", owner = 1, zone = "deck" },
]
[[card]]
id = "zero_cost"
name = "コスト0"
types = ["creature"]
colors = ["darkness"]
cost = 0
power = 1000
[[steps]]
do = { player = 0, action = "cast", args = ["@gate"] }
"""


def test_duel_masters_keeps_a_negative_result() -> None:
    """Nothing destroyed (the only creature is tapped): "smaller than its cost" is smaller than 0 - 1, and a cost-0
    creature is not offered. Magic would use zero (CR 107.1b); Duel Masters has no such rule."""
    run = scenario(DEATH_GATE_ON_NOTHING)
    run.run()
    import eventsource.events as ev

    computed = [r.event for r in run.all_events if isinstance(r.event, ev.AmountComputed)]
    assert [(c.param, c.value) for c in computed] == [("max_cost", -1)]
    assert run.engine.request is None  # nothing to choose from
    zone = run.engine.state.zones["0.graveyard"]
    assert run.obj("zero") in zone


MAGIC_TOUGHNESS = """
id = "probe"
game = "magic"
[setup]
turn = 3
active = 0
step = "main1"
stats = { "0.life" = 20, "1.life" = 20 }
cards = [
  { handle = "spell", card = "probe_spell", zone = "hand" },
  { handle = "m1", card = "mountain", zone = "battlefield" },
  { handle = "giant", card = "hill_giant", owner = 1, zone = "battlefield", toughness = 2, status = { damage = 1 } },
]
[[card]]
id = "probe_spell"
name = "試し"
types = ["sorcery"]
colors = ["red"]
mana = "R"
cost = 1
  [[card.abilities]]
  id = "text"
  label = "試し"
  kind = "spell"
  effects = [
    { name = "target", params = { what = "creature" } },
    { name = "damage", params = { amount = { toughness_of = "target" }, target = 0 } },
  ]
[[steps]]
do = { player = 0, action = "cast", args = ["@spell"] }
[[steps]]
do = { player = 0, action = "choose", args = ["@giant"] }
[[steps]]
do = { player = 0, action = "mana", args = ["auto"] }
[[steps]]
do = { player = 0, action = "pass" }
[[steps]]
do = { player = 1, action = "pass" }
"""

SV_DEFENSE = """
id = "probe"
game = "shadowverse"
[setup]
turn = 5
active = 0
step = "main"
stats = { "0.life" = 20, "1.life" = 20, "0.max_pp" = 5, "0.pp" = 5 }
cards = [
  { handle = "spell", card = "probe_spell", zone = "hand" },
  { handle = "f1", card = "guardian_golem", zone = "field", toughness = 2, status = { damage = 1 } },
]
[[card]]
id = "probe_spell"
name = "試し"
types = ["spell"]
colors = ["neutral"]
cost = 1
  [[card.abilities]]
  id = "spell"
  label = "試し"
  trigger = { on = "cast", subject = "self", where = "casting", filter = { target = "any_follower" } }
  effects = [{ name = "buff", params = { attack = { toughness_of = "target" }, to = "target" } }]
[[steps]]
do = { player = 0, action = "play", args = ["@spell"] }
[[steps]]
do = { player = 0, action = "choose", args = ["@f1"] }
"""


def _computed(run: Any) -> list[int]:
    import eventsource.events as ev

    return [r.event.value for r in run.all_events if isinstance(r.event, ev.AmountComputed)]


def test_toughness_is_read_as_each_game_has_it() -> None:
    """Magic: toughness with its modifications, damage marked does not lower it (3 + 2 = 5, 1 damage marked);
    Shadowverse: defense is what is left after damage (the golem's printed defense + 2, less 1)."""
    magic = scenario(MAGIC_TOUGHNESS)
    magic.run()
    assert _computed(magic) == [5]
    sv = scenario(SV_DEFENSE)
    sv.run()
    golem = profile("shadowverse").pool["guardian_golem"]
    assert _computed(sv) == [(golem.toughness or 0) + 2 - 1]


# -- a counter of several players, and an amount that is each player's own --------------------------------

SV_STAT_OF = """
id = "probe"
game = "shadowverse"
[setup]
turn = 5
active = 0
step = "main"
stats = {{ "0.life" = 20, "1.life" = 13, "0.max_pp" = 5, "0.pp" = 5 }}
cards = [
  {{ handle = "spell", card = "probe_spell", zone = "hand" }},
  {{ handle = "f1", card = "guardian_golem", zone = "field" }},
]
[[card]]
id = "probe_spell"
name = "試し"
types = ["spell"]
colors = ["neutral"]
cost = 1
  [[card.abilities]]
  id = "spell"
  label = "試し"
  trigger = {{ on = "cast", subject = "self", where = "casting", filter = {{ target = "any_follower" }} }}
  effects = [{{ name = "buff", params = {{ attack = {amount}, to = "target" }} }}]
[[steps]]
do = {{ player = 0, action = "play", args = ["@spell"] }}
[[steps]]
do = {{ player = 0, action = "choose", args = ["@f1"] }}
"""

VOP_EACH = """
id = "probe"
game = "vision"
[setup]
turn = 5
active = 0
step = "main"
stats = {{ "0.damage" = {mine}, "1.damage" = {theirs} }}
cards = [
  {{ handle = "cmd", card = "probe_command", zone = "hand" }},
]
[[card]]
id = "probe_command"
name = "試し"
types = ["command"]
cost = 0
  [[card.abilities]]
  id = "text"
  kind = "spell"
  label = "試し"
  effects = [{{ name = "{effect}", params = {{ amount = {amount} }} }}]
[[steps]]
do = {{ player = 0, action = "play", args = ["@cmd"] }}
[[steps]]
do = {{ player = 1, action = "pass" }}
[[steps]]
do = {{ player = 0, action = "pass" }}
"""


@pytest.mark.parametrize(("whose", "value"), [("you", 20), ("opponent", 13), ("any", 33)])
def test_stat_of_sums_a_counter_over_the_players_it_names(whose: str, value: int) -> None:
    run = scenario(SV_STAT_OF.format(amount=f'{{ stat_of = {{ stat = "life", whose = "{whose}" }} }}'))
    run.run()
    assert _computed(run) == [value]


def test_vision_life_points_are_twenty_less_the_damage_taken() -> None:
    """Read through the game's derived counter (AmountRules.stat_value), on two boards: the total of life points,
    and set_life making it every player's (a change, not damage)."""
    for mine, theirs, total in ((0, 0, 40), (15, 2, 23)):
        run = scenario(VOP_EACH.format(mine=mine, theirs=theirs, effect="set_life",
                                       amount='{ stat_of = { stat = "life", whose = "any" } }'))
        run.run()
        assert _computed(run) == [total]
        # Vision 1.3 (VOP-GAME-LIFE): life points are changed to at most the 20 a player starts with
        assert [run.engine.state.stat(p, "damage") for p in (0, 1)] == [20 - min(total, 20)] * 2


@pytest.mark.parametrize(("mine", "theirs"), [(3, 5), (7, 0)])
def test_an_amount_that_is_each_players_own_is_computed_once_per_player(mine: int, theirs: int) -> None:
    """damage_each_player: "target" is the player being dealt damage, so each takes their own damage taken again
    (the controller's amount first); one AmountComputed per player."""
    run = scenario(VOP_EACH.format(mine=mine, theirs=theirs, effect="damage_each_player",
                                   amount='{ stat_of = { stat = "damage", whose = "target" } }'))
    run.run()
    import eventsource.events as ev

    computed = [r.event for r in run.all_events if isinstance(r.event, ev.AmountComputed)]
    assert [(c.param, c.value) for c in computed] == [("amount (player 0)", mine), ("amount (player 1)", theirs)]
    assert [run.engine.state.stat(p, "damage") for p in (0, 1)] == [2 * mine, 2 * theirs]


@pytest.mark.parametrize(("game", "raw", "field", "says"), [
    ("shadowverse", {"stat_of": {"stat": "lfe", "whose": "any"}}, "params.amount.stat_of.stat", "known: played_turn"),
    ("shadowverse", {"stat_of": {"stat": "life", "whose": "all"}}, "params.amount.stat_of.whose",
     "you, opponent, any, target"),
    ("vision", {"stat_of": "life"}, "params.amount.stat_of", "{ stat, whose }"),
    # Magic's one counter cards read is the damage dealt to a player this turn (rules 1.6)
    ("magic", {"stat_of": {"stat": "life"}}, "params.amount.stat_of.stat", "known: damage_this_turn"),
    ("magic", {"status_of": {"of": "source", "status": "x"}}, "params.amount.status_of", "not an amount in this game"),
])
def test_a_malformed_stat_of_is_refused_at_load(game: str, raw: dict[str, Any], field: str, says: str) -> None:
    exc = _load(game, {"name": "damage", "params": {"amount": raw}})
    assert exc.field == f"$.abilities[0].effects[0].{field}", exc
    assert says in str(exc)



# -- what a player may see of an amount ------------------------------------------------------------------

SV_HIDDEN = """
id = "probe"
game = "shadowverse"
[setup]
turn = 5
active = 0
step = "main"
stats = {{ "0.life" = 20, "1.life" = 20, "0.max_pp" = 5, "0.pp" = 5 }}
cards = [
  {{ handle = "spell", card = "probe_spell", zone = "hand" }},
  {{ handle = "f1", card = "fighter", zone = "field" }},
  {{ handle = "mine", card = "guardian_golem", zone = "hand" }},
  {{ handle = "t1", card = "fighter", owner = 1, zone = "hand" }},
  {{ handle = "t2", card = "goblin", owner = 1, zone = "hand" }},
  {{ handle = "t3", card = "ping_spell", owner = 1, zone = "hand" }},
  {{ handle = "d1", card = "fighter", zone = "deck" }},
]
[[card]]
id = "probe_spell"
name = "試し"
types = ["spell"]
colors = ["neutral"]
cost = 1
  [[card.abilities]]
  id = "spell"
  label = "試し"
  trigger = {{ on = "cast", subject = "self", where = "casting", filter = {{ target = "{target}" }} }}
  effects = [{{ name = "buff", params = {{ attack = {amount}, to = "{to}" }} }}]
[[steps]]
do = {{ player = 0, action = "play", args = ["@spell"] }}
[[steps]]
do = {{ player = 0, action = "choose", args = ["@{chosen}"] }}
"""


@pytest.mark.parametrize(("target", "amount", "chosen", "to", "value", "hidden_from"), [
    # the followers in the opponent's hand: the opponent sees them, you do not
    ("own_follower", '{ count = { zone = "hand", whose = "opponent", types = ["follower"] } }', "f1", "target", 2,
     (0,)),
    # the cost of a follower chosen in your own hand: you see it, the opponent does not
    ("hand_follower", '{ cost_of = "target" }', "mine", "own_followers", 3, (1,)),
    # how many cards the opponent holds: a hand's size is public
    ("own_follower", '{ count = { zone = "hand", whose = "opponent" } }', "f1", "target", 3, ()),
    # the followers of your deck: nobody sees into a deck, its owner neither
    ("own_follower", '{ count = { zone = "deck", whose = "you", types = ["follower"] } }', "f1", "target", 1,
     (0, 1)),
])
def test_an_amount_that_read_hidden_cards_is_hidden_from_those_who_cannot_see_them(
        target: str, amount: str, chosen: str, to: str, value: int, hidden_from: tuple[int, ...]) -> None:
    import eventsource.events as ev
    from projections.state import GameState, evolve
    from projections.views import redact_event
    from statemachine.games import hidden_zones

    run = scenario(SV_HIDDEN.format(target=target, amount=amount, chosen=chosen, to=to))
    run.run()
    [record] = [r for r in run.all_events if isinstance(r.event, ev.AmountComputed)]
    event = record.event
    if hidden_from == ():
        assert type(event) is ev.AmountComputed and event.value == value
        return
    assert isinstance(event, ev.SecretAmountComputed)
    assert (event.value, event.hidden_from) == (value, hidden_from)
    before = GameState()
    for r in run.engine.store.read(run.sc.id):
        if r.seq >= record.seq:
            break
        evolve(before, r.seq, r.event, r.decision)
    for p in (0, 1):
        seen = redact_event(event, p, before, hidden=hidden_zones("shadowverse"))
        assert isinstance(seen, ev.SecretAmountComputed)
        assert (seen.value, seen.redacted) == ((0, True) if p in hidden_from else (value, False))


# -- the greatest, a characteristic's highest, a counter kept on a card (pool 1.4 of Shadowverse) -------------

@pytest.mark.parametrize(("game", "effect", "field", "says"), [
    # highest reads a characteristic the game has, among what count would count
    ("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": {"highest": {"of": "toughness",
                                                                                        "zone": "battle"}}}},
     "params.count.highest.of", "known: power, cost"),
    ("shadowverse", {"name": "damage", "params": {"amount": {"highest": {"of": "power", "zone": "battle"}}}},
     "params.amount.highest.zone", "unknown zone 'battle'"),
    # status_of: only the counters a game lets cards read, of a reference
    ("magic", {"name": "damage", "params": {"amount": {"status_of": {"of": "source", "status": "x"}}}},
     "params.amount.status_of", "not an amount in this game"),
    ("shadowverse", {"name": "damage", "params": {"amount": {"status_of": {"of": "source", "status": "damage"}}}},
     "params.amount.status_of.status", "known: spellboost"),
    ("shadowverse", {"name": "damage", "params": {"amount": {"status_of": {"of": "itself", "status": "spellboost"}}}},
     "params.amount.status_of.of", "known: source, subject, target"),
    ("shadowverse", {"name": "damage", "params": {"amount": {"max": [1]}}}, "params.amount.max", "two or more"),
])
def test_highest_max_and_status_of_are_checked_at_load(game: str, effect: dict[str, Any], field: str,
                                                       says: str) -> None:
    exc = _load(game, effect)
    assert exc.field == f"$.abilities[0].effects[0].{field}", exc
    assert says in str(exc)


@pytest.mark.parametrize(("raw", "text"), [
    ({"max": [0, {"minus": [{"highest": {"of": "power", "zone": "field", "whose": "opponent"}},
                            {"power_of": "source"}]}]},
     "max(0, (highest power in count(field, opponent) - power of source))"),
    ({"plus": [1, {"status_of": {"of": "source", "status": "spellboost"}}]}, "(1 + spellboost of source)"),
])
def test_the_new_forms_read_as_one_line(raw: Any, text: str) -> None:
    rules = profile("shadowverse").vocabulary.amounts
    check_amount(raw, rules)
    assert describe(msgspec.convert(raw, Expr, strict=True)) == text


# -- an amount under a condition (pool 1.6 of Duel Masters: ウルヘリオン, 「…があれば+2000」) ----------------------

_HUMANS = {"count": {"zone": "battle", "subtypes": ["Human"]}}


@pytest.mark.parametrize(("raw", "field", "says"), [
    ({"if_at_least": {"amount": _HUMANS}}, "params.count.if_at_least", "{ amount, at_least = 1, then"),
    ({"if_at_least": {"amount": _HUMANS, "then": 2, "at_least": 0}}, "params.count.if_at_least.at_least",
     "always holds"),
    ({"if_at_least": {"amount": _HUMANS, "then": 2, "else": 1}}, "params.count.if_at_least.else",
     "known: amount, then, at_least, otherwise"),
    ({"if_at_least": {"amount": {"count": {"zone": "field"}}, "then": 2}}, "params.count.if_at_least.amount.count.zone",
     "unknown zone 'field'"),
])
def test_an_amount_under_a_condition_is_checked_at_load(raw: dict[str, Any], field: str, says: str) -> None:
    exc = _load("duel_masters", {"name": "bounce_opponent_mana", "params": {"count": raw}})
    assert exc.field == f"$.abilities[0].effects[0].{field}", exc
    assert says in str(exc)


def test_an_amount_under_a_condition_reads_as_one_line() -> None:
    raw = {"if_at_least": {"amount": _HUMANS, "then": 2000}}
    check_amount(raw, profile("duel_masters").vocabulary.amounts)
    text = describe(msgspec.convert(raw, Expr, strict=True))
    assert text == "(2000 if count(battle, you, subtypes=Human) >= 1 else 0)"
