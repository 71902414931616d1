"""The desk's players table at a desktop width (1280 px, the desk beside its players), even
with every name tagged "account" and "claim to decide": a player's state ("not checked in")
is one line."""

import pytest
from browser_support import ARTIFACTS, WIDTHS
from django_fixtures import signed_in_as
from tournament_day_support import PLAYERS, tournament_day

from accounts.models import ClaimRequest
from tournaments.models import Registration
from tournaments.services import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each state of the players table, and how many lines it takes.
STATE_LINES = """() => Array.from(document.querySelectorAll('.desk-players td.entry-state'))
    .map((cell) => {
        const whole = document.createRange();
        whole.selectNodeContents(cell);
        const tops = new Set(Array.from(whole.getClientRects(), (r) => Math.round(r.top)));
        return {state: cell.textContent.trim(), lines: tops.size};
    })"""


def test_a_players_state_is_one_line_at_a_desktop_desk(browser, live_server, django_user_model):
    harbour = tournament_day()
    for index, name in enumerate(PLAYERS):
        registration = Registration.objects.create(
            tournament=harbour.tournament, player=harbour.player(name)
        )
        if index % 2:
            day.check_in(registration)
        # Each name waiting for a claim decision carries one more tag, widening its column.
        ClaimRequest.objects.create(
            user=django_user_model.objects.create_user(f"newcomer-{index}"),
            player=harbour.player(name),
        )
    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS["desktop"], strict=True)))
    session = signed_in_as(harbour.organiser).cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])

    page.goto(live_server.url + harbour.url("desk/"))

    page.screenshot(path=str(ARTIFACTS / "screenshots" / "desk-players-desktop.png"))
    states = page.evaluate(STATE_LINES)
    assert len(states) == len(PLAYERS)
    assert [state for state in states if state["lines"] != 1] == []
