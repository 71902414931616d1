"""What every game's bots share: the uniformly random player and the name registry."""

from __future__ import annotations

import random
from collections.abc import Mapping

from engines.core.game import Event, State, Strategy


class RandomStrategy(Strategy):
    name = "random"
    description = "Any legal event, uniformly at random."

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        return rng.choice(legal)


def by_name(*strategies: type[Strategy]) -> dict[str, type[Strategy]]:
    """A game's strategies keyed by their names (what logs and the CLI use)."""
    return {strategy.name: strategy for strategy in strategies}


def drawable(strategies: Mapping[str, type[Strategy]]) -> list[str]:
    """The names random line-ups draw from, sorted (slow bots play only when named)."""
    return sorted(name for name, strategy in strategies.items() if strategy.drawn_at_random)
