"""Undoing a table's result that came from a log (or replacing it by hand) sets the log's
game aside: it counts nowhere until the result is entered again (ratings redone without it,
statistics without its lines, the standings without the table), as a retracted game does
(games.services.removal, the path a deleted log or a reverify's rejection takes). The log
and its game stay stored. Entering the result again counts it once."""

from __future__ import annotations

import json

import pytest
from tournament_day_support import (
    table_log,
)

from confirmations.models import Review
from games.models import Game, GameLog
from ratings.models import Rating, RatingChange
from ratings.services import recompute
from stats.models import SeatLines
from tournaments.models import Table
from tournaments.services.standings import tournament_standings

pytestmark = pytest.mark.django_db
RATING_FIELDS = ["player_id", "rating", "mu", "sigma", "games", "wins", "last_played"]


def sent(day, table: Table, user, seed: int, capture) -> GameLog:
    """The table's log, sent for it through the API by `user` and verified."""
    with capture(execute=True):
        response = day.client(user).post(
            f"/api/logs/?table={table.pk}", table_log(table, seed), content_type="application/json"
        )
    assert response.status_code == 201, response.content
    return GameLog.objects.get(pk=json.loads(response.content)["id"])


def ratings() -> list[tuple]:
    return list(Rating.objects.order_by("player_id").values_list(*RATING_FIELDS))


def ratings_recomputed() -> list[tuple]:
    """The ratings rebuilt from the counted games alone (then put back as they were: a
    recompute gives the incremental numbers when those are right)."""
    recompute("deep-vents")
    return ratings()


def points(day) -> dict[str, float]:
    return {row.player.handle: row.points for row in tournament_standings(day.tournament)}


def undo(day, table: Table) -> None:
    response = day.client(day.organiser).post(day.url(f"desk/table/{table.pk}/undo/"))
    assert response.status_code == 302, response.content


def test_an_undone_tables_game_counts_for_no_rating_statistic_or_standing(
    seated, django_capture_on_commit_callbacks
):
    first, second = seated.tournament.rounds.get().tables.order_by("number")
    undone = sent(seated, first, seated.organiser, 3, django_capture_on_commit_callbacks)
    kept = sent(seated, second, seated.organiser, 4, django_capture_on_commit_callbacks)
    assert RatingChange.objects.filter(game__log=undone).exists()  # it counted

    undo(seated, first)

    game = Game.objects.get(log=undone)
    assert not game.counts
    assert not RatingChange.objects.filter(game=game).exists()
    assert RatingChange.objects.filter(game__log=kept).exists()
    assert not SeatLines.objects.filter(game=game).exists()
    assert SeatLines.objects.filter(game__log=kept).exists()
    at_first = {seat.player.handle for seat in first.seats.select_related("player")}
    assert all(points(seated)[handle] == 0 for handle in at_first)
    assert ratings() == ratings_recomputed()
    assert GameLog.objects.get(pk=undone.pk).status == GameLog.Status.VERIFIED  # kept


def test_a_table_entered_again_by_hand_counts_once_in_the_standings_and_not_in_ratings(
    seated, django_capture_on_commit_callbacks
):
    table = seated.tournament.rounds.get().tables.order_by("number").first()
    log = sent(seated, table, seated.organiser, 3, django_capture_on_commit_callbacks)
    undo(seated, table)
    seats = list(table.seats.order_by("seat").select_related("player"))

    response = seated.client(seated.organiser).post(
        seated.url(f"desk/table/{table.pk}/"),
        {f"place_{s.pk}": str(place) for place, s in enumerate(seats, 1)},
    )

    assert response.status_code == 302, response.content
    size = len(seats)
    expected = {
        s.player.handle: 3 * (size - place) / (size - 1) for place, s in enumerate(seats, 1)
    }
    assert {handle: points(seated)[handle] for handle in expected} == expected
    assert not Game.objects.get(log=log).counts
    assert not RatingChange.objects.exists()  # a hand result counts for standings only
    assert ratings() == ratings_recomputed()


def test_a_table_entered_again_by_a_new_log_counts_that_game_once(
    seated, django_capture_on_commit_callbacks
):
    table = seated.tournament.rounds.get().tables.order_by("number").first()
    undone = sent(seated, table, seated.organiser, 3, django_capture_on_commit_callbacks)
    undo(seated, table)

    again = sent(seated, table, seated.organiser, 5, django_capture_on_commit_callbacks)

    assert Table.objects.get(pk=table.pk).log_id == again.pk
    counting = Game.objects.filter(counts=True)
    assert list(counting.values_list("log_id", flat=True)) == [again.pk]
    rated = set(RatingChange.objects.values_list("game__log_id", flat=True))
    assert rated == {again.pk}
    assert all(games == 1 for *_, games, _wins, _last in ratings())
    assert not Game.objects.get(log=undone).counts
    assert ratings() == ratings_recomputed()


def test_a_log_result_replaced_by_hand_is_set_aside_too(seated, django_capture_on_commit_callbacks):
    table = seated.tournament.rounds.get().tables.order_by("number").first()
    log = sent(seated, table, seated.organiser, 3, django_capture_on_commit_callbacks)
    seats = list(table.seats.order_by("seat"))

    seated.client(seated.organiser).post(
        seated.url(f"desk/table/{table.pk}/"),
        {f"place_{s.pk}": str(len(seats) + 1 - place) for place, s in enumerate(seats, 1)},
    )

    assert Table.objects.get(pk=table.pk).log_id is None
    assert not Game.objects.get(log=log).counts
    assert not RatingChange.objects.exists()


def test_a_log_undone_while_its_players_are_asked_never_counts_when_they_confirm(
    seated, django_capture_on_commit_callbacks
):
    table = seated.tournament.rounds.get().tables.order_by("number").first()
    users = {user.player.pk: user for user in seated.players.values()}
    seats = list(table.seats.order_by("seat"))
    sender, *others = (users[seat.player_id] for seat in seats)
    log = sent(seated, table, sender, 3, django_capture_on_commit_callbacks)
    assert Review.objects.get(log=log).status == Review.Status.PENDING

    undo(seated, table)
    answers = [
        seated.client(user).post(f"/account/games/{log.pk}/confirm/").status_code for user in others
    ]

    assert Review.objects.get(log=log).status == Review.Status.REJECTED
    assert not Game.objects.get(log=log).counts
    assert not RatingChange.objects.exists()
    assert not SeatLines.objects.exists()
    assert all(status < 500 for status in answers)
