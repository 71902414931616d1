"""Who may see and do what on the tournament day, page by page and action by action, against
six people: anonymous, a registered player seated in round 1, a player with an account who
is not registered, an organiser of this tournament, an organiser of another tournament, and
staff. A player acts only for themselves (their own entry: no action takes another
player's id), an organiser only in their own tournament, staff everywhere. Every refusal is
a 4xx whose page says why, and then nothing stored has changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from tournament_day_support import (
    PLAYERS,
    Day,
    tournament_day,
)

from players.models import Player
from tournaments.models import Registration, ResultChange, Round, TableSeat, Tournament
from tournaments.services import day
from tournaments.services.seating import seat_next_round

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("tournament-day-matrix")]

ROLES = ("anonymous", "seated player", "other player", "organiser", "other organiser", "staff")
SIGN_IN = 302  # anonymous visitors are sent to the sign-in page
WHY = {
    403: (
        "only staff or the organisers of Harbour Open",
        "claim your player name",
        "not registered",
    ),
    409: ("closed", "already", "no result", "still has no result", "registered already"),
}


@dataclass
class World:
    day: Day
    users: dict[str, Any]
    open_table: int  # round 1's first table, no result yet
    finished_table: int  # round 1's second table, a hand result entered

    def format(self, path: str) -> str:
        return path.format(open=self.open_table, finished=self.finished_table)


@pytest.fixture(scope="module")
def world(module_db) -> World:
    """Made once for the module: each case's writes are rolled back after it (module_db)."""
    with module_db():
        return make_world()


def make_world() -> World:
    """Round 1 seated for seven checked-in players (the seated player's check-in then
    taken back); the eighth has an account but did not register; registration stays open
    with late entries until round 2."""
    harbour = tournament_day()
    Tournament.objects.filter(pk=harbour.tournament.pk).update(
        registration_open=True, check_in_required=True, late_entries_until_round=2
    )
    harbour.tournament.refresh_from_db()
    for name in PLAYERS[:7]:
        registration = Registration.objects.create(
            tournament=harbour.tournament, player=harbour.player(name)
        )
        day.check_in(registration)
    round_ = seat_next_round(harbour.tournament)
    first, second = round_.tables.order_by("number")
    seats = list(second.seats.all())
    for place, seat in enumerate(seats, 1):
        seat.hand_rank = place
    TableSeat.objects.bulk_update(seats, ["hand_rank"])
    seated = next(s.player.user for s in first.seats.select_related("player__user"))
    # Seated, then found not to be there: checking in is still to do, for them or the desk.
    Registration.objects.filter(player__user=seated).update(checked_in_at=None)
    users = {
        "anonymous": None,
        "seated player": seated,
        "other player": harbour.players[PLAYERS[7]],
        "organiser": harbour.organiser,
        "other organiser": harbour.other_organiser,
        "staff": harbour.staff,
    }
    return World(harbour, users, first.pk, second.pk)


def a_registration(world: World) -> dict[str, Any]:
    seated = world.users["seated player"].player
    return {"registration": Registration.objects.get(player=seated).pk}


def a_hand_result(world: World) -> dict[str, str]:
    seats = TableSeat.objects.filter(table_id=world.open_table).order_by("seat")
    return {f"place_{seat.pk}": str(place) for place, seat in enumerate(seats, 1)}


@dataclass
class Row:
    what: str
    method: str
    path: str
    expected: dict[str, int]
    body: Callable[[World], dict[str, Any]] | None = None

    def send(self, client, world: World):
        path = world.format(f"/tournaments/harbour-open/{self.path}")
        if self.method == "get":
            return client.get(path)
        return client.post(path, self.body(world) if self.body else {})


def roles(*statuses: int) -> dict[str, int]:
    return dict(zip(ROLES, statuses, strict=True))


