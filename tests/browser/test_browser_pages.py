"""Pages in a real browser at a desktop (1280 px) and a phone (390 px) width: the navigation
on a phone, and the hex charts' bars and labels. Every page's own checks (200, no console
error, no sideways scroll, charts drawn, axe-core) are made in the one visit a page and width
of tests/browser/test_browser_every_page_reads_like_a_site.py. Every wait is for a condition
in the page, with a timeout generous enough for a loaded machine.
"""

import pytest
from browser_support import CHARTS_READY, PAGE_TIMEOUT_MS
from demo_support import load_tournament_demo

from stats.models import HexCube

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def the_demo_tournament() -> None:
    load_tournament_demo()


@pytest.fixture
def site(made_once, request) -> dict[str, str]:
    """The hex pages of the demo tournament and simulated games of every game."""
    made_once(the_demo_tournament)
    request.getfixturevalue("simulated_games_of_every_game")
    hex_taken = HexCube.objects.filter(taken__gt=0).values_list("hex", flat=True).first()
    return {"hexes": "/stats/hexes/?min_sample=1", "hex": f"/stats/hexes/{hex_taken}/"}


def test_the_navigation_folds_behind_a_menu_button_on_a_phone(browser, live_server):
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    menu = page.locator("#site-menu")
    assert not menu.is_visible()
    page.click(".nav-toggle")
    page.locator("#site-menu a[href='/record/']").wait_for(state="visible")
    assert page.get_attribute(".nav-toggle", "aria-expanded") == "true"
    page.close()


OVERLAPPING_TEXT = """(selector) => {
    const boxes = Array.from(document.querySelectorAll(selector))
        .filter((t) => t.textContent.trim())
        .map((t) => [t.textContent, t.getBoundingClientRect()]);
    const clash = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
        const apart = r.right - 1 <= s.left || s.right - 1 <= r.left
            || r.bottom - 1 <= s.top || s.bottom - 1 <= r.top;
        if (!apart) clash.push(a + ' / ' + b);
    }));
    return clash;
}"""


def test_the_hex_charts_show_every_bar_and_keep_their_labels_apart(browser, live_server, site):
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + site["hex"])
    page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
    # Both panels of "When X is taken" have visible bars, each on its own axes.
    bars = page.evaluate(
        """() => Array.from(document.querySelectorAll('#hex-positions .barlayer .trace'))
            .map((t) => Array.from(t.querySelectorAll('.point path'))
                .reduce((h, p) => Math.max(h, p.getBoundingClientRect().height), 0))"""
    )
    assert len(bars) == 2 and min(bars) > 5, f"bar heights per panel: {bars}"
    # Every axis's tick labels (xtick, x2tick, ytick, y2tick) stay apart from all the others.
    ticks = "#hex-positions g[class$='tick'] text"
    assert page.evaluate(f'document.querySelectorAll("{ticks}").length') > 10
    assert page.evaluate(OVERLAPPING_TEXT, ticks) == []

    page.goto(live_server.url + site["hexes"])
    page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
    labels = "#hex-scatter .textpoint text, #hex-scatter .annotation-text"
    assert page.evaluate(f"document.querySelectorAll('{labels}').length") > 3
    assert page.evaluate(OVERLAPPING_TEXT, labels) == []
    table = page.evaluate("document.querySelector('.hex-table').getBoundingClientRect().width")
    assert table <= 1280, f"the per-hex table is {table} px wide in a 1280 px window"
    page.close()


def test_the_hex_scatter_keeps_names_on_hover_only_on_a_phone(browser, live_server, site):
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + site["hexes"])
    page.wait_for_function(
        "() => { window.deepseaCharts && window.deepseaCharts.drawAll();"  # drawn when near
        " const div = document.getElementById('hex-scatter');"
        " return div.data && div.data[0].mode === 'markers'; }",
        timeout=PAGE_TIMEOUT_MS,
    )
    assert page.evaluate("document.querySelectorAll('#hex-scatter .textpoint text').length") == 0
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        "() => document.querySelectorAll('#hex-scatter .textpoint text').length > 3",
        timeout=PAGE_TIMEOUT_MS,
    )
    page.close()
