"""A decision as ``kifu decide`` lists and reads it: the legal decisions numbered and named as the deciding player
knows the game, and the words a user types (a number of the listing, or ACTION ARGS...) turned into a decision."""

from __future__ import annotations

import re
from collections.abc import Sequence

from statemachine.decisions import Arg, Decision, Legal
from statemachine.engine import Engine
from statemachine.naming import Names
from tools.errors import BadInput
from tools.logs.seats import seat_of
from tools.travel.trace import Memory, names, player_name


def decision_text(engine: Engine, d: Decision, mem: Memory | None = None) -> str:
    """``ACTION ARGS`` as typed on the command line, then what its ids name, as the deciding player knows them."""
    typed = " ".join([d.action, *map(str, d.args)])
    named = names(engine.state, mem, d.player).named_args(d)
    return typed + (f"   ({', '.join(named)})" if named else "")


def listing_lines(engine: Engine, legal: Legal, where: str, mem: Memory | None = None) -> list[str]:
    """The legal decisions as ``kifu decide`` numbers them: the request a player must answer, named as that
    player knows the game (an opponent's face-down shield or hand card keeps its bare id)."""
    st = engine.state
    head = f"record {st.seq}, turn {st.turn}" + (f", {st.step}" if st.step else "")
    if st.ended:
        winner = player_name(st, st.winner) if st.winner is not None else "nobody"
        return [f"{head}: the game is over ({winner} won); there is nothing to decide"]
    assert legal.player is not None
    n = len(legal.decisions)
    lines = [f"{head}: {player_name(st, legal.player)} ({legal.player}) to decide"
             + (f", {n} legal decision{'s' if n != 1 else ''}" if n else "")]
    req = legal.request
    if req is not None:
        options = ", ".join(names(st, mem, legal.player).options(req.kind, req.options))
        rule = f" [{req.rule}]" if req.rule else ""
        lines.append(f"  asked: {req.prompt or req.kind}{rule}: choose {req.minimum} to {req.maximum} of {options}")
        if req.maximum > 1:
            lines.append(f"  (several at once: kifu decide {where} {req.action} OPTION OPTION ...)")
        if not legal.decisions:
            return lines
    width = len(str(len(legal.decisions) - 1))
    lines += [f"  {i:>{width}}  {decision_text(engine, d, mem)}" for i, d in enumerate(legal.decisions)]
    lines.append(f"play one: kifu decide {where} NUMBER, or ACTION ARGS...")
    return lines


def parse_args(words: Sequence[str], nm: Names) -> tuple[Arg, ...]:
    """A decision's arguments as typed: numbers, ids as the listing prints them (``name#12``, ``Bob (-2)``),
    any other word as given."""
    out: list[Arg] = []
    for w in words:
        if re.fullmatch(r"-?\d+", w):
            out.append(int(w))
            continue
        try:
            oid = nm.read(w)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        out.append(w if oid is None else oid)
    return tuple(out)


def choose_decision(engine: Engine, legal: Legal, words: tuple[str, ...], player: str | None) -> Decision:
    """The decision ``words`` name, as ``kifu decide`` reads them: a number of the listing, or ACTION ARGS...
    (as ``player``, else as the player the rules wait for)."""
    if len(words) == 1 and words[0].isdecimal():
        i = int(words[0])
        if i >= len(legal.decisions):
            raise BadInput(f"there are {len(legal.decisions)} legal decisions (0 to {len(legal.decisions) - 1}); "
                           f"no decision {i} (kifu decide lists them)")
        return legal.decisions[i]
    names = [p.name for p in engine.state.players]
    who = seat_of(names, player) if player is not None else None
    if who is None:
        who = legal.player if legal.player is not None else 0
    return Decision(who, words[0], parse_args(words[1:], engine.names(who)))
