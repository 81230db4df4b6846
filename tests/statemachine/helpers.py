"""Small builders for rules tests: a scenario from inline TOML, and bot playouts."""

from __future__ import annotations

import tomllib

import msgspec

from statemachine.scenario import Run, Scenario


def scenario(text: str) -> Run:
    """A scenario run built from TOML text (same format as the scenario files)."""
    return Run(msgspec.convert(tomllib.loads(text), Scenario, strict=True), "<inline>")
