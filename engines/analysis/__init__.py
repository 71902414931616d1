"""Game analysis: what each decision of a game cost, by Monte Carlo playouts (no Django).

`evaluate_position` estimates the deciding seat's win probability after each legal action;
`analyse_log` does it for every decision of a verified log. What the decider could not see is
resampled in every playout (`Game.resample`), never read from the log.
"""

from engines.analysis.evaluator import (
    DEFAULT_BUDGET,
    ActionEstimate,
    Budget,
    DecisionAnalysis,
    analyse_log,
    decision_points,
    engine_version,
    evaluate_position,
    read_table,
)

__all__ = [
    "DEFAULT_BUDGET",
    "ActionEstimate",
    "Budget",
    "DecisionAnalysis",
    "analyse_log",
    "decision_points",
    "engine_version",
    "evaluate_position",
    "read_table",
]
