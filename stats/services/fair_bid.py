"""The fair starting bid (DV-3): the winning bid at which the first player wins at par (1/n).

Per table size, a logistic model of the first player's win against the bid they paid,
P(win | bid) = 1 / (1 + exp(-(a + b * bid))), is fitted by Newton's method (a two-parameter
weighted binomial fit, with a faint ridge so a perfectly separated sample stays finite). The
fair bid is where the curve crosses par. The interval is a bootstrap: the games at each bid
are resampled (an exact binomial draw at that bid's observed rate, seeded, so a page shows
the same interval every time), refitted, and the 2.5th and 97.5th percentiles of the
crossings taken. The refits run side by side on arrays (numpy): one at a time in Python
they took most of the strategy page's time. Estimates and interval ends are clamped to the
legal bids, 0 to the base every player starts with (DV-3): a first seat worth more than the
whole base reads as "base or more", never as a bid nobody can make.

Below MIN_GAMES games at a table size, or with fewer than two different bids seen, there is
no estimate: the page says "not enough games yet (N of MIN_GAMES)".

How many games would settle it: a bootstrap interval narrows as 1/sqrt(games), so the games
needed for a 95 % interval no wider than SETTLED_WIDTH archaea (enough to name the fair bid
to the nearest archaea) are games * (width / SETTLED_WIDTH) ** 2.

What the bids may be (the base) comes from the game's statistics adapter (stats.adapters).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# Enough first players for a two-parameter fit to be worth showing: with 60 games an
# interval on the win rate is still about +-12 points wide at par 1/3.
MIN_GAMES = 60
BOOTSTRAP_SAMPLES = 200
RIDGE = 1e-3
NEWTON_STEPS = 50
# A slope below this: the bid makes no difference to the first player's chances.
FLAT_SLOPE = 1e-9
# A 95 % interval this wide (archaea) names the fair bid to the nearest archaea: settled.
SETTLED_WIDTH = 1.0


@dataclass(frozen=True)
class BidPoint:
    """The first players of one table size who won the bidding at one bid."""

    player_count: int
    bid: int
    games: float
    wins: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


@dataclass(frozen=True)
class FairBid:
    player_count: int
    games: float
    legal_high: int  # the base: nobody can bid more (DV-3)
    bid: float | None  # None: not enough games yet, or the bid makes no difference
    low: float | None
    high: float | None
    points: tuple[BidPoint, ...]
    intercept: float | None = None
    slope: float | None = None

    @property
    def par(self) -> float:
        return 1 / self.player_count

    @property
    def enough_games(self) -> bool:
        return self.games >= MIN_GAMES and len(self.points) >= 2

    @property
    def min_games(self) -> int:
        return MIN_GAMES

    @property
    def at_legal_limit(self) -> bool:
        return self.bid is not None and self.bid >= self.legal_high

    @property
    def at_zero(self) -> bool:
        return self.bid is not None and self.bid <= 0

    @property
    def games_to_settle(self) -> int | None:
        """Games in all that would narrow the interval to SETTLED_WIDTH (the module's
        docstring); MIN_GAMES before there are enough to fit, None when the fit gives no
        crossing (the bid makes no difference: more games need not change that)."""
        if not self.enough_games:
            return MIN_GAMES
        if self.bid is None:
            return None
        width = self.high - self.low
        return max(round(self.games), math.ceil(self.games * (width / SETTLED_WIDTH) ** 2))

    @property
    def more_games_to_settle(self) -> int | None:
        needed = self.games_to_settle
        return None if needed is None else max(0, needed - round(self.games))

    @property
    def settled(self) -> bool:
        return self.more_games_to_settle == 0

    @property
    def settled_width(self) -> float:
        return SETTLED_WIDTH

    def fitted(self, bid: float) -> float | None:
        if self.slope is None:
            return None
        return logistic(self.intercept + self.slope * bid)

    @property
    def rows(self) -> list[dict]:
        """The data behind the estimate, one row per bid, as the page shows it."""
        return [
            {
                "bid": p.bid,
                "games": p.games,
                "wins": p.wins,
                "rate": f"{p.win_rate:.0%}",
                "fitted": "" if self.slope is None else f"{self.fitted(p.bid):.0%}",
                # Unrounded, for sorting the table in the browser (data-sort).
                "rate_value": f"{p.win_rate:.12g}",
                "fitted_value": "" if self.slope is None else f"{self.fitted(p.bid):.12g}",
            }
            for p in self.points
        ]


def logistic(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def fit_logistic(points: list[BidPoint]) -> tuple[float, float] | None:
    """(intercept, slope) of the weighted binomial logistic fit; None if it does not converge.
    fit_counts' Newton steps from (0, 0) on this one sample, in plain floats: on one row
    numpy's fifty calls a step cost more than their arithmetic, a millisecond a table size of
    the strategy page's six (issue 25)."""
    games = sum(p.games for p in points)
    centre = sum(p.bid * p.games for p in points) / games
    # centred, for a well-conditioned Hessian
    data = [(p.bid - centre, p.games, p.wins) for p in points]
    a = b = 0.0
    for _ in range(NEWTON_STEPS):
        grad_a, grad_b = -RIDGE * a, -RIDGE * b
        haa, hab, hbb = RIDGE, 0.0, RIDGE
        for x, n, wins in data:
            mu = logistic(a + b * x)
            expected = n * mu
            residual = wins - expected
            weight = expected * (1 - mu)
            grad_a += residual
            grad_b += residual * x
            haa += weight
            hab += weight * x
            hbb += weight * x * x
        det = haa * hbb - hab * hab
        if not det > 0:
            return None
        step_a = (hbb * grad_a - hab * grad_b) / det
        step_b = (haa * grad_b - hab * grad_a) / det
        a += step_a
        b += step_b
        if abs(step_a) < 1e-10 and abs(step_b) < 1e-10:
            return a - b * centre, b
    return None


