"""Multiplayer Elo by pairwise decomposition (pure functions, no Django).

Every pair of players at a table is one result: 1 for the better placed, 0 for the other,
1/2 each for a tie. A player's change is K / (table size - 1) times the sum over their
pairs of (result - expected), all against the ratings from before the game.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

START = 1500.0
DEFAULT_K = 32.0
SCALE = 400.0


def expected_score(rating: float, opponent: float) -> float:
    """The chance `rating` beats `opponent`, ties counting half."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def pair_result(rank: int, opponent_rank: int) -> float:
    if rank < opponent_rank:
        return 1.0
    if rank == opponent_rank:
        return 0.5
    return 0.0


def elo_changes[K: Hashable](
    ratings: Mapping[K, float], ranks: Mapping[K, int], k: float = DEFAULT_K
) -> dict[K, float]:
    """Each player's rating change for one game (ranks: 1 = best, ties share a rank).

    The terms are added with math.fsum, exactly rounded, so the input order never changes a
    result: equal-rated tied players always get identical changes.
    """
    if len(ranks) < 2:
        return {player: 0.0 for player in ranks}
    step = k / (len(ranks) - 1)
    # pair_result and expected_score written out (a game's twelve pairs called them 24
    # times: issue 25, CPU per verified log), the same float operations.
    table = [(player, ratings[player], ranks[player]) for player in ranks]
    return {
        player: step
        * math.fsum(
            (1.0 if rank < other_rank else 0.5 if rank == other_rank else 0.0)
            - 1.0 / (1.0 + 10.0 ** ((other_rating - rating) / SCALE))
            for other, other_rating, other_rank in table
            if other != player
        )
        for player, rating, rank in table
    }


def win_probabilities(ratings: Sequence[float]) -> list[float]:
    """The chance each player finishes first: Elo strengths 10^(R/400), normalised."""
    top = max(ratings)
    strengths = [10.0 ** ((r - top) / SCALE) for r in ratings]
    total = math.fsum(strengths)
    return [s / total for s in strengths]


# Beyond this a float has no tenths to round (and ten times it may not be finite): such values
# are left to round() itself.
ROUNDED_BY_NUMPY = 1e15


def tenths(values: Iterable[float]) -> list[float]:
    """Each value as round(value, 1) gives it, to the last bit, by numpy: a player's rating
    chart has thousands (issue 25: 4,229 cost 2 ms one by one). round() rounds the value's
    exact decimal expansion half to even, then takes the float nearest that decimal; here
    n = rint(10 x) is the same n wherever 10 x is not within its product's rounding error
    (at most half a unit in its last place) of a half, and n / 10, one correctly rounded
    division, is the float nearest n/10. The few within that error of a half (true halves
    such as 0.25 among them) and values past ROUNDED_BY_NUMPY are rounded by round()."""
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # those values: left to round() below
        scaled = values * 10.0
        rounded = np.rint(scaled) / 10.0
        near_half = np.abs(scaled - (np.floor(scaled) + 0.5)) <= np.spacing(np.abs(scaled))
    doubtful = near_half | ~(np.abs(values) < ROUNDED_BY_NUMPY)
    if doubtful.any():
        for i in np.flatnonzero(doubtful).tolist():
            rounded[i] = round(float(values[i]), 1)
    return rounded.tolist()
