"""Bots for Deep Sea Adventure and Boost.

Every deterministic bot picks up treasure while it carries nothing and has not
turned, so bot games always end (a diver passing forever on the last treasure
would stall a dive that DSA-8 cannot end).
"""

from __future__ import annotations

import math
import random
from typing import ClassVar

from engines.core.bots import RandomStrategy, by_name
from engines.core.game import Event, State, Strategy
from engines.deep_sea_adventure.edition import roll_outcomes
from engines.deep_sea_adventure.state import DeepSeaState


def expected_roll(state: DeepSeaState) -> float:
    """The mean distance of the next roll, before subtracting chips carried."""
    edition = state.edition
    if state.boosting:
        outcomes = roll_outcomes(edition.boost_dice)
        return sum(sum(faces) * chance for faces, chance in outcomes)
    if state.choose_two:
        outcomes = roll_outcomes(edition.boost_dice)
        return sum((sum(faces) - min(faces)) * chance for faces, chance in outcomes)
    return sum(sum(faces) * chance for faces, chance in roll_outcomes(edition.dice))


def treasure_deeper(state: DeepSeaState) -> bool:
    return any(state.path[state.position[state.seat] :])


class Diver(Strategy):
    """A bot that answers three questions: turn back? boost? pick up?"""

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        assert isinstance(state, DeepSeaState)
        options = {event["type"]: event for event in legal}
        if "swim" in options:
            if "turn" in options and self.wants_turn(state):
                return options["turn"]
            if "boost" in options and self.wants_boost(state):
                return options["boost"]
            return options["swim"]
        if "choose" in options:
            return max(legal, key=lambda event: sum(event["dice"]))
        seat = state.seat
        carrying = len(state.carried[seat])
        if (
            "pick" in options
            and not state.turned[seat]
            and (carrying == 0 or self.wants_pick(state))
        ):
            return options["pick"]
        return options["pass"]

    def wants_turn(self, state: DeepSeaState) -> bool:
        return False

    def wants_boost(self, state: DeepSeaState) -> bool:
        return False

    def wants_pick(self, state: DeepSeaState) -> bool:
        return False


class GrabThenTurn(Diver):
    """Picks up the first k treasures it lands on, then turns back."""

    grab: ClassVar[int]

    def wants_turn(self, state: DeepSeaState) -> bool:
        return len(state.carried[state.seat]) >= self.grab or not treasure_deeper(state)

    def wants_pick(self, state: DeepSeaState) -> bool:
        return len(state.carried[state.seat]) < self.grab


class GrabTwoThenTurn(GrabThenTurn):
    name = "grab-2-then-turn"
    description = "Picks up the first 2 treasures it lands on, then turns back."
    grab = 2


class GrabThreeThenTurn(GrabThenTurn):
    name = "grab-3-then-turn"
    description = "Picks up the first 3 treasures it lands on, then turns back."
    grab = 3


class AirAware(Diver):
    """Turns back once the air left could not bring it home; never boosts."""

    name = "air-aware"
    description = "Picks up while the air allows, turns back when it could no longer get home."

    def air_needed(self, state: DeepSeaState, extra: int = 0) -> float:
        """Air the table breathes while this diver swims home carrying `extra` more chips."""
        seat = state.seat
        step = max(0.5, expected_roll(state) - len(state.carried[seat]) - extra)
        turns = math.ceil(state.position[seat] / step)
        in_water = [s for s in range(state.players) if not state.returned[s]]
        drain = sum(len(state.carried[s]) for s in in_water) + extra
        return turns * max(drain, 1)

    def wants_turn(self, state: DeepSeaState) -> bool:
        return state.air <= self.air_needed(state) + 3 or not treasure_deeper(state)

    def wants_pick(self, state: DeepSeaState) -> bool:
        return state.air > self.air_needed(state, extra=1) + 4


class AirAwareBoost(AirAware):
    name = "air-aware-boost"
    description = "The air-aware diver, boosting on the way home while air is left."

    def wants_boost(self, state: DeepSeaState) -> bool:
        return state.turned[state.seat] and state.air > 2


class AlwaysBoost(GrabTwoThenTurn):
    name = "always-boost"
    description = "Grabs 2 treasures then turns back, boosting every turn."

    def wants_boost(self, state: DeepSeaState) -> bool:
        return True


DSA_STRATEGIES = by_name(RandomStrategy, GrabTwoThenTurn, GrabThreeThenTurn, AirAware)
BOOST_STRATEGIES = by_name(
    RandomStrategy, GrabTwoThenTurn, GrabThreeThenTurn, AirAware, AirAwareBoost, AlwaysBoost
)
