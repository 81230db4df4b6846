"""Names beside ids: the one place that says, for people, what an object, effect or player id stands for in a
request, a decision, a refusal or a trace line (``93`` as ``早撃人形マグナム#93``, effect ``3`` as
``#3 自分のクリーチャーが破壊された時 from クリーチャーA#109``).

Everything is read against one state, the state at that moment: an object in play by its card's name, one that
left by its look-back name, and one gone past look-back by the card a reader remembers it as (``card_of``, a
trace's memory). A scenario names cards by its handles instead (``handle``). Read as one player sees the game
(``viewer``), an object whose identity is hidden from them (an opponent's hand card, a face-down shield, any
deck card) keeps its bare id: its name is the secret (``projections.views.sees``).

Which arguments of an action and which options of a request are ids, and of what, is each game's to say
(``RulesProfile.action_args``, ``RulesProfile.option_kinds``): an integer is an object id unless the game says
it is an ``effect`` id or a plain ``value``; a negative one, where an object is expected, is a player
(``-1 - player``, the kernel's convention for targets); a string is shown as given.

A pending effect is shown by its label; an ability that triggered and waits to be placed has none recorded yet
(Magic's waiting triggers, MTG-P-08), so its label is read from the card pool (its ability's ``label``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol, Union

from projections.state import GameObject, GameState, Pending
from projections.views import SECRET_ZONES, sees

if TYPE_CHECKING:
    from statemachine.cards import CardPool
    from statemachine.decisions import Arg, Decision

OBJECT, EFFECT, VALUE = "object", "effect", "value"
HIDDEN_CARD = "a hidden card"
ARG_KINDS = (OBJECT, EFFECT, VALUE)


class Declares(Protocol):
    """What a game declares for naming (a ``RulesProfile``, or its class): see the module's docstring."""

    @property
    def action_args(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def option_kinds(self) -> Mapping[str, str]: ...

    @property
    def request_words(self) -> Mapping[str, str]: ...

    @property
    def hidden_zones(self) -> frozenset[str]: ...


class Declared(NamedTuple):
    """A game's declarations read off its profile class (for readers that hold no profile, only a log)."""

    action_args: Mapping[str, tuple[str, ...]]
    option_kinds: Mapping[str, str]
    hidden_zones: frozenset[str]
    request_words: Mapping[str, str]


PoolSource = Union["CardPool", Callable[[], "CardPool | None"], None]


_PRINTED = (re.compile(r"(.*)#(\d+)", re.S), re.compile(r"@(.+) \(#(\d+)\)", re.S),
            re.compile(r"(.+) \((-\d+)\)", re.S))


def printed_id(text: str) -> tuple[str, int] | None:
    """``text`` split into a name and the id it was printed beside (``name#id``, ``#id`` with no name,
    ``@handle (#id)``, ``Bob (-2)``); None where it is no printed id."""
    for form in _PRINTED:
        m = form.fullmatch(text)
        if m is not None:
            return m.group(1), int(m.group(2))
    return None


class Names:
    """Names for the ids of ``state``, as ``viewer`` (None: an omniscient judge) may know them."""

    __slots__ = ("_pool", "card_of", "game", "handle", "state", "viewer")

    def __init__(self, state: GameState, *, viewer: int | None = None, game: Declares | None = None,
                 pool: PoolSource = None, card_of: Mapping[int, int] | None = None,
                 handle: Callable[[int], str] | None = None) -> None:
        self.state = state
        self.viewer = viewer
        self.game = game  # the game's declarations (None: every integer is an object id, decks hidden)
        self._pool = pool  # the card pool the game is played with, or how to get it when a label is wanted
        self.card_of = card_of  # object id -> card id, for objects gone past look-back
        self.handle = handle  # card id -> the name a scenario gives it

    # -- single ids -------------------------------------------------------------------------------------

    def player(self, p: int | None) -> str:
        if p is None:
            return "nobody"
        players = self.state.players
        return players[p].name if 0 <= p < len(players) else f"player {p}"

    def card(self, card: int) -> str:
        if self.handle is not None:
            return self.handle(card)
        facts = self.state.cards.get(card)
        if facts is not None:
            return facts.printed.name
        return HIDDEN_CARD if card < 0 else f"card {card}"  # a redacted move names no card (-1)

    def _object(self, oid: int) -> tuple[GameObject | None, int | None]:
        """The object now or as it last was, and its card (the card alone when only remembered)."""
        st = self.state
        obj = st.objects.get(oid)
        if obj is None:
            lk = st.last_known.get(oid)
            obj = lk.obj if lk is not None else None
        if obj is not None:
            return obj, obj.card
        return None, self.card_of.get(oid) if self.card_of is not None else None

    def known(self, oid: int) -> int | None:
        """The card of ``oid`` if it may be named for the viewer (an object they may see, now or as it last
        was); None for one hidden from them, or one nobody remembers."""
        obj, card = self._object(oid)
        if card is None or self.viewer is None:
            return card
        hidden = self.game.hidden_zones if self.game is not None else SECRET_ZONES
        return card if obj is not None and sees(obj, self.viewer, hidden=hidden) else None

    def obj(self, oid: int) -> str:
        """``name#id`` (a scenario's ``@handle (#id)``: its handles may hold a ``#``); ``#id`` alone for an
        object the viewer may not identify, or one nobody remembers; a player where one stands for an object
        (``-1 - player``: a target, a choice, a reveal of what a player holds)."""
        if oid < 0:
            return self.player(-1 - oid)
        card = self.known(oid)
        if card is None:
            return f"#{oid}"
        return f"{self.handle(card)} (#{oid})" if self.handle is not None else f"{self.card(card)}#{oid}"

    def target(self, t: int) -> str:
        """An object, or a player where a target may be one (``-1 - player``)."""
        return self.obj(t)

    def label(self, pend: Pending) -> str:
        """What a pending effect does: its recorded label, else its ability's label in the card pool, else the
        ability id."""
        return pend.label or self.ability_label(pend.source_card, pend.ability) or pend.ability

    def ability_label(self, card: int, ability: str) -> str:
        """The label of ``card``'s ability ``ability`` in the card pool ("" where there is none to read)."""
        pool = self.pool()
        facts = self.state.cards.get(card)
        cdef = pool.cards.get(facts.definition) if pool is not None and facts is not None else None
        for a in cdef.abilities if cdef is not None else ():
            if a.id == ability:
                return a.label
        return ""

    def effect(self, eid: int) -> str:
        """``#id label from source#id`` for a pending effect; ``#id`` once it is gone."""
        pend = self.state.pending.get(eid)
        if pend is None:
            return f"#{eid}"
        text = f"#{eid} {self.label(pend)}"
        return text + (f" from {self.obj(pend.source)}" if pend.source >= 0 else "")

    def pool(self) -> CardPool | None:
        if callable(self._pool):
            self._pool = self._pool()
        return self._pool

    # -- reading back what was printed ----------------------------------------------------------------------

    def read(self, text: str) -> int | None:
        """The id ``text`` names when written as these names print it: an object as ``name#id``, ``#id`` or
        ``@handle (#id)``, a player standing for an object as ``Bob (-2)``; None for any other text (a literal
        option, a bare number). A name that is not the id's, as this viewer knows it, is a ``ValueError``."""
        effect = re.fullmatch(r"#(\d+) .+", text, re.S)
        if effect is not None and self.effect(int(effect.group(1))) == text:
            return int(effect.group(1))  # a pending effect as printed: "#3 label from source#109"
        printed = printed_id(text)
        if printed is None:
            return None
        name, oid = printed
        shown = self.value(oid)
        if name and text != shown:
            raise ValueError(f"{text!r} names #{oid}, which is {shown}" if oid >= 0 else
                             f"{text!r}: player {-1 - oid} is {shown}")
        return oid

    # -- arguments and options ----------------------------------------------------------------------------

    def value(self, v: Arg, kind: str = OBJECT) -> str:
        """One argument or option as shown: an id with its name, anything else as given."""
        if isinstance(v, str) or kind == VALUE:
            return str(v)
        if kind == EFFECT:
            return self.effect(v)
        return f"{self.player(-1 - v)} ({v})" if v < 0 else self.obj(v)

    def request(self, request_kind: str) -> str:
        """What a request asks for, in its game's words (``RulesProfile.request_words``), never an identifier."""
        words = self.game.request_words.get(request_kind) if self.game is not None else None
        return words or request_kind.replace("_", " ")

    def option_kind(self, request_kind: str) -> str:
        return self.game.option_kinds.get(request_kind, OBJECT) if self.game is not None else OBJECT

    def options(self, request_kind: str, options: Iterable[Arg]) -> list[str]:
        """A request's options, each named as the game says that request's options are."""
        kind = self.option_kind(request_kind)
        return [self.value(o, kind) for o in options]

    def arg_kinds(self, action: str, n: int) -> list[str]:
        """What each of ``n`` arguments of ``action`` is: the open request's option kind when one is open (a
        decision then answers it), else the game's declaration for the action (the last kind repeats)."""
        req = self.state.request
        if req is not None:
            return [self.option_kind(req.kind)] * n
        declared = self.game.action_args.get(action, (OBJECT,)) if self.game is not None else (OBJECT,)
        return [declared[min(i, len(declared) - 1)] for i in range(n)]

    def args(self, action: str, args: tuple[Arg, ...]) -> list[str]:
        """A decision's arguments, each with its name where it is an id."""
        return [self.value(a, k) for a, k in zip(args, self.arg_kinds(action, len(args)), strict=True)]

    def named_args(self, d: Decision) -> list[str]:
        """The names of a decision's ids (an id the viewer may not identify, or a plain value, has none)."""
        return [text for a, text in zip(d.args, self.args(d.action, d.args), strict=True)
                if not isinstance(a, str) and text not in (str(a), f"#{a}")]

    def decision(self, d: Decision) -> str:
        """A decision as typed (``P0 summon 93``), then the names of its ids: ``(早撃人形マグナム#93)``."""
        named = self.named_args(d)
        return f"{d}" + (f" ({', '.join(named)})" if named else "")


__all__ = ["ARG_KINDS", "EFFECT", "OBJECT", "VALUE", "Declared", "Declares", "Names", "PoolSource", "printed_id"]
