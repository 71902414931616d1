"""How far an analysis' win probabilities can be trusted: forecasts held against outcomes.

A forecast is one decision's estimated win probability for the seat that made it, and that
seat's real share of the win once the game ended (1, 1/k in a k-way tie, else 0). Over many
forecasts:

- Brier score: the mean squared difference between probability and outcome (0 is perfect);
- skill: 1 - Brier / the Brier of always saying 1/players (the prior). 0 is no better than
  the prior, 1 is perfect, below 0 worse than not analysing at all;
- expected calibration error (ECE): forecasts put in 10 equal-width bins of probability,
  the gap between each bin's mean probability and its mean outcome, weighted by the bin's
  share of the forecasts;
- sure calls: probabilities below 0.02 or above 0.98; one is wrong when the seat won (or
  shared the win) after a call below 0.02, or did not win outright after one above 0.98.

Forecasts of one game are not independent (one outcome answers them all), so the standard
error of each figure is a jackknife over games: the figure recomputed leaving each game out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

SURE_LOW, SURE_HIGH = 0.02, 0.98
BINS = 10


@dataclass(frozen=True)
class Forecast:
    game: int  # which game of the sample it comes from (the unit of the standard errors)
    players: int
    probability: float
    outcome: float  # the seat's share of the win


def brier(forecasts: Sequence[Forecast]) -> float:
    return sum((f.probability - f.outcome) ** 2 for f in forecasts) / len(forecasts)


def prior_brier(forecasts: Sequence[Forecast]) -> float:
    """The Brier score of saying 1/players at every decision."""
    return sum((1 / f.players - f.outcome) ** 2 for f in forecasts) / len(forecasts)


def skill(forecasts: Sequence[Forecast]) -> float:
    return 1 - brier(forecasts) / prior_brier(forecasts)


def calibration_error(forecasts: Sequence[Forecast], bins: int = BINS) -> float:
    """ECE over `bins` equal-width bins (a probability of 1 falls in the last)."""
    totals: dict[int, list[float]] = {}
    for f in forecasts:
        row = totals.setdefault(min(int(f.probability * bins), bins - 1), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += f.probability
        row[2] += f.outcome
    return sum(abs(p - y) for _, p, y in totals.values()) / len(forecasts)


def is_sure(f: Forecast) -> bool:
    return f.probability < SURE_LOW or f.probability > SURE_HIGH


def is_wrong(f: Forecast) -> bool:
    """A sure call the outcome contradicts."""
    if f.probability < SURE_LOW:
        return f.outcome > 0
    return f.probability > SURE_HIGH and f.outcome < 1


def sure_wrong_rate(forecasts: Sequence[Forecast]) -> float:
    """The share of sure calls that were wrong (0 when none was sure)."""
    sure = [f for f in forecasts if is_sure(f)]
    return sum(is_wrong(f) for f in sure) / len(sure) if sure else 0.0


def jackknife_se(
    forecasts: Sequence[Forecast], statistic: Callable[[Sequence[Forecast]], float]
) -> float:
    """The standard error of `statistic`, leaving one game out at a time (nan for one game)."""
    games = sorted({f.game for f in forecasts})
    n = len(games)
    if n < 2:
        return math.nan
    values = [statistic([f for f in forecasts if f.game != game]) for game in games]
    mean = sum(values) / n
    return math.sqrt((n - 1) / n * sum((v - mean) ** 2 for v in values))


def summary(forecasts: Sequence[Forecast]) -> dict[str, Any]:
    """Every figure with its standard error, and the sample it stands on."""
    sure = [f for f in forecasts if is_sure(f)]
    figures: dict[str, Any] = {
        "games": len({f.game for f in forecasts}),
        "decisions": len(forecasts),
        "sure": len(sure),
        "sure_wrong": sum(is_wrong(f) for f in sure),
    }
    for name, statistic in (
        ("brier", brier),
        ("skill", skill),
        ("ece", calibration_error),
        ("sure_wrong_rate", sure_wrong_rate),
    ):
        figures[name] = statistic(forecasts)
        figures[f"{name}_se"] = jackknife_se(forecasts, statistic)
    return figures
