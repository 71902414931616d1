"""Recording a tournament table on the Record page keeps the table's seating (issue 22):
"deal randomly" keeps the opening bidder drawn when the table was seated (DV-3) and draws
only the stack; a deal or a step that contradicts the seating is refused at once, naming
the field and the ruling, instead of at Save after hours of play."""

from __future__ import annotations

import pytest
from recording_support import DEAL, STEP, post, seated_start
from tables_support import club

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def the_club():
    return club()  # Marina, Nemo, Coral seated in that order; Coral drawn to open (DV-3)


def dealt(the_club, role="seated player", **extra):
    body = {**seated_start(the_club.table), "table": the_club.table.pk, **extra}
    return post(the_club.client(role), DEAL, body)


def test_deal_randomly_at_a_table_keeps_the_seatings_opener_and_shuffles_the_stack(the_club):
    opener = the_club.table.seats.get(opening_bidder=True).seat
    setups = [dealt(the_club).json()["setup"] for _ in range(12)]

    assert opener == 2
    assert {setup["opening_bidder"] for setup in setups} == {opener}
    assert len({tuple(setup["stack"]) for setup in setups}) > 1  # the stack is still chance


def test_deal_randomly_outside_a_tournament_still_draws_the_opener(the_club):
    client = the_club.client("seated player")
    body = {**seated_start(the_club.table)}
    openers = {post(client, DEAL, body).json()["setup"]["opening_bidder"] for _ in range(40)}

    assert openers == {0, 1, 2}


def test_a_step_whose_opener_contradicts_the_seating_is_refused_at_once(the_club):
    setup = dealt(the_club).json()["setup"]
    wrong = {**seated_start(the_club.table), "setup": {**setup, "opening_bidder": 0}}
    response = post(the_club.client("seated player"), STEP, {**wrong, "table": the_club.table.pk})

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["rule"]) == ("setup.opening_bidder", "DV-3")
    assert error["text"] == (
        "setup.opening_bidder: the table's seating has Coral opening the bidding, not Marina [DV-3]"
    )


def test_the_same_step_without_the_table_is_answered(the_club):
    setup = dealt(the_club).json()["setup"]
    log = {**seated_start(the_club.table), "setup": {**setup, "opening_bidder": 0}}
    response = post(the_club.client("seated player"), STEP, log)

    assert response.status_code == 200
    assert response.json()["seat"] == 0  # Marina opens the bidding of this (untabled) game


def test_a_step_with_the_players_out_of_seat_order_is_refused_naming_the_seat(the_club):
    setup = dealt(the_club).json()["setup"]
    start = seated_start(the_club.table)
    start["players"] = [start["players"][1], start["players"][0], start["players"][2]]
    response = post(
        the_club.client("seated player"),
        STEP,
        {**start, "setup": setup, "table": the_club.table.pk},
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "players.0.name"
    assert "this table seats Marina in seat 1, not 'Nemo'" in error["text"]


def test_a_deal_for_the_tables_game_with_another_ruleset_is_refused(the_club):
    response = dealt(the_club, ruleset={"name": "standard"})

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "ruleset.name"


@pytest.mark.parametrize(
    ("role", "table", "status"),
    [("other player", None, 403), ("seated player", 987654, 404), ("organiser", "1", 400)],
)
def test_a_deal_for_a_table_one_may_not_record_or_that_does_not_exist_is_refused(
    the_club, role, table, status
):
    body = {**seated_start(the_club.table), "table": table or the_club.table.pk}
    response = post(the_club.client(role), DEAL, body)

    assert response.status_code == status
    assert response.json()["error"]["text"]


def test_steps_of_a_table_closed_meanwhile_are_still_answered_so_the_recording_goes_on(
    the_club,
):
    setup = dealt(the_club).json()["setup"]
    Tournament.objects.filter(pk=the_club.tournament.pk).update(status=Tournament.Status.FINISHED)
    body = {**seated_start(the_club.table), "setup": setup, "table": the_club.table.pk}
    response = post(the_club.client("seated player"), STEP, body)

    assert response.status_code == 200
    assert response.json()["seat"] == 2  # Coral opens the bidding, as seated


def test_deal_randomly_at_a_standard_table_keeps_seat_0_playing_first(the_club):
    """Standard Deep Vents: the seat order is the turn order, seat 0 first (DV-16); the
    table's recording takes it whole, not a first player drawn at random."""
    Tournament.objects.filter(pk=the_club.tournament.pk).update(ruleset="standard")
    the_club.table.seats.update(opening_bidder=False)
    start = {**seated_start(the_club.table), "ruleset": {"name": "standard"}}
    client = the_club.client("seated player")
    setups = [
        post(client, DEAL, {**start, "table": the_club.table.pk}).json()["setup"] for _ in range(12)
    ]

    assert {setup["first_player"] for setup in setups} == {0}
