"""Giving a tournament table its result goes through one service
(tournaments.services.results.attach_log) whichever way it comes in (API `?table=`, the
upload page's table field, the record page, the admin): the seating (players, opener, game,
ruleset), an open table and a submitter who may record it (staff, the tournament's
organisers, a player seated there) are checked, and a refusal is a 4xx that stores nothing.
No submission can make a tournament page answer 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from games_support import human_log
from tables_support import Club, club, dumps

from games.models import GameLog
from games.services.verification import verify_log
from tournaments.models import Round, Table, TableSeat, Tournament
from tournaments.services.standings import tournament_results

pytestmark = pytest.mark.django_db

RECORDED_FIELDS = ("game", "ruleset", "players", "setup", "events")


def send(route: str, client: Client, table: Table, log: dict[str, Any]) -> int:
    """Submit `log` as the table's result through one route; the response's status."""
    if route == "api":
        return client.post(
            f"/api/logs/?table={table.pk}", data=dumps(log), content_type="application/json"
        ).status_code
    if route == "upload page":
        return client.post("/upload/", {"log": dumps(log), "table": table.pk}).status_code
    recording = {field: log[field] for field in RECORDED_FIELDS if field in log}
    return client.post(
        "/record/save/",
        data=dumps({**recording, "table": table.pk}),
        content_type="application/json",
    ).status_code


ACCEPTED = {"api": 201, "upload page": 302, "record page": 201}
ROUTES = list(ACCEPTED)


@pytest.fixture
def the_club() -> Club:
    return club()


def other_players(the_club: Club) -> dict[str, Any]:
    log = the_club.table_log()
    log["players"][0]["name"] = "Kelp"
    return log


def another_game(the_club: Club) -> dict[str, Any]:
    return human_log(seed=5, names=("Marina", "Nemo", "Coral"))


def another_opener(the_club: Club) -> dict[str, Any]:
    log = the_club.table_log()
    log["setup"]["opening_bidder"] = 0  # Marina; the seating drew Coral (seat 2)
    return log


def the_right_players_in_other_seats(the_club: Club) -> dict[str, Any]:
    """Marina and Nemo swapped: the same players, the same opener, another bidding order."""
    log = the_club.table_log()
    log["players"][0], log["players"][1] = log["players"][1], log["players"][0]
    return log


WRONG_LOGS = {
    "other players": (other_players, "are not the players seated at"),
    "another game": (another_game, "this tournament plays Deep Vents"),
    "another opener": (another_opener, "[DV-3]"),
    "the right players in other seats": (
        the_right_players_in_other_seats,
        "the log has nemo in seat 1, but marina is seated there at",
    ),
}


def assert_nothing_stored(the_club: Club) -> None:
    assert not GameLog.objects.exists()
    the_club.table.refresh_from_db()
    assert the_club.table.log_id is None


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("wrong", list(WRONG_LOGS))
def test_a_log_that_is_not_the_tables_game_is_refused_and_stores_nothing(the_club, route, wrong):
    make, _ = WRONG_LOGS[wrong]

    status = send(route, the_club.client("staff"), the_club.table, make(the_club))

    assert status == 400
    assert_nothing_stored(the_club)


@pytest.mark.parametrize("wrong", list(WRONG_LOGS))
def test_the_api_names_what_does_not_match_the_seating(the_club, wrong):
    make, message = WRONG_LOGS[wrong]

    response = the_club.client("staff").post(
        f"/api/logs/?table={the_club.table.pk}",
        data=dumps(make(the_club)),
        content_type="application/json",
    )

    assert message in response.json()["detail"]


def finished(the_club: Club) -> None:
    Tournament.objects.filter(pk=the_club.tournament.pk).update(status=Tournament.Status.FINISHED)


def hand_result(the_club: Club) -> None:
    for rank, seat in enumerate(the_club.table.seats.order_by("seat"), start=1):
        seat.hand_rank = rank
        seat.save()


def next_round_seated(the_club: Club) -> None:
    Round.objects.create(tournament=the_club.tournament, number=2)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("close", [finished, hand_result, next_round_seated])
def test_a_closed_table_is_refused_with_409_and_stores_nothing(the_club, route, close):
    close(the_club)

    status = send(route, the_club.client("staff"), the_club.table, the_club.table_log())

    assert status == 409
    assert_nothing_stored(the_club)


@pytest.mark.parametrize("route", ROUTES)
def test_a_table_that_already_has_a_log_is_refused_with_409(the_club, route):
    assert send("api", the_club.client("staff"), the_club.table, the_club.table_log(3)) == 201
    first = Table.objects.get(pk=the_club.table.pk).log_id

    status = send(route, the_club.client("staff"), the_club.table, the_club.table_log(4))

    assert status == 409
    assert GameLog.objects.count() == 1
    the_club.table.refresh_from_db()
    assert the_club.table.log_id == first


@pytest.mark.parametrize("route", ROUTES)
def test_a_user_not_seated_there_nor_organising_is_refused_with_403(the_club, route):
    status = send(route, the_club.client("other player"), the_club.table, the_club.table_log())

    assert status == 403
    assert_nothing_stored(the_club)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("role", ["seated player", "organiser", "staff"])
def test_staff_an_organiser_or_a_seated_player_gives_the_table_its_result(
    the_club, route, role, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        status = send(route, the_club.client(role), the_club.table, the_club.table_log())

    assert status == ACCEPTED[route]
    the_club.table.refresh_from_db()
    assert the_club.table.log.status == GameLog.Status.VERIFIED
    assert the_club.table.result_kind == "verified"
    assert the_club.table.log.upload.submitted_by == the_club.users[role]


def test_an_organiser_of_another_tournament_is_refused(the_club, django_user_model):
    other = Tournament.objects.create(name="Other", slug="other", starts_on="2026-06-01")
    stranger = django_user_model.objects.create_user("other-organiser")
    other.organisers.add(stranger)
    client = Client()
    client.force_login(stranger)

    assert send("api", client, the_club.table, the_club.table_log()) == 403
    assert_nothing_stored(the_club)


def test_a_batch_cannot_name_a_table(the_club):
    response = the_club.client("staff").post(
        f"/api/uploads/?table={the_club.table.pk}",
        data=dumps(the_club.table_log()).encode() + b"\n",
        content_type="application/jsonl",
    )

    assert response.status_code == 400
    assert not GameLog.objects.exists()


def test_the_admin_refuses_a_log_for_a_closed_table(the_club, admin_client):
    finished(the_club)

    response = admin_client.post(
        f"/admin/tournaments/table/{the_club.table.pk}/change/",
        {
            "log_text": dumps(the_club.table_log()),
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
        },
    )

    assert response.status_code == 200  # the form again, with the error
    assert "is not open for a result" in response.content.decode()
    assert_nothing_stored(the_club)


# --- the 500 of the issue: a log of other players made a table's result ------------------


PAGES = [
    "/tournaments/club-night/",
    "/tournaments/club-night/round/1/",
    "/tournaments/club-night/round/1/table/1/",
    "/players/marina/",
    "/tournaments/",
]


def test_a_log_of_other_players_sent_with_table_through_the_api_leaves_the_pages_working(
    the_club, django_capture_on_commit_callbacks
):
    """Once, this stored the log as the table's result and the tournament page answered
    500 (KeyError in standings)."""
    log = human_log(seed=6, names=("Pearl", "Squid", "Yeti"))

    with django_capture_on_commit_callbacks(execute=True):
        status = send("api", the_club.client("staff"), the_club.table, log)

    assert status == 400
    assert [the_club.client("anonymous").get(url).status_code for url in PAGES] == [200] * 5


def test_a_result_that_does_not_seat_the_tables_players_counts_for_nothing_and_breaks_no_page(
    the_club, submit_as_the_site
):
    """A game attached before results were checked (or its seating since changed) seats
    players who are not the table's, some not even registered."""
    stored = submit_as_the_site(human_log(seed=7, names=("Marina", "Squid", "Yeti")))
    Table.objects.filter(pk=the_club.table.pk).update(log=stored)

    assert tournament_results(the_club.tournament) == []
    assert [the_club.client("anonymous").get(url).status_code for url in PAGES] == [200] * 5


