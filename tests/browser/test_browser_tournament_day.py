"""A whole tournament day in Chromium: the organiser at the desk (1280 px), the players on
their phones (390 px), each in their own browser.

The organiser pastes eight names (one only looks like a known player's and is confirmed as
her) and opens registration; a ninth player registers herself; players sign in and check in
(one is checked in at the desk); round 1 is seated and timed; each player sees their table,
its opener and its record link. Every table of rounds 1 and 2 records its game on a phone
opened from that table's "Record this table's game" link: the recorder deals and records the
opening bid by hand; the hours of play that follow reach the server as the page keeps them
(the same endpoint, from the test, played by the engine's bots); then the phone is reloaded,
the recording resumed and saved, and the other players confirm at the table with their own
passwords, or on their own phone. One save is refused on purpose (the organiser gave the
table a result by hand meanwhile), kept, and saved once the organiser undoes it. The
standings on a player's phone move without a reload to the points computed here from the
stored places; round 2 is seated with no repeat meeting, a player drops, one of round 2's
logged results is undone (its game then counts for no rating) and entered again by hand (a
contradiction refused beside its field, everything typed kept), the organiser ends the event,
and the venue screen shows the final standings, checked against points computed here."""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict

import pytest
from browser_support import ARTIFACTS, OVERFLOW
from django.test import Client
from playwright.sync_api import expect
from recording_support import DRAFTS, played_to_the_end, post
from tournament_day_support import (
    PLAYERS,
    tournament_day,
)

from confirmations.models import Review
from games.models import Game, RecordingDraft
from ratings.models import Rating, RatingChange
from ratings.services import recompute
from tournaments.models import Registration, ResultChange, Table, TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
TIMEOUT_MS = 60_000  # generous for a loaded machine; every wait ends when the page is ready
SCREENSHOTS = ARTIFACTS / "screenshots"
PASSWORD = "deep-sea-day"
# Nine players: pods of three, so round 2 can avoid every meeting of round 1.
LATE_SELF_REGISTERED = "Angler Fisher-Lantern"
PASTED = [name for name in PLAYERS if name != LATE_SELF_REGISTERED] + ["Delta Drift"]
ALIKE = "Zoe O Suilleabhain"  # pasted instead of "Zoë Ó Súilleabháin"
RATING_FIELDS = ["player_id", "rating", "mu", "sigma", "games", "wins"]


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


@pytest.fixture
def new_page(browser):
    """Opens a page in a browser of its own (its own cookies: its own signed-in user) whose
    errors land in the list given; each is closed after the test, so none polls on."""
    contexts = []

    def open_page(viewport: dict[str, int], errors: list[str]):
        context = browser.browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        def on_console(message) -> None:
            # A refused form or save answers 4xx on purpose (Chromium logs it); the favicon
            # is Chromium's own request.
            refused = message.text.startswith(
                "Failed to load resource: the server responded with a status of 4"
            )
            favicon = "favicon" in message.location["url"]
            if message.type == "error" and not refused and not favicon:
                errors.append(f"{message.text} at {message.location['url']}")

        page.on("console", on_console)
        return page

    yield open_page
    for context in contexts:
        context.close()


def expected_points(tables: list[Table]) -> dict[str, float]:
    """Each player's points from the places stored (the table's counting game, else the
    hand entry), by the rule: 3 x (opponents outranked + half the opponents tied) / (table
    size - 1)."""
    points: dict[str, float] = defaultdict(float)
    for table in tables:
        game = Game.objects.filter(log__table=table, counts=True).first()
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


def seats_of(table: Table) -> list[TableSeat]:
    return list(table.seats.select_related("player__user").order_by("seat"))


