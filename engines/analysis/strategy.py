"""The `montecarlo` bot's search (engines.core.bots.MonteCarloStrategy): playouts spent where
the decision is close.

Every legal action the game lets it weigh (`Game.search_actions`) is played out a few times
from the same resampled positions and dice (playout k of every action uses the generator
seeded "seed:k", as the analysis does: common random numbers), so two actions are compared
playout by playout and the noise both share cancels. While the leader's margin over an
action is within two standard errors of their paired differences, the actions still in
reach get twice the playouts; an action clearly behind drops out; the search stops when one
action leads all the others clearly, when the leaders are known to be within a small margin
of each other (either will do), or at the most playouts an action may have. The registry
loads this when the bot first plays (engines.registry.montecarlo_search), so the game
packages list the bot without importing the analysis built on them.

Where the game says so (`Game.montecarlo_reads_table`), the bot reads the other seats from
the decisions it saw them make in the game so far, as a log's analysis reads them
(engines/analysis/table_reading.py): playout k seats each other seat as one of the game's
heuristics, steady or erratic, drawn by its weight with the generator "seed:k:table" (the
same opponents for every action's playout k); its own seat plays the game's playout bot.
Without that reading every seat plays the playout bot.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engines.analysis.evaluator import DecisionPoint, playout_bot, win_shares
from engines.analysis.table_reading import TableReading
from engines.core.bots import mixed_strategy
from engines.core.game import Event, Game, State, Strategy
from engines.core.simulate import play_to_end
from engines.registry import get_game


@dataclass(frozen=True)
class SearchBudget:
    """Playouts an action gets: `first` for every action, doubled for those still in reach
    up to `most`. An action is out of reach when the leader's paired margin over it exceeds
    `z` standard errors; the leaders are close enough (either will do) when their margin is
    known within `tie`: `z` standard errors under it."""

    first: int = 16
    most: int = 256
    z: float = 2.0
    tie: float = 0.05


MONTECARLO_BUDGET = SearchBudget()
# Where a game's decisions are often close and its playouts cheap, more: Deep Dive's stay or
# surface differ by a few points of win probability (at 16 to 256 playouts the bot won 0.48
# of 400 mixed-table games to risk-aware's 0.41; at 32 to 1,024, reading the table, 0.515 to
# 0.376, 2.5 CPU s a game; benchmarks/bot_match.py, issue 24).
MONTECARLO_BUDGETS: dict[str, SearchBudget] = {
    "deep-dive": SearchBudget(first=32, most=1024, tie=0.03),
}


def choose_by_playouts(
    game_id: str,
    state: State,
    legal: list[Event],
    rng: random.Random,
    reading: TableReading | None = None,
) -> Event:
    """The deciding seat's legal action with the best estimated win probability, the other
    seats played as `reading` reads them (None: the game's playout bot)."""
    seat = state.current_seat()
    assert seat is not None
    mine = [action for action in legal if action.get("seat", seat) == seat]
    mine = get_game(game_id).search_actions(state, mine)
    if len(mine) == 1:
        return mine[0]
    budget = MONTECARLO_BUDGETS.get(game_id, MONTECARLO_BUDGET)
    seed = str(rng.getrandbits(64))
    return search(get_game(game_id), state, seat, mine, seed, budget, reading)


def read_table(
    game_id: str, reading: TableReading | None, state: State, seat: int, played: Event
) -> TableReading | None:
    """The bot's reading of the table once `seat` decided `played` in `state` (before it is
    applied); None where the game's bot does not read the table."""
    game = get_game(game_id)
    if not game.montecarlo_reads_table:
        return None
    reading = reading or TableReading(game, seat_count(state))
    reading.observe(DecisionPoint(0, seat, state, state.decision_actions(), played))
    return reading


def playout_seats(
    bot: type[Strategy], seat: int, reading: TableReading | None, rng: random.Random, players: int
) -> list[Strategy]:
    """One playout's bots: `bot` at `seat`, the other seats drawn from their readings."""
    if reading is None:
        return [bot() for _ in range(players)]
    seats = []
    for other, weights in enumerate(reading.weights):
        if other == seat:
            seats.append(bot())
            continue
        drawn, randomness = rng.choices(reading.readings, weights=weights)[0]
        seats.append(mixed_strategy([drawn], randomness)())
    return seats


def search(
    game: Game,
    state: State,
    seat: int,
    actions: list[Event],
    seed: str,
    budget: SearchBudget | None = None,
    reading: TableReading | None = None,
) -> Event:
    """The action whose playouts win most for `seat`, found as the module says (at
    MONTECARLO_BUDGET unless given another; the other seats read by `reading`)."""
    budget = budget or MONTECARLO_BUDGET
    players = seat_count(state)
    bot = playout_bot(game)
    results: list[list[float]] = [[] for _ in actions]

    def play(i: int, until: int) -> None:
        values = results[i]
        for k in range(len(values), until):
            rng = random.Random(f"{seed}:{k}")
            trial = game.resample(state, seat, rng)
            trial.apply_action(actions[i])
            seats = playout_seats(bot, seat, reading, random.Random(f"{seed}:{k}:table"), players)
            play_to_end(trial, seats, rng)
            values.append(win_shares(trial, players)[seat])

    in_reach = list(range(len(actions)))
    n = budget.first
    while True:
        for i in in_reach:
            play(i, n)
        leader = max(in_reach, key=lambda i: sum(results[i]))
        margins = {i: paired_margin(results[leader], results[i]) for i in in_reach if i != leader}
        in_reach = [leader] + [i for i, (mean, se) in margins.items() if mean <= budget.z * se]
        close = [margins[i] for i in in_reach[1:]]
        if not close or n >= budget.most or all(budget.z * se < budget.tie for _, se in close):
            return actions[leader]
        n = min(2 * n, budget.most)


def paired_margin(leader: list[float], other: list[float]) -> tuple[float, float]:
    """The mean of the leader's playout-by-playout margin over another action, and its
    standard error (the same playouts: common random numbers)."""
    n = len(other)
    diffs = [a - b for a, b in zip(leader, other, strict=False)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    # Never below one disagreement in n + 1 playouts: 16 identical outcomes (common random
    # numbers make them common) do not prove two actions equal.
    return mean, math.sqrt(max(var, 1 / (n + 1)) / n)


def seat_count(state: State) -> int:
    """Every engine keeps its seats in `players`: a count, or one record per seat."""
    players = state.players  # type: ignore[attr-defined]
    return players if isinstance(players, int) else len(players)
