"""Organisers at the tournament desk in the admin: players registered by name through the
autocomplete, game and ruleset as choices, "Seat next round" and "Print seating" on the
tournament's own page, each table's result (a log through attach_log, or a hand result)
given there, and every refusal a message naming the problem that changes nothing.

The organiser is a staff account without any model permission, organising one tournament;
staff is a superuser. An organiser who is not staff stays out of the admin."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_support import ARTIFACTS, PAGE_TIMEOUT_MS, shown_on_timeout
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import GameLog
from games.services.verification import verify_log
from players.models import Player
from tournaments.demo import simulated_table_log
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.results import attach_log
from tournaments.services.seating import seat_next_round

pytestmark = pytest.mark.django_db

ENTRANTS = [
    ("ann", "Ann Abyss"),
    ("bob", "Bob Benthic"),
    ("cyd", "Cyd Cephalopod"),
    ("dee", "Dee Dredge"),
    ("eve", "Eve Eel"),
    ("fay", "Fay Fathom"),
    ("gus", "Gus Gulper"),
]
DESK = "/admin/tournaments/tournament/{pk}/{what}/"


@pytest.fixture
def players() -> list[Player]:
    return [Player.objects.create(handle=h, display_name=n) for h, n in ENTRANTS]


@pytest.fixture
def organiser() -> Any:
    return get_user_model().objects.create_user("olga", is_staff=True)


@pytest.fixture
def tournament(players, organiser) -> Tournament:
    tournament = Tournament.objects.create(
        name="Club Night", slug="club-night", starts_on="2026-06-01", rounds_planned=3
    )
    tournament.organisers.add(organiser)
    for player in players:
        Registration.objects.create(tournament=tournament, player=player)
    return tournament


@pytest.fixture
def other_cup(players) -> Tournament:
    other = Tournament.objects.create(name="Other Cup", slug="other-cup", starts_on="2026-07-01")
    other.organisers.add(get_user_model().objects.create_user("otto", is_staff=True))
    for player in players[:4]:
        Registration.objects.create(tournament=other, player=player)
    return other


@pytest.fixture
def desk(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def change_page(tournament: Tournament) -> str:
    return f"/admin/tournaments/tournament/{tournament.pk}/change/"


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def post(client: Client, tournament: Tournament, what: str, data: dict | None = None):
    return client.post(DESK.format(pk=tournament.pk, what=what), data or {}, follow=True)


def seated(tournament: Tournament) -> tuple[Table, Table]:
    seat_next_round(tournament)
    first, second = Round.objects.get(tournament=tournament, number=1).tables.order_by("number")
    return first, second


def table_log(table: Table, seed: int = 1) -> str:
    return json.dumps(simulated_table_log(table, random.Random(seed), table.round.seated_at))


def hand_form(table: Table, ranks: list[int | str], scores: list[Any] | None = None) -> dict:
    seats = list(table.seats.order_by("seat"))
    form = {"table": table.pk}
    for index, seat in enumerate(seats):
        form[f"rank-{seat.pk}"] = ranks[index]
        form[f"score-{seat.pk}"] = "" if scores is None else scores[index]
    return form


def results(table: Table) -> list[tuple[int | None, float | None]]:
    return list(table.seats.order_by("seat").values_list("hand_rank", "hand_score"))


# --- who sits at the desk ---------------------------------------------------------------


def test_an_organiser_sees_only_the_tournaments_they_organise(desk, tournament, other_cup):
    page = desk.get("/admin/tournaments/tournament/").content.decode()

    assert "Club Night" in page
    assert "Other Cup" not in page
    assert desk.get(change_page(other_cup)).status_code == 302  # "does not exist": the index


def test_an_organiser_cannot_seat_another_organisers_tournament(desk, other_cup):
    response = desk.post(DESK.format(pk=other_cup.pk, what="seat-next-round"))

    assert response.status_code == 404
    assert not other_cup.rounds.exists()


def test_an_organiser_who_is_not_staff_stays_out_of_the_admin(tournament):
    outsider = get_user_model().objects.create_user("oscar")
    tournament.organisers.add(outsider)
    client = Client()
    client.force_login(outsider)

    response = client.get(change_page(tournament))

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_an_organiser_may_not_choose_who_else_organises(desk, tournament):
    page = desk.get(change_page(tournament)).content.decode()

    assert 'name="organisers"' not in page
    assert 'name="name"' in page  # the rest of the tournament stays theirs to change


def test_staff_see_every_tournament_and_choose_its_organisers(admin_client, tournament, other_cup):
    page = admin_client.get("/admin/tournaments/tournament/").content.decode()

    assert "Club Night" in page and "Other Cup" in page
    assert 'name="organisers"' in admin_client.get(change_page(tournament)).content.decode()


def test_an_organiser_may_look_players_up_and_add_one_but_not_merge_or_claim_them(
    desk, tournament, organiser
):
    listing = desk.get("/admin/players/player/").content.decode()
    assert "Ann Abyss" in listing
    assert "merge_duplicates" not in listing

    response = desk.post(
        "/admin/players/player/add/",
        {"handle": "hal", "display_name": "Hal Hadal", "user": organiser.pk},
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    assert Player.objects.get(handle="hal").user is None  # no claiming accounts


# --- registering players by name --------------------------------------------------------


def autocomplete(client: Client, term: str):
    return client.get(
        "/admin/autocomplete/",
        {
            "app_label": "tournaments",
            "model_name": "registration",
            "field_name": "player",
            "term": term,
        },
    )


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_players_are_found_by_name_for_registration(who, desk, admin_client, tournament):
    client = desk if who == "organiser" else admin_client

    response = autocomplete(client, "cephal")

    assert response.status_code == 200
    cyd = Player.objects.get(handle="cyd")
    assert response.json()["results"] == [{"id": str(cyd.pk), "text": "Cyd Cephalopod (@cyd)"}]


def test_a_player_is_found_by_handle_too(desk, tournament):
    texts = [r["text"] for r in autocomplete(desk, "gus").json()["results"]]

    assert texts == ["Gus Gulper (@gus)"]


def test_the_registration_field_is_an_autocomplete_not_a_numeric_id(desk, tournament):
    page = desk.get(change_page(tournament)).content.decode()

    assert 'class="admin-autocomplete' in page
    assert "vForeignKeyRawIdAdminField" not in page
    assert "Ann Abyss (@ann)" in page  # registered players are shown by name


def test_an_organiser_registers_a_newcomer_found_by_name(desk, tournament):
    newcomer = Player.objects.create(handle="hal", display_name="Hal Hadal")
    found = autocomplete(desk, "Hadal").json()["results"][0]
    registrations = list(tournament.registrations.order_by("pk"))
    form = tournament_form(tournament, registrations)
    index = len(registrations)
    form["registrations-TOTAL_FORMS"] = index + 1
    form[f"registrations-{index}-player"] = found["id"]
    form[f"registrations-{index}-joined_round"] = 2

    response = desk.post(change_page(tournament), form)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert tournament.registrations.get(player=newcomer).joined_round == 2


def tournament_form(tournament: Tournament, registrations: list[Registration], **fields) -> dict:
    form = {
        "name": tournament.name,
        "slug": tournament.slug,
        "game_type": tournament.game_type,
        "ruleset": tournament.ruleset,
        "format": tournament.format,
        "rounds_planned": tournament.rounds_planned,
        "round_one_seeding": tournament.round_one_seeding,
        "starts_on": str(tournament.starts_on),
        "status": tournament.status,
        "registrations-TOTAL_FORMS": len(registrations),
        "registrations-INITIAL_FORMS": len(registrations),
        **fields,
    }
    for index, registration in enumerate(registrations):
        form[f"registrations-{index}-id"] = registration.pk
        form[f"registrations-{index}-tournament"] = tournament.pk
        form[f"registrations-{index}-player"] = registration.player_id
        form[f"registrations-{index}-joined_round"] = registration.joined_round
    return form


# --- game type and ruleset as choices ---------------------------------------------------


def test_game_type_and_ruleset_are_chosen_from_the_games_and_their_rulesets(admin_client):
    page = admin_client.get("/admin/tournaments/tournament/add/").content.decode()

    assert '<select name="game_type"' in page
    assert '<option value="deep-vents" selected>Deep Vents</option>' in page
    assert '<option value="deep-dive">Deep Dive</option>' in page
    assert '<select name="ruleset"' in page
    assert '<optgroup label="Deep Vents">' in page
    assert '<option value="starting-bid" selected>Starting bid</option>' in page
    assert '<option value="choose-two-only">Choose two only</option>' in page


def test_a_ruleset_of_another_game_is_refused_by_name(admin_client, tournament):
    form = tournament_form(tournament, [], game_type="deep-dive", ruleset="starting-bid")

    response = admin_client.post(change_page(tournament), form)

    assert response.status_code == 200
    assert "Deep Dive has no &#x27;Starting bid&#x27; ruleset; its rulesets: Standard" in (
        response.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.game_type == "deep-vents"


def test_an_unknown_game_is_not_a_choice(admin_client, tournament):
    form = tournament_form(tournament, [], game_type="chess")

    response = admin_client.post(change_page(tournament), form)

    assert response.status_code == 200
    assert "Select a valid choice. chess is not one of the available choices." in (
        response.content.decode()
    )


def test_game_and_ruleset_are_fixed_once_a_round_is_seated(desk, tournament):
    seated(tournament)

    page = desk.get(change_page(tournament)).content.decode()

    assert '<select name="game_type"' not in page
    assert '<select name="ruleset"' not in page
    assert "Deep Vents" in page and "Starting bid" in page


# --- the buttons on the tournament's page -----------------------------------------------


def test_the_tournaments_page_has_seat_next_round_and_no_print_before_round_one(desk, tournament):
    page = desk.get(change_page(tournament)).content.decode()

    assert f'action="{DESK.format(pk=tournament.pk, what="seat-next-round")}"' in page
    assert 'id="seat-next-round"' in page
    assert 'id="print-seating"' not in page  # nothing seated to print yet


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_seat_next_round_seats_a_four_and_a_three_and_print_seating_links_the_sheet(
    who, desk, admin_client, tournament
):
    client = desk if who == "organiser" else admin_client

    response = post(client, tournament, "seat-next-round")

    assert response.redirect_chain[-1][0] == change_page(tournament)
    assert messages_of(response) == ["Club Night: round 1 seated at 2 tables (sizes 4, 3)."]
    assert '<a href="/tournaments/club-night/round/1/" id="print-seating"' in (
        response.content.decode()
    )
    assert client.get("/tournaments/club-night/round/1/").status_code == 200
    tournament.refresh_from_db()
    assert tournament.status == "running"


def test_seat_next_round_while_a_round_is_open_is_refused_and_changes_nothing(desk, tournament):
    seated(tournament)

    response = post(desk, tournament, "seat-next-round")

    assert messages_of(response) == [
        "Club Night: the next round is not seated: round 1 still has no result at table(s) 1, 2."
    ]
    assert tournament.rounds.count() == 1


def test_seat_next_round_answers_only_a_post(desk, tournament):
    response = desk.get(DESK.format(pk=tournament.pk, what="seat-next-round"))

    assert response.status_code == 405
    assert not tournament.rounds.exists()


def test_seating_the_round_after_the_last_is_refused_by_name(desk, tournament):
    tournament.rounds_planned = 1
    tournament.save()
    first, second = seated(tournament)
    for table in (first, second):
        post(
            desk,
            tournament,
            "hand-result",
            hand_form(table, list(range(1, 5))[: table.seats.count()]),
        )

    response = post(desk, tournament, "seat-next-round")

    assert messages_of(response) == [
        "Club Night: the next round is not seated: Club Night has 1 rounds, all seated."
    ]
    assert tournament.rounds.count() == 1


# --- each table's result on the tournament's page ---------------------------------------


def test_each_open_table_has_its_result_forms_on_the_tournaments_page(desk, tournament):
    first, second = seated(tournament)

    page = desk.get(change_page(tournament)).content.decode()

    for table in (first, second):
        assert f'id="table-{table.pk}"' in page
        assert f'<input type="hidden" name="table" value="{table.pk}">' in page
        for seat in table.seats.all():
            assert f'name="rank-{seat.pk}"' in page
    assert page.count('name="log_file"') == 2
    assert page.count(">Attach log</button>") == 2
    assert page.count(">Enter hand result</button>") == 2
    assert "opens the bidding" in page


def test_a_log_attached_on_the_tournaments_page_goes_through_attach_log_and_is_verified(
    desk, tournament, django_capture_on_commit_callbacks, monkeypatch
):
    first, _ = seated(tournament)
    calls = []
    import tournaments.admin

    monkeypatch.setattr(
        tournaments.admin,
        "attach_log",
        lambda *args, **kwargs: calls.append(args) or attach_log(*args, **kwargs),
    )
    upload = SimpleUploadedFile("table-1.json", table_log(first).encode())

    with django_capture_on_commit_callbacks(execute=True):
        response = post(desk, tournament, "attach-log", {"table": first.pk, "log_file": upload})

    first.refresh_from_db()
    assert len(calls) == 1
    # The test's transaction holds verification back until the request is answered.
    assert messages_of(response) == [f"{first}: its game is attached; it is being verified."]
    assert response.redirect_chain[-1][0] == f"{change_page(tournament)}#table-{first.pk}"
    assert first.result_kind == "verified"  # an organiser's table result counts at once
    assert "Verified result (from its log)" in desk.get(change_page(tournament)).content.decode()


def test_a_pasted_log_is_attached_too(desk, tournament, django_capture_on_commit_callbacks):
    first, _ = seated(tournament)

    with django_capture_on_commit_callbacks(execute=True):
        post(desk, tournament, "attach-log", {"table": first.pk, "log_text": table_log(first)})

    assert Table.objects.get(pk=first.pk).result_kind == "verified"


def test_a_log_of_the_players_at_another_table_is_refused_by_name_and_nothing_is_stored(
    desk, tournament
):
    first, second = seated(tournament)

    response = post(
        desk, tournament, "attach-log", {"table": first.pk, "log_text": table_log(second)}
    )

    [message] = messages_of(response)
    assert message.startswith(f"{first}: the log is not attached: the log's players (")
    assert f"are not the players seated at {first}" in message
    assert not GameLog.objects.exists()
    first.refresh_from_db()
    assert first.log_id is None


def test_a_log_that_does_not_replay_is_refused_before_anything_is_stored(desk, tournament):
    first, _ = seated(tournament)
    log = json.loads(table_log(first))
    log["result"]["scores"] = [score + 1 for score in log["result"]["scores"]]

    response = post(
        desk, tournament, "attach-log", {"table": first.pk, "log_text": json.dumps(log)}
    )

    [message] = messages_of(response)
    assert message.startswith(
        f"{first}: the log is not attached: the log does not replay, so it cannot be verified:"
    )
    assert not GameLog.objects.exists()


def test_no_log_at_all_is_refused_with_what_to_do(desk, tournament):
    first, _ = seated(tournament)

    response = post(desk, tournament, "attach-log", {"table": first.pk, "log_text": "  "})

    assert messages_of(response) == [f"{first}: no log attached: choose a log file or paste a log."]


def test_a_log_that_is_not_json_is_refused_by_name(desk, tournament):
    first, _ = seated(tournament)

    response = post(desk, tournament, "attach-log", {"table": first.pk, "log_text": "{oops"})

    [message] = messages_of(response)
    assert message.startswith(f"{first}: the log is not attached: not a log:")
    assert not GameLog.objects.exists()


def test_a_log_for_a_table_that_has_its_result_is_refused(desk, tournament):
    first, _ = seated(tournament)
    post(desk, tournament, "hand-result", hand_form(first, [1, 2, 3, 4]))

    response = post(
        desk, tournament, "attach-log", {"table": first.pk, "log_text": table_log(first)}
    )

    [message] = messages_of(response)
    assert "is not open for a result: it already has one" in message
    assert not GameLog.objects.exists()


def test_a_table_of_another_tournament_is_not_found(desk, tournament, other_cup):
    seat_next_round(other_cup)
    theirs = Table.objects.get(round__tournament=other_cup)

    response = desk.post(
        DESK.format(pk=tournament.pk, what="attach-log"),
        {"table": theirs.pk, "log_text": table_log(theirs)},
    )

    assert response.status_code == 404
    assert not GameLog.objects.exists()


def test_a_hand_result_is_entered_on_the_tournaments_page(desk, tournament):
    first, _ = seated(tournament)

    response = post(
        desk, tournament, "hand-result", hand_form(first, [2, 1, 4, 3], [30, 41, 12, 20])
    )

    assert messages_of(response) == [f"{first}: result entered by hand (unverified)."]
    assert results(first) == [(2, 30.0), (1, 41.0), (4, 12.0), (3, 20.0)]
    assert Table.objects.get(pk=first.pk).result_kind == "unverified"
    assert "Result entered by hand (unverified)" in response.content.decode()


def test_tied_players_share_a_place_in_a_hand_result(desk, tournament):
    first, _ = seated(tournament)

    post(desk, tournament, "hand-result", hand_form(first, [1, 1, 3, 4]))

    assert [rank for rank, _ in results(first)] == [1, 1, 3, 4]


@pytest.mark.parametrize(
    ("ranks", "problem"),
    [
        ([1, 2, 3, ""], "every player at {table} needs a placement; missing: "),
        ([1, 1, 2, 3], "placements 1, 1, 2, 3 do not add up: tied players share a place"),
        ([1, 2, 3, 5], "placements run from 1 (best) to 4 at {table}"),
        ([1, 2, 3, "x"], "a placement is a whole number, not 'x'"),
    ],
)
def test_a_wrong_hand_result_is_refused_by_name_and_changes_nothing(
    desk, tournament, ranks, problem
):
    first, _ = seated(tournament)

    response = post(desk, tournament, "hand-result", hand_form(first, ranks))

    [message] = messages_of(response)
    assert message.startswith(f"{first}: no result entered: {problem.format(table=first)}")
    assert results(first) == [(None, None)] * 4


def test_a_hand_result_naming_seats_of_another_table_is_refused_and_changes_nothing(
    desk, tournament
):
    first, second = seated(tournament)
    form = hand_form(first, [1, 2, 3, 4])
    stranger = second.seats.first()
    form[f"rank-{stranger.pk}"] = 1

    response = post(desk, tournament, "hand-result", form)

    assert messages_of(response) == [
        f"{first}: no result entered: seat(s) [{stranger.pk}] are not seats of {first}."
    ]
    assert results(first) == [(None, None)] * 4
    assert TableSeat.objects.filter(hand_rank__isnull=False).count() == 0


def test_a_second_hand_result_for_a_table_is_refused(desk, tournament):
    first, _ = seated(tournament)
    post(desk, tournament, "hand-result", hand_form(first, [1, 2, 3, 4]))

    response = post(desk, tournament, "hand-result", hand_form(first, [4, 3, 2, 1]))

    [message] = messages_of(response)
    assert "is not open for a result" in message
    assert [rank for rank, _ in results(first)] == [1, 2, 3, 4]


def test_a_rejected_log_is_shown_and_removed_so_the_table_is_open_again(
    desk, tournament, organiser
):
    first, _ = seated(tournament)
    log = json.loads(table_log(first))
    log["result"]["scores"] = [score + 1 for score in log["result"]["scores"]]
    stored = attach_log(first, json.dumps(log), user=organiser)  # another path: no replay
    verify_log(stored.pk)

    page = desk.get(change_page(tournament)).content.decode()
    assert "Its game was rejected: Claimed scores " in page  # not "result.scores" (issue 24)
    assert f"log {stored.pk}" not in page
    response = post(desk, tournament, "remove-rejected-log", {"table": first.pk})

    assert messages_of(response) == [f"{first}: the rejected log is removed; it is open again."]
    first.refresh_from_db()
    assert first.log_id is None
    assert GameLog.objects.get(pk=stored.pk).status == GameLog.Status.REJECTED  # kept


def test_a_log_that_is_not_rejected_is_not_removed(
    desk, tournament, django_capture_on_commit_callbacks
):
    first, _ = seated(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        post(desk, tournament, "attach-log", {"table": first.pk, "log_text": table_log(first)})

    response = post(desk, tournament, "remove-rejected-log", {"table": first.pk})

    assert messages_of(response) == [
        f"{first}: nothing removed: {first} holds no rejected log to remove."
    ]
    assert Table.objects.get(pk=first.pk).log_id is not None


def test_a_hand_result_on_the_tables_own_page_is_checked_the_same_way(admin_client, tournament):
    first, _ = seated(tournament)
    seats = list(first.seats.order_by("seat"))
    form = {"seats-TOTAL_FORMS": len(seats), "seats-INITIAL_FORMS": len(seats)}
    for index, seat in enumerate(seats):
        form[f"seats-{index}-id"] = seat.pk
        form[f"seats-{index}-table"] = first.pk
        form[f"seats-{index}-hand_rank"] = [1, 1, 2, 3][index]

    response = admin_client.post(f"/admin/tournaments/table/{first.pk}/change/", form)

    assert response.status_code == 200
    assert "do not add up" in response.content.decode()
    assert results(first) == [(None, None)] * 4


# --- the whole evening, with buttons only -----------------------------------------------


def test_an_organiser_runs_two_rounds_with_no_bulk_action(
    desk, tournament, django_capture_on_commit_callbacks
):
    for number in (1, 2):
        post(desk, tournament, "seat-next-round")
        first, second = Round.objects.get(tournament=tournament, number=number).tables.all()
        with django_capture_on_commit_callbacks(execute=True):
            post(desk, tournament, "attach-log", {"table": first.pk, "log_text": table_log(first)})
        post(desk, tournament, "hand-result", hand_form(second, [1, 2, 3]))

    assert tournament.rounds.count() == 2
    kinds = [t.result_kind for t in Table.objects.filter(round__tournament=tournament)]
    assert sorted(kinds) == ["unverified", "unverified", "verified", "verified"]
    standings = desk.get("/tournaments/club-night/").content.decode()
    assert "Ann Abyss" in standings


# --- in a real browser --------------------------------------------------------------------


def signed_in_page(browser, live_server, user):
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.errors = []
    page.on(
        "console",
        lambda message: (
            page.errors.append(message.text)
            if message.type == "error" and not message.location["url"].endswith("/favicon.ico")
            else None
        ),
    )
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def serious_violations(page) -> list[str]:
    violations = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def press(page, button) -> list[str]:
    """Click a desk button and wait for the page it leads back to: its messages."""
    with page.expect_navigation(wait_until="load"):
        (page.locator(button) if isinstance(button, str) else button).click()
    return page.locator("ul.messagelist li").all_inner_texts()


def a_round_at_the_desk(page, base: str, tournament: Tournament, shots: Path) -> None:
    """The steps of the test below, whose timed-out waits show the page (shown_on_timeout)."""
    # A late entry, found by name in the autocomplete of the empty registration row.
    page.goto(base + change_page(tournament))
    page.locator("#registrations-group .add-row a").click()
    page.locator("#registrations-group tr.dynamic-registrations .select2-selection").last.click()
    page.locator(".select2-search__field").fill("Hadal")
    page.locator(".select2-results__option", has_text="Hal Hadal (@hal)").click()
    saved = press(page, "input[name=_continue]")
    assert "was changed successfully" in saved[0], saved
    assert Registration.objects.filter(tournament=tournament, player__handle="hal").exists()
    assert serious_violations(page) == [], "\n".join(serious_violations(page))

    # Seat round 1 (eight players: two tables of four); a second click is refused by name.
    assert press(page, "#seat-next-round") == [
        "Club Night: round 1 seated at 2 tables (sizes 4, 4)."
    ]
    refused = press(page, "#seat-next-round")
    assert refused == [
        "Club Night: the next round is not seated: round 1 still has no result at table(s) 1, 2."
    ]
    assert page.locator("ul.messagelist li.error").count() == 1
    assert tournament.rounds.count() == 1
    assert page.get_attribute("#print-seating", "href") == "/tournaments/club-night/round/1/"
    first, second = Round.objects.get(tournament=tournament).tables.order_by("number")
    page.screenshot(path=str(shots / "admin-desk-desktop.png"), full_page=True)
    assert serious_violations(page) == [], "\n".join(serious_violations(page))

    # Table 1 gets its log, pasted (verified at once: Celery runs eagerly, after the
    # request's commit); table 2 a hand result, typed.
    page.fill(f"#log-text-{first.pk}", table_log(first))
    attached = press(page, page.locator(f"#table-{first.pk} button", has_text="Attach log"))
    assert attached == [f"{first}: its game is attached and verified."]
    assert "Verified result" in page.locator(f"#table-{first.pk}").inner_text()
    for place, seat in enumerate(second.seats.order_by("seat"), start=1):
        page.fill(f"#rank-{seat.pk}", str(place))
    entered = press(page, page.locator(f"#table-{second.pk} button", has_text="Enter hand result"))
    assert entered == [f"{second}: result entered by hand (unverified)."]

    assert press(page, "#seat-next-round")[0].startswith("Club Night: round 2 seated at 2 tables")
    assert page.get_attribute("#print-seating", "href") == "/tournaments/club-night/round/2/"
    page.goto(base + "/tournaments/club-night/round/2/")
    page.locator("h2", has_text="Table 2").wait_for()
    assert page.errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_runs_a_round_at_the_desk_in_a_browser(browser, live_server, organiser):
    tournament = Tournament.objects.create(
        name="Club Night", slug="club-night", starts_on="2026-06-01"
    )
    tournament.organisers.add(organiser)
    for handle, name in ENTRANTS:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(handle=handle, display_name=name)
        )
    Player.objects.create(handle="hal", display_name="Hal Hadal")
    page = signed_in_page(browser, live_server, organiser)
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    with shown_on_timeout(page, "admin-desk", page.errors):
        a_round_at_the_desk(page, live_server.url, tournament, shots)
    page.close()
