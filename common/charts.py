"""Plotly figures on pages, without inline scripts.

Plotly's own HTML embeds each figure with an inline <script> calling Plotly.newPlot, which a
Content-Security-Policy without 'unsafe-inline' blocks unless it carries the request's nonce;
and chart HTML is cached across requests (stats/cache.py), where a nonce would be stale.
So a figure is a <div> holding its JSON in a data attribute, and static/charts.js (included
with plotly.js by templates/includes/plotly.html) draws every such div. A simple figure's div
also holds a picture of it drawn here (common.chart_preview, its points named where the
names have room), shown until the reader asks to explore the chart, so a page does not run
plotly.js just to show one.
"""

from __future__ import annotations

from typing import Any

import plotly.io as pio
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from common.chart_preview import preview

# A legend at the foot of the figure, in rows: beside the plot it would take a third of a
# phone's width, and just below it would cover long tick labels and the axis title;
# static/charts.js makes the bottom margin hold the axis and the legend as drawn (issue 25).
LEGEND_BELOW = {
    "orientation": "h",
    "x": 0,
    "xanchor": "left",
    "yref": "container",
    "y": 0,
    "yanchor": "bottom",
}


def embed(
    figure: Any,
    div_id: str,
    config: dict[str, Any] | None = None,
    point_labels: bool = False,
    source: str | None = None,
) -> SafeString:
    """A figure (a plotly Figure or its dict) as a div that static/charts.js draws.

    With a source (a URL answering the figure's JSON), the div holds the figure's picture
    only, drawn from `figure`, and charts.js fetches the figure from there when the reader
    explores it: a figure of thousands of points need not be written into every page that
    shows it (the rating chart's history, issue 25).

    With point_labels, each point of a trace with a `text` array is labelled by its text
    where the label overlaps nothing, placed in the browser for the chart's width (Plotly
    alone lets labels of close points overlap); the other names are on hover only.
    """
    options = pio.to_json(config or {}, validate=False)
    layout = figure.get("layout", {}) if isinstance(figure, dict) else figure.layout
    height = layout.get("height") if isinstance(layout, dict) else layout.height
    picture = preview(figure, point_labels) if isinstance(figure, dict) else None
    # The chart's height, kept by site.css before it is drawn (no layout shift).
    if source is not None and picture is None:
        raise ValueError("a figure fetched from its source needs a picture to show first")
    figure_attribute = (
        format_html('data-figure-src="{}"', source)
        if source is not None
        else format_html('data-plotly-figure="{}"', pio.to_json(figure, validate=False))
    )
    return format_html(
        '<div id="{}" class="plotly-graph-div" {} data-plotly-config="{}"{}{}>{}</div>',
        div_id,
        figure_attribute,
        options,
        mark_safe(" data-chart-labels") if point_labels else "",
        format_html(' data-height="{}"', int(height)) if height else "",
        format_html(
            '<div class="chart-preview">{}<button type="button" class="chart-explore" hidden>'
            "Explore this chart: exact values, zoom</button></div>",
            picture,
        )
        if picture is not None
        else "",
    )
