"""Deep Dive: nothing to resample. The state never knows what an unopened shell holds: its
contents are a chance event drawn when it is opened (DD-4), so each playout draws them
afresh, like the dice."""

from __future__ import annotations

import copy
import random

from engines.deep_dive.state import DeepDiveState


def clone(state: DeepDiveState) -> DeepDiveState:
    facts, state.facts = state.facts, None
    try:
        return copy.deepcopy(state, {id(state.edition): state.edition})
    finally:
        state.facts = facts


def resample(state: DeepDiveState, seat: int, rng: random.Random) -> DeepDiveState:
    return clone(state)


def phase(state: DeepDiveState, actions: list[dict]) -> str:
    return "surfacing"


def bot_actions(state: DeepDiveState, actions: list[dict]) -> list[dict]:
    """What the montecarlo bot considers: every legal action."""
    return actions
