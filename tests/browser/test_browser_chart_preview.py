"""A chart in the first screen is a server-drawn picture until the reader asks for more: the page
fetches no plotly.js to show it, and the Explore button (or pointing at the chart on a
desktop) swaps in the interactive chart (issue 27: light pages on a phone)."""

import pytest

from tests.browser_support import WIDTHS
from tests.ratings_support import hours_ago, verified_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_TIMEOUT_MS = 120_000
DRAWN = "() => !!document.querySelector('#rating-history svg.main-svg')"


@pytest.fixture
def ann(django_db_blocker) -> None:
    verified_game(["ann", "bob", "cyd"], seed=21, played_at=hours_ago(3))
    verified_game(["ann", "bob"], seed=22, played_at=hours_ago(2))


def opened(browser, live_server, size: str):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(live_server.url + "/players/ann/", wait_until="networkidle")
    return page, fetched


def test_the_rating_chart_shows_as_a_picture_without_plotly_and_explores_on_a_tap(
    browser, live_server, ann
):
    page, fetched = opened(browser, live_server, "phone")

    picture = page.locator("#rating-history svg.chart-preview-picture")
    assert picture.is_visible()
    assert picture.bounding_box()["height"] > 200
    assert not [url for url in fetched if "plotly" in url]
    assert page.evaluate("() => typeof window.Plotly") == "undefined"

    page.get_by_role("button", name="Explore this chart").click()
    page.wait_for_function(DRAWN)
    assert page.locator("#rating-history .chart-preview").count() == 0
    assert [url for url in fetched if "plotly" in url]
    page.close()


def test_pointing_at_the_rating_chart_on_a_desktop_swaps_in_the_interactive_chart(
    browser, live_server, ann
):
    page, fetched = opened(browser, live_server, "desktop")
    assert not [url for url in fetched if "plotly" in url]

    page.locator("#rating-history svg.chart-preview-picture").hover()
    page.wait_for_function(DRAWN)
    assert page.locator("#rating-history .chart-preview").count() == 0
    page.close()