def everyone(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


SIGNED_IN = roles(SIGN_IN, 200, 200, 200, 200, 200)
DESK_PAGE = roles(SIGN_IN, 403, 403, 200, 403, 200)
DESK_ACTION = roles(SIGN_IN, 403, 403, 302, 403, 302)

MATRIX = [
    # --- anyone
    Row("venue screen", "get", "screen/", everyone(200)),
    Row("venue screen, live part", "get", "screen/live/", everyone(200)),
    Row("tournament calendar", "get", "calendar.ics", everyone(200)),
    # --- a player's own page and actions (as themselves: no player id is taken)
    Row("my tournament", "get", "me/", SIGNED_IN),
    Row("my tournament, live part", "get", "me/live/", SIGNED_IN),
    Row("register myself", "post", "me/register/", roles(SIGN_IN, 409, 302, 403, 403, 403)),
    Row("check myself in", "post", "me/check-in/", roles(SIGN_IN, 302, 403, 403, 403, 403)),
    Row("drop out myself", "post", "me/drop/", roles(SIGN_IN, 302, 403, 403, 403, 403)),
    # --- the desk: organisers of this tournament and staff
    Row("desk", "get", "desk/", DESK_PAGE),
    Row("desk, live tables", "get", "desk/live/", DESK_PAGE),
    Row(
        "registration settings",
        "post",
        "desk/settings/",
        DESK_ACTION,
        lambda world: {"registration_open": "", "late_entries_until_round": "3"},
    ),
    Row(
        "register a pasted list",
        "post",
        "desk/register/",
        DESK_ACTION,
        lambda world: {"names": "Brand New Diver\nMarina Abyss"},
    ),
    Row("check a player in", "post", "desk/check-in/", DESK_ACTION, a_registration),
    Row("drop a player", "post", "desk/drop/", DESK_ACTION, a_registration),
    # Round 1 has a table without a result: seating is refused to those who may seat.
    Row("seat the next round", "post", "desk/seat/", roles(SIGN_IN, 403, 403, 409, 403, 409)),
    Row("start the timer", "post", "desk/timer/", DESK_ACTION, lambda world: {"minutes": "50"}),
    Row("a table's result page", "get", "desk/table/{open}/", DESK_PAGE),
    Row("enter a table's result", "post", "desk/table/{open}/", DESK_ACTION, a_hand_result),
    Row("undo a table's result", "post", "desk/table/{finished}/undo/", DESK_ACTION),
    Row(
        "undo a table without result",
        "post",
        "desk/table/{open}/undo/",
        roles(SIGN_IN, 403, 403, 409, 403, 409),
    ),
    Row("table sheets", "get", "desk/round/1/sheets/", DESK_PAGE),
    # Round 1 has a table without a result: the event cannot end yet.
    Row("finish the event", "post", "desk/finish/", roles(SIGN_IN, 403, 403, 409, 403, 409)),
]

CASES = [pytest.param(row, role, id=f"{row.what} / {role}") for row in MATRIX for role in ROLES]


def stored_state(world: World) -> tuple:
    """Everything the tournament day's actions could change."""
    tournament = Tournament.objects.values().get(pk=world.day.tournament.pk)
    return (
        tuple(sorted(tournament.items())),
        tuple(
            Registration.objects.order_by("pk").values_list(
                "player_id", "joined_round", "dropped_after_round", "checked_in_at"
            )
        ),
        tuple(Round.objects.order_by("pk").values_list("number", "timer_started_at")),
        tuple(TableSeat.objects.order_by("pk").values_list("hand_rank", "hand_score")),
        ResultChange.objects.count(),
        Player.objects.count(),
    )


@pytest.mark.parametrize(("row", "role"), CASES)
def test_each_tournament_day_page_and_action_answers_each_person_as_the_matrix_says(
    world, row, role
):
    before = stored_state(world)

    response = row.send(world.day.client(world.users[role]), world)

    assert response.status_code == row.expected[role], response.content.decode()[:2000]
    if response.status_code == 302 and role == "anonymous":
        assert "/account/login/" in response["Location"]
    if response.status_code >= 400 or role == "anonymous" or row.method == "get":
        assert stored_state(world) == before
    if response.status_code in WHY:
        page = response.content.decode()
        assert 'id="refusal"' in page or "field-error" in page
        assert any(reason in page for reason in WHY[response.status_code]), page[-1500:]
    if row.method == "post" and response.status_code == 302 and role != "anonymous":
        assert stored_state(world) != before  # an allowed action did something


def test_a_player_cannot_check_in_or_drop_another_player_through_the_desk(world):
    """The desk's actions name a registration; a player is refused them even for their own."""
    client = world.day.client(world.users["seated player"])
    others = Registration.objects.exclude(player=world.users["seated player"].player)
    before = stored_state(world)

    for action in ("desk/drop/", "desk/check-in/"):
        response = client.post(
            f"/tournaments/harbour-open/{action}", {"registration": others.first().pk}
        )
        assert response.status_code == 403
        assert "only staff or the organisers of Harbour Open may use its desk" in (
            response.content.decode()
        )
    assert stored_state(world) == before


def test_an_organiser_cannot_touch_a_registration_of_another_tournament(world):
    other_cup = Tournament.objects.get(slug="other-cup")
    stranger = Registration.objects.create(
        tournament=other_cup, player=world.users["other player"].player
    )

    response = world.day.client(world.users["organiser"]).post(
        "/tournaments/harbour-open/desk/drop/", {"registration": stranger.pk}
    )

    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.dropped_after_round is None
