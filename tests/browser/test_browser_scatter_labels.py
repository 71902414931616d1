"""The per-hex scatter's point labels never overlap, at any width (static/charts.js places them).

Each check waits for the chart's labels to be placed for the width it is drawn at (the div's
data-labels-placed), then compares the bounding boxes the browser drew: no label touches
another label, the par annotation or another point's marker, and every label stays inside the
chart. Hexes without room keep their name on hover.
"""

import json

import pytest

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Source
from games.services.intake import submit_batch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_TIMEOUT_MS = 120_000
HEXES = "/stats/hexes/?min_sample=1"
WIDTHS = (700, 1024, 1280)

# The labels are placed for the width the chart is drawn at, and Plotly has drawn it at the
# width its box has now (a resize is over).
LABELS_PLACED = """(id) => {
    window.deepseaCharts && window.deepseaCharts.drawAll(); // drawn near the window, else now
    const div = document.getElementById(id);
    const layout = div && div._fullLayout;
    return Boolean(layout && div.dataset.labelsPlaced === String(layout.width)
        && Math.abs(layout.width - div.getBoundingClientRect().width) < 1.5);
}"""

# Every label, annotation and marker of a chart, as drawn.
DRAWN = """(id) => {
    const div = document.getElementById(id);
    const box = (e) => { const r = e.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    return {
        chart: box(div),
        labels: Array.from(div.querySelectorAll('.textpoint text'))
            .filter((t) => t.textContent.trim())
            .map((t) => ({text: t.textContent, ...box(t)})),
        annotations: Array.from(div.querySelectorAll('.annotation-text'))
            .map((t) => ({text: t.textContent, ...box(t)})),
        markers: Array.from(div.querySelectorAll('.scatterlayer .points path.point')).map(box),
        names: div.data[0].customdata.map((c) => c[0]),
    };
}"""


def overlap(a: dict, b: dict) -> bool:
    """Boxes that share more than a hairline (a pixel of antialiasing)."""
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def clashes(drawn: dict) -> list[str]:
    """Every pair of drawn things that overlap, or a label outside the chart."""
    found = []
    labels = drawn["labels"]
    for i, label in enumerate(labels):
        for other in labels[i + 1 :] + drawn["annotations"]:
            if overlap(label, other):
                found.append(f"{label['text']!r} over {other['text']!r}")
        own = drawn["names"].index(label["text"])
        for j, marker in enumerate(drawn["markers"]):
            if j != own and overlap(label, marker):
                found.append(f"{label['text']!r} over the marker of {drawn['names'][j]!r}")
        chart = drawn["chart"]
        inside = chart["left"] <= label["left"] and label["right"] <= chart["right"]
        if not (inside and chart["top"] <= label["top"] and label["bottom"] <= chart["bottom"]):
            found.append(f"{label['text']!r} outside the chart")
    return found


@pytest.fixture
def deep_vents_games(django_db_blocker) -> None:
    game = get_game("deep-vents")
    for players in (4, 3):
        logs = simulate(game, game.ruleset(None), players, 6, seed=f"labels-{players}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)


def open_hexes(browser, live_server, width: int):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + HEXES)
    page.wait_for_function(LABELS_PLACED, arg="hex-scatter", timeout=PAGE_TIMEOUT_MS)
    return page


def resize(page, width: int, chart: str = "hex-scatter") -> dict:
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_function(LABELS_PLACED, arg=chart, timeout=PAGE_TIMEOUT_MS)
    return page.evaluate(DRAWN, chart)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hex_scatter_labels_overlap_nothing_at_a_desktop_or_tablet_width(
    browser, live_server, deep_vents_games, width
):
    page = open_hexes(browser, live_server, width)
    drawn = page.evaluate(DRAWN, "hex-scatter")
    page.close()
    assert len(drawn["labels"]) > 3, drawn["labels"]
    assert any(a["text"] == "par (1/n)" for a in drawn["annotations"])
    assert clashes(drawn) == []


def test_the_labels_are_placed_again_when_the_window_is_resized(
    browser, live_server, deep_vents_games
):
    page = open_hexes(browser, live_server, 1280)
    at = {width: resize(page, width) for width in (700, 1024, 1280)}
    page.close()
    for width, drawn in at.items():
        assert len(drawn["labels"]) > 3, (width, drawn["labels"])
        assert clashes(drawn) == [], width


def test_crowded_points_label_only_where_there_is_room_and_never_overlap(
    browser, live_server, deep_vents_games
):
    """The page's own figure with its points pushed together, one of them at par by the par
    label: drawn again by charts.js as a fragment (htmx) would be."""
    page = open_hexes(browser, live_server, 1024)
    page.evaluate(
        """() => {
        const source = document.getElementById('hex-scatter');
        const figure = JSON.parse(source.dataset.plotlyFigure);
        const trace = figure.data[0];
        trace.x = trace.x.map((_, i) => 2 + 0.04 * (i % 6));
        trace.y = trace.y.map((_, i) => i === 0 ? 1 : 1 + 0.03 * Math.floor(i / 6));
        trace.x[0] = Math.max(...trace.x) + 0.001;
        const crowded = document.createElement('div');
        crowded.id = 'crowded';
        crowded.className = 'plotly-graph-div';
        crowded.dataset.plotlyFigure = JSON.stringify(figure);
        crowded.dataset.plotlyConfig = source.dataset.plotlyConfig;
        crowded.dataset.chartLabels = '';
        source.after(crowded);
        document.dispatchEvent(new CustomEvent('htmx:afterSettle', {bubbles: true}));
    }"""
    )
    page.wait_for_function(LABELS_PLACED, arg="crowded", timeout=PAGE_TIMEOUT_MS)
    crowded = page.evaluate(DRAWN, "crowded")
    narrower = resize(page, 700, "crowded")
    page.close()
    for drawn in (crowded, narrower):
        assert 0 < len(drawn["labels"]) < len(drawn["names"])
        assert clashes(drawn) == []


def test_on_a_phone_the_names_are_on_hover_only(browser, live_server, deep_vents_games):
    page = open_hexes(browser, live_server, 390)
    drawn = page.evaluate(DRAWN, "hex-scatter")
    hover = page.evaluate("document.getElementById('hex-scatter').data[0].hovertemplate")
    page.close()
    assert drawn["labels"] == []
    assert "%{customdata[0]}" in hover
