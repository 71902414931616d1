"""A player's games list shows their games newest first, page by page, in the same queries
for 3 games as for 30 (issue 25)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pages.services.profiles import GAMES_PER_PAGE
from tests.games.test_the_games_lists_cost_the_same_queries_for_3_or_30_games import (
    listed_games,
)
from tests.stats_support import counted_in_statistics

pytestmark = pytest.mark.django_db


def listed_seats(client, handle: str, page: int = 1) -> list[int]:
    response = client.get(f"/players/{handle}/", {"page": page})
    assert response.status_code == 200
    return [seat.pk for seat in response.context["seats"]]


def test_a_players_games_list_shows_their_games_newest_first_page_by_page(client):
    games = listed_games(2 * GAMES_PER_PAGE + 20)
    counted_in_statistics(games)  # the list's length is the seat tally's (issue 25)
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
