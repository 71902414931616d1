"""Plotly figures of the statistics pages, rendered to <div>s (plotly.js comes from static).

Figures are plain dicts in plotly's JSON form: plotly.graph_objects would validate every
property of every trace (10-20 ms a figure, most of a page's time) to produce the same JSON.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import plotly.io as pio
from plotly.colors import diverging

from common.charts import LEGEND_BELOW, embed
from stats.services.fair_bid import FairBid
from stats.services.intervals import wilson
from stats.services.strategies import (
    Distribution,
    PositionStats,
    RoundStats,
    StrategyStats,
)

if TYPE_CHECKING:  # the hex service reads the game's adapter, which draws with this module
    from stats.services.hexes import HexStats

GREY = "#b0b0b0"
BLUE = "#1f6fb2"
TEAL = "#2c7a7b"
LAYOUT = {"margin": {"l": 60, "r": 20, "t": 50, "b": 60}, "height": 420}
TEMPLATE = pio.templates["plotly_white"].to_plotly_json()
# The "RdBu" scale as plotly.py sends it (plotly.js has a different scale of that name).
COLORSCALE_RDBU = [[i / (len(diverging.RdBu) - 1), c] for i, c in enumerate(diverging.RdBu)]


def figure(traces: list[dict], title: str, **layout) -> dict:
    return {"data": traces, "layout": {"title": {"text": title}, **layout}}


def axis(title: str, **more) -> dict:
    return {"title": {"text": title}, **more}


def par_line(fig: dict, text: str, beside: bool = False) -> dict:
    """A dotted line across the plot at y = 1, labelled at its right end (as add_hline):
    above the line inside the plot, or `beside` it in the right margin (which must hold
    it), where no bar or point can reach the label."""
    layout = fig["layout"]
    layout.setdefault("shapes", []).append(
        {
            "type": "line",
            "line": {"dash": "dot"},
            "x0": 0,
            "x1": 1,
            "xref": "x domain",
            "y0": 1,
            "y1": 1,
            "yref": "y",
        }
    )
    layout.setdefault("annotations", []).append(
        {
            "showarrow": False,
            "text": text,
            "x": 1.01 if beside else 1,
            "xanchor": "left" if beside else "right",
            "xref": "x domain",
            "y": 1,
            "yanchor": "middle" if beside else "bottom",
            "yref": "y",
        }
    )
    return fig


def html(fig: dict, div_id: str, point_labels: bool = False) -> str:
    fig["layout"] = {**LAYOUT, **fig["layout"], "template": TEMPLATE}
    config = {"displaylogo": False, "responsive": True}
    return embed(fig, div_id, config=config, point_labels=point_labels)


MARKER_PX = 10
MARGIN_WITH_LEGEND = {"l": 60, "r": 20, "t": 50, "b": 120}


def legend_entry(name: str, color: str, symbol: str = "circle") -> dict:
    """A trace with no points, there only to name a colour in the legend: the points it
    stands for stay in one trace (static/charts.js labels that trace's points)."""
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "mode": "markers",
        "name": name,
        "marker": {"color": color, "size": MARKER_PX, "symbol": symbol},
        "hoverinfo": "skip",
    }


def sample_legend(min_sample: int) -> list[dict]:
    """What blue and grey mean on a chart whose small samples are greyed."""
    games = f"{min_sample} game{'' if min_sample == 1 else 's'}"
    return [
        legend_entry(f"sample of {games} or more", BLUE, "square"),
        legend_entry(f"sample under {games} (greyed)", GREY, "square"),
    ]


def errors(estimates) -> dict:
    return {
        "type": "data",
        "symmetric": False,
        "array": [e.error_plus for e in estimates],
        "arrayminus": [e.error_minus for e in estimates],
    }


