"""Plotly figures of the statistics pages, rendered to <div>s (plotly.js comes from static)."""

from __future__ import annotations

from collections import defaultdict

import plotly.graph_objects as go
import plotly.io as pio

from stats.services.hexes import HexStats
from stats.services.intervals import wilson
from stats.services.strategies import (
    BidStats,
    Distribution,
    PositionStats,
    RoundStats,
    StrategyStats,
)

GREY = "#b0b0b0"
BLUE = "#1f6fb2"
LAYOUT = {"margin": {"l": 60, "r": 20, "t": 50, "b": 60}, "height": 420}
# Plotly validates a template each time a figure takes one (tens of ms per figure, most of
# a page's time): figures are built without one and get this JSON, made once, when rendered.
TEMPLATE = pio.templates["plotly_white"].to_plotly_json()


def new_figure(data=None) -> go.Figure:
    return go.Figure(data, layout={"template": "none"})


def html(fig: go.Figure, div_id: str) -> str:
    fig.update_layout(**LAYOUT)
    figure = fig.to_plotly_json()
    figure["layout"]["template"] = TEMPLATE
    return pio.to_html(
        figure,
        validate=False,
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        config={"displaylogo": False, "responsive": True},
    )


def errors(estimates) -> dict:
    return {
        "type": "data",
        "symmetric": False,
        "array": [e.error_plus for e in estimates],
        "arrayminus": [e.error_minus for e in estimates],
    }


def hex_scatter(rows: list[HexStats], min_sample: int) -> str:
    """Win rate when owned (relative to par) against the average row position taken."""
    shown = [r for r in rows if r.owned_rate.value is not None and r.avg_position is not None]
    fig = new_figure(
        go.Scatter(
            x=[r.avg_position for r in shown],
            y=[r.owned_rate.value for r in shown],
            error_y=errors([r.owned_rate for r in shown]),
            mode="markers+text",
            text=[r.name for r in shown],
            textposition="top center",
            marker={
                "size": 10,
                "color": [GREY if r.greyed else BLUE for r in shown],
            },
            hovertemplate="%{text}<br>position %{x:.2f}<br>"
            "relative win rate %{y:.2f}<extra></extra>",
        )
    )
    fig.add_hline(y=1, line_dash="dot", annotation_text="par (1/n)")
    fig.update_layout(
        title=f"Win rate when owned vs. position taken (grey: sample under {min_sample})",
        xaxis_title="Average row position taken (1 = free)",
        yaxis_title="Win rate when owned / par",
    )
    return html(fig, "hex-scatter")


def hex_positions(stats: HexStats) -> str:
    positions = list(range(1, 7))
    turns = list(range(1, 9))
    fig = new_figure()
    fig.add_bar(x=positions, y=[stats.totals[f"taken_p{p}"] for p in positions], name="by position")
    fig.add_bar(x=turns, y=[stats.totals[f"taken_t{t}"] for t in turns], name="by turn", xaxis="x2")
    fig.update_layout(
        title=f"When {stats.name} is taken",
        grid={"rows": 1, "columns": 2, "pattern": "independent"},
        xaxis={"title": "Row position", "dtick": 1},
        xaxis2={"title": "Player's turn", "dtick": 1},
        yaxis_title="Times taken",
    )
    return html(fig, "hex-positions")


def hex_win_rates(stats: HexStats) -> str:
    labels = ["owned", "passed over", "taken early (1-3)", "taken late (6-8)"]
    estimates = [stats.owned_rate, stats.passed_rate, stats.early_rate, stats.late_rate]
    fig = new_figure(
        go.Bar(
            x=labels,
            y=[e.value for e in estimates],
            error_y=errors(estimates),
            marker_color=BLUE,
        )
    )
    fig.add_hline(y=1, line_dash="dot", annotation_text="par (1/n)")
    fig.update_layout(title=f"{stats.name}: win rate / par, 95% intervals", yaxis_title="Relative")
    return html(fig, "hex-win-rates")


def hex_use(stats: HexStats) -> str:
    fig = new_figure(
        go.Pie(
            labels=["grow", "trigger"],
            values=[stats.grows, stats.triggers],
            hole=0.4,
            sort=False,
        )
    )
    fig.update_layout(title=f"{stats.name}: activations, grow vs trigger")
    return html(fig, "hex-use")


def strategy_win_rates(rows: list[StrategyStats]) -> str:
    fig = new_figure(
        go.Bar(
            x=[r.label for r in rows],
            y=[r.relative.value for r in rows],
            error_y=errors([r.relative for r in rows]),
            marker_color=[GREY if r.greyed else BLUE for r in rows],
            customdata=[[r.games, r.win_rate.value] for r in rows],
            hovertemplate="%{x}<br>%{y:.2f} x par<br>%{customdata[0]} games, "
            "win rate %{customdata[1]:.1%}<extra></extra>",
        )
    )
    fig.add_hline(y=1, line_dash="dot", annotation_text="par (1/n)")
    fig.update_layout(title="Win rate / par by strategy (95% Wilson)", yaxis_title="Relative")
    return html(fig, "strategy-win-rates")


