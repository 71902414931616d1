"""Games 0019 copies each game's played time onto its seats (issue 25): existing seats get
their game's, going back drops the column, and coming forward fills it again."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import GameSeat
from tests.games.test_the_games_lists_cost_the_same_queries_for_3_or_30_games import (
    listed_games,
)

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PLAYED = [("games", "0018_recording_draft_revision")]


def seat_columns() -> list[str]:
    with connection.cursor() as cursor:
        return [
            c.name for c in connection.introspection.get_table_description(cursor, "games_gameseat")
        ]


def test_seats_lose_their_played_time_going_back_and_get_their_games_coming_forward():
    games = listed_games(4)
    # Copies gone wrong: the way back drops them, the way forward copies the games.
    GameSeat.objects.update(played=timezone.now() + datetime.timedelta(days=1))

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PLAYED)
    try:
        assert "played" not in seat_columns()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert "played" in seat_columns()
    for game in games:
        assert {seat.played for seat in GameSeat.objects.filter(game=game)} == {game.played_at}