def start_recording_from_my_page(phone, base: str, table: Table) -> None:
    """On the recorder's "My tournament" page: the table's record link opens the Record
    page set up for the table; "deal randomly" lays it out (the seating keeps its opener,
    DV-3) and the opener's bid of 0 is recorded from the list."""
    phone.goto(f"{base}/tournaments/harbour-open/me/")
    phone.click("#record-table")
    phone.wait_for_url(f"**/record/?table={table.pk}")
    expect(phone.locator("#record-table")).to_have_value(str(table.pk))
    phone.check("input[name=setup-mode][value=deal]")
    phone.click("#record-setup button[type=submit]")
    opener = table.seats.get(opening_bidder=True).player.display_name
    expect(phone.locator("#record-status")).to_contain_text(f"{opener} to open")
    phone.get_by_role("button", name="Record").click()
    expect(phone.locator("#record-kept")).to_have_text(re.compile(r"^1 step kept on the server"))


def rest_of_the_game_kept(recorder, table: Table, seed: int) -> None:
    """The hours of play after the first bid, kept on the server as the Record page keeps
    every step (its drafts endpoint, under the recorder's account), played by the bots."""
    draft = RecordingDraft.objects.get(recorder=recorder, table=table.pk)
    steps = draft.steps + played_to_the_end(draft.base, draft.steps, seed)
    client = Client()
    client.force_login(recorder)
    # One revision on, as the page counts them: this copy is newer than the phone's own.
    further = {"key": draft.key, "base": draft.base, "steps": steps, "revision": draft.revision + 1}
    kept = post(client, DRAFTS, further)
    assert kept.status_code == 200, kept.content


def resume(phone, table: Table) -> None:
    """Reload the Record page and resume the table's recording from the server's copy."""
    phone.reload(wait_until="load")
    listed = phone.locator("#record-resume-list li").filter(has_text=f"Deep Vents at {table}")
    listed.get_by_role("button", name="Resume").click()
    expect(phone.locator("#record-status")).to_contain_text("The game is over")


def saved(phone) -> int:
    """Save the game; the page goes to the stored game's page. Its log id."""
    phone.get_by_role("button", name="Save the game").click()
    phone.wait_for_url(re.compile(r"/games/\d+/$"))
    return int(phone.url.rstrip("/").rsplit("/", 1)[1])


def confirmed_at_the_table(phone, seats: list[TableSeat], skip=None) -> None:
    """The other players at the table confirm on the recorder's phone, each with their own
    username and password (the game's page offers it to the phone that sent the game)."""
    for seat in seats[1:]:
        user = seat.player.user
        if user == skip:
            continue
        form = phone.locator("details.at-table form")
        form.locator("input[name=username]").fill(user.username)
        form.locator("input[name=password]").fill(PASSWORD)
        form.get_by_role("button", name="Answer").click()
        answer = phone.locator(f"#confirmation li[data-player='{seat.player.handle}'] strong")
        expect(answer).to_have_text("confirmed")


def record_on_a_phone(phone, base: str, table: Table, seed: int, marina=None) -> int:
    """The table's game recorded on the phone of its first seated player (its second, when
    Marina sits first: she confirms on her own phone), confirmed at the table by the others
    but Marina. The stored log's id."""
    seats = seats_of(table)
    if seats[0].player.user == marina:
        seats = [seats[1], seats[0], *seats[2:]]
    recorder = seats[0].player.user
    as_user(phone, base, recorder)
    start_recording_from_my_page(phone, base, table)
    rest_of_the_game_kept(recorder, table, seed)
    resume(phone, table)
    log_id = saved(phone)
    confirmed_at_the_table(phone, seats, skip=marina)
    return log_id


