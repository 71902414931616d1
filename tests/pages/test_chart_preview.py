"""Simple charts come with a server-drawn picture of themselves (common/chart_preview.py), so a
page shows a chart without running plotly.js; the rest are left to plotly.js (issue 27)."""

import re
from html import unescape

import pytest

from common.chart_preview import overlap, preview
from common.charts import embed
from stats.figures import axis, par_line, position_advantage
from stats.figures import figure as stats_figure
from stats.services.intervals import Estimate
from stats.services.strategies import PositionStats
from tests.ratings_support import hours_ago, verified_game

LINES = {
    "data": [
        {"type": "scatter", "mode": "lines+markers", "name": "Elo", "x": [1, 2, 3], "y": [5, 7, 6]},
        {
            "type": "scatter",
            "mode": "lines",
            "name": "OpenSkill",
            "x": [1, 2, 3],
            "y": [2, 3, 4],
            "yaxis": "y2",
            "line": {"dash": "dot"},
        },
    ],
    "layout": {
        "title": {"text": "Ratings after each game"},
        "height": 400,
        "xaxis": {"title": {"text": "Game"}},
        "yaxis": {"title": {"text": "Elo"}, "domain": [0.55, 1]},
        "yaxis2": {"title": {"text": "OpenSkill"}, "domain": [0, 0.42]},
    },
}


def y_positions(polyline: str) -> list[float]:
    return [float(point.split(",")[1]) for point in polyline.split()]


def test_a_line_chart_is_drawn_with_its_titles_legend_and_one_line_per_trace():
    svg = preview(LINES)

    lines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(lines) == 2
    assert "<title>Ratings after each game</title>" in svg
    for words in ("Elo", "OpenSkill", "Game"):
        assert f">{words}</text>" in svg
    assert 'stroke-dasharray="2 3"' in svg  # the dotted OpenSkill line
    # Each trace in its own panel: the Elo panel (domain 0.55-1) is above OpenSkill's.
    assert max(y_positions(lines[0])) < min(y_positions(lines[1]))
    # The highest Elo value is drawn highest (SVG y grows downwards).
    elo = y_positions(lines[0])
    assert elo[1] == min(elo)


def test_bars_with_intervals_are_drawn_bar_by_bar_with_their_error_bars():
    figure = {
        "data": [
            {
                "type": "bar",
                "x": ["People", "Random bot"],
                "y": [1.2, 0.5],
                "error_y": {"type": "data", "array": [0.3, 0.2], "arrayminus": [0.2, 0.1]},
                "marker": {"color": ["#1f6fb2", "#b0b0b0"]},
            }
        ],
        "layout": {"title": {"text": "Win rate / par"}, "height": 420},
    }

    svg = preview(figure)

    assert len(re.findall(r"<rect ", svg)) == 2
    assert 'fill="#b0b0b0"' in svg
    assert ">Random bot</text>" in svg
    assert len(re.findall(r"<line ", svg)) >= 6  # two error bars of three strokes each


@pytest.mark.parametrize("kind", ["pie", "heatmap", "box"])
def test_charts_other_than_lines_and_bars_are_left_to_plotly(kind):
    figure = {"data": [{"type": kind}], "layout": {"title": {"text": "t"}}}

    assert preview(figure) is None
    assert "chart-preview" not in embed(figure, "other")


def test_side_by_side_axes_are_left_to_plotly():
    figure = {
        "data": [
            {"type": "bar", "x": [1], "y": [1]},
            {"type": "bar", "x": [1], "y": [2], "xaxis": "x2"},
        ],
        "layout": {"xaxis2": {"domain": [0.5, 1]}},
    }

    assert preview(figure) is None


@pytest.mark.parametrize(
    "trace",
    [
        {"type": "scatter", "x": [3.2, 4.1], "y": ["3 players", "4 players"]},
        {"type": "bar", "x": [5, 7], "y": ["a", "b"], "orientation": "h"},
    ],
)
def test_charts_with_categories_up_their_side_are_left_to_plotly(trace):
    """The fair bid's chart puts its table sizes up the side: no numeric axis to picture."""
    assert preview({"data": [trace], "layout": {}}) is None


