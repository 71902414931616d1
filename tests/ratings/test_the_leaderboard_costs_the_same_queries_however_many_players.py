"""A leaderboard page of stored ratings reads its count, its rows and their trends in three
queries, with 4 rated players or 154, on its first page or its second (issue 25: pages at 1M
games; the rows are read as values, not Rating and Player instances)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player
from ratings.models import Rating
from tests.ratings.test_leaderboard import play_games
from tests.ratings_support import eager_tasks

pytestmark = pytest.mark.django_db

PAGE = "/leaderboards/deep-vents/"


def queries_of(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_a_leaderboard_page_makes_three_queries_with_4_or_154_players(client, settings):
    # Every request renders (the fragment cache would answer the same page in none).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with eager_tasks():
        play_games()
    few = queries_of(client, PAGE)
    for n in range(150):
        player = Player.objects.create(handle=f"p{n}", display_name=f"Player {n}")
        Rating.objects.create(player=player, game_type="deep-vents", rating=1400 + n, games=12)

    many, second = queries_of(client, PAGE), queries_of(client, f"{PAGE}?page=2")

    assert few == many == second == 3
    assert "Player 149" in client.get(PAGE).content.decode()
