"""The `montecarlo` bot: the evaluator choosing its best move at a small budget.

Each decision gets a few playouts per action (resampling what the bot cannot see, like an
analysis does) and the action with the highest estimated win probability is played. It
joins every game's bots when the game is loaded (engines.registry), so the lab and the
per-strategy statistics show how it does against the heuristics it uses for its playouts.
"""

from __future__ import annotations

import random
from typing import ClassVar

from engines.analysis.evaluator import Budget, evaluate_position
from engines.core.game import Event, State, Strategy
from engines.registry import get_game

# About 16 playouts an action: a Deep Sea Adventure game costs a second or two, a Deep
# Vents game some tens of seconds, so a lab batch of a few games finishes.
MONTECARLO_BUDGET = Budget(target_se=0.5, min_playouts=16, max_playouts=16, batch=16)


class MonteCarloStrategy(Strategy):
    """Needs its game id: use `montecarlo_for(game_id)` to get the class for a game."""

    name = "montecarlo"
    title = "Monte Carlo bot"
    description = (
        "Plays each legal action out 16 times with the game's playout bots and keeps the "
        "one that wins most often."
    )
    drawn_at_random = False  # a Deep Vents game costs tens of seconds a montecarlo seat
    game_id: ClassVar[str]
    budget: ClassVar[Budget] = MONTECARLO_BUDGET

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        seat = state.current_seat()
        mine = [action for action in legal if action.get("seat", seat) == seat]
        mine = get_game(self.game_id).search_actions(state, mine)
        if len(mine) == 1:
            return mine[0]
        estimates = evaluate_position(
            self.game_id,
            state,
            seat,
            mine,
            seat_count(state),
            budget=self.budget,
            seed=str(rng.getrandbits(64)),
        )
        return estimates[0].action


def seat_count(state: State) -> int:
    """Every engine keeps its seats in `players`: a count, or one record per seat."""
    players = state.players  # type: ignore[attr-defined]
    return players if isinstance(players, int) else len(players)


def montecarlo_for(game_id: str) -> type[MonteCarloStrategy]:
    return type("MonteCarloStrategy", (MonteCarloStrategy,), {"game_id": game_id})
