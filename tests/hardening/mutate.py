"""Structural damage to decoded TOML data (cards, scenarios), drawn by hypothesis."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st


def _deep(depth: int) -> Any:
    out: Any = {}
    for _ in range(depth):
        out = {"x": [out]}
    return out


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=6), st.text(max_size=6), max_size=3),
    st.sampled_from([2**63, -(2**63) - 1, 2**200, -1, 0, 1e308, "", "self", "enters", "draw", "@nobody", "!x",
                     "0.hand", "battle", [[[]]], {"name": "draw"}]),
    st.sampled_from([10, 100, 200]).map(_deep),
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, data: Any, max_mutations: int = 3) -> Any:
    out = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, max_mutations))):
        path = draw(st.sampled_from(paths(out)))
        if not path:
            continue
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = draw(st.sampled_from(["replace", "delete", "add", "duplicate"]))
        if op == "replace":
            parent[key] = draw(JUNK)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(JUNK)
        elif op == "add" and isinstance(parent, list):
            parent.insert(key, draw(JUNK))
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return out
