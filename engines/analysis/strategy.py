"""The `montecarlo` bot's search (engines.core.bots.MonteCarloStrategy): the evaluator
choosing its best move at a small budget.

Each decision gets a few playouts per action (resampling what the bot cannot see, like an
analysis does) and the action with the highest estimated win probability is played. The
registry loads this when the bot first plays (engines.registry.montecarlo_search), so the
game packages list the bot without importing the analysis built on them.
"""

from __future__ import annotations

import random

from engines.analysis.evaluator import Budget, evaluate_position
from engines.core.game import Event, State
from engines.registry import get_game

# About 16 playouts an action: a Deep Sea Adventure game costs a second or two, a Deep
# Vents game some tens of seconds, so a lab batch of a few games finishes.
MONTECARLO_BUDGET = Budget(target_se=0.5, min_playouts=16, max_playouts=16, batch=16)


def choose_by_playouts(game_id: str, state: State, legal: list[Event], rng: random.Random) -> Event:
    """The deciding seat's legal action with the best estimated win probability."""
    seat = state.current_seat()
    mine = [action for action in legal if action.get("seat", seat) == seat]
    mine = get_game(game_id).search_actions(state, mine)
    if len(mine) == 1:
        return mine[0]
    estimates = evaluate_position(
        game_id,
        state,
        seat,
        mine,
        seat_count(state),
        budget=MONTECARLO_BUDGET,
        seed=str(rng.getrandbits(64)),
    )
    return estimates[0].action


def seat_count(state: State) -> int:
    """Every engine keeps its seats in `players`: a count, or one record per seat."""
    players = state.players  # type: ignore[attr-defined]
    return players if isinstance(players, int) else len(players)
