"""The head-to-head heatmap's colour bar has its title just above it, over its span, on a
desktop and on phones (a phone once showed the title 80 px under its bar, past the ticks)."""

import pytest
from browser_support import ARTIFACTS, CHARTS_READY, PAGE_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Furthest the title's foot may be above the bar's top.
NEAR_PX = 12
# The head-to-head's colour bar and its title, as drawn.
COLOUR_BAR = """() => {
    const chart = document.getElementById('head-to-head');
    const bar = chart.querySelector('.colorbar .cbfills').getBoundingClientRect();
    const title = chart.querySelector('.colorbar .cbtitle').getBoundingClientRect();
    return {bar: {top: bar.top, left: bar.left, right: bar.right},
        title: {bottom: title.bottom, left: title.left, right: title.right}};
}"""


@pytest.mark.parametrize("width", [1280, 390, 360])
def test_the_colour_bar_title_sits_just_above_its_bar(browser, live_server, games, width):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/stats/strategies/?game=deep-vents")
    page.wait_for_function(CHARTS_READY)
    page.wait_for_load_state("networkidle")

    drawn = page.evaluate(COLOUR_BAR)
    page.locator("#head-to-head").screenshot(
        path=str(ARTIFACTS / "screenshots" / f"head-to-head-{width}.png")
    )
    bar, title = drawn["bar"], drawn["title"]
    assert 0 <= bar["top"] - title["bottom"] <= NEAR_PX, drawn
    assert title["left"] < bar["right"] and title["right"] > bar["left"], drawn