def hex_scatter(rows: list[HexStats], min_sample: int) -> str:
    """Win rate when owned (relative to par) against the average row position taken.

    Each point is labelled with its hex where the label has room (static/charts.js places
    the labels for the chart's width); the best-sampled hexes are placed first.
    """
    shown = [r for r in rows if r.owned_rate.value is not None and r.avg_position is not None]
    shown.sort(key=lambda r: (r.greyed, -r.sample))
    scatter = {
        "type": "scatter",
        "x": [r.avg_position for r in shown],
        "y": [r.owned_rate.value for r in shown],
        "error_y": {**errors([r.owned_rate for r in shown]), "thickness": 1, "color": GREY},
        "mode": "markers",
        "text": [r.name for r in shown],
        "textfont": {"size": 12},
        "customdata": [[r.name, r.sample] for r in shown],
        "marker": {"size": MARKER_PX, "color": [GREY if r.greyed else BLUE for r in shown]},
        "hovertemplate": "%{customdata[0]}<br>average position %{x:.2f}<br>"
        "win rate when owned %{y:.2f} x par<br>sample %{customdata[1]:.0f} games"
        "<extra></extra>",
        "cliponaxis": False,
        "showlegend": False,
    }
    fig = figure(
        [scatter, *sample_legend(min_sample)],
        "Win rate when owned (shrunk) vs. position taken",
        xaxis=axis("Average row position taken (1 = free, higher costs more)"),
        yaxis=axis("Win rate when owned / par (1 = average)"),
        margin={**MARGIN_WITH_LEGEND, "r": 80},
        legend=LEGEND_BELOW,
        height=480,
    )
    # The par label sits in the right margin, clear of every hex label.
    return html(par_line(fig, "par (1/n)", beside=True), "hex-scatter", point_labels=True)


def hex_positions(stats: HexStats) -> str:
    """Two bar charts side by side, each on its own pair of axes: the row position a hex was
    taken from, and the player's turn it was taken on."""
    positions = list(range(1, 7))
    turns = list(range(1, 9))
    fig = figure(
        [
            {
                "type": "bar",
                "x": positions,
                "y": [stats.totals[f"taken_p{p}"] for p in positions],
                "name": "by row position",
                "marker": {"color": BLUE},
                "hovertemplate": "row position %{x}: taken %{y} times<extra></extra>",
            },
            {
                "type": "bar",
                "x": turns,
                "y": [stats.totals[f"taken_t{t}"] for t in turns],
                "name": "by turn",
                "xaxis": "x2",
                "yaxis": "y2",
                "marker": {"color": TEAL},
                "hovertemplate": "turn %{x}: taken %{y} times<extra></extra>",
            },
        ],
        f"When {stats.name} is taken",
        legend=LEGEND_BELOW,
        margin=MARGIN_WITH_LEGEND,
        xaxis=axis("Row position (1 = free)", dtick=1, domain=[0, 0.44], anchor="y"),
        yaxis=axis("Times taken", rangemode="tozero", anchor="x"),
        xaxis2=axis("Player's turn", dtick=1, domain=[0.56, 1], anchor="y2"),
        yaxis2=axis("Times taken", rangemode="tozero", anchor="x2"),
    )
    return html(fig, "hex-positions")


def hex_win_rates(stats: HexStats) -> str:
    labels = ["owned", "passed over", "taken early (1-3)", "taken late (6-8)"]
    estimates = [stats.owned_rate, stats.passed_rate, stats.early_rate, stats.late_rate]
    samples = [stats.owned, stats.passed, stats.early, stats.late]
    bar = {
        "type": "bar",
        "x": labels,
        "y": [e.value for e in estimates],
        "error_y": errors(estimates),
        "marker": {"color": [GREY if n < stats.min_sample else BLUE for n in samples]},
        "customdata": samples,
        "hovertemplate": "%{x}: %{y:.2f} x par<br>sample %{customdata:.0f} games<extra></extra>",
        "showlegend": False,
    }
    fig = figure(
        [bar, *sample_legend(stats.min_sample)],
        f"{stats.name}: win rate / par (shrunk), 95% intervals",
        legend=LEGEND_BELOW,
        margin=MARGIN_WITH_LEGEND,
        xaxis=axis("Players who"),
        yaxis=axis("Win rate / par (1 = average)", rangemode="tozero"),
    )
    return html(par_line(fig, "par (1/n)"), "hex-win-rates")


def hex_use(stats: HexStats) -> str:
    pie = {
        "type": "pie",
        "labels": ["grow", "trigger"],
        "values": [stats.grows, stats.triggers],
        "hole": 0.4,
        "sort": False,
    }
    pie["hovertemplate"] = "%{label}: %{value} activations (%{percent})<extra></extra>"
    fig = figure([pie], f"{stats.name}: activations, grow vs trigger (share of all)")
    return html(fig, "hex-use")


