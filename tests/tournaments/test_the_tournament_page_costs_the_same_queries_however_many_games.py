"""A tournament's page reads its own tables, seats and games in a fixed number of queries,
however many other games the site holds: on PostgreSQL two round trips of seven statements
(issue 25: pages at 1M games, tournaments.services.tournament_page; elsewhere the seven
asked one by one), and its games' seats without joining the games to sort them."""

from __future__ import annotations

import pytest
from demo_support import load_tournament_demo
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.test_the_games_lists_cost_the_same_queries_for_3_or_30_games import (
    listed_games,
)
from tournaments import demo

pytestmark = pytest.mark.django_db

PAGE = f"/tournaments/{demo.DEMO_SLUG}/"


def queries_of(client) -> list[str]:
    """The SQL of each round trip the page makes."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
    return [q["sql"] for q in queries]


def statements(queries: list[str]) -> list[str]:
    """The statements of the round trips, each split at its semicolons."""
    return [statement for sql in queries for statement in sql.split("; ")]


def test_the_tournament_page_makes_the_same_queries_with_3_or_30_other_games(client):
    load_tournament_demo()
    listed_games(3)
    few = queries_of(client)
    listed_games(27, first=3)

    many = queries_of(client)

    assert len(many) == len(few) == (2 if connection.vendor == "postgresql" else 7)
    assert len(statements(many)) == len(statements(few)) == 7


def test_the_tournament_page_reads_its_games_seats_by_game_without_joining_the_games(client):
    load_tournament_demo()

    seats = [sql for sql in statements(queries_of(client)) if 'FROM "games_gameseat"' in sql]

    assert len(seats) == 1
    assert 'JOIN "games_game"' not in seats[0]
