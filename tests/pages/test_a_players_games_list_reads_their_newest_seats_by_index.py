"""A player's games list reads their seats newest first by the seat's own copy of its game's
played time (games_seat_player_played), page by page, in the same queries for 3 games as
for 30 (issue 25: the player page read every game of the player to pick 50)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameSeat
from pages.services.profiles import GAMES_PER_PAGE
from players.models import Player
from tests.games.test_the_games_lists_cost_the_same_queries_for_3_or_30_games import (
    listed_games,
)

pytestmark = pytest.mark.django_db


def listed_seats(client, handle: str, page: int = 1) -> list[int]:
    response = client.get(f"/players/{handle}/", {"page": page})
    assert response.status_code == 200
    return [seat.pk for seat in response.context["seats"]]


def test_a_seat_carries_its_games_played_time():
    games = listed_games(5)

    for game in games:
        assert {seat.played for seat in game.seats.all()} == {game.played_at}


def test_a_players_games_list_shows_their_games_newest_first_page_by_page(client):
    games = listed_games(2 * GAMES_PER_PAGE + 20)
    wanted = [
        seat.pk
        for seat in sorted(
            (seat for game in games for seat in game.seats.all() if seat.player.handle == "bob"),
            key=lambda seat: (seat.game.played_at, seat.game.pk),
            reverse=True,
        )
    ]

    listed = listed_seats(client, "bob") + listed_seats(client, "bob", page=2)

    assert len(wanted) > GAMES_PER_PAGE and listed == wanted


def test_a_players_page_makes_the_same_queries_for_3_games_as_for_30(client):
    listed_games(3)
    with CaptureQueriesContext(connection) as few:
        client.get("/players/bob/")
    listed_games(27, first=3)
    with CaptureQueriesContext(connection) as many:
        client.get("/players/bob/")

    assert len(many) == len(few)
    games = [q["sql"] for q in many if 'FROM "games_gameseat"' in q["sql"] and "LIMIT" in q["sql"]]
    # The list is ordered by the seat's own column: no join to sort by the game's.
    assert len(games) == 1 and 'ORDER BY "games_gameseat"."played" DESC' in games[0]


def test_the_list_is_read_from_the_players_played_index(client):
    if connection.vendor != "postgresql":
        pytest.skip("the plan is PostgreSQL's")
    listed_games(30)
    bob = Player.objects.get(handle="bob")
    seats = GameSeat.objects.filter(player=bob).order_by("-played", "-game_id")[:5]

    with connection.cursor() as cursor:
        # A table this small is read whole or by a bitmap and sorted otherwise.
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off")
        try:
            plan = seats.explain()
        finally:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan")

    assert "games_seat_player_played" in plan and "Sort" not in plan
