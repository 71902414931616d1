"""The games lists (the site's page, filtered or not, and the API's) make the same queries
for 3 games as for 30, and list the right games newest first (issue 25: pages at 1M games)."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, GameSeat, Source, Upload
from players.models import Player
from tests.games_support import stored_game

pytestmark = pytest.mark.django_db

HANDLES = ["ann", "bob", "cyd", "dee"]
TYPES = ["deep-vents", "deep-dive"]
SOURCES = [Source.HUMAN, Source.SIMULATED]


def listed_games(count: int, first: int = 0) -> list[Game]:
    """Games whose order by time differs from their order by id (played at shuffled hours),
    of two types and two sources, each with two of four players seated."""
    upload = Upload.objects.create(filename="lists", source=Source.HUMAN)
    players = [Player.objects.get_or_create(handle=h, display_name=h.title())[0] for h in HANDLES]
    now = timezone.now().replace(microsecond=0)
    hours = list(range(first, first + count))
    random.Random(count).shuffle(hours)
    games = []
    for number, hour in enumerate(hours, start=first):
        played_at = now - datetime.timedelta(hours=hour)
        game = stored_game(
            upload, number, played_at, game_type=TYPES[number % 2], source=SOURCES[number % 3 % 2]
        )
        for seat in range(2):
            player = players[(number + seat * (1 + number % 3)) % len(players)]
            GameSeat.objects.create(
                game=game,
                seat=seat,
                player=player,
                name=player.display_name,
                score=seat,
                rank=2 - seat,
                winner=seat == 1,
            )
        games.append(game)
    return games


def newest_first(games: list[Game]) -> list[int]:
    """The games' ids in the lists' order, from the games themselves."""
    return [g.pk for g in sorted(games, key=lambda g: (g.played_at, g.pk), reverse=True)]


def seated(game: Game, handle: str) -> bool:
    return any(seat.player.handle == handle for seat in game.seats.all())


FILTERS = {
    "": lambda game: True,
    "?game=deep-dive": lambda game: game.game_type == "deep-dive",
    "?player=bob": lambda game: seated(game, "bob"),
    "?source=simulated": lambda game: game.source == Source.SIMULATED,
    "?player=ann&game=deep-vents": lambda game: (
        seated(game, "ann") and game.game_type == "deep-vents"
    ),
}


def queries_of(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries]


@pytest.mark.parametrize("query", FILTERS)
@pytest.mark.parametrize("page", ["/games/", "/api/games/"])
def test_a_games_list_makes_the_same_queries_for_3_games_as_for_30(client, page, query):
    listed_games(3)
    few = queries_of(client, page + query)
    listed_games(27, first=3)

    many = queries_of(client, page + query)

    # The list's games, their seats with their players: one query each, however many.
    assert len(many) == len(few) == 2


def listed_ids(client, page: str, query: str) -> list[int]:
    response = client.get(page + query)
    if page == "/api/games/":
        return [game["id"] for game in response.json()["results"]]
    return [game.pk for game in response.context["page"]["games"]]


@pytest.mark.parametrize("query", FILTERS)
@pytest.mark.parametrize("page", ["/games/", "/api/games/"])
def test_a_games_list_shows_its_matching_games_newest_first(client, page, query):
    games = listed_games(30)
    for game in games:
        game.refresh_from_db()
    wanted = newest_first([game for game in games if FILTERS[query](game)])

    assert wanted and listed_ids(client, page, query) == wanted


def test_the_games_page_shows_each_games_seats_with_links_to_their_players(client):
    games = listed_games(3)

    page = client.get("/games/").content.decode()

    for seat in GameSeat.objects.filter(game__in=games).select_related("player"):
        assert f'<a href="/players/{seat.player.handle}/">{seat.name}</a>' in page


def test_the_apis_seats_read_as_drf_reads_them_field_by_field(client):
    """The API writes a page's seats at once (seats_written): as SeatSerializer's fields give."""
    from rest_framework import serializers

    from games.serializers import SeatSerializer

    game = listed_games(1)[0]
    GameSeat.objects.filter(game=game, seat=0).update(summary={"turn": 2, "bid": 3}, player=None)
    listed = client.get("/api/games/").json()["results"][0]["seats"]

    expected = [
        serializers.ModelSerializer.to_representation(SeatSerializer(), seat)
        for seat in GameSeat.objects.filter(game=game).select_related("player")
    ]

    assert listed == expected and expected[0]["player"] is None and expected[0]["bid"] == 3
