"""Sorting tables in Chromium by clicking (or pressing Enter or Space on) a column header, with
no reload: the order is checked against the values computed here, from the services, and the
sorted address, once loaded, gives the same order from the server."""

import json

import pytest
from demo_support import load_tournament_demo
from django.http import QueryDict

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Source
from games.services.intake import submit_batch
from ratings.models import Rating
from stats.filters import StatsFilter
from stats.services import hexes
from tournaments import demo
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_TIMEOUT_MS = 120_000
HEXES = "/stats/hexes/?min_sample=4"

# The name of every body row, top to bottom: the text of the first cell with a link (a hex, a
# player), or of the first cell.
NAMES = """(selector) => Array.from(document.querySelector(selector).tBodies[0].rows)
    .map((row) => {
        const cell = Array.from(row.cells).find((c) => c.querySelector('a')) || row.cells[0];
        return (cell.querySelector('a') || cell).textContent.trim();
    })"""
# The column whose header button reads this is sorted this way.
SORTED = """([table, column, direction]) => Array.from(
        document.querySelectorAll(table + ' thead th .sort-button'))
    .some((b) => b.textContent.trim() === column
        && b.closest('th').getAttribute('aria-sort') === direction)"""
GROUPS = """(selector) => Array.from(document.querySelector(selector).tBodies[0].rows)
    .map((row) => Number(row.dataset.sortGroup || 0))"""


