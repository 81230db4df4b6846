"""Scenario files: set up any board, script the decisions, assert what must hold — a judge's reproduction of a
situation and a test, in one TOML file (format documented in docs/scenarios.md).

``model`` is the file format, read and checked; ``setup`` turns the set-up into the events of a board;
``expect`` holds every expectation key; ``run`` runs the steps.
"""

from __future__ import annotations

from statemachine.scenario.expect import EXPECTATIONS
from statemachine.scenario.model import (
    CardSpec,
    Do,
    EffectSpec,
    Failure,
    Refusal,
    Result,
    Scenario,
    ScenarioError,
    Setup,
    SetupRefused,
    Step,
)
from statemachine.scenario.run import Run, files, load, run_file

__all__ = ["EXPECTATIONS", "CardSpec", "Do", "EffectSpec", "Failure", "Refusal", "Result", "Run", "Scenario",
           "ScenarioError", "Setup", "SetupRefused", "Step", "files", "load", "run_file"]
