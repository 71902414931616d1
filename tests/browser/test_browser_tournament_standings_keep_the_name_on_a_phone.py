"""A tournament's standings on a phone (390 and 360 px): the page never scrolls sideways; the
eight columns scroll inside their own box, and scrolled to the last tiebreak, every row still
shows its position and its player's name, side by side, leaving room for the columns that
scroll."""

import pytest
from browser_support import ARTIFACTS, WIDTHS
from tournament_day_support import PLAYERS, tournament_day

from tournaments.models import Registration, TableSeat
from tournaments.services.seating import seat_next_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Scrolled to its far right: the standings' box, and the positions and names left wholly
# inside it.
SCROLLED_RIGHT = """() => {
    const box = document.querySelector('table.standings').closest('.table-scroll');
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect();
    const inside = (rect) => rect.left >= edge.left - 1 && rect.right <= edge.right + 1;
    const rows = Array.from(document.querySelectorAll('table.standings tbody tr'));
    return {
        scrolled: box.scrollLeft > 0,
        rows: rows.length,
        shown: rows.filter((row) => inside(row.cells[0].getBoundingClientRect())
                && inside(row.cells[1].getBoundingClientRect())
                && row.cells[0].getBoundingClientRect().right
                    <= row.cells[1].getBoundingClientRect().left + 1)
            .map((row) => [row.cells[0].textContent.trim(),
                           row.cells[1].querySelector('a').textContent.trim()]),
        stuck: Math.max(...rows.map((row) => row.cells[1].getBoundingClientRect().right))
            - edge.left,
        width: edge.width,
    };
}"""


@pytest.mark.parametrize("width", [WIDTHS["phone"][0], 360])
def test_the_standings_scroll_in_their_box_with_every_position_and_name_in_view_on_a_phone(
    browser, live_server, width
):
    harbour = tournament_day()
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    seats = list(TableSeat.objects.filter(table__round=seat_next_round(harbour.tournament)))
    for place, seat in enumerate(seats, 1):
        seat.hand_rank, seat.hand_score = place, 60 - place
    TableSeat.objects.bulk_update(seats, ["hand_rank", "hand_score"])
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": WIDTHS["phone"][1]})

    page.goto(live_server.url + harbour.url())

    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    scrolled = page.evaluate(SCROLLED_RIGHT)
    page.locator("#standings").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"standings-{width}-scrolled.png"))
    assert scrolled["scrolled"] and scrolled["rows"] == len(PLAYERS)
    assert sorted(name for _, name in scrolled["shown"]) == sorted(PLAYERS)
    assert all(position.isdigit() for position, _ in scrolled["shown"])
    # What stays put leaves at least half the box to the columns scrolled into view.
    assert scrolled["stuck"] <= scrolled["width"] / 2