def head_to_head(names: list[str], shares: list[list], meetings: list[list]) -> str:
    fig = new_figure(
        go.Heatmap(
            z=shares,
            x=names,
            y=names,
            zmin=0,
            zmax=1,
            zmid=0.5,
            colorscale="RdBu",
            customdata=meetings,
            hovertemplate="%{y} above %{x}: %{z:.1%} of %{customdata} meetings<extra></extra>",
        )
    )
    fig.update_layout(
        title="Head to head: share of meetings the row finished above the column",
        xaxis_title="Opponent",
        yaxis_title="Strategy",
    )
    return html(fig, "head-to-head")


def score_boxes(distributions: list[Distribution]) -> str:
    fig = new_figure(
        go.Box(
            x=[d.strategy for d in distributions],
            q1=[d.q1 for d in distributions],
            median=[d.median for d in distributions],
            q3=[d.q3 for d in distributions],
            lowerfence=[d.low for d in distributions],
            upperfence=[d.high for d in distributions],
            mean=[d.mean for d in distributions],
            marker_color=BLUE,
        )
    )
    fig.update_layout(title="Final scores by strategy", yaxis_title="Score")
    return html(fig, "score-boxes")


def position_advantage(seats: list[PositionStats], orders: list[PositionStats]) -> str:
    fig = new_figure()
    fig.add_bar(
        x=[f"seat {p.position}" for p in seats],
        y=[p.relative.value for p in seats],
        error_y=errors([p.relative for p in seats]),
        name="by seat",
    )
    if orders:
        fig.add_bar(
            x=[f"turn order {p.position}" for p in orders],
            y=[p.relative.value for p in orders],
            error_y=errors([p.relative for p in orders]),
            name="by turn order",
        )
    fig.add_hline(y=1, line_dash="dot", annotation_text="par (1/n)")
    fig.update_layout(
        title="Seat and turn-order advantage (win rate / par)", yaxis_title="Relative"
    )
    return html(fig, "position-advantage")


def bids(rows: list[BidStats]) -> str:
    fig = new_figure()
    by_size: dict[int, list[BidStats]] = defaultdict(list)
    for row in rows:
        by_size[row.player_count].append(row)
    for players, group in sorted(by_size.items()):
        fig.add_scatter(
            x=[r.bid for r in group],
            y=[r.relative.value for r in group],
            error_y=errors([r.relative for r in group]),
            mode="lines+markers",
            name=f"{players} players",
            customdata=[r.games for r in group],
            hovertemplate="bid %{x}: %{y:.2f} x par (%{customdata} games)<extra></extra>",
        )
    fig.add_hline(y=1, line_dash="dot", annotation_text="table average")
    fig.update_layout(
        title="First player's win rate by winning bid (DV-3)",
        xaxis_title="Winning bid (archaea)",
        yaxis_title="Win rate / par",
    )
    return html(fig, "bids")


def rounds(rows: list[RoundStats], unit: str) -> str:
    fig = new_figure()
    by_strategy: dict[str, list[RoundStats]] = defaultdict(list)
    for row in rows:
        by_strategy[row.strategy].append(row)
    for strategy, group in sorted(by_strategy.items()):
        fig.add_scatter(
            x=[r.round for r in group],
            y=[r.points for r in group],
            mode="lines+markers",
            name=strategy,
        )
    fig.update_layout(
        title=f"Average points by {unit}",
        xaxis={"title": unit.title(), "dtick": 1},
        yaxis_title="Points",
    )
    return html(fig, "rounds")


def drowning(rows: list[RoundStats], unit: str, what: str) -> str:
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for row in rows:
        totals[row.strategy][0] += (row.drowned.value or 0) * row.seats
        totals[row.strategy][1] += row.seats
    names = sorted(totals)
    estimates = [wilson(*totals[n]) for n in names]
    fig = new_figure(go.Bar(x=names, y=[e.value for e in estimates], error_y=errors(estimates)))
    fig.update_layout(
        title=f"{what} per {unit} (95% Wilson)", yaxis_title="Rate", yaxis_tickformat=".0%"
    )
    return html(fig, "drowning")


def moments(shares: dict[str, list[tuple[int, float]]], unit: str) -> str:
    fig = new_figure()
    for strategy, values in sorted(shares.items()):
        fig.add_bar(x=[m for m, _ in values], y=[s for _, s in values], name=strategy)
    fig.update_layout(
        title=f"When strategies head home ({unit}; 0 = never)",
        barmode="group",
        xaxis={"title": unit, "dtick": 1},
        yaxis={"title": "Share", "tickformat": ".0%"},
    )
    return html(fig, "moments")
