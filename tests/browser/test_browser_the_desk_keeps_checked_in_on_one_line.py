"""The desk's players table, even with every name tagged "account" and "claim to decide": at a
desktop width (1280 px, the desk beside its players) a player's state ("not checked in") is
one line; on a phone it may wrap, but never between "checked" and "in"."""

import pytest
from browser_support import ARTIFACTS, WIDTHS
from django_fixtures import signed_in_as
from tournament_day_support import PLAYERS, tournament_day

from accounts.models import ClaimRequest
from tournaments.models import Registration
from tournaments.services import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each state of the players table: how many lines it takes, and its "checked in" (if any).
STATE_LINES = """() => Array.from(document.querySelectorAll('.desk-players td.entry-state'))
    .map((cell) => {
        const lines = (range) =>
            new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
        const whole = document.createRange();
        whole.selectNodeContents(cell);
        const state = {state: cell.textContent.trim(), lines: lines(whole), checkedIn: 0};
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.textContent.indexOf('checked in');
            if (at >= 0) {
                const phrase = document.createRange();
                phrase.setStart(node, at);
                phrase.setEnd(node, at + 'checked in'.length);
                state.checkedIn = lines(phrase);
            }
        }
        return state;
    })"""


def desk_states(browser, live_server, django_user_model, size: str) -> list[dict]:
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
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    session = signed_in_as(harbour.organiser).cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    page.goto(live_server.url + harbour.url("desk/"))
    page.screenshot(
        path=str(ARTIFACTS / "screenshots" / f"desk-players-{size}.png"), full_page=True
    )
    states = page.evaluate(STATE_LINES)
    assert len(states) == len(PLAYERS)
    return states


def test_a_players_state_is_one_line_at_a_desktop_desk(browser, live_server, django_user_model):
    states = desk_states(browser, live_server, django_user_model, "desktop")

    assert [state for state in states if state["lines"] != 1] == []


def test_checked_in_is_never_split_at_the_desk_on_a_phone(browser, live_server, django_user_model):
    states = desk_states(browser, live_server, django_user_model, "phone")

    assert [state for state in states if state["checkedIn"] != 1] == []
