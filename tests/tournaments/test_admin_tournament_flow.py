"""The organiser's flow in the admin: create, register, seat, attach logs, hand results."""

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.services.verification import verify_log
from players.models import Player
from tournaments.demo import simulated_table_log
from tournaments.models import Round, Table, Tournament
from tournaments.services.standings import tournament_standings

HANDLES = ["ann", "bob", "cyd", "dee", "eve", "fay", "gus"]


@pytest.fixture
def tournament(admin_client, db) -> Tournament:
    players = [Player.objects.create(handle=h, display_name=h.title()) for h in HANDLES]
    form = {
        "name": "Club Night",
        "slug": "club-night",
        "game_type": "deep-vents",
        "ruleset": "starting-bid",
        "format": "swiss",
        "rounds_planned": 2,
        "round_one_seeding": "random",
        "starts_on": "2026-06-01",
        "status": "registration",
        "registrations-TOTAL_FORMS": len(players),
        "registrations-INITIAL_FORMS": 0,
    }
    for index, player in enumerate(players):
        form[f"registrations-{index}-player"] = player.pk
        form[f"registrations-{index}-joined_round"] = 1
    response = admin_client.post("/admin/tournaments/tournament/add/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Tournament.objects.get(slug="club-night")


def seat(admin_client, tournament):
    return admin_client.post(
        "/admin/tournaments/tournament/",
        {"action": "seat_round", "_selected_action": [tournament.pk]},
        follow=True,
    )


def test_registrations_are_made_inline_with_a_recorded_draw(tournament):
    assert tournament.registrations.count() == len(HANDLES)
    assert all(0 <= r.draw < 1 for r in tournament.registrations.all())


def test_seat_next_round_action_seats_a_four_and_a_three(admin_client, tournament):
    response = seat(admin_client, tournament)

    assert b"round 1 seated at 2 tables (sizes 4, 3)" in response.content
    tournament.refresh_from_db()
    assert tournament.status == "running"


def test_next_round_waits_for_every_result(admin_client, tournament):
    seat(admin_client, tournament)

    response = seat(admin_client, tournament)

    assert b"round 1 still has no result at table(s) 1, 2" in response.content


def test_attaching_a_log_and_a_hand_result_completes_the_round(admin_client, tournament):
    seat(admin_client, tournament)
    first, second = Round.objects.get(tournament=tournament).tables.order_by("number")
    log = json.dumps(simulated_table_log(first, random.Random(1), first.round.seated_at))
    response = admin_client.post(
        f"/admin/tournaments/table/{first.pk}/change/",
        {
            "log": "",
            "log_file": SimpleUploadedFile("table1.json", log.encode()),
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    first.refresh_from_db()
    verify_log(first.log_id)
    seats = list(second.seats.order_by("seat"))
    hand = {
        "log": "",
        "seats-TOTAL_FORMS": len(seats),
        "seats-INITIAL_FORMS": len(seats),
    }
    for index, table_seat in enumerate(seats):
        hand[f"seats-{index}-id"] = table_seat.pk
        hand[f"seats-{index}-table"] = second.pk
        hand[f"seats-{index}-hand_rank"] = index + 1
        hand[f"seats-{index}-hand_score"] = 10 - index
    response = admin_client.post(f"/admin/tournaments/table/{second.pk}/change/", hand)
    assert response.status_code == 302, response.content.decode()[:3000]

    assert Table.objects.get(pk=first.pk).result_kind == "verified"
    assert Table.objects.get(pk=second.pk).result_kind == "unverified"
    standings = tournament_standings(tournament)
    assert sum(row.tables for row in standings) == len(HANDLES)
    assert b"round 2 seated" in seat(admin_client, tournament).content
    page = admin_client.get("/tournaments/club-night/").content.decode()
    assert "unverified: entered by hand" in page


def test_a_log_of_other_players_is_refused(admin_client, tournament):
    seat(admin_client, tournament)
    first, second = Round.objects.get(tournament=tournament).tables.order_by("number")
    log = json.dumps(simulated_table_log(second, random.Random(2), second.round.seated_at))

    response = admin_client.post(
        f"/admin/tournaments/table/{first.pk}/change/",
        {"log": "", "log_text": log, "seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0},
    )

    assert response.status_code == 200
    assert "are not the players seated at" in response.content.decode()
    first.refresh_from_db()
    assert first.log_id is None
