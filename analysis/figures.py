"""The analysis chart: each player's chances of winning along the game, as plotly JSON.

Built in Python like stats/figures.py, but handed to the page as JSON (json_script) and
drawn by static/analysis/analysis.js: no inline script, for a strict Content-Security-Policy.
The x axis is the event index, so a clicked point is a moment of the replay.
"""

from __future__ import annotations

from typing import Any

import plotly.io as pio

from common.charts import LEGEND_BELOW
from engines.registry import title_of

TEMPLATE = pio.templates["plotly_white"].to_plotly_json()
MARK_STYLE = {  # mark: (legend, colour, symbol)
    "inaccuracy": ("inaccuracies", "#d69e2e", "circle-open"),
    "mistake": ("mistakes", "#dd6b20", "x"),
    "blunder": ("blunders", "#c53030", "x-thin-open"),
}


def win_probability_figure(reviewed: dict[str, Any]) -> dict[str, Any]:
    """One line per player: their estimated share of the win after each decision's move
    (the engine's review as the page shows it, analysis.services.review.shown); hovering a
    point names the move, and the marked moves are drawn on their player's line."""
    moves = reviewed["moves"]
    decisions = {move["index"]: move for move in moves}
    x = [move["index"] for move in moves]
    traces = []
    for seat, name in enumerate(reviewed["players"]):
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name,
                "x": x,
                "y": [move["shares"][seat] for move in moves],
                "marker": {"size": [7 if move["seat"] == seat else 3 for move in moves]},
                "text": [
                    f"{move['player']}: {move['played']}"
                    + (f" ({move['mark']})" if move["mark"] else "")
                    for move in moves
                ],
                "hovertemplate": "chances %{y:.2f}<br>%{text}<extra>" + name + "</extra>",
            }
        )
    for kind, (legend, colour, symbol) in MARK_STYLE.items():
        marked = [move for move in moves if move["mark"] == kind]
        if not marked:
            continue
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": legend,
                "x": [move["index"] for move in marked],
                "y": [decisions[move["index"]]["shares"][move["seat"]] for move in marked],
                "marker": {
                    "size": 13,
                    "color": colour,
                    "symbol": symbol,
                    "line": {"width": 2, "color": colour},
                },
                "text": [
                    f"{move['player']}: {move['played']}; better {move['best']} "
                    f"({move['best_win']} instead of {move['win']})"
                    for move in marked
                ],
                "hovertemplate": "%{text}<extra>" + kind + "</extra>",
            }
        )
    return {
        "data": traces,
        "layout": {
            "title": {"text": "Chances of winning after each decision"},
            "xaxis": {"title": {"text": "the game, move by move (click a point to see it)"}},
            "yaxis": {"title": {"text": "chances of winning"}, "range": [0, 1]},
            "legend": {"orientation": "h", "y": -0.25},
            "margin": {"l": 50, "r": 10, "t": 40, "b": 40},
            "height": 400,
            "template": TEMPLATE,
        },
    }


def accuracy_history_figure(games: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A player's accuracy in each analysed game (analysis.services.summary.player_accuracy)
    by the date it was played, a line per game title, oldest first; None with fewer than
    two dated games (one point is no history: the table says it)."""
    dated = sorted((g for g in games if g["played"]), key=lambda g: g["played"])
    if len(dated) < 2:
        return None
    by_title: dict[str, list[dict[str, Any]]] = {}
    for game in dated:
        by_title.setdefault(title_of(game["game"]), []).append(game)
    traces = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": title,
            "x": [g["played"].isoformat() for g in played],
            "y": [round(g["accuracy"], 1) for g in played],
            "text": [f"{g['decisions']} decisions" for g in played],
            "hovertemplate": "%{x|%Y-%m-%d}: %{y:.1f}% (%{text})<extra>" + title + "</extra>",
        }
        for title, played in by_title.items()
    ]
    return {
        "data": traces,
        "layout": {
            "title": {"text": "Accuracy in each analysed game"},
            "xaxis": {"title": {"text": "Date played"}, "type": "date", "tickformat": "%Y-%m-%d"},
            "yaxis": {"title": {"text": "Accuracy (%)"}, "range": [0, 100]},
            "legend": LEGEND_BELOW,
            "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
            "height": 360,
            "template": TEMPLATE,
        },
    }
