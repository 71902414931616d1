"""Deep Dive bots. Chance events are rolled by the simulator; bots only surface or stay."""

from __future__ import annotations

import random

from engines.core.bots import RandomStrategy, by_name
from engines.core.game import Event, State, Strategy
from engines.deep_dive.state import DeepDiveState


def _decision(legal: list[Event], kind: str) -> Event:
    return next(event for event in legal if event["type"] == kind)


class SurfaceAfterK(Strategy):
    """Surfaces as soon as it holds at least `k` unopened shells."""

    k: int

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        assert isinstance(state, DeepDiveState)
        held = state.held[state.current_seat()]
        return _decision(legal, "surface" if held >= self.k else "stay")


class SurfaceAfter2(SurfaceAfterK):
    name = "surface-after-2"
    description = "Surfaces once holding 2 or more shells."
    k = 2


class SurfaceAfter3(SurfaceAfterK):
    name = "surface-after-3"
    description = "Surfaces once holding 3 or more shells."
    k = 3


class RiskAware(Strategy):
    """Stays while one more pass is worth the shark's risk in expected shells.

    Staying then surfacing keeps (1 - p) * (held + expected draw), p being the chance
    that the shark die shows the section the next colour roll lands in; surfacing now
    keeps `held`. Every unopened shell is equally likely to hold a white pearl, so
    comparing shells compares expected white pearls. Once the game is ending (4th black
    pearl, DD-5) no shark comes again and staying costs nothing.
    """

    name = "risk-aware"
    description = "Stays while (1 - shark odds) x (held + expected draw) beats surfacing now."

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        assert isinstance(state, DeepDiveState)
        if state.ending:
            return _decision(legal, "stay")
        held = state.held[state.current_seat()]
        keep_if_staying = (1 - state.edition.shark_hit_probability()) * (
            held + state.expected_draw()
        )
        return _decision(legal, "stay" if keep_if_staying > held else "surface")


STRATEGIES = by_name(RandomStrategy, SurfaceAfter2, SurfaceAfter3, RiskAware)
