"""How each seat plays, read from its decisions so far: the playout bot it gets.

Without a history (the turn-back advisor, the montecarlo bot) an analysis seats the game's
playout mix everywhere (`Game.playout_strategy`): a bot of the pool drawn per seat and
playout, a fifth of its moves random. A log tells more. Every seat may be any bot of the
pool playing steadily (never at random) or erratically (`Game.playout_randomness` of its
moves at random; a game may read its seats as other bots and randomness than its playout
pool's, `Game.reading_pool` and `Game.reading_randomness`); each of these readings starts
equally likely and, at each decision of the seat, is weighed by the chance it gives the move
played:

    (1 - randomness) * [the bot plays it] + randomness / (the legal moves).

A playout then draws each seat's reading by its weight (Bayes' rule), so a seat that always
turned back with two chips plays on in the playouts as one that does, and a steady table
plays steadily. Measured with benchmarks/calibration.py (issue 24): at Deep Sea Adventure
the one mix everywhere forecast the seats of a competitive table as if each were anyone,
and every decider as if it might stop playing as it did; its skill stayed under 0.3.

The pool's bots decide deterministically (their choice is read once per decision); only
the events a seat decides in its turn are read, not out-of-turn ones. A game reads the table
only where the calibration check measured it (`Game.playout_reads_table`); elsewhere every
seat plays the game's playout bot, as without a history.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engines.core.bots import mixed_strategy
from engines.core.game import Game, Strategy

if TYPE_CHECKING:  # the evaluator reads the table through this module
    from engines.analysis.evaluator import DecisionPoint

# Never read a choice with a generator the replay shares: the pool's bots ignore it anyway.
READING_SEED = "table-reading"


class TableReading:
    """Each seat's weights over the readings (a pool bot at a randomness), from the seat's
    decisions observed so far."""

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        erratic = (
            game.playout_randomness if game.reading_randomness is None else game.reading_randomness
        )
        levels = sorted({0.0, erratic})
        self.readings = [
            (game.strategies[name], randomness)
            for name in game.reading_pool or game.playout_pool
            for randomness in levels
        ]
        self.weights = [[1.0] * len(self.readings) for _ in range(players)]

    def observe(self, point: DecisionPoint) -> None:
        """Weigh the deciding seat's readings by the chance each gives the move played."""
        state = point.state
        if not self.game.playout_reads_table or state.current_seat() != point.seat:
            return
        legal = state.decision_actions()
        if len(legal) < 2:
            return
        choices = {
            bot: bot().choose(state, legal, random.Random(READING_SEED)) for bot, _ in self.readings
        }
        weights = self.weights[point.seat]
        for i, (bot, randomness) in enumerate(self.readings):
            plays = choices[bot] == point.played
            weights[i] *= (1 - randomness) * plays + randomness / len(legal)
        total = sum(weights)
        if total == 0:  # no reading plays as the seat did: what is known of it is the pool
            weights[:] = [1.0] * len(weights)
        else:  # normalised, so a long game does not run the products down to 0
            weights[:] = [w / total for w in weights]

    def seats(self) -> list[type[Strategy]]:
        """The playout bot of each seat: its readings drawn by their weights (the game's
        playout bot everywhere, for a game that does not read the table)."""
        if not self.game.playout_reads_table:
            return [self.game.playout_strategy()] * len(self.weights)
        pool = [mixed_strategy([bot], randomness) for bot, randomness in self.readings]
        return [mixed_strategy(pool, 0.0, weights) for weights in self.weights]
