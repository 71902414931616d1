"""What every game's bots share: the uniformly random player and the name registry."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines.core.game import Event, State, Strategy


class RandomStrategy(Strategy):
    name = "random"
    title = "Random bot"
    description = "Any legal event, uniformly at random."

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        return rng.choice(legal)


def by_name(*strategies: type[Strategy]) -> dict[str, type[Strategy]]:
    """A game's strategies keyed by their names (what logs and the CLI use)."""
    return {strategy.name: strategy for strategy in strategies}


def drawable(strategies: Mapping[str, type[Strategy]]) -> list[str]:
    """The names random line-ups draw from, sorted (slow bots play only when named)."""
    return sorted(name for name, strategy in strategies.items() if strategy.drawn_at_random)


def bot_player_names(strategies: Sequence[str], titles: Mapping[str, str]) -> list[str]:
    """Players' names for bots at one table, as people read them: "Random bot", and
    "Random bot 2" for a second one (one table never seats the same name twice)."""
    names: list[str] = []
    for strategy in strategies:
        title = titles[strategy]
        count = sum(1 for earlier in strategies[: len(names)] if titles[earlier] == title)
        names.append(title if count == 0 else f"{title} {count + 1}")
    return names
