"""Duel Masters rules that scenario files cannot show on one board: variants, switches and the kernel's
guarantees (nothing appended on an illegal decision, restoring a game mid-choice)."""

from __future__ import annotations

import pytest

from eventsource import events as ev
from eventsource.sqlite import SQLiteStore
from projections.state import copy
from projections.timeline import Timeline
from statemachine.bots import RandomBot
from statemachine.decisions import Decision, IllegalDecision
from statemachine.engine import Engine
from statemachine.games.duel_masters import DuelMasters
from statemachine.games.duel_masters.demo import DECK_A, DECK_B
from statemachine.games.duel_masters.effects import DM
from statemachine.games.duel_masters.triggers import KINDS
from statemachine.loader import CardFileError, parse_cards
from tests.statemachine.helpers import scenario

MANA8 = "\n".join(f'  {{ handle = "m{i}", card = "dark_soldier", owner = OWNER, zone = "mana" }},' for i in range(8))


def events_of(run, kind: type) -> list:  # type: ignore[no-untyped-def]
    return [r.event for r in run.all_events if isinstance(r.event, kind)]


def test_dm_w_s07_resolving_mackallan_first_fizzles() -> None:
    """DM-W-18: the implied alternative of DM-W-S07 — with two fire cards in mana the condition is unmet."""
    run = scenario("""
id = "DM-W-S07-alt"
game = "duel_masters"
[setup]
cards = [
  { handle = "zundoko", card = "zundoko", zone = "battle" },
  { handle = "mackallan", card = "mackallan", zone = "hand" },
  { handle = "f1", card = "bolshack_dragon", zone = "mana" },
  { handle = "f2", card = "bolshack_dragon", zone = "mana" },
  { handle = "w1", card = "aqua_hulcus", zone = "mana" },
  { handle = "top", card = "fire_command", zone = "deck" },
  { handle = "foe", card = "dark_soldier", owner = 1, zone = "battle" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },  # both decks hold a card: an empty one loses
]
[[steps]]
do = { player = 0, action = "summon", args = ["@mackallan"] }
[[steps]]
do = { player = 0, action = "resolve", args = ["!mackallan"] }
[steps.expect]
fizzled = [{ source = "@mackallan", reason_contains = "DM-W-18" }]
zones = { "1.battle" = ["@foe"], "0.mana" = ["@f1", "@f2", "@w1", "@top"] }
""")
    run.run()


def test_dm_w_s11_during_the_opponents_turn() -> None:
    """DM-W-13 (Q&A, seed L195-198): during the opponent's turn their Mist Rias resolves first."""
    run = scenario("""
id = "DM-W-S11-opp"
game = "duel_masters"
[[card]]
id = "rescue_light"
name = "救援の光"
types = ["spell"]
colors = ["light"]
cost = 3
keywords = ["s_trigger"]
  [[card.abilities]]
  id = "put"
  kind = "spell"
  label = "put"
  effects = [{ name = "put_creature_from_hand", params = { may = true } }]
[setup]
active = 1
step = "attack"
cards = [
  { handle = "orias", card = "mist_rias", owner = 1, zone = "battle" },
  { handle = "atk", card = "fire_non_command", owner = 1, zone = "battle" },
  { handle = "trig", card = "rescue_light", owner = 0, zone = "shields" },
  { handle = "badomingai", card = "badomingai", owner = 0, zone = "hand" },
  { handle = "d", card = "spark_spell", owner = 0, zone = "deck" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },
  { card = "dark_soldier", owner = 0, zone = "deck" },
  { card = "dark_soldier", owner = 1, zone = "deck" },
  { card = "dark_soldier", owner = 1, zone = "deck" },
]
[[steps]]
do = { player = 1, action = "attack", args = ["@atk", "player"] }
[[steps]]
do = { player = 0, action = "choose", args = ["yes"] }
[[steps]]
do = { player = 0, action = "choose", args = ["@badomingai"] }
[steps.expect]
pending = [{ label = "出た時の能力", source = "@badomingai", side = "a" }]
request = { player = 1, kind = "may" }
[[steps]]
do = { player = 1, action = "choose", args = ["yes"] }
[steps.expect]
events = [{ kind = "EffectResolved", source = "@orias" }, { kind = "EffectResolved", source = "@badomingai" }]
""")
    run.run()


