"""What a game's page shows of a finished analysis: the engine's review of it (moves in
words, marks, accuracy, swings) and the chart, for the replay's analysis section."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from analysis import figures
from analysis.models import Analysis
from engines.core.errors import LogError
from engines.core.log import loads
from engines.review import review
from games.models import GameLog

MISTAKES_SHOWN = 10


def result_context(log: GameLog, analysis: Analysis) -> dict[str, Any]:
    """The chart, the review and its costliest marked moves; nothing when the log no longer
    replays (an engine change since the analysis: the page says it is stale)."""
    try:
        reviewed = shown(review(loads(log.raw), analysis.decisions).to_json())
    except LogError:
        return {}
    return {
        "figure": figures.win_probability_figure(reviewed),
        "review": reviewed,
        "players_accuracy": [
            {"name": name, "accuracy": accuracy, **counts}
            for name, accuracy, counts in zip(
                reviewed["players"], reviewed["accuracy"], reviewed["counts"], strict=True
            )
        ],
        "entries": entries(reviewed),
        "mistakes": biggest_mistakes(reviewed["moves"]),
    }


def chances(value: float) -> str:
    """A chance of winning as the page writes it: two places, the float's shortest form
    rounded half up (as Django's floatformat does), so 0.615 reads 0.62. Rounded here once
    for the template, analysis.js and the chart alike: rounding the float in each (toFixed
    and Python's format round its binary value, 0.61499..., down) made them disagree."""
    return str(Decimal(repr(value)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def shown(reviewed: dict[str, Any]) -> dict[str, Any]:
    """The review with the chances the page writes as their text (`chances`): each move's
    `win` and `best_win`, each swing's `before` and `after`."""
    for move in reviewed["moves"]:
        move["win"], move["best_win"] = chances(move["win"]), chances(move["best_win"])
    for swing in reviewed["swings"]:
        swing["before"], swing["after"] = chances(swing["before"]), chances(swing["after"])
    return reviewed


def biggest_mistakes(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The marked moves, the biggest drop first (ties in event order)."""
    marked = [move for move in moves if move["mark"]]
    return sorted(marked, key=lambda m: (-m["drop"], m["index"]))[:MISTAKES_SHOWN]


def entries(reviewed: dict[str, Any]) -> list[dict[str, Any]]:
    """The move list: each decision, with the swing that led up to it just before it."""
    swings = {swing["index"]: swing for swing in reviewed["swings"]}
    rows: list[dict[str, Any]] = []
    for move in reviewed["moves"]:
        if move["index"] in swings:
            rows.append({"swing": swings.pop(move["index"])})
        rows.append({"move": move})
    rows.extend({"swing": swing} for swing in swings.values())  # the result's, at the end
    return rows
