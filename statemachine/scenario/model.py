"""The scenario file format as typed data, read and checked before anything runs (docs/scenarios.md).

Everything a file names is checked when it is read: its ``id`` equals its file name, each expectation key is
one kifu knows, an event row names a known event kind and that kind's fields, and no expectation is empty
(``request = {}`` would check nothing). Such a file is unusable input (``ScenarioError``, exit 2), not a
failed scenario (exit 1).
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field

from eventsource.errors import KifuError


class ScenarioError(KifuError):
    """A scenario file that cannot be read or set up (not a failed expectation)."""


class SetupRefused(ScenarioError):
    """A set-up that states a board the game cannot be in, refused naming the rule it breaks (``rule``): what a
    scenario with ``refused`` expects."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class CardSpec(Struct, forbid_unknown_fields=True):
    card: str
    handle: str = ""
    owner: int = 0
    zone: str = ""  # default: the game's home zone (where its permanents' abilities work)
    tapped: bool = False
    sick: bool = False
    under: list[str] = field(default_factory=list)  # the handles of the cards under it (each under one card)
    ignored: bool = False  # its abilities are being ignored (a continuous effect)
    power: int = 0  # a power modification in force
    face_down: bool | None = None
    toughness: int = 0  # a toughness (defense) modification in force
    status: dict[str, int] = field(default_factory=dict)  # statuses set on it: damage, evolved, countdown...


class EffectSpec(Struct, forbid_unknown_fields=True):
    """An effect placed directly in the set-up: waiting in the pool, on the stack, in the chain or the queue,
    as if its ability had triggered (a ``Triggered`` and an ``EffectPending`` event), in the order listed."""

    source: str  # the handle of the card whose ability it is
    ability: str  # the ability's id on that card
    controller: int | None = None  # default: the source card's owner
    holder: str = ""  # default: the game's (pool, stack, chain, queue)
    subject: str = ""  # the handle of the card the trigger is about ("that creature"), if any
    targets: list[str] = field(default_factory=list)  # handles (or player0/player1) chosen for it
    label: str = ""  # default: the ability's label


class Setup(Struct, forbid_unknown_fields=True):
    players: list[str] = field(default_factory=lambda: ["you", "opponent"])
    turn: int = 1
    active: int = 0
    step: str = "main"
    cards: list[CardSpec] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)  # "0.life" = 20
    effects: list[EffectSpec] = field(default_factory=list)


class Do(Struct, forbid_unknown_fields=True):
    player: int
    action: str
    args: list[Any] = field(default_factory=list)


class Step(Struct, forbid_unknown_fields=True):
    note: str = ""
    do: Do | None = None
    reject: str = ""  # the decision must be refused, naming this rule id
    expect: dict[str, Any] = field(default_factory=dict)


class Scenario(Struct, forbid_unknown_fields=True):
    id: str
    game: str
    title: str = ""
    checks: list[str] = field(default_factory=list)
    note: str = ""
    seed: int = 1
    rules: str = ""  # the rules version it runs under ("1.0"); empty: the newest installed
    options: dict[str, str] = field(default_factory=dict)
    refused: str = ""  # the set-up must be refused, naming this rule (a board the game cannot be in); no steps
    setup: Setup = field(default_factory=Setup)
    card: list[dict[str, Any]] = field(default_factory=list)  # inline cards, as in a card file
    steps: list[Step] = field(default_factory=list)


class Failure(Exception):
    def __init__(self, step: int, message: str, context: str) -> None:
        super().__init__(f"step {step}: {message}\n{context}")
        self.step, self.message, self.context = step, message, context


class Refusal(Struct, frozen=True):
    """A decision a step tried that the rules refused: nothing was appended, so its log holds no trace of it.
    ``seq`` is the point it was tried at (the state just after that record)."""

    step: int
    seq: int
    player: int
    decision: str
    rule: str
    reason: str


class Result(Struct, frozen=True):
    id: str
    path: str
    ok: bool
    message: str = ""
    step: int = 0  # the step whose expectation failed (0: none, or the set-up)
    seq: int = 0  # the last record of the scenario's log when it stopped
    refusals: tuple[Refusal, ...] = ()  # the decisions the rules refused on the way (expected or not)