def test_lookback_holder_that_stays_triggers_once_per_creature() -> None:
    """SPEC Part 4 #15 (decided): A stays and two other creatures of yours are destroyed together — A's ability
    triggers once for each (only a holder that left is limited to its own move, DM-LB-12)."""
    run = scenario("""
id = "LB-15"
game = "duel_masters"
[[card]]
id = "slay_all_but"
name = "選別の呪文"
types = ["spell"]
colors = ["darkness"]
cost = 0
  [[card.abilities]]
  id = "destroy"
  kind = "spell"
  label = "destroy two"
  effects = [{ name = "destroy_opponent_creature", params = { count = 2 } }]
[setup]
active = 1
cards = [
  { handle = "a", card = "creature_a", owner = 0, zone = "battle" },
  { handle = "b", card = "dark_soldier", owner = 0, zone = "battle" },
  { handle = "c", card = "dark_soldier", owner = 0, zone = "battle" },
  { handle = "spell", card = "slay_all_but", owner = 1, zone = "hand" },
  { handle = "d1", card = "spark_spell", owner = 0, zone = "deck" },
  { handle = "d2", card = "spark_spell", owner = 0, zone = "deck" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },  # both decks hold a card: an empty one loses
]
[[steps]]
do = { player = 1, action = "cast", args = ["@spell"] }
[[steps]]
do = { player = 1, action = "choose", args = ["@b", "@c"] }
[steps.expect]
events_unordered = [
  { kind = "Triggered", ability = "your_destroyed", count = 2 },
  { kind = "Triggered", ability = "your_destroyed", subject = "@b" },
  { kind = "Triggered", ability = "your_destroyed", subject = "@c" },
]
""")
    run.run()


@pytest.mark.parametrize(("ruling", "triggers"), [("", 0), ("before-2020-09-18", 1)])
def test_dm_lb_18_legacy_ruling_is_an_explicit_option(ruling: str, triggers: int) -> None:
    """DM-LB-17 by default; DM-LB-18's old ruling only when selected (option lookback_ruling)."""
    options = f'[options]\nlookback_ruling = "{ruling}"\n' if ruling else ""
    run = scenario(f"""
id = "LB-18"
game = "duel_masters"
{options}
[[card]]
id = "slay"
name = "討伐の呪文"
types = ["spell"]
colors = ["darkness"]
cost = 0
  [[card.abilities]]
  id = "destroy"
  kind = "spell"
  label = "destroy"
  effects = [{{ name = "destroy_opponent_creature" }}]
[setup]
active = 1
cards = [
  {{ handle = "p", card = "pig_creature", owner = 0, zone = "battle", ignored = true }},
  {{ handle = "spell", card = "slay", owner = 1, zone = "hand" }},
  {{ handle = "d1", card = "spark_spell", owner = 0, zone = "deck" }},
  {{ handle = "od", card = "spark_spell", owner = 1, zone = "deck" }},  # both decks hold a card: an empty one loses
]
[[steps]]
do = {{ player = 1, action = "cast", args = ["@spell"] }}
[[steps]]
do = {{ player = 1, action = "choose", args = ["@p"] }}
""")
    run.run()
    assert len(events_of(run, ev.Triggered)) == triggers
    assert len(run.engine.state.zone("0.hand")) == triggers


def test_dm_w_20_skipping_the_rest_of_the_turn_makes_pending_effects_vanish() -> None:
    run = scenario("""
id = "W-20"
game = "duel_masters"
[[card]]
id = "time_stop"
name = "時間停止兵"
types = ["creature"]
colors = ["water"]
cost = 0
power = 1000
  [[card.abilities]]
  id = "skip"
  label = "ターンの残りをとばす"
  trigger = { on = "enters", subject = "self" }
  effects = [{ name = "skip_rest_of_turn" }]
[setup]
cards = [
  { handle = "rias", card = "mist_rias", zone = "battle" },
  { handle = "orias", card = "mist_rias", owner = 1, zone = "battle" },
  { handle = "stop", card = "time_stop", zone = "hand" },
  { handle = "d1", card = "spark_spell", zone = "deck" },
  { handle = "d2", card = "spark_spell", owner = 1, zone = "deck" },
]
[[steps]]
do = { player = 0, action = "summon", args = ["@stop"] }
[[steps]]
do = { player = 0, action = "resolve", args = ["!stop"] }
[steps.expect]
fizzled = [{ source = "@rias", reason_contains = "DM-W-20" }, { source = "@orias", reason_contains = "DM-W-20" }]
pending = []
""")
    run.run()
    st = run.engine.state
    assert st.active == 1 and st.turn == 2, "the rest of the turn was skipped"


def test_an_illegal_decision_names_its_rule_and_appends_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = SQLiteStore(tmp_path / "g.db")
    engine = Engine.new(DuelMasters(), ["a", "b"], [DECK_A, DECK_B], 5, store=store, game="g")
    head = store.head("g")
    with pytest.raises(IllegalDecision) as err:
        engine.decide(Decision(1, "charge", (engine.state.zone("1.hand")[0],)))
    assert err.value.rule == "DM-GAME-TURN"
    with pytest.raises(IllegalDecision) as err:
        engine.decide(Decision(0, "resolve", (1,)))
    assert err.value.rule == "DM-W-03"
    assert store.head("g") == head
    assert engine.state.seq == head


