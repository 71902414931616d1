"""Deep Sea Adventure (and Boost): what a diver cannot see, resampled for a playout.

Treasure chips lie face down and are carried and banked face down (rulebook, "Pick up"), so
a diver knows the level of every chip but the value only of the chips they hold or banked.
Every other chip's value is redrawn from the values of its level not accounted for by the
diver's own chips: the same multiset of values, dealt again at random.
"""

from __future__ import annotations

import copy
import random

from engines.deep_sea_adventure.state import DeepSeaState


def clone(state: DeepSeaState) -> DeepSeaState:
    """An independent copy; the edition is immutable and shared."""
    facts, state.facts = state.facts, None
    try:
        return copy.deepcopy(state, {id(state.edition): state.edition})
    finally:
        state.facts = facts


def resample(state: DeepSeaState, seat: int, rng: random.Random) -> DeepSeaState:
    """A copy where every chip `seat` has not seen gets a value redrawn within its level."""
    copy_ = clone(state)
    unseen: dict[int, list[int]] = {}

    def collect(item: tuple | None) -> None:
        for level, value in item or ():
            unseen.setdefault(level, []).append(value)

    others = [other for other in range(state.players) if other != seat]
    for item in copy_.path:
        collect(item)
    for other in others:
        for item in copy_.carried[other]:
            collect(item)
        collect(tuple(copy_.banked[other]))
    for values in unseen.values():
        rng.shuffle(values)

    def redeal(item: tuple | None) -> tuple | None:
        if item is None:
            return None
        return tuple((level, unseen[level].pop()) for level, _ in item)

    copy_.path = [redeal(item) for item in copy_.path]
    for other in others:
        copy_.carried[other] = [redeal(item) for item in copy_.carried[other]]
        copy_.banked[other] = list(redeal(tuple(copy_.banked[other])))
    return copy_


def phase(state: DeepSeaState, actions: list[dict]) -> str:
    """The kind of decision, for costs by phase (player pages)."""
    kinds = {action["type"] for action in actions}
    if "turn" in kinds:
        return "turning back"
    if "boost" in kinds:
        return "boosting"
    if "choose" in kinds:
        return "choosing dice"
    if "pick" in kinds:
        return "picking up"
    return "dropping"


def bot_actions(state: DeepSeaState, actions: list[dict]) -> list[dict]:
    """What the montecarlo bot considers: like every bot, it picks up treasure while it
    carries nothing and has not turned (a diver passing forever on the last treasure would
    stall a dive that DSA-8 cannot end)."""
    seat = state.seat
    kinds = {action["type"] for action in actions}
    if "pick" in kinds and not state.carried[seat] and not state.turned[seat]:
        return [action for action in actions if action["type"] == "pick"]
    return actions