def test_named_points_are_labelled_only_when_the_chart_asks_for_labels():
    figure = {
        "data": [
            {
                "type": "scatter",
                "mode": "markers",
                "x": [1, 1.001, 3],
                "y": [1, 1.001, 2],
                "text": ["Black Smoker", "Giant Oarfish", "Yeti Crab"],
            }
        ],
        "layout": {"height": 420},
    }

    svg = preview(figure, point_labels=True)

    assert ">Yeti Crab</text>" in svg
    assert ">Black Smoker</text>" in svg
    assert preview(figure) is not None and ">Yeti Crab</text>" not in preview(figure)


def text_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Each unrotated text's box (left, top, right, bottom), estimated as the picture does."""
    boxes = {}
    pattern = r'<text x="([\d.]+)" y="([\d.]+)" font-size="(\d+)"[^>]*text-anchor="(\w+)">([^<]+)<'
    for x, y, size, anchor, words in re.findall(pattern, svg):
        x, y, size, width = float(x), float(y), int(size), len(unescape(words)) * 0.56 * int(size)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        boxes[unescape(words)] = (left, y - size, left + width, y + 2)
    return boxes


def hex_like_figure() -> dict:
    """The per-hex chart's shape: named points, a long y title, the par line and its note."""
    figure = stats_figure(
        [
            {
                "type": "scatter",
                "mode": "markers",
                "x": [1.2, 1.5, 2.0, 2.15],
                "y": [1.4, 0.6, 1.1, 1.02],
                "text": ["Lanternfish", "Gulper Eel", "Porous Rock", "Goblin Shark"],
            }
        ],
        "Win rate when owned (shrunk) vs. position taken",
        xaxis=axis("Average row position taken (1 = free, higher costs more)"),
        yaxis=axis("Win rate when owned / par (1 = average)"),
    )
    return par_line(figure, "par (1/n)")


def test_a_long_y_title_is_drawn_whole_in_two_lines_beside_the_plot():
    svg = preview(hex_like_figure(), point_labels=True)

    rotated = re.findall(r'<text x="([\d.]+)"[^>]*rotate\(-90[^>]*>([^<]+)</text>', svg)
    assert " ".join(unescape(words) for _, words in rotated) == (
        "Win rate when owned / par (1 = average)"
    )
    assert len(rotated) == 2 and "…" not in svg
    tick = text_boxes(svg)["1.5"]  # a y tick label, right-aligned at the plot's left
    assert all(float(x) + 7 < tick[0] for x, _ in rotated)


def test_no_point_label_overlaps_the_par_lines_note():
    svg = preview(hex_like_figure(), point_labels=True)

    boxes = text_boxes(svg)
    note = boxes.pop("par (1/n)")
    named = {name: box for name, box in boxes.items() if name in {"Porous Rock", "Goblin Shark"}}
    assert named  # at least one of the points near the note is still named
    assert [name for name, box in named.items() if overlap(box, note)] == []


@pytest.mark.django_db
def test_the_player_page_shows_its_rating_history_as_a_picture_with_an_explore_button(client):
    verified_game(["ann", "bob", "cyd"], seed=21, played_at=hours_ago(3))
    verified_game(["ann", "bob"], seed=22, played_at=hours_ago(2))

    page = unescape(client.get("/players/ann/").content.decode())

    chart = page[page.index('id="rating-history"') :]
    assert '<svg class="chart-preview-picture"' in chart
    assert "<title>Ratings after each verified game</title>" in chart
    assert "Explore this chart" in chart


