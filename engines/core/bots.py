"""What every game's bots share: the uniformly random player, the `montecarlo` bot and the
name registry."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from engines.core.game import Event, State, Strategy
from engines.registry import montecarlo_reading, montecarlo_search


class RandomStrategy(Strategy):
    name = "random"
    title = "Random bot"
    description = "Any legal event, uniformly at random."

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        return rng.choice(legal)


class MonteCarloStrategy(Strategy):
    """The `montecarlo` bot: the analysis' evaluator choosing its best move at a small
    budget. Each game lists it among its bots (`montecarlo_for(its id)`), so the lab and the
    per-strategy statistics show how it does against the heuristics it uses for its
    playouts; its search (engines.analysis.strategy) is built on the games, so the registry
    loads it when the bot first plays, as it loads games."""

    name = "montecarlo"
    title = "Monte Carlo bot"
    description = (
        "Plays each legal action out 16 times with the game's playout bots (Deep Dive 32, "
        "the other divers played as it saw them play), up to 256 (Deep Dive 1,024) where "
        "the best two are close, and keeps the one that wins most often."
    )
    drawn_at_random = False  # a game costs seconds (Boost 17 CPU s), Deep Vents far more
    game_id: ClassVar[str]

    def __init__(self) -> None:
        # What the search has read of the other seats from their decisions this game (None
        # until one is seen, or where the game's bot does not read the table).
        self.reading: object | None = None

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        return montecarlo_search()(self.game_id, state, legal, rng, self.reading)

    def observe(self, state: State, seat: int, event: Event) -> None:
        self.reading = montecarlo_reading()(self.game_id, self.reading, state, seat, event)


def montecarlo_for(game_id: str) -> type[MonteCarloStrategy]:
    """The montecarlo bot of one game, for that game's list of bots."""
    return type("MonteCarloStrategy", (MonteCarloStrategy,), {"game_id": game_id})


class MixedStrategy(Strategy):
    """A seat of unknown skill: one bot of `pool`, drawn from the game's generator the first
    time the seat decides (each as likely, or as likely as its `weights` say), that plays a
    uniformly random legal event instead `randomness` of the time. Analysis playouts seat it
    everywhere; with a pool of one it is that bot made human-like (the calibration check's
    tables)."""

    name = "mixed"
    drawn_at_random = False
    pool: ClassVar[tuple[type[Strategy], ...]]
    randomness: ClassVar[float]
    weights: ClassVar[tuple[float, ...] | None] = None

    def __init__(self) -> None:
        self.bot: Strategy | None = None
        # The drawn bot's skips_forced, which a bot answers alike all game: playouts ask it
        # at every step. Only once drawn: the first decision draws the bot from the
        # generator, forced or not.
        self.skips = False

    def drawn(self, rng: random.Random) -> Strategy:
        if self.bot is None:
            if len(self.pool) == 1:
                self.bot = self.pool[0]()
            elif self.weights is None:
                self.bot = rng.choice(self.pool)()
            else:
                self.bot = rng.choices(self.pool, weights=self.weights)[0]()
            self.skips = self.bot.skips_forced()
        return self.bot

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        bot = self.bot if self.bot is not None else self.drawn(rng)
        if self.randomness and len(legal) > 1 and rng.random() < self.randomness:
            return rng.choice(legal)
        return bot.choose(state, legal, rng)

    def act_out_of_turn(
        self, state: State, offered: list[Event], rng: random.Random
    ) -> Event | None:
        return self.drawn(rng).act_out_of_turn(state, offered, rng)

    def skips_forced(self) -> bool:
        return self.skips


def mixed_strategy(
    pool: Sequence[type[Strategy]], randomness: float, weights: Sequence[float] | None = None
) -> type[Strategy]:
    """The MixedStrategy of `pool` (at least one bot), `randomness` (0 to 1) and the
    `weights` its bots are drawn with (None: each as likely)."""
    if not pool or not 0 <= randomness <= 1:
        raise ValueError(f"need a pool of bots and randomness in [0, 1], not {randomness}")
    if weights is not None and (len(weights) != len(pool) or min(weights) < 0 or not sum(weights)):
        raise ValueError(f"need a weight of at least 0 for each bot, not all 0: {weights}")
    if len(pool) == 1 and not randomness:
        return pool[0]
    attributes = {
        "pool": tuple(pool),
        "randomness": randomness,
        "weights": None if weights is None else tuple(weights),
    }
    return type("MixedStrategy", (MixedStrategy,), attributes)


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
