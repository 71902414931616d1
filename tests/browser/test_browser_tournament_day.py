"""A whole tournament day in Chromium: the organiser at the desk (1280 px), the players on
their phones (390 px).

The organiser pastes eight names (one only looks like a known player's and is confirmed as
her), opens registration; a ninth player registers herself; players sign in and check in
(one is checked in at the desk); round 1 is seated and timed; each player sees their table,
its opener and its record link; every table's game is uploaded for its table by one of its
players (a log the engines' bots played: recording on the phone is the record page's own
test) and confirmed by the others, and the standings on a phone move without a reload;
round 2 is seated with no repeat meeting, a player drops, round 2's results are entered at
the desk (a contradiction refused beside its field, everything typed kept), one is undone
and entered again with its history shown, the organiser ends the event, and the venue
screen shows the final standings, checked against points computed here from the places."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict

import pytest
from browser_support import ARTIFACTS, OVERFLOW
from django.test import Client
from tournament_day_support import (
    PLAYERS,
    quick_password_hashing,  # noqa: F401 (an autouse fixture)
    table_log,
    tournament_day,
)

from confirmations.models import Review
from games.models import Game
from tournaments.models import Registration, ResultChange, Table, TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
SCREENSHOTS = ARTIFACTS / "screenshots"
PASSWORD = "deep-sea-day"
# Nine players: pods of three, so round 2 can avoid every meeting of round 1.
LATE_SELF_REGISTERED = "Angler Fisher-Lantern"
PASTED = [name for name in PLAYERS if name != LATE_SELF_REGISTERED] + ["Delta Drift"]
ALIKE = "Zoe O Suilleabhain"  # pasted instead of "Zoë Ó Súilleabháin"


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tournament-day-{name}.png"), full_page=True)


def said(page, text: str) -> None:
    """Wait for the page's message (main's list; a copy may sit in the folded menu)."""
    page.locator("main .messages").get_by_text(text).wait_for()


def no_sideways_scrolling(page) -> None:
    overflow = page.evaluate(OVERFLOW)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), overflow


def sign_in(page, base: str, username: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{base}/account/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    # At 390 px the menu holding it is folded away: present is enough.
    page.wait_for_selector(f"text=Signed in as {username}", state="attached")


def as_user(page, base: str, user) -> None:
    """Be this user in the browser without typing a password (the sign-in form is walked
    once for the organiser and once for a player)."""
    client = Client()
    client.force_login(user)
    page.context.clear_cookies()
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )


def expected_points(tables: list[Table]) -> dict[str, float]:
    """Each player's points from the places, by the rule: 3 x (opponents outranked + half
    the opponents tied) / (table size - 1)."""
    points: dict[str, float] = defaultdict(float)
    for table in tables:
        game = Game.objects.filter(log__table=table).first()
        if game is not None:
            places = {s.player.display_name: s.rank for s in game.seats.select_related("player")}
        else:
            places = {
                s.player.display_name: s.hand_rank for s in table.seats.select_related("player")
            }
        for name, place in places.items():
            outranked = sum(1 for other in places.values() if other > place)
            tied = sum(1 for other in places.values() if other == place) - 1
            points[name] += 3 * (outranked + tied / 2) / (len(places) - 1)
    return points


def test_a_whole_tournament_day_from_the_desk_and_the_players_phones(browser, live_server):
    base = live_server.url
    harbour = tournament_day(players=[*PLAYERS, "Delta Drift"])
    tournament = harbour.tournament
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_console(message) -> None:
        # A refused form answers 4xx on purpose (Chromium logs it); the favicon is Chromium's.
        refused = message.text.startswith(
            "Failed to load resource: the server responded with a status of 4"
        )
        if message.type == "error" and not refused and "favicon" not in message.location["url"]:
            errors.append(f"{message.text} at {message.location['url']}")

    page.on("console", on_console)

    # --- The organiser pastes the names and opens registration (desk, 1280 px).
    page.set_viewport_size(DESK)
    sign_in(page, base, "olga")
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    pasted = [ALIKE if name == "Zoë Ó Súilleabháin" else name for name in PASTED]
    page.fill("textarea[name=names]", "\n".join(pasted))
    page.click("#register-names")
    page.wait_for_selector("text=looks like a known player")
    assert page.input_value("textarea[name=names]") == "\n".join(pasted)  # nothing typed lost
    zoe = harbour.player("Zoë Ó Súilleabháin")
    page.check(f"input[name^=same_][value='{zoe.handle}']")
    page.click("#register-names")
    said(page, "8 player(s) registered.")
    page.check("input[name=registration_open]")
    page.check("input[name=check_in_required]")
    page.click("#save-registration")
    said(page, "Registration settings saved.")
    assert Registration.objects.filter(tournament=tournament).count() == 8
    shot(page, "desk-registered")

    # --- A ninth player registers herself on her phone; players check in.
    page.set_viewport_size(PHONE)
    sign_in(page, base, harbour.players[LATE_SELF_REGISTERED].username)
    page.goto(f"{base}/tournaments/harbour-open/me/")
    page.click("#register")
    said(page, "You are registered.")
    no_sideways_scrolling(page)
    everyone = [*PLAYERS, "Delta Drift"]
    at_the_desk = "Delta Drift"  # checked in by the organiser
    for name in everyone:
        if name == at_the_desk:
            continue
        as_user(page, base, harbour.players[name])
        page.goto(f"{base}/tournaments/harbour-open/me/")
        page.click("#check-in")
        page.wait_for_selector("#entry-state >> text=checked in")
    shot(page, "phone-checked-in")
    page.set_viewport_size(DESK)
    as_user(page, base, harbour.organiser)
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    delta = harbour.player(at_the_desk)
    page.click(f"tr[data-handle='{delta.handle}'] button.check-in")
    page.wait_for_selector(f"tr[data-handle='{delta.handle}'] >> text=checked in")

    # --- Round 1 is seated and timed.
    page.click("#seat-round")
    said(page, "Round 1 is seated at 3 tables.")
    page.fill("input[name=minutes]", "50")
    page.click("#start-timer")
    page.wait_for_selector("#tables .countdown")
    no_sideways_scrolling(page)
    shot(page, "desk-round-1")
    round_1 = tournament.rounds.get(number=1)
    tables_1 = list(round_1.tables.order_by("number"))
    assert sorted(t.seats.count() for t in tables_1) == [3, 3, 3]

    # --- On her phone, a player sees her table, who opens, the time left, her record link.
    marina_user = harbour.players["Marina Abyss"]
    marina_seat = TableSeat.objects.select_related("table").get(
        table__round=round_1, player=marina_user.player
    )
    opener = marina_seat.table.seats.get(opening_bidder=True).player.display_name
    page.set_viewport_size(PHONE)
    as_user(page, base, marina_user)
    page.goto(f"{base}/tournaments/harbour-open/me/")
    card = page.locator("#my-table")
    assert f"table {marina_seat.table.number}" in card.inner_text()
    assert opener in card.locator("li.opener").inner_text()
    page.wait_for_function(
        "() => /^(4[0-9]|50):[0-5][0-9]$/.test(document.querySelector('.countdown').textContent)"
    )
    no_sideways_scrolling(page)
    shot(page, "phone-my-table")
    page.click("#record-table")
    page.wait_for_url(f"**/record/?table={marina_seat.table.pk}")
    page.wait_for_function(
        f"() => document.getElementById('record-table').value === '{marina_seat.table.pk}'"
    )

    # --- Each table's game is sent for its table by one of its players; the others confirm.
    # Marina's table first: her page shows the game once it is sent, and she confirms it from
    # the game's page on her phone.
    def send_and_confirm(table: Table, seed: int, on_the_phone=None) -> int:
        seats = [
            s
            for s in table.seats.select_related("player__user").order_by("seat")
            if s.player.user != on_the_phone
        ]
        sender = Client()
        sender.force_login(seats[0].player.user)
        response = sender.post(
            f"/api/logs/?table={table.pk}", table_log(table, seed), content_type="application/json"
        )
        assert response.status_code == 201, response.content
        log_id = json.loads(response.content)["id"]
        for seat in seats[1:]:
            confirmer = Client()
            confirmer.force_login(seat.player.user)
            assert confirmer.post(f"/account/games/{log_id}/confirm/").status_code == 302
        return log_id

    page.goto(f"{base}/tournaments/harbour-open/me/")
    marina_log = send_and_confirm(marina_seat.table, 11, on_the_phone=marina_user)
    page.click("#my-table a[href$='#confirmation']", timeout=30_000)  # after a poll
    page.click("#confirmation button:has-text('Confirm as Marina Abyss')")
    page.wait_for_selector("#confirmation >> text=Confirmation: Counts")
    assert Review.objects.get(log_id=marina_log).status == Review.Status.COUNTED
    page.goto(f"{base}/tournaments/harbour-open/me/")
    others = [table for table in tables_1 if table != marina_seat.table]
    for seed, table in enumerate(others, start=12):
        log_id = send_and_confirm(table, seed)
        assert Review.objects.get(log_id=log_id).status == Review.Status.COUNTED
    points_1 = expected_points(tables_1)
    leader = max(points_1, key=lambda name: (points_1[name], name))
    # Marina's page polls: the standings move to the points computed here, without a reload.
    shown = {harbour.player(name).handle: f"{points:.2f}" for name, points in points_1.items()}
    page.wait_for_function(
        """(expected) => Object.entries(expected).every(([handle, points]) =>
            document.querySelector(`.day-standings tr[data-handle='${handle}'] td.points`)
                ?.textContent.trim() === points)""",
        arg=shown,
        timeout=30_000,
    )
    assert "done" in page.inner_text("#my-results")

    # --- Round 2: seated with no repeat meeting; a player drops on her phone.
    page.set_viewport_size(DESK)
    as_user(page, base, harbour.organiser)
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    for table in tables_1:
        page.wait_for_selector(f"#table-{table.pk}[data-state='done']")
    page.click("#seat-round")
    said(page, "Round 2 is seated at 3 tables.")
    met = Counter()
    for table in Table.objects.filter(round__tournament=tournament):
        players = table.seats.values_list("player_id", flat=True)
        met.update(frozenset(pair) for pair in itertools.combinations(players, 2))
    assert max(met.values()) == 1, "a pair of players met twice"
    dropper = harbour.players["Pearl Diver"]
    page.set_viewport_size(PHONE)
    as_user(page, base, dropper)
    page.goto(f"{base}/tournaments/harbour-open/me/")
    page.click("details.drop summary")
    page.click("#drop")
    page.wait_for_selector("text=You dropped out after round 2.")
    assert Registration.objects.get(player=dropper.player).dropped_after_round == 2

    # --- Round 2's results at the desk: a contradiction refused, then entered; one undone
    # and entered again, with its history.
    page.set_viewport_size(DESK)
    as_user(page, base, harbour.organiser)
    tables_2 = list(tournament.rounds.get(number=2).tables.order_by("number"))
    for table in tables_2:
        seats = list(table.seats.order_by("seat"))
        page.goto(f"{base}/tournaments/harbour-open/desk/table/{table.pk}/")
        for place, seat in enumerate(seats, start=1):
            page.fill(f"input[name=place_{seat.pk}]", str(place))
            page.fill(f"input[name=points_{seat.pk}]", str(40 - 10 * place))
        if table == tables_2[0]:
            page.fill(f"input[name=points_{seats[0].pk}]", "1")  # first place, fewest points
            page.click("#save-result")
            error = page.locator(f"#points_{seats[1].pk}-error")
            error.wait_for()
            assert "contradict place 2" in error.inner_text()
            assert page.input_value(f"input[name=points_{seats[2].pk}]") == "10"  # kept
            page.fill(f"input[name=points_{seats[0].pk}]", "30")
        page.click("#save-result")
        said(page, "result saved")
    undone = tables_2[1]
    page.goto(f"{base}/tournaments/harbour-open/desk/table/{undone.pk}/")
    page.click("#undo-result")
    page.wait_for_selector("#current-result >> text=No result yet.")
    seats = list(undone.seats.order_by("seat"))
    for place, seat in enumerate(reversed(seats), start=1):
        page.fill(f"input[name=place_{seat.pk}]", str(place))
    page.click("#save-result")
    said(page, "result saved")
    history = page.inner_text("#history")
    assert history.count("by olga") == 3
    assert [c.action for c in ResultChange.objects.filter(table=undone).order_by("at", "pk")] == [
        "entered",
        "undone",
        "entered",
    ]
    shot(page, "desk-table-history")
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    for table in tables_2:
        page.wait_for_selector(f"#table-{table.pk}[data-state='done']")
    no_sideways_scrolling(page)
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    no_sideways_scrolling(page)
    shot(page, "desk-phone")

    # --- The organiser ends the event; the venue screen shows the final standings, as
    # computed here from the places.
    page.set_viewport_size(DESK)
    page.goto(f"{base}/tournaments/harbour-open/desk/")
    page.click("details.finish summary")
    page.click("#finish")
    said(page, "Harbour Open is finished: the standings are final.")
    page.goto(f"{base}/tournaments/harbour-open/screen/")
    final = expected_points(tables_1 + tables_2)
    for name, points in final.items():
        player = next(u.player for n, u in harbour.players.items() if n == name)
        row = page.locator(f"#screen-standings tr[data-handle='{player.handle}'] td.points")
        assert row.inner_text() == f"{points:.2f}", name
    order = page.eval_on_selector_all(
        "#screen-standings tbody tr", "(rows) => rows.map((r) => r.dataset.handle)"
    )
    points_in_order = [final[harbour_name(harbour, handle)] for handle in order]
    assert points_in_order == sorted(points_in_order, reverse=True)
    assert leader in page.inner_text("#screen-standings")
    shot(page, "venue-screen")
    page.set_viewport_size(PHONE)
    no_sideways_scrolling(page)
    assert errors == []


def harbour_name(harbour, handle: str) -> str:
    return next(name for name, user in harbour.players.items() if user.player.handle == handle)