def test_the_seat_and_turn_order_preview_tells_every_bar_apart_by_its_label():
    estimate = Estimate(1.0, 0.8, 1.2)
    seats = [PositionStats(n, 10, estimate, estimate, 20.0) for n in range(4)]
    orders = [PositionStats(n, 10, estimate, estimate, 20.0) for n in range(1, 5)]

    svg = position_advantage(seats, orders)

    # A bar's label: one or two lines of small centred text at the bar's x.
    lines = re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="12"[^>]*"middle">([^<]*)<', svg)
    labels: dict[str, str] = {}
    for x, line in lines:
        labels[x] = f"{labels.get(x, '')} {unescape(line)}".strip()
    assert list(labels.values()) == [
        *(f"seat {n}" for n in range(1, 5)),
        *(f"order {n}" for n in range(1, 5)),
    ]


def test_a_legend_only_trace_adds_no_empty_none_bar_to_the_picture():
    figure = {
        "data": [
            {"type": "bar", "x": ["owned", "passed over"], "y": [1.2, 0.7]},
            {
                "type": "scatter",
                "mode": "markers",
                "name": "sample of 30 games or more",
                "x": [None],
                "y": [None],
            },
        ],
        "layout": {"title": {"text": "Win rate / par"}, "height": 420},
    }

    svg = preview(figure)

    assert ">owned</text>" in svg
    assert ">None</text>" not in svg


def test_bars_over_numbers_stand_in_number_order_as_plotly_draws_them():
    figure = {
        "data": [
            {"type": "bar", "name": "Air-aware bot", "x": [3, 4], "y": [0.3, 0.7]},
            {"type": "bar", "name": "Random bot", "x": [2, 0, 3], "y": [0.4, 0.1, 0.5]},
        ],
        "layout": {"title": {"text": "When strategies head home (0 = never)"}, "height": 420},
    }

    svg = preview(figure)

    ticks = re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="12"[^>]*"middle">(\d)<', svg)
    assert [label for _, label in sorted(ticks, key=lambda tick: float(tick[0]))] == [
        "0",
        "2",
        "3",
        "4",
    ]


def test_names_and_colours_in_a_picture_are_escaped_as_page_text():
    figure = {
        "data": [
            {
                "type": "scatter",
                "mode": "markers",
                "name": "<b>Smoker</b>",
                "x": [1, 3],
                "y": [1, 2],
                "text": ["Crab & <Yeti>", "Oarfish"],
                "marker": {"color": ['red" onclick="x', "blue"]},
            },
            {"type": "scatter", "mode": "lines", "name": "Par & more", "x": [1, 3], "y": [2, 2]},
        ],
        "layout": {"height": 420, "xaxis": {"title": {"text": "Use <%>"}}},
    }

    svg = preview(figure, point_labels=True)

    for shown in ("&lt;b&gt;Smoker&lt;/b&gt;", "Crab &amp; &lt;Yeti&gt;", "Par &amp; more"):
        assert f">{shown}</text>" in svg
    assert ">Use &lt;%&gt;</text>" in svg
    assert 'fill="red&quot; onclick=&quot;x"' in svg
    assert "<Yeti>" not in svg and 'onclick="' not in svg


def test_a_bar_is_written_as_format_html_wrote_it_its_colour_escaped():
    figure = {
        "data": [
            {
                "type": "bar",
                "x": ["Crab", "Yeti"],
                "y": [1.25, -0.5],
                "marker": {"color": ['red" onclick="x', "#1f6fb2"]},
            }
        ],
        "layout": {"height": 420},
    }

    svg = preview(figure)

    number = r'(-?\d+\.\d)"'
    rect = rf'<rect x="{number} y="{number} width="{number} height="{number} fill="([^"<>]*)"/>'
    rects = re.findall(rect, svg)
    assert [fill for *_, fill in rects] == ["red&quot; onclick=&quot;x", "#1f6fb2"]
    crab, yeti = ([float(value) for value in found[:4]] for found in rects)
    assert crab[2] == yeti[2] and crab[0] < yeti[0]  # side by side, as wide
    assert crab[3] == pytest.approx(2.5 * yeti[3], abs=0.2)  # 1.25 up, 0.5 down
