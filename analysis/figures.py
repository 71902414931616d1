"""The analysis chart: each seat's win probability along the game, as plotly JSON.

Built in Python like stats/figures.py, but handed to the page as JSON (json_script) and
drawn by static/analysis/analysis.js: no inline script, for a strict Content-Security-Policy.
"""

from __future__ import annotations

from typing import Any

import plotly.io as pio

TEMPLATE = pio.templates["plotly_white"].to_plotly_json()


def win_probability_figure(decisions: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """One line per seat: its estimated win share after each decision's played move; the
    deciding seat's point carries its standard error."""
    traces = []
    for seat, name in enumerate(names):
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": f"{seat}: {name}",
                "x": [d["index"] for d in decisions],
                "y": [d["shares"][seat] for d in decisions],
                "customdata": [d["index"] for d in decisions],
                "marker": {
                    "size": [8 if d["seat"] == seat else 3 for d in decisions],
                },
                "hovertemplate": "event %{x}: %{y:.2f}<extra>" + name + "</extra>",
            }
        )
    return {
        "data": traces,
        "layout": {
            "title": {"text": "Win probability after each decision (ties shared)"},
            "xaxis": {"title": {"text": "event"}},
            "yaxis": {"title": {"text": "win probability"}, "range": [0, 1]},
            "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
            "height": 380,
            "template": TEMPLATE,
        },
    }


def biggest_mistakes(decisions: list[dict[str, Any]], count: int = 10) -> list[dict[str, Any]]:
    """The costliest decisions, costliest first (ties in event order); only real costs."""
    costly = [d for d in decisions if d["cost"] > 0]
    return sorted(costly, key=lambda d: (-d["cost"], d["index"]))[:count]
