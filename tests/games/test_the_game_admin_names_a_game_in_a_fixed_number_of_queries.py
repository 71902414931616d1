"""A game's name (Game.__str__, games.names.game_name) reads its log, table and seats; the
admin's game page, whose seats inline names the game on every row, and its list of games
read them with the game, in as many queries for a game of two as for a game of four."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.confirmation_support import submitted_game

pytestmark = pytest.mark.django_db
NAMES = ["Ann Abyss", "Bea Benthic", "Cid Cephalopod", "Dee Dive"]


@pytest.fixture
def staff_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com"))
    return client


def queries_for(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_a_games_admin_page_reads_as_many_queries_for_four_seats_as_for_two(staff_client):
    two = submitted_game(NAMES[:2], seed=1)
    four = submitted_game(NAMES, seed=2)

    page = staff_client.get(f"/admin/games/game/{four.pk}/change/").content.decode()

    assert str(four) in page  # the page is titled by its game
    assert queries_for(staff_client, f"/admin/games/game/{two.pk}/change/") == queries_for(
        staff_client, f"/admin/games/game/{four.pk}/change/"
    )


def test_the_admins_list_of_games_reads_as_many_queries_for_four_games_as_for_two(
    staff_client,
):
    for seed in (1, 2):
        submitted_game(NAMES[:3], seed=seed)
    two = queries_for(staff_client, "/admin/games/game/")
    for seed in (3, 4):
        submitted_game(NAMES[:3], seed=seed)

    assert queries_for(staff_client, "/admin/games/game/") == two
