"""A drawn chart's mode bar (Plotly's zoom and picture buttons, top right) keeps clear of the
chart's title, and a legend at its foot keeps clear of the x axis's dates and title, on a
phone (390 px) as on a desktop (1280 px). On a phone the bar, some 200 px wide, covered the
title of every chart, and the rating chart's legend (eight entries, a line each) covered its
axis title (issue 25): static/charts.js puts the title below the bar where they cannot share
a row and makes the bottom margin hold the axis and the legend."""

import pytest

from tests.browser_support import WIDTHS
from tests.ratings_support import hours_ago, verified_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_TIMEOUT_MS = 120_000

# Every chart drawn, and its titles and margins fitted to the width it is drawn at.
FITTED = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    const charts = Array.from(document.querySelectorAll('.plotly-graph-div'));
    return charts.length > 0 && charts.every((div) => div._fullLayout
        && div.dataset.titlesFitted === String(div._fullLayout.width)); }"""

# Per chart, the pairs of its parts that overlap (by their boxes on the page).
OVERLAPS = """() => Array.from(document.querySelectorAll('.plotly-graph-div')).map((div) => {
    const box = (element) => { const r = element.getBoundingClientRect();
        return r.width || r.height ? r : null; };
    const all = (selector) => Array.from(div.querySelectorAll(selector)).map(box).filter(Boolean);
    const hit = (a, b) => a.left < b.right && b.left < a.right
        && a.top < b.bottom && b.top < a.bottom;
    const parts = {
        'mode bar': all('.modebar'),
        'title': all('.gtitle'),
        'legend': all('.legend'),
        'x axis title': all("[class^='g-x'][class$='title'] text"),
        'dates': all('.xaxislayer-above text'),
    };
    const pairs = [['mode bar', 'title'], ['legend', 'x axis title'], ['legend', 'dates'],
        ['dates', 'x axis title']];
    return {id: div.id, bar: parts['mode bar'].length, title: parts['title'].length,
        overlaps: pairs.filter(([a, b]) => parts[a].some((p) => parts[b].some((q) => hit(p, q))))
            .map((pair) => pair.join(' / '))};
})"""


@pytest.fixture
def ann(django_db_blocker) -> None:
    for seed, hours in ((31, 400), (32, 200), (33, 3)):
        verified_game(["ann", "bob", "cyd"], seed=seed, played_at=hours_ago(hours))


def overlaps_at(page, size: str) -> list[dict]:
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.wait_for_function(FITTED, timeout=PAGE_TIMEOUT_MS)
    return page.evaluate(OVERLAPS)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_explored_rating_charts_mode_bar_and_legend_keep_clear_of_its_titles(
    browser, live_server, ann, size
):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.goto(live_server.url + "/players/ann/")
    page.get_by_role("button", name="Explore this chart").click()
    charts = overlaps_at(page, size)
    page.close()
    assert [(c["id"], c["bar"], c["title"]) for c in charts] == [("rating-history", 1, 1)]
    assert charts[0]["overlaps"] == []


def test_every_strategy_chart_keeps_its_mode_bar_clear_of_its_title_on_a_phone(
    browser, live_server, games
):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS["phone"], strict=True)))
    page.goto(live_server.url + "/stats/strategies/?game=deep-vents")
    phone = overlaps_at(page, "phone")
    desktop = overlaps_at(page, "desktop")
    page.close()
    assert len(phone) >= 4
    assert all(chart["bar"] == 1 and chart["title"] == 1 for chart in phone)
    assert [(c["id"], c["overlaps"]) for c in phone if c["overlaps"]] == []
    assert [(c["id"], c["overlaps"]) for c in desktop if c["overlaps"]] == []
