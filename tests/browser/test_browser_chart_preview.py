"""A chart in the first screen is a server-drawn picture until the reader asks for more: the page
fetches no plotly.js to show it, and the Explore button (or pointing at the chart on a
desktop) swaps in the interactive chart (issue 27: light pages on a phone). The rating
chart's figure is not in the page: Explore fetches it from the player's ratings.json, a
point a rated game (issue 25)."""

import datetime

import pytest

from pages.services import profiles
from players.models import Player
from ratings import history
from ratings.models import Rating, RatingChange
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
    assert [url for url in fetched if url.endswith("/players/ann/ratings.json")]
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


@pytest.fixture
def long_history(django_db_blocker, monkeypatch) -> list[RatingChange]:
    """Forty rated games of Deep Vents, pictured by two points a slice of five slices."""
    monkeypatch.setattr(profiles, "PREVIEW_COLUMNS", 5)
    dan = Player.objects.create(handle="dan", display_name="Dan", canonical_name="dan")
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    changes = RatingChange.objects.bulk_create(
        RatingChange(
            game_id=i + 1,
            player=dan,
            played_at=start + datetime.timedelta(hours=5 * i),
            elo_before=1500,
            elo_after=1500 + (i % 7) * 10.25,
            mu_after=25 + i % 5,
            sigma_after=6,
            game_type="deep-vents",
            won=False,
        )
        for i in range(40)
    )
    # what the chart reads, as the rater keeps them: a rating, the packed history
    Rating.objects.create(player=dan, game_type="deep-vents")
    history.rebuild()
    return changes


def test_exploring_a_long_rating_history_draws_every_game_fetched_from_its_url(
    browser, live_server, long_history
):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.goto(live_server.url + "/players/dan/", wait_until="networkidle")
    pictured = page.locator("#rating-history polyline").first.get_attribute("points")
    assert len(pictured.split()) <= 2 * 5 + 2 < len(long_history)

    with page.expect_response("**/players/dan/ratings.json") as answer:
        page.get_by_role("button", name="Explore this chart").click()
    assert answer.value.ok
    page.wait_for_function(DRAWN)

    drawn = page.evaluate(
        "() => document.getElementById('rating-history').data.map((trace) => [trace.name, trace.y])"
    )
    assert drawn[0] == ["Deep Vents Elo", [round(c.elo_after, 1) for c in long_history]]
    assert drawn[1][0] == "Deep Vents OpenSkill" and len(drawn[1][1]) == len(long_history)
    # Dates on the axis, and in a point's hover text, read as the page's text dates were.
    ticks = page.eval_on_selector_all(".xtick text", "(texts) => texts.map((t) => t.textContent)")
    assert ticks and all(tick.startswith("2025-01-") for tick in ticks)
    page.evaluate(
        "() => Plotly.Fx.hover('rating-history', [{curveNumber: 0, pointNumber: 3}], 'xy')"
    )
    hover = page.locator("#rating-history .hoverlayer .hovertext").first.text_content()
    assert "2025-01-01 15:00: Elo 1531" in hover
    page.close()


def test_a_figure_that_cannot_be_fetched_leaves_the_picture_and_explore_tries_again(
    browser, live_server, ann
):
    page, _ = opened(browser, live_server, "phone")
    page.route("**/ratings.json", lambda route: route.abort())

    page.get_by_role("button", name="Explore this chart").click()
    page.get_by_role("button", name="Could not fetch this chart's data: try again").wait_for()
    assert page.locator("#rating-history svg.chart-preview-picture").is_visible()

    page.unroute("**/ratings.json")
    page.get_by_role("button", name="Could not fetch this chart's data: try again").click()
    page.wait_for_function(DRAWN)
    page.close()