def test_a_whole_tournament_day_from_the_desk_and_the_players_phones(new_page, live_server):
    base = live_server.url
    harbour = tournament_day(players=[*PLAYERS, "Delta Drift"])
    tournament = harbour.tournament
    errors: list[str] = []
    desk = new_page(DESK, errors)  # the organiser's laptop
    phone = new_page(PHONE, errors)  # passed from player to player
    marinas = new_page(PHONE, errors)  # Marina's own phone

    # --- The organiser pastes the names and opens registration (desk, 1280 px).
    sign_in(desk, base, "olga")
    desk.goto(f"{base}/tournaments/harbour-open/desk/")
    pasted = [ALIKE if name == "Zoë Ó Súilleabháin" else name for name in PASTED]
    desk.fill("textarea[name=names]", "\n".join(pasted))
    desk.click("#register-names")
    desk.wait_for_selector("text=looks like a known player")
    assert desk.input_value("textarea[name=names]") == "\n".join(pasted)  # nothing typed lost
    zoe = harbour.player("Zoë Ó Súilleabháin")
    desk.check(f"input[name^=same_][value='{zoe.handle}']")
    desk.click("#register-names")
    said(desk, "8 player(s) registered.")
    desk.check("input[name=registration_open]")
    desk.check("input[name=check_in_required]")
    desk.click("#save-registration")
    said(desk, "Registration settings saved.")
    assert Registration.objects.filter(tournament=tournament).count() == 8
    shot(desk, "desk-registered")

    # --- A ninth player registers herself on her phone; players check in.
    sign_in(phone, base, harbour.players[LATE_SELF_REGISTERED].username)
    phone.goto(f"{base}/tournaments/harbour-open/me/")
    phone.click("#register")
    said(phone, "You are registered.")
    no_sideways_scrolling(phone)
    everyone = [*PLAYERS, "Delta Drift"]
    at_the_desk = "Delta Drift"  # checked in by the organiser
    for name in everyone:
        if name == at_the_desk:
            continue
        as_user(phone, base, harbour.players[name])
        phone.goto(f"{base}/tournaments/harbour-open/me/")
        phone.click("#check-in")
        phone.wait_for_selector("#entry-state >> text=checked in")
    shot(phone, "phone-checked-in")
    desk.reload()
    delta = harbour.player(at_the_desk)
    desk.click(f"tr[data-handle='{delta.handle}'] button.check-in")
    desk.wait_for_selector(f"tr[data-handle='{delta.handle}'] >> text=checked in")

    # --- Round 1 is seated and timed.
    desk.click("#seat-round")
    said(desk, "Round 1 is seated at 3 tables.")
    desk.fill("input[name=minutes]", "50")
    desk.click("#start-timer")
    desk.wait_for_selector("#tables .countdown")
    # A timer runs: the desk says until when instead of offering to start one again.
    assert desk.locator("#timer-running").inner_text().startswith("Round 1's timer runs until ")
    assert desk.locator("#start-timer").count() == 0
    no_sideways_scrolling(desk)
    shot(desk, "desk-round-1")
    round_1 = tournament.rounds.get(number=1)
    tables_1 = list(round_1.tables.order_by("number"))
    assert sorted(t.seats.count() for t in tables_1) == [3, 3, 3]

    # --- On her phone, a player sees her table, who opens, the time left, her record link.
    marina_user = harbour.players["Marina Abyss"]
    marina_table = TableSeat.objects.get(table__round=round_1, player=marina_user.player).table
    opener = marina_table.seats.get(opening_bidder=True).player.display_name
    as_user(marinas, base, marina_user)
    marinas.goto(f"{base}/tournaments/harbour-open/me/")
    card = marinas.locator("#my-table")
    assert f"table {marina_table.number}" in card.inner_text()
    assert opener in card.locator("li.opener").inner_text()
    marinas.wait_for_function(
        "() => /^(4[0-9]|50):[0-5][0-9]$/.test(document.querySelector('.countdown').textContent)"
    )
    assert (
        marinas.locator("#record-table")
        .get_attribute("href")
        .endswith(f"/record/?table={marina_table.pk}")
    )
    no_sideways_scrolling(marinas)
    shot(marinas, "phone-my-table")

    # --- Every table records its game on a phone. Marina's table first: she confirms on
    # her own phone, from her page, once the game is sent.
    marina_log = record_on_a_phone(phone, base, marina_table, 11, marina=marina_user)
    marinas.click("#my-table a[href$='#confirmation']")  # shown after a poll
    marinas.click("#confirmation button:has-text('Confirm as Marina Abyss')")
    marinas.wait_for_selector("#confirmation >> text=Confirmation: Counts")
    assert Review.objects.get(log_id=marina_log).status == Review.Status.COUNTED
    marinas.goto(f"{base}/tournaments/harbour-open/me/")
    others = [table for table in tables_1 if table != marina_table]
    record_on_a_phone(phone, base, others[0], 12)

    # The last table's save is refused: the organiser gave the table a result by hand
    # while it was being recorded. The recording is kept with the reason beside the Save
    # button, and saved once the organiser undoes the hand result.
    refused = others[1]
    seats = seats_of(refused)
    recorder = seats[0].player.user
    as_user(phone, base, recorder)
    start_recording_from_my_page(phone, base, refused)
    rest_of_the_game_kept(recorder, refused, 13)
    resume(phone, refused)
    desk.goto(f"{base}/tournaments/harbour-open/desk/table/{refused.pk}/")
    for place, seat in enumerate(seats, start=1):
        desk.fill(f"input[name=place_{seat.pk}]", str(place))
    desk.click("#save-result")
    said(desk, "result saved")
    phone.get_by_role("button", name="Save the game").click()
    expect(phone.locator("#record-save-refusal")).to_contain_text("is not open for a result")
    shot(phone, "phone-save-refused")
    desk.click("#undo-result")
    desk.wait_for_selector("#current-result >> text=No result yet.")
    phone.reload(wait_until="load")
    expect(phone.locator("#record-resume-list li")).to_contain_text("Save refused:")
    resume(phone, refused)
    saved(phone)
    confirmed_at_the_table(phone, seats)
    for table in tables_1:
        table.refresh_from_db()
        assert Review.objects.get(log_id=table.log_id).status == Review.Status.COUNTED
    assert not RecordingDraft.objects.exists()

    # Marina's page polls: the standings move to the points computed here, without a reload.
    points_1 = expected_points(tables_1)
    leader = max(points_1, key=lambda name: (points_1[name], name))
    shown = {harbour.player(name).handle: f"{points:.2f}" for name, points in points_1.items()}
    marinas.wait_for_function(
        """(expected) => Object.entries(expected).every(([handle, points]) =>
            document.querySelector(`.day-standings tr[data-handle='${handle}'] td.points`)
                ?.textContent.trim() === points)""",
        arg=shown,
    )
    assert "done" in marinas.inner_text("#my-results")

    # --- Round 2: seated with no repeat meeting; a player drops on her phone.
    desk.goto(f"{base}/tournaments/harbour-open/desk/")
    for table in tables_1:
        desk.wait_for_selector(f"#table-{table.pk}[data-state='done']")
    desk.click("#seat-round")
    said(desk, "Round 2 is seated at 3 tables.")
    met = Counter()
    for table in Table.objects.filter(round__tournament=tournament):
        players = table.seats.values_list("player_id", flat=True)
        met.update(frozenset(pair) for pair in itertools.combinations(players, 2))
    assert max(met.values()) == 1, "a pair of players met twice"
    dropper = harbour.players["Pearl Diver"]
    as_user(phone, base, dropper)
    phone.goto(f"{base}/tournaments/harbour-open/me/")
    phone.click("details.drop summary")
    phone.click("#drop")
    phone.wait_for_selector("text=You dropped out after round 2.")
    assert Registration.objects.get(player=dropper.player).dropped_after_round == 2

    # --- Round 2's tables record their games on a phone too.
    tables_2 = list(tournament.rounds.get(number=2).tables.order_by("number"))
    for seed, table in enumerate(tables_2, start=21):
        record_on_a_phone(phone, base, table, seed)
    for table in tables_2:
        table.refresh_from_db()
        assert Review.objects.get(log_id=table.log_id).status == Review.Status.COUNTED

    # --- One of round 2's results is undone at the desk (its game then counts for no
    # rating) and entered again by hand: a contradiction is refused beside its field,
    # everything typed kept; the table's history shows both changes.
    undone = tables_2[1]
    undone_game = Game.objects.get(log_id=undone.log_id)
    assert RatingChange.objects.filter(game=undone_game).exists()
    desk.goto(f"{base}/tournaments/harbour-open/desk/table/{undone.pk}/")
    desk.click("#undo-result")
    desk.wait_for_selector("#current-result >> text=No result yet.")
    undone_game.refresh_from_db()
    assert not undone_game.counts
    assert not RatingChange.objects.filter(game=undone_game).exists()
    seats = list(undone.seats.order_by("seat"))
    for place, seat in enumerate(reversed(seats), start=1):
        desk.fill(f"input[name=place_{seat.pk}]", str(place))
        desk.fill(f"input[name=points_{seat.pk}]", str(40 - 10 * place))
    desk.fill(f"input[name=points_{seats[-1].pk}]", "1")  # first place, fewest points
    desk.click("#save-result")
    error = desk.locator(f"#points_{seats[-2].pk}-error")
    error.wait_for()
    assert "contradict place 2" in error.inner_text()
    assert desk.input_value(f"input[name=points_{seats[0].pk}]") == "10"  # kept
    desk.fill(f"input[name=points_{seats[-1].pk}]", "30")
    desk.click("#save-result")
    said(desk, "result saved")
    assert desk.inner_text("#history").count("by olga") == 2
    assert [c.action for c in ResultChange.objects.filter(table=undone).order_by("at", "pk")] == [
        "undone",
        "entered",
    ]
    shot(desk, "desk-table-history")
    desk.goto(f"{base}/tournaments/harbour-open/desk/")
    for table in tables_2:
        desk.wait_for_selector(f"#table-{table.pk}[data-state='done']")
    no_sideways_scrolling(desk)
    desk.set_viewport_size(PHONE)
    no_sideways_scrolling(desk)
    shot(desk, "desk-phone")
    desk.set_viewport_size(DESK)

    # --- The organiser ends the event; the venue screen shows the final standings, as
    # computed here from the places.
    desk.click("details.finish summary")
    desk.click("#finish")
    said(desk, "Harbour Open is finished: the standings are final.")
    desk.goto(f"{base}/tournaments/harbour-open/screen/")
    final = expected_points(tables_1 + tables_2)
    for name, points in final.items():
        row = desk.locator(
            f"#screen-standings tr[data-handle='{harbour.player(name).handle}'] td.points"
        )
        assert row.inner_text() == f"{points:.2f}", name
    order = desk.eval_on_selector_all(
        "#screen-standings tbody tr", "(rows) => rows.map((r) => r.dataset.handle)"
    )
    points_in_order = [final[harbour_name(harbour, handle)] for handle in order]
    assert points_in_order == sorted(points_in_order, reverse=True)
    assert leader in desk.inner_text("#screen-standings")
    shot(desk, "venue-screen")
    desk.set_viewport_size(PHONE)
    no_sideways_scrolling(desk)

    assert errors == []

    # The ratings are those of the counted games: five, the undone one left out. (The pages
    # are closed first: none polls while the ratings are rebuilt.)
    for page in (desk, phone, marinas):
        page.close()
    assert Game.objects.filter(counts=True).count() == 5
    stored = list(Rating.objects.order_by("player_id").values_list(*RATING_FIELDS))
    recompute("deep-vents")
    assert stored == list(Rating.objects.order_by("player_id").values_list(*RATING_FIELDS))


def harbour_name(harbour, handle: str) -> str:
    return next(name for name, user in harbour.players.items() if user.player.handle == handle)