def strategy_win_rates(rows: list[StrategyStats]) -> str:
    min_sample = rows[0].min_sample
    bar = {
        "type": "bar",
        "x": [r.label for r in rows],
        "y": [r.relative.value for r in rows],
        "error_y": errors([r.relative for r in rows]),
        "marker": {"color": [GREY if r.greyed else BLUE for r in rows]},
        "customdata": [[r.games, r.win_rate.value] for r in rows],
        "hovertemplate": "%{x}<br>%{y:.2f} x par (shrunk)<br>%{customdata[0]} games, "
        "observed win rate %{customdata[1]:.1%}<extra></extra>",
        "showlegend": False,
    }
    fig = figure(
        [bar, *sample_legend(min_sample)],
        "Win rate / par by strategy (shrunk, 95% intervals)",
        legend=LEGEND_BELOW,
        margin=MARGIN_WITH_LEGEND,
        xaxis=axis("Strategy"),
        yaxis=axis("Win rate / par (1 = average)", rangemode="tozero"),
    )
    return html(par_line(fig, "par (1/n)"), "strategy-win-rates")


def head_to_head(names: list[str], shares: list[list], meetings: list[list]) -> str:
    heatmap = {
        "type": "heatmap",
        "z": shares,
        "x": names,
        "y": names,
        "zmin": 0,
        "zmax": 1,
        "zmid": 0.5,
        "colorscale": COLORSCALE_RDBU,
        # Across the top of the plot, its title above it: beside the plot, the bar took a
        # quarter of a phone; at the figure's foot (y in "container" units), Plotly hung the
        # title under the tick labels, 80 px below the bar on a phone once wrapped, and put a
        # title on top over the bar itself. In "paper" units the title sits on its bar.
        "colorbar": {
            "title": {"text": "Share of meetings finished above", "side": "top"},
            "tickformat": ".0%",
            "thickness": 10,
            "orientation": "h",
            "yref": "paper",
            "y": 1.02,
            "yanchor": "bottom",
        },
        # The numbers on the cells, not only their colour.
        "texttemplate": "%{z:.0%}",
        "textfont": {"size": 9},
        "customdata": meetings,
        "hovertemplate": "%{y} above %{x}: %{z:.1%} of %{customdata} meetings<extra></extra>",
    }
    fig = figure(
        [heatmap],
        "Head to head: share of meetings the row finished above the column",
        margin={**MARGIN_WITH_LEGEND, "t": 120},
        height=520,
        # Measured from the axis here: beside a colour bar across the top, Plotly put the title
        # among the tick labels.
        xaxis={"title": {"text": "Opponent", "standoff": 40}},
        yaxis=axis("Strategy"),
    )
    return html(fig, "head-to-head")


def score_boxes(distributions: list[Distribution]) -> str:
    box = {
        "type": "box",
        "x": [d.strategy for d in distributions],
        "q1": [d.q1 for d in distributions],
        "median": [d.median for d in distributions],
        "q3": [d.q3 for d in distributions],
        "lowerfence": [d.low for d in distributions],
        "upperfence": [d.high for d in distributions],
        "mean": [d.mean for d in distributions],
        "marker": {"color": BLUE},
    }
    fig = figure(
        [box],
        "Final scores by strategy",
        xaxis=axis("Strategy"),
        yaxis=axis("Final score (points)"),
    )
    return html(fig, "score-boxes")


def position_advantage(seats: list[PositionStats], orders: list[PositionStats]) -> str:
    bars = [
        {
            "type": "bar",
            "x": [f"seat {p.position + 1}" for p in seats],  # from 1, as at the table
            "y": [p.relative.value for p in seats],
            "error_y": errors([p.relative for p in seats]),
            "name": "by seat",
        }
    ]
    if orders:
        bars.append(
            {
                "type": "bar",
                # Short enough for the server's picture (chart_preview) to show each bar's
                # label whole on a phone: "turn order N" was cut to "turn orde…" on all four.
                "x": [f"order {p.position}" for p in orders],
                "y": [p.relative.value for p in orders],
                "error_y": errors([p.relative for p in orders]),
                "name": "by turn order",
            }
        )
    fig = figure(
        bars,
        "Seat and turn-order advantage (win rate / par, shrunk)",
        legend=LEGEND_BELOW,
        margin={**MARGIN_WITH_LEGEND, "r": 80},
        xaxis=axis("Seat at the table, or place in turn order"),
        yaxis=axis("Win rate / par (1 = average)", rangemode="tozero"),
    )
    # Beside the plot: above the line's right end, a phone's narrow bars reached the label.
    return html(par_line(fig, "par (1/n)", beside=True), "position-advantage")


