"""The seat and turn-order advantage chart's par label ("par (1/n)") touches none of the
chart's bars, error bars, legend or titles, on a phone (390 px) as on a desktop (1280 px):
on a phone it sat above the dotted line's right end, across the last bars (issue 25). It is
drawn beside the plot, in the right margin, where no bar reaches; so is it in the chart's
server-drawn picture."""

import re

import pytest
from browser_support import PAGE_TIMEOUT_MS, WIDTHS

from stats.figures import position_advantage
from stats.services.intervals import Estimate
from stats.services.strategies import PositionStats

# Every chart drawn, its titles and margins fitted to the width it is drawn at.
FITTED = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    const div = document.getElementById('position-advantage');
    return div && div._fullLayout && div.dataset.titlesFitted === String(div._fullLayout.width);
}"""

# The par label's box, the plot area's, and the parts of the chart it overlaps.
PAR_LABEL = """() => {
    const div = document.getElementById('position-advantage');
    const box = (element) => { const r = element.getBoundingClientRect();
        return r.width && r.height ? r : null; };
    const all = (selector) => Array.from(div.querySelectorAll(selector)).map(box).filter(Boolean);
    const hit = (a, b) => a.left < b.right && b.left < a.right
        && a.top < b.bottom && b.top < a.bottom;
    const labels = Array.from(div.querySelectorAll('.annotation'))
        .filter((a) => a.textContent === 'par (1/n)').map(box);
    const parts = {
        bar: all('.barlayer .point path'),
        'error bar': all('.errorbar path'),
        legend: all('.legend'),
        title: all('.gtitle'),
        'mode bar': all('.modebar'),
        'axis title': all("[class^='g-x'][class$='title'] text")
            .concat(all("[class^='g-y'][class$='title'] text")),
        'tick label': all('.xtick text, .ytick text'),
    };
    const plot = box(div.querySelector('.bglayer rect, .nsewdrag'));
    return {labels: labels.length, bars: parts.bar.length,
        plotRight: plot.right, labelLeft: labels.length ? labels[0].left : null,
        labelRight: labels.length ? labels[0].right : null, chartRight: box(div).right,
        overlaps: Object.entries(parts)
            .filter(([, boxes]) => labels.some((l) => boxes.some((b) => hit(l, b))))
            .map(([name]) => name)};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_par_label_sits_beside_the_plot_touching_no_bar(browser, live_server, games, size):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.goto(live_server.url + "/stats/strategies/?game=deep-vents")
    page.wait_for_function(FITTED, timeout=PAGE_TIMEOUT_MS)
    drawn = page.evaluate(PAR_LABEL)
    page.close()
    assert drawn["labels"] == 1 and drawn["bars"] >= 6, drawn
    assert drawn["overlaps"] == [], drawn
    # Right of every bar however tall, and whole on the chart.
    assert drawn["plotRight"] <= drawn["labelLeft"] < drawn["labelRight"] <= drawn["chartRight"]


def boxes_of(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Each text of the picture and its box (13 px type, 0.56 em a character)."""
    found = {}
    for x, y, size, anchor, content in re.findall(
        r'<text x="([\d.]+)" y="([\d.]+)" font-size="(\d+)"[^>]*text-anchor="(\w+)">([^<]+)',
        svg,
    ):
        width = len(content) * 0.56 * int(size)
        left = float(x) - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
        found[content] = (left, float(y) - int(size), left + width, float(y) + 3)
    return found


def test_the_pictures_par_label_is_right_of_every_bar():
    # The last bars the tallest: above the line's right end they met the label.
    stats = [
        PositionStats(p, 10, Estimate(1.8, 1.5, 2.1), Estimate(0.6, 0.5, 0.7), 20.0)
        for p in range(4)
    ]
    svg = position_advantage(stats, stats[1:])  # the chart with its picture

    boxes = boxes_of(svg)
    words = [boxes["par"], boxes["(1/n)"]]  # a word a line
    label = (
        min(b[0] for b in words),
        min(b[1] for b in words),
        max(b[2] for b in words),
        max(b[3] for b in words),
    )
    bars = [
        (float(x), float(x) + float(w))
        for x, w in re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    ]
    assert len(bars) >= 7
    assert all(right <= label[0] for _, right in bars), (label, bars)
    assert label[2] <= 420  # whole within the picture (WIDTH)