def test_every_listed_decision_is_accepted_and_load_restores_mid_choice(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The engine's legal list is honest, and a game restored from its log at any point (even while a
    procedure waits for a choice) continues exactly as the live one does."""
    store = SQLiteStore(tmp_path / "g.db")
    profile = DuelMasters()
    live = Engine.new(profile, ["a", "b"], [DECK_A, DECK_B], 11, store=store, game="g")
    bots = [RandomBot(1), RandomBot(2)]
    restored_mid_choice = 0
    for _ in range(400):
        legal = live.legal()
        if legal.player is None:
            break
        d = bots[legal.player].choose(legal)
        if legal.request is None:
            assert d in legal.decisions
        if legal.request is not None and restored_mid_choice < 25:
            again = Engine.load(profile, store, "g")
            assert again.request == live.request
            restored_mid_choice += 1
        live.decide(d)
    assert restored_mid_choice > 0
    replayed = Engine.replay(profile, list(store.read("g")))
    assert replayed.state == live.state


def test_no_pending_effect_crosses_a_step_boundary() -> None:
    """DM-W-19: whenever a step begins, nothing is pending."""
    from statemachine.demo import play

    engine = play(seed=3)
    timeline = Timeline(engine.store, engine.game)
    steps = [r.seq for r in engine.store.read(engine.game) if isinstance(r.event, ev.StepBegan)]
    assert len(steps) > 20
    for seq in steps:
        assert not timeline.state_at(seq - 1).pending, f"pending effects before the step began at {seq}"


@pytest.mark.parametrize(
    ("card", "field", "message"),
    [
        ('id = "x"\nname = "X"\n[[card.abilities]]\nid = "a"\nlabel = "a"\ntrigger = { on = "explodes" }',
         "$.abilities[0].trigger.on", "unknown trigger"),
        ('id = "x"\nname = "X"\n[[card.abilities]]\nid = "a"\nlabel = "a"\ntrigger = { on = "enters" }\n'
         'effects = [{ name = "drwa" }]', "$.abilities[0].effects[0].name", "unknown effect"),
        ('id = "x"\nname = "X"\n[[card.abilities]]\nid = "a"\nlabel = "a"\ntrigger = { on = "enters" }\n'
         'effects = [{ name = "draw", params = { count = "two" } }]', "$.abilities[0].effects[0].params.count",
         "bad parameters"),
        ('id = "x"\nname = "X"\ncost = "three"', "$.cost", "Expected `int"),
        ('name = "X"', None, "missing required field `id`"),
    ],
)
def test_a_malformed_card_names_file_card_and_field(card: str, field: str | None, message: str) -> None:
    import tomllib

    data = tomllib.loads("[[card]]\n" + card)
    with pytest.raises(CardFileError) as err:
        parse_cards(data, "cards/bad.toml", DM, KINDS)
    assert err.value.file == "cards/bad.toml"
    assert err.value.field == field
    assert message in str(err.value)


def test_a_decision_that_fails_midway_leaves_no_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong inside a decision, the store and the engine are as they were before it."""
    from statemachine.games.duel_masters import effects
    from statemachine.vocabulary import Entry

    run = scenario("""
id = "rollback"
game = "duel_masters"
[setup]
cards = [
  { handle = "rias", card = "mist_rias", zone = "battle" },
  { handle = "raiya", card = "raiya", zone = "hand" },
  { handle = "m", card = "aqua_hulcus", zone = "mana" },
  { handle = "d", card = "spark_spell", zone = "deck" },
  { handle = "od", card = "spark_spell", owner = 1, zone = "deck" },  # both decks hold a card: an empty one loses
]
""")
    engine = run.engine
    engine.decide(Decision(0, "summon", (run.obj("raiya"),)))
    head = engine.store.head(engine.game)
    state_before = copy(engine.state)
    assert engine.request is not None and engine.request.kind == "resolve_next"

    def broken(ctx, p):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug in an effect")
        yield

    from statemachine.games.duel_masters import pieces

    monkeypatch.setitem(effects.DM.effects, "return_to_hand",  # ライヤ's bounce (pool 1.2)
                        Entry("return_to_hand", pieces.ActParams, broken))
    with pytest.raises(RuntimeError):
        engine.decide(Decision(0, "resolve", (run.pending_of("raiya"),)))
    monkeypatch.undo()

    assert engine.store.head(engine.game) == head, "nothing of the failed decision was stored"
    assert engine.state == state_before, "the engine is back where it was"
    assert engine.request is not None and engine.request.kind == "resolve_next"
    engine.decide(Decision(0, "resolve", (run.pending_of("raiya"),)))
    assert engine.request is not None and engine.request.kind == "target", "the game goes on normally"


@pytest.mark.parametrize(("card", "field"), [('id = ""\nname = "X"', "$.id"), ('id = "x"\nname = " "', "$.name")])
def test_a_card_without_an_id_or_name_is_refused(card: str, field: str) -> None:
    import tomllib

    with pytest.raises(CardFileError) as err:
        parse_cards(tomllib.loads("[[card]]\n" + card), "cards/bad.toml", DM, KINDS)
    assert err.value.field == field


def test_a_trigger_filter_of_the_wrong_shape_is_refused_at_load() -> None:
    import tomllib

    card = ('[[card]]\nid = "x"\nname = "X"\n[[card.abilities]]\nid = "a"\nlabel = "a"\n'
            'trigger = { on = "enters", subject = "other", filter = { types = true } }')
    with pytest.raises(CardFileError) as err:
        parse_cards(tomllib.loads(card), "cards/bad.toml", DM, KINDS)
    assert err.value.field == "$.abilities[0].trigger.filter.types"