def bids(estimates: list[FairBid]) -> str:
    """Per table size, one row: the fair bid (a dot) with its 95% bootstrap interval (a bar
    across it), over the legal bids, 0 to the base (a grey band). Table sizes without an
    estimate yet have the band only; the text above the chart says why."""
    sizes = [f"{fair.player_count} players" for fair in estimates]
    shown = [fair for fair in estimates if fair.bid is not None]
    legal = {
        "type": "bar",
        "orientation": "h",
        "y": sizes,
        "x": [fair.legal_high for fair in estimates],
        "base": [0] * len(estimates),
        "width": 0.5,
        "marker": {"color": "#e6e6e6"},
        "name": "legal bids (0 to the base)",
        "showlegend": True,
        # The table sizes without an estimate say why on their band.
        "text": [
            "" if fair.bid is not None else f"not enough games yet ({fair.games:.0f})"
            for fair in estimates
        ],
        "textposition": "inside",
        "insidetextanchor": "middle",
        "hovertemplate": "%{y}: bids from 0 to %{x}<extra></extra>",
    }
    fair_dots = {
        "type": "scatter",
        "y": [f"{fair.player_count} players" for fair in shown],
        "x": [fair.bid for fair in shown],
        "error_x": {
            "type": "data",
            "symmetric": False,
            "array": [fair.high - fair.bid for fair in shown],
            "arrayminus": [fair.bid - fair.low for fair in shown],
            "thickness": 3,
            "width": 8,
            "color": BLUE,
        },
        "mode": "markers",
        "marker": {"color": BLUE, "size": 12},
        "name": "fair bid, with its 95% interval",
        "customdata": [[fair.low, fair.high, fair.games] for fair in shown],
        "hovertemplate": "%{y}: fair bid %{x:.1f} archaea<br>95% interval %{customdata[0]:.1f}"
        " to %{customdata[1]:.1f}<br>from %{customdata[2]:.0f} games<extra></extra>",
    }
    fig = figure(
        [legal, fair_dots],
        "Fair starting bid by table size (DV-3)",
        xaxis=axis("Winning bid (archaea)", rangemode="tozero"),
        yaxis=axis("Table size", categoryorder="array", categoryarray=sizes, autorange="reversed"),
        legend=LEGEND_BELOW,
        margin={**MARGIN_WITH_LEGEND, "l": 80},
        height=160 + 60 * len(estimates),
    )
    return html(fig, "bids")


def rounds(rows: list[RoundStats], unit: str) -> str:
    by_strategy: dict[str, list[RoundStats]] = defaultdict(list)
    for row in rows:
        by_strategy[row.strategy].append(row)
    lines = [
        {
            "type": "scatter",
            "x": [r.round for r in group],
            "y": [r.points for r in group],
            "mode": "lines+markers",
            "name": strategy,
        }
        for strategy, group in sorted(by_strategy.items())
    ]
    fig = figure(
        lines,
        f"Average points by {unit}",
        xaxis=axis(unit.title(), dtick=1),
        yaxis=axis("Average points per seat"),
    )
    return html(fig, "rounds")


def drowning(rows: list[RoundStats], unit: str, what: str) -> str:
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for row in rows:
        totals[row.strategy][0] += (row.drowned.value or 0) * row.seats
        totals[row.strategy][1] += row.seats
    names = sorted(totals)
    estimates = [wilson(*totals[n]) for n in names]
    bar = {
        "type": "bar",
        "x": names,
        "y": [e.value for e in estimates],
        "error_y": errors(estimates),
    }
    fig = figure(
        [bar],
        f"{what} per {unit} (95% Wilson)",
        xaxis=axis("Strategy"),
        yaxis=axis(f"Share of {unit}s", tickformat=".0%", rangemode="tozero"),
    )
    return html(fig, "drowning")


def moments(shares: dict[str, list[tuple[int, float]]], unit: str) -> str:
    bars = [
        {"type": "bar", "x": [m for m, _ in values], "y": [s for _, s in values], "name": strategy}
        for strategy, values in sorted(shares.items())
    ]
    fig = figure(
        bars,
        f"When strategies head home ({unit}; 0 = never)",
        barmode="group",
        xaxis=axis(unit, dtick=1),
        yaxis=axis("Share of dives or rounds", tickformat=".0%"),
    )
    return html(fig, "moments")