def demo_and_simulated_games() -> None:
    load_tournament_demo()
    game = get_game("deep-vents")
    for players in (4, 3):
        logs = simulate(game, game.ruleset(None), players, 5, seed=f"sorting-{players}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)


@pytest.fixture
def games(made_once) -> None:
    made_once(demo_and_simulated_games)


def hex_stats() -> list[hexes.HexStats]:
    """The hexes in the server's default order (what equal values keep)."""
    return hexes.hex_table(StatsFilter(QueryDict("min_sample=4")))


def expected(rows, name, value, descending: bool, group=lambda row: 0) -> list[str]:
    """Sorted as a reader expects: groups kept apart, blanks last, ties in the server's order.
    Numbers compare at the 12 significant digits the page gives (data-sort): values apart
    by a float's rounding error only (1.5 summed two ways) are equal."""

    def key(row):
        v = value(row)
        return v if isinstance(v, str) else float(f"{v:.12g}")

    present = [r for r in rows if value(r) is not None]
    # Stable, so ties keep the server's order whichever the direction.
    present.sort(key=key, reverse=descending)
    ordered = present + [r for r in rows if value(r) is None]
    ordered.sort(key=group)
    return [name(r) for r in ordered]


def invert(text: str) -> list[int]:
    """A key that sorts text Z to A."""
    return [-ord(c) for c in text] + [0]


def open_page(browser, url: str):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    page.wait_for_function(
        "() => document.querySelector('table.sortable[data-sort-ready] .sort-button') !== null"
    )
    # Gone if the page reloads: sorting must happen in place.
    page.evaluate("() => { window.sortedInPlace = true; }")
    return page


def sort_by(page, table: str, column: str, direction: str, key: str = "click") -> None:
    """Sort by the column whose header button reads `column`; wait until it is sorted."""
    button = page.locator(f"{table} thead").get_by_role("button", name=column, exact=True)
    if key == "click":
        button.click()
    else:
        button.focus()
        page.keyboard.press(key)
    page.wait_for_function(SORTED, arg=[table, column, direction])


HEX_COLUMNS = {  # header: (value, first click highest first?)
    "Hex": (lambda h: h.name.lower(), False),
    "Taken": (lambda h: h.taken, True),
    "Take rate": (lambda h: h.take_rate.value, True),
    "Avg position": (lambda h: h.avg_position, False),
    "Early (1-3)": (lambda h: h.early_rate.value, True),
    "Sample": (lambda h: h.sample, True),
}


def test_each_per_hex_column_sorts_both_ways_in_place_greyed_rows_last(browser, live_server, games):
    rows = hex_stats()
    assert {r.greyed for r in rows} == {False, True}  # both groups are there to keep apart
    page = open_page(browser, live_server.url + HEXES)
    seen = {}
    for column, (_, highest_first) in HEX_COLUMNS.items():
        for descending in (highest_first, not highest_first):
            sort_by(page, ".hex-table", column, "descending" if descending else "ascending")
            seen[column, descending] = page.evaluate(NAMES, ".hex-table")
            # At a desktop width the table fits its box whichever column shows the arrow.
            fits = page.evaluate(
                "() => { const t = document.querySelector('.hex-table');"
                " return [t.offsetWidth, t.parentElement.clientWidth]; }"
            )
            assert fits[0] <= fits[1], (column, fits)
    assert page.evaluate("() => window.sortedInPlace") is True
    page.close()
    for (column, descending), names in seen.items():
        value = HEX_COLUMNS[column][0]
        order = expected(rows, lambda h: h.name, value, descending, lambda h: h.greyed)
        assert names == order, (column, descending)


def test_a_sorted_per_hex_table_can_be_linked_and_the_server_gives_the_same_order(
    browser, live_server, games
):
    page = open_page(browser, live_server.url + HEXES)
    sort_by(page, ".hex-table", "Taken", "descending")
    sort_by(page, ".hex-table", "Taken", "ascending")
    in_browser = page.evaluate(NAMES, ".hex-table")
    address = page.url
    page.goto(address)
    page.wait_for_function("() => document.querySelector('table[data-sort-ready]') !== null")
    from_server = page.evaluate(NAMES, ".hex-table")
    marked = page.evaluate(
        "() => Array.from(document.querySelectorAll('.hex-table th[aria-sort]'))"
        ".map((th) => [th.textContent.trim(), th.getAttribute('aria-sort')])"
    )
    page.close()
    assert "sort=-taken" in address
    assert from_server == in_browser
    assert marked == [["Taken", "ascending"]]


def test_headers_are_buttons_that_sort_from_the_keyboard(browser, live_server, games):
    page = open_page(browser, live_server.url + "/stats/strategies/?game=deep-vents")
    table = "table.strategy-table"
    buttons = page.locator(f"{table} thead th button.sort-button")
    assert buttons.count() == 6
    # The server sorted by win rate / par, best first.
    assert page.locator(f"{table} th[aria-sort]").all_text_contents() == ["Win rate / par"]
    sort_by(page, table, "Strategy", "ascending", key="Enter")
    ascending = list(zip(page.evaluate(GROUPS, table), page.evaluate(NAMES, table), strict=True))
    sort_by(page, table, "Strategy", "descending", key="Space")
    descending = list(zip(page.evaluate(GROUPS, table), page.evaluate(NAMES, table), strict=True))
    # Numbers sort as numbers (highest first), not as text.
    sort_by(page, table, "Games", "descending", key="Enter")
    games_order = page.evaluate(
        f"() => Array.from(document.querySelector('{table}').tBodies[0].rows)"
        ".filter((r) => !r.dataset.sortGroup).map((r) => Number(r.cells[1].dataset.sort))"
    )
    focused = page.evaluate("() => document.activeElement.textContent")
    page.close()
    # Rows of too small a sample (group 1) stay last either way.
    assert ascending == sorted(ascending, key=lambda row: (row[0], row[1].lower()))
    assert descending == sorted(ascending, key=lambda row: (row[0], invert(row[1].lower())))
    assert games_order == sorted(games_order, reverse=True)
    assert focused == "Games"


def test_the_leaderboard_sorts_by_openskill_and_by_name(browser, live_server, games):
    page = open_page(browser, live_server.url + "/leaderboards/deep-vents/")
    table = "table.leaderboard"
    sort_by(page, table, "OpenSkill", "descending")
    by_skill = page.evaluate(NAMES, table)
    sort_by(page, table, "Player", "ascending")
    by_name = page.evaluate(NAMES, table)
    page.close()
    first_table = by_skill  # the established players' table, or the provisional one
    ratings = {
        r.player.display_name: r
        for r in Rating.objects.filter(game_type="deep-vents").select_related("player")
    }
    server = sorted((ratings[n] for n in first_table), key=lambda r: (-r.rating, r.player.handle))
    assert by_skill == expected(server, lambda r: r.player.display_name, lambda r: r.ordinal, True)
    assert by_name == sorted(first_table, key=str.lower)


def test_the_standings_sort_by_game_score_and_back_by_position(browser, live_server, games):
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    page = open_page(browser, live_server.url + tournament.get_absolute_url())
    table = "table.standings"
    sort_by(page, table, "Game score", "descending")
    by_score = page.evaluate(NAMES, table)
    # Positions sort lowest first (data-sort-first), back to the server's order.
    sort_by(page, table, "#", "ascending")
    by_position = page.evaluate(NAMES, table)
    sort_by(page, table, "#", "descending")
    last_first = page.evaluate(NAMES, table)
    page.close()
    from django.test import Client

    standings = Client().get(tournament.get_absolute_url()).context["standings"]
    name = lambda s: s.player.display_name  # noqa: E731
    assert by_score == expected(standings, name, lambda s: s.total_score, True)
    assert by_position == [name(s) for s in standings]
    assert last_first == by_position[::-1]