def fit_counts(
    bids: list[float], games: list[float], wins: np.ndarray, start: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fit of each row of `wins` (a sample of wins at each bid) by Newton's steps from
    `start` (intercept, slope), every row together: intercepts, slopes, and whether each
    row's steps converged. A bootstrap starts from the full fit, a few steps from its own."""
    x = np.asarray(bids, dtype=float)
    n = np.asarray(games, dtype=float)
    centre = float((x * n).sum() / n.sum())
    x = x - centre  # centred, for a well-conditioned Hessian
    rows = wins.shape[0]
    a = np.full(rows, start[0] + start[1] * centre)
    b = np.full(rows, start[1])
    converged = np.zeros(rows, dtype=bool)
    failed = np.zeros(rows, dtype=bool)
    # Elementwise only (no matrix products): no BLAS threads in a web worker. A step is some
    # fifty array operations on a few hundred numbers, each costing mostly its call: a
    # product used twice is computed once, and sums are add.reduce itself (what sum() calls,
    # the same additions in the same order), a third less of the strategy page's fits.
    total = np.add.reduce
    with np.errstate(over="ignore"):  # exp(-z) far out: mu is then 0, as it should be
        for _ in range(NEWTON_STEPS):
            mu = 1 / (1 + np.exp(-(a[:, None] + b[:, None] * x)))
            expected = n * mu
            residual = wins - expected
            weight = expected * (1 - mu)
            weighted_x = weight * x
            grad_a = total(residual, axis=1) - RIDGE * a
            grad_b = total(residual * x, axis=1) - RIDGE * b
            haa = total(weight, axis=1) + RIDGE
            hab = total(weighted_x, axis=1)
            hbb = total(weighted_x * x, axis=1) + RIDGE
            det = haa * hbb - hab * hab
            moving = ~(converged | failed)
            positive = det > 0
            failed |= moving & ~positive
            moving &= positive
            det[~moving] = 1.0
            step_a = np.where(moving, (hbb * grad_a - hab * grad_b) / det, 0.0)
            step_b = np.where(moving, (haa * grad_b - hab * grad_a) / det, 0.0)
            a += step_a
            b += step_b
            converged |= moving & (np.abs(step_a) < 1e-10) & (np.abs(step_b) < 1e-10)
            if (converged | failed).all():
                break
    return a - b * centre, b, converged & ~failed


def crossing(intercept: float, slope: float, par: float, legal_high: int) -> float | None:
    """The bid where the fitted win rate meets par, clamped to [0, legal_high]; None when the
    bid makes no difference to the first player's chances."""
    target = math.log(par / (1 - par))
    if abs(slope) < FLAT_SLOPE:
        return None
    return min(float(legal_high), max(0.0, (target - intercept) / slope))


def percentile(sorted_values: list[float], q: float) -> float:
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    fraction = position - below
    return sorted_values[below] * (1 - fraction) + sorted_values[above] * fraction


def estimate(player_count: int, points: list[BidPoint], high: int, seed: int = 0) -> FairBid:
    """The fair bid at one table size, where nobody may bid more than `high` (DV-3)."""
    points = sorted((p for p in points if p.games > 0), key=lambda p: p.bid)
    games = sum(p.games for p in points)
    empty = FairBid(player_count, games, high, None, None, None, tuple(points))
    if games < MIN_GAMES or len(points) < 2:
        return empty
    fit = fit_logistic(points)
    if fit is None:
        return empty
    intercept, slope = fit
    par = 1 / player_count
    bid = crossing(intercept, slope, par, high)
    if bid is None:
        return FairBid(player_count, games, high, None, None, None, tuple(points), *fit)
    rng = np.random.default_rng(seed)
    resampled = rng.binomial(
        [round(p.games) for p in points],
        [p.win_rate for p in points],
        size=(BOOTSTRAP_SAMPLES, len(points)),
    ).astype(float)
    intercepts, slopes, converged = fit_counts(
        [p.bid for p in points], [p.games for p in points], resampled, fit
    )
    intercepts, slopes = intercepts[converged], slopes[converged]
    # crossing() of every refit at once; a resample in which the bid makes no difference
    # counts as the full fit's crossing.
    flat = np.abs(slopes) < FLAT_SLOPE
    values = (math.log(par / (1 - par)) - intercepts) / np.where(flat, 1.0, slopes)
    crossings = np.where(flat, bid, np.clip(values, 0.0, float(high)))
    crossings = sorted(crossings.tolist())
    low, upper = (
        (percentile(crossings, 0.025), percentile(crossings, 0.975)) if crossings else (bid, bid)
    )
    return FairBid(player_count, games, high, bid, low, upper, tuple(points), intercept, slope)


def fair_bids(points: list[BidPoint], bid_limit: Callable[[int], int]) -> list[FairBid]:
    """One estimate per table size seen, smallest table first; `bid_limit` gives the most
    anyone may bid at a table size."""
    by_size: dict[int, list[BidPoint]] = defaultdict(list)
    for point in points:
        by_size[point.player_count].append(point)
    return [
        estimate(players, group, bid_limit(players)) for players, group in sorted(by_size.items())
    ]
