"""Player decisions — the only input to the rules — and the requests that ask for them.

A ``Decision`` is recorded as a ``ChoiceMade`` event, field for field; re-adjudication feeds these back and
nothing else. An illegal decision raises ``IllegalDecision`` naming the rule (a SPEC id) and appends nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec import Struct

from eventsource.errors import KifuError

Arg = int | str


class Decision(Struct, frozen=True):
    """``player`` does ``action`` with ``args`` (object ids, effect ids, option values)."""

    player: int
    action: str
    args: tuple[Arg, ...] = ()

    def __str__(self) -> str:
        return f"P{self.player} {self.action}{' ' + ' '.join(map(str, self.args)) if self.args else ''}"


def _as_list(options: Sequence[Arg]) -> str:
    return str(list(options))


class Request(Struct, frozen=True):
    """A choice the rules need from a player in the middle of a procedure (a target, a "may", an order)."""

    player: int
    kind: str
    prompt: str
    options: tuple[Arg, ...] = ()
    minimum: int = 1
    maximum: int = 1
    effect: int | None = None
    rule: str = ""  # the SPEC id that makes this a choice
    action: str = "choose"  # the action that answers it ("resolve" when picking the next effect)
    weights: tuple[int, ...] = ()  # with max_total: each option's weight (a cost) and the most they may add to
    max_total: int | None = None

    def accepts(self, chosen: tuple[Arg, ...], listed: Callable[[Sequence[Arg]], str] = _as_list) -> str | None:
        """Why ``chosen`` does not answer this request, or None if it does. ``listed`` shows a list of options
        (the engine passes one that names their ids, ``statemachine.naming``)."""
        if not self.minimum <= len(chosen) <= self.maximum:
            return f"choose between {self.minimum} and {self.maximum} of {listed(self.options)}, not {len(chosen)}"
        if len(set(chosen)) != len(chosen):
            return "the same option was chosen twice"
        bad = [c for c in chosen if c not in self.options]
        if bad:
            return f"{listed(bad)} are not among the options {listed(self.options)}"
        if self.max_total is not None and self.weights:
            total = sum(self.weights[self.options.index(c)] for c in chosen)
            if total > self.max_total:
                return f"the chosen options add up to {total}, more than {self.max_total}"
        return None


class IllegalDecision(KifuError):
    """A decision that is not legal now. ``rule`` is the SPEC id it breaks."""

    def __init__(self, decision: Decision, rule: str, reason: str) -> None:
        super().__init__(f"illegal decision {decision}: {reason} [{rule}]")
        self.decision = decision
        self.rule = rule
        self.reason = reason
        self.named = str(decision)  # the decision with the names of its ids, as its player knows them

    def name(self, named: str) -> None:
        """Show the decision as ``named`` in the message: the engine names the ids of every refusal it raises
        (``statemachine.naming``)."""
        self.named = named
        self.args = (f"illegal decision {named}: {self.reason} [{self.rule}]",)


def object_arg(decision: Decision, i: int) -> int:
    """Argument ``i`` of a decision, which must be an object id (KIFU-ARGS otherwise)."""
    try:
        return int(decision.args[i])
    except (IndexError, ValueError) as exc:
        raise IllegalDecision(decision, "KIFU-ARGS", f"argument {i + 1} must be an object id") from exc


class Legal(Struct, frozen=True):
    """Who must decide now and what they may do: what a UI, a bot or a simulator needs."""

    player: int | None
    decisions: tuple[Decision, ...] = ()
    request: Request | None = None

    def __bool__(self) -> bool:
        return self.player is not None