def test_a_seated_player_no_longer_registered_breaks_no_standings(
    the_club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert send("api", the_club.client("staff"), the_club.table, the_club.table_log()) == 201
    the_club.tournament.registrations.filter(player__handle="coral").delete()

    response = the_club.client("anonymous").get("/tournaments/club-night/")

    assert response.status_code == 200
    assert sorted(row.player.handle for row in response.context["standings"]) == ["marina", "nemo"]
    assert TableSeat.objects.filter(player__handle="coral").exists()


@pytest.fixture
def submit_as_the_site(django_capture_on_commit_callbacks):
    from games.services.intake import submit_log

    def submit(log: dict[str, Any]) -> GameLog:
        with django_capture_on_commit_callbacks(execute=True):
            stored = submit_log(dumps(log), user=None)
        verify_log(stored.pk)
        return GameLog.objects.get(pk=stored.pk)

    return submit


def test_the_seat_order_refusal_names_the_seat_and_the_ruling(the_club):
    log = the_right_players_in_other_seats(the_club)

    response = the_club.client("staff").post(
        f"/api/logs/?table={the_club.table.pk}", data=dumps(log), content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"the log has nemo in seat 1, but marina is seated there at {the_club.table}: a log "
        "keeps the seating's bidding order [DV-3]"
    )
    assert_nothing_stored(the_club)


@pytest.fixture
def standard_club(the_club: Club) -> Club:
    """The club night playing standard Deep Vents: seat 0 (Marina) plays first (DV-16)."""
    Tournament.objects.filter(pk=the_club.tournament.pk).update(ruleset="standard")
    the_club.table.seats.update(opening_bidder=False)
    the_club.table.refresh_from_db()
    return the_club


def test_a_standard_tables_log_puts_seat_0_first_and_is_attached(standard_club):
    log = standard_club.table_log()

    response = standard_club.client("staff").post(
        f"/api/logs/?table={standard_club.table.pk}",
        data=dumps(log),
        content_type="application/json",
    )

    assert log["setup"]["first_player"] == 0
    assert response.status_code == 201, response.content


def test_a_standard_tables_log_with_another_first_player_is_refused(standard_club):
    log = standard_club.table_log()
    log["setup"]["first_player"] = 1  # Nemo

    response = standard_club.client("staff").post(
        f"/api/logs/?table={standard_club.table.pk}",
        data=dumps(log),
        content_type="application/json",
    )

    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "the table's seating has marina playing first, not nemo" in detail
    assert_nothing_stored(standard_club)


def test_a_log_already_stored_is_refused_for_a_table_by_the_tables_name_and_the_games(the_club):
    log = the_club.table_log()
    staff = the_club.client("staff")
    stored = staff.post("/api/logs/", data=dumps(log), content_type="application/json")
    assert stored.status_code == 201
    verify_log(GameLog.objects.get().pk)

    response = staff.post(
        f"/api/logs/?table={the_club.table.pk}", data=dumps(log), content_type="application/json"
    )

    detail = response.json()["detail"]
    assert response.status_code == 409
    assert "Deep Vents, " in detail and ": Marina, Nemo, Coral" in detail
    assert f"the result of {the_club.tournament.name}, round 1, table 1" in detail
    assert f"log {GameLog.objects.get().pk}" not in detail
