"""A tournament's standings on a 390 px phone: the page never scrolls sideways; the eight
columns scroll inside their own box, and scrolled to the last tiebreak, every row still shows
its player's name."""

import pytest
from browser_support import ARTIFACTS, WIDTHS
from tournament_day_support import PLAYERS, tournament_day

from tournaments.models import Registration, TableSeat
from tournaments.services.seating import seat_next_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Scrolled to its far right, the standings' box and the names left wholly inside it.
SCROLLED_RIGHT = """() => {
    const box = document.querySelector('table.standings').closest('.table-scroll');
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect();
    const names = Array.from(document.querySelectorAll('table.standings tbody tr'))
        .map((row) => row.cells[1]);
    return {
        scrolled: box.scrollLeft > 0,
        names: names.length,
        shown: names.filter((cell) => {
            const rect = cell.getBoundingClientRect();
            return rect.left >= edge.left - 1 && rect.right <= edge.right + 1;
        }).map((cell) => cell.querySelector('a').textContent.trim()),
    };
}"""


def test_the_standings_scroll_in_their_box_with_every_name_in_view_on_a_phone(browser, live_server):
    harbour = tournament_day()
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    seats = list(TableSeat.objects.filter(table__round=seat_next_round(harbour.tournament)))
    for place, seat in enumerate(seats, 1):
        seat.hand_rank, seat.hand_score = place, 60 - place
    TableSeat.objects.bulk_update(seats, ["hand_rank", "hand_score"])
    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS["phone"], strict=True)))

    page.goto(live_server.url + harbour.url())

    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    scrolled = page.evaluate(SCROLLED_RIGHT)
    page.locator("#standings").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "screenshots" / "standings-phone-scrolled.png"))
    assert scrolled["scrolled"] and scrolled["names"] == len(PLAYERS)
    assert sorted(scrolled["shown"]) == sorted(PLAYERS)
