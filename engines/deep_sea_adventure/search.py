"""Deep Sea Adventure (and Boost) for a searching player: what a diver cannot see, resampled
for a playout; the kinds of decision; what the montecarlo bot weighs.

Treasure chips lie face down and are carried and banked face down (rulebook, "Pick up"), so
a diver knows the level of every chip but the value only of the chips they hold or banked.
Every other chip's value is redrawn from the values of its level not accounted for by the
diver's own chips: the same multiset of values, dealt again at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.core.game import Event
from engines.deep_sea_adventure.state import DeepSeaState, Item


def resample(state: DeepSeaState, seat: int, rng: random.Random) -> DeepSeaState:
    """A copy where every chip `seat` has not seen gets a value redrawn within its level."""
    copy_ = state.clone()
    unseen: dict[int, list[int]] = {}

    def collect(item: Sequence | None) -> None:
        for level, value in item or ():
            unseen.setdefault(level, []).append(value)

    others = [other for other in range(state.players) if other != seat]
    for item in copy_.path:
        collect(item)
    for other in others:
        for item in copy_.carried[other]:
            collect(item)
        collect(copy_.banked[other])
    for values in unseen.values():
        values.sort()  # where the unseen values lay is hidden too: only the multiset counts
        rng.shuffle(values)

    def redeal(item: Sequence | None) -> Item | None:
        if item is None:
            return None
        return tuple((level, unseen[level].pop()) for level, _ in item)

    copy_.path = [redeal(item) for item in copy_.path]
    for other in others:
        copy_.carried[other] = [redeal(item) for item in copy_.carried[other]]
        copy_.banked[other] = list(redeal(copy_.banked[other]) or ())
    return copy_


def phase(actions: Sequence[Event]) -> str:
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


def search_actions(state: DeepSeaState, actions: list[Event]) -> list[Event]:
    """What the montecarlo bot weighs: like every bot, it picks up treasure while it carries
    nothing and has not turned (a diver passing forever on the last treasure would stall a
    dive that DSA-8 cannot end)."""
    seat = state.seat
    kinds = {action["type"] for action in actions}
    if "pick" in kinds and not state.carried[seat] and not state.turned[seat]:
        return [action for action in actions if action["type"] == "pick"]
    return actions
