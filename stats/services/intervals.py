"""Confidence intervals for the statistics pages (95 %), and the shrinkage of win rates.

A win rate over par is shrunk towards par: its wins and seats are counted as if
PRIOR_GAMES more seats had been played, winning exactly at par (a Beta prior of that
strength centred on par, whose posterior mean is the shrunk rate). A rate from a handful of
games so reads close to 1.00 and moves away from it only as its games add up. The interval
is Wilson's, of those prior-augmented counts. The README's statistics section gives the
formulas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
# The prior's strength, in games: enough that three lucky wins out of three do not read as
# a rate three times par, few enough that a few dozen games speak for themselves.
PRIOR_GAMES = 10


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None

    @property
    def error_minus(self) -> float:
        return (self.value - self.low) if self.value is not None else 0.0

    @property
    def error_plus(self) -> float:
        return (self.high - self.value) if self.value is not None else 0.0

    def scaled(self, factor: float) -> Estimate:
        if self.value is None:
            return self
        return Estimate(self.value * factor, self.low * factor, self.high * factor)


NONE = Estimate(None, None, None)


def wilson(successes: float, trials: float, z: float = Z95) -> Estimate:
    """The Wilson score interval of a proportion (good near 0 and 1 and for few trials)."""
    if trials <= 0:
        return NONE
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def relative_rate(wins: float, expected: float, trials: float) -> Estimate:
    """A win rate divided by the par rate of its tables (1/n): 1.0 is par, whatever the mix
    of 2-, 3- and 4-player tables. The interval is Wilson's, scaled the same way."""
    if trials <= 0 or expected <= 0:
        return NONE
    return wilson(wins, trials).scaled(trials / expected)


def shrunk_relative_rate(
    wins: float, expected: float, trials: float, prior_games: float = PRIOR_GAMES
) -> Estimate:
    """A win rate over par, shrunk towards par (1.0): with the seats' mean par
    p = expected / trials, the rate is (wins + k p) / (trials + k) for k = prior_games, and
    its interval Wilson's of those counts; all three divided by p."""
    if trials <= 0 or expected <= 0:
        return NONE
    par = expected / trials
    return wilson(wins + prior_games * par, trials + prior_games).scaled(1 / par)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b, with the interval of a difference of independent estimates (Newcombe-style
    combination of the two intervals)."""
    if a.value is None or b.value is None:
        return NONE
    value = a.value - b.value
    low = value - math.hypot(a.error_minus, b.error_plus)
    high = value + math.hypot(a.error_plus, b.error_minus)
    return Estimate(value, low, high)


def mean(total: float, total_sq: float, n: float, z: float = Z95) -> Estimate:
    """A mean and its normal-approximation interval, from sums."""
    if n <= 0:
        return NONE
    value = total / n
    if n < 2:
        return Estimate(value, value, value)
    variance = max(0.0, (total_sq - total * total / n) / (n - 1))
    half = z * math.sqrt(variance / n)
    return Estimate(value, value - half, value + half)
