"""The tournament pages and the desk on a 390 px phone: nothing scrolls sideways, and every
table's key columns (its first three: who, where, how many points) are inside the window
without scrolling the table's own box."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS
from django.test import Client
from tournament_day_support import (
    table_log,
    tournament_day,
)

from tournaments.models import Registration, TableSeat
from tournaments.services import day
from tournaments.services.seating import seat_next_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
KEY_COLUMNS = 3
# Columns of a table whose right edge is past the window (at most KEY_COLUMNS looked at).
CUT_COLUMNS = (
    """() => Array.from(document.querySelectorAll('table'))
    .flatMap((table) => Array.from((table.tHead || table).rows[0]?.cells || [])
        .slice(0, KEY_COLUMNS)
        .filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 1)
        .map((cell) => `${table.className || table.id}: ${cell.textContent.trim()}`))"""
).replace("KEY_COLUMNS", str(KEY_COLUMNS))

# Words of the desk's players table split across lines (a header "Stat|e", "chec|ked in"); a
# line may end after a hyphen, as in print ("Fisher-|Lantern"), so each part counts alone.
BROKEN_WORDS = """() => Array.from(document.querySelectorAll('.desk-players th, .desk-players td'))
    .flatMap((cell) => {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        const broken = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.textContent.matchAll(/[^\\s-]+-?/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(word[0]);
            }
        }
        return broken;
    })"""


@pytest.fixture
def running(django_capture_on_commit_callbacks):
    """Round 1 seated and timed, one table's game verified, the other's entered by hand."""
    harbour = tournament_day()
    for user in harbour.players.values():
        registration = Registration.objects.create(
            tournament=harbour.tournament, player=user.player
        )
        day.check_in(registration)
    round_ = seat_next_round(harbour.tournament)
    day.start_timer(round_, 50)
    first, second = round_.tables.order_by("number")
    sender = Client()
    sender.force_login(first.seats.select_related("player__user").first().player.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = sender.post(
            f"/api/logs/?table={first.pk}", table_log(first, 7), content_type="application/json"
        )
    assert response.status_code == 201, response.content
    seats = list(second.seats.all())
    for place, seat in enumerate(seats, 1):
        seat.hand_rank, seat.hand_score = place, 50 - place
    TableSeat.objects.bulk_update(seats, ["hand_rank", "hand_score"])
    return harbour, second


def test_every_tournament_page_fits_a_phone_with_its_key_columns_in_view(
    browser, live_server, running
):
    harbour, hand_table = running
    base = live_server.url
    marina = harbour.players["Marina Abyss"]
    pages = {
        "list": ("/tournaments/", None),
        "detail": ("/tournaments/harbour-open/", None),
        "table": ("/tournaments/harbour-open/round/1/table/1/", None),
        "screen": ("/tournaments/harbour-open/screen/", None),
        "me": ("/tournaments/harbour-open/me/", marina),
        "desk": ("/tournaments/harbour-open/desk/", harbour.organiser),
        "desk-table": (f"/tournaments/harbour-open/desk/table/{hand_table.pk}/", harbour.organiser),
        "sheets": ("/tournaments/harbour-open/desk/round/1/sheets/", harbour.organiser),
        "player": (f"/players/{marina.player.handle}/", None),
    }
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    for name, (path, user) in pages.items():
        page.context.clear_cookies()
        if user is not None:
            client = Client()
            client.force_login(user)
            page.context.add_cookies(
                [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
            )
        response = page.goto(base + path)
        assert response.status == 200, name
        page.wait_for_load_state("load")
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (name, width)
        assert page.evaluate(CUT_COLUMNS) == [], name
        assert page.evaluate(BROKEN_WORDS) == [], name
        page.screenshot(
            path=str(ARTIFACTS / "screenshots" / f"tournament-phone-{name}.png"), full_page=True
        )
