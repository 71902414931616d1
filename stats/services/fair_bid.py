"""The fair starting bid (DV-3): the winning bid at which the first player wins at par (1/n).

Per table size, a logistic model of the first player's win against the bid they paid,
P(win | bid) = 1 / (1 + exp(-(a + b * bid))), is fitted by Newton's method (a two-parameter
weighted binomial fit, with a faint ridge so a perfectly separated sample stays finite). The
fair bid is where the curve crosses par. The interval is a bootstrap: the games at each bid
are resampled (a binomial draw at that bid's observed rate), refitted, and the 2.5th and
97.5th percentiles of the crossings taken. Estimates and interval ends are clamped to the
legal bids, 0 to the base every player starts with (DV-3): a first seat worth more than the
whole base reads as "base or more", never as a bid nobody can make.

Below MIN_GAMES games at a table size, or with fewer than two different bids seen, there is
no estimate: the page says "not enough games yet (N of MIN_GAMES)".
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass

from engines.deep_vents.edition import editions

# Enough first players for a two-parameter fit to be worth showing: with 60 games an
# interval on the win rate is still about +-12 points wide at par 1/3.
MIN_GAMES = 60
BOOTSTRAP_SAMPLES = 200
# Beyond this many games at a bid, a resample draws its wins from the normal approximation
# (close enough once n p (1 - p) passes a few, as it does at first players' win rates).
EXACT_TRIALS = 50
RIDGE = 1e-3
NEWTON_STEPS = 50


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


def fit_logistic(
    points: list[BidPoint], start: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float] | None:
    """(intercept, slope) of the weighted binomial logistic fit; None if it does not converge.
    Newton's steps start from `start` (intercept, slope): a bootstrap refit starts from the
    full fit, a few steps from its own."""
    return fit_counts(
        [p.bid for p in points], [p.games for p in points], [p.wins for p in points], start
    )


def fit_counts(
    bids: list[float], games: list[float], wins: list[float], start: tuple[float, float]
) -> tuple[float, float] | None:
    """fit_logistic on plain lists (the bootstrap refits hundreds of times per page)."""
    centre = sum(x * n for x, n in zip(bids, games, strict=True)) / sum(games)
    xs = [x - centre for x in bids]  # centred, for a well-conditioned Hessian
    rows = list(zip(xs, games, wins, strict=True))
    a, b = start[0] + start[1] * centre, start[1]
    exp = math.exp
    for _ in range(NEWTON_STEPS):
        grad_a = grad_b = 0.0
        haa = hab = hbb = 0.0
        for x, n, w in rows:
            z = a + b * x
            if z >= 0:
                mu = 1 / (1 + exp(-z))
            else:
                e = exp(z)
                mu = e / (1 + e)
            residual = w - n * mu
            weight = n * mu * (1 - mu)
            grad_a += residual
            grad_b += residual * x
            haa += weight
            hab += weight * x
            hbb += weight * x * x
        grad_a -= RIDGE * a
        grad_b -= RIDGE * b
        haa += RIDGE
        hbb += RIDGE
        det = haa * hbb - hab * hab
        if det <= 0:
            return None
        step_a = (hbb * grad_a - hab * grad_b) / det
        step_b = (haa * grad_b - hab * grad_a) / det
        a += step_a
        b += step_b
        if abs(step_a) < 1e-10 and abs(step_b) < 1e-10:
            return a - b * centre, b
    return None


def crossing(intercept: float, slope: float, par: float, legal_high: int) -> float | None:
    """The bid where the fitted win rate meets par, clamped to [0, legal_high]; None when the
    bid makes no difference to the first player's chances."""
    target = math.log(par / (1 - par))
    if abs(slope) < 1e-9:
        return None
    return min(float(legal_high), max(0.0, (target - intercept) / slope))


def legal_high(player_count: int) -> int:
    """The most anyone may bid at this table size in any edition: the base (DV-3)."""
    return max(e.bid_base.get(player_count, 0) for e in editions().values())


def percentile(sorted_values: list[float], q: float) -> float:
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    fraction = position - below
    return sorted_values[below] * (1 - fraction) + sorted_values[above] * fraction


def estimate(player_count: int, points: list[BidPoint], seed: int = 0) -> FairBid:
    points = sorted((p for p in points if p.games > 0), key=lambda p: p.bid)
    games = sum(p.games for p in points)
    high = legal_high(player_count)
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
    rng = random.Random(seed)
    crossings = []
    bids, games_at = [p.bid for p in points], [p.games for p in points]
    draws = [(round(p.games), p.win_rate) for p in points]
    for _ in range(BOOTSTRAP_SAMPLES):
        resampled = [binomial(rng, trials, rate) for trials, rate in draws]
        refit = fit_counts(bids, games_at, resampled, start=fit)
        if refit is None:
            continue
        # A resample in which the bid makes no difference sits at the nearer legal end.
        value = crossing(*refit, par, high)
        crossings.append(value if value is not None else bid)
    crossings.sort()
    low, upper = (
        (percentile(crossings, 0.025), percentile(crossings, 0.975)) if crossings else (bid, bid)
    )
    return FairBid(player_count, games, high, bid, low, upper, tuple(points), intercept, slope)


def binomial(rng: random.Random, trials: int, p: float) -> float:
    """A binomial draw: exactly (one uniform per trial) for a few trials, by the normal
    approximation beyond, so that a bootstrap costs the same at a million games as at a
    hundred (drawing every trial cost 200 x games uniforms per page)."""
    if trials <= EXACT_TRIALS:
        return float(sum(rng.random() < p for _ in range(trials)))
    spread = math.sqrt(trials * p * (1 - p))
    return float(min(trials, max(0, round(rng.gauss(trials * p, spread)))))


def fair_bids(points: list[BidPoint]) -> list[FairBid]:
    """One estimate per table size seen, smallest table first."""
    by_size: dict[int, list[BidPoint]] = defaultdict(list)
    for point in points:
        by_size[point.player_count].append(point)
    return [estimate(players, group) for players, group in sorted(by_size.items())]
