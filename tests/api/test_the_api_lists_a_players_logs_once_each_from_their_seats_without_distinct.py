"""GET /api/logs/?player=<handle> lists the logs of the player's games, each once (a game where
a merge seated them twice too), newest upload first, page by page, as the join of seats with
DISTINCT did; but the seats are read by a subquery on games_seats_of_player, with no DISTINCT,
which sorted every row of the log by all its columns (issue 25)."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import GameLog, GameSeat, Source, Upload
from players.models import Player
from tests.games_support import stored_game

pytestmark = pytest.mark.django_db

GAMES = 64  # past the API's page of 50


@pytest.fixture
def ann_games() -> list[int]:
    """Ann's logs, newest upload first (pk breaking ties), in games where Bob sits too: one
    where a merge seated her twice, pairs uploaded at one moment, and beside them games of
    Bob's alone and a log with no game yet. Written in no order of their upload."""
    upload = Upload.objects.create(filename="logs", source=Source.HUMAN, published=True)
    ann = Player.objects.create(handle="ann", display_name="Ann")
    bob = Player.objects.create(handle="bob", display_name="Bob")
    now = timezone.now().replace(microsecond=0)
    hers = []
    for number in range(GAMES):
        game = stored_game(upload, number, now - datetime.timedelta(days=number))
        minutes = (number * 37) % GAMES - (number in (8, 20))  # 7 and 8, 19 and 20 at once
        created = now - datetime.timedelta(minutes=minutes)
        GameLog.objects.filter(pk=game.log_id).update(created=created)
        sitting = [bob] if number % 5 == 2 else [ann, bob, ann] if number == 11 else [bob, ann]
        for seat, player in enumerate(sitting):
            GameSeat.objects.create(
                game=game,
                seat=seat,
                player=player,
                name=player.display_name,
                played_at=game.played_at,
                score=seat,
                rank=seat + 1,
                winner=seat == 0,
            )
        if ann in sitting:
            hers.append((created, game.log_id))
    GameLog.objects.create(upload=upload, raw="{}", sha256="f" * 64, game_type="deep-vents")
    return [log for _, log in sorted(hers, reverse=True)]


def listed(client, handle: str) -> tuple[list[int], int, list[str]]:
    """The logs the API lists for the player, every page, its count, and the SQL it ran."""
    logs, url, count = [], f"/api/logs/?player={handle}", None
    with CaptureQueriesContext(connection) as queries:
        while url:
            page = client.get(url).json()
            logs += [log["id"] for log in page["results"]]
            count, url = page["count"], page["next"]
    return logs, count, [query["sql"] for query in queries.captured_queries]


def test_a_players_logs_are_listed_once_each_newest_first_from_a_subquery_of_their_seats(
    client, ann_games
):
    logs, count, sql = listed(client, "ann")

    assert logs == ann_games
    assert count == len(ann_games) == GAMES - GAMES // 5 - (GAMES % 5 > 2)
    assert len(set(logs)) == len(logs)
    listing = [query for query in sql if '"games_gameseat"' in query]
    assert len(listing) == 4  # the count and the page, twice
    assert not [query for query in listing if "DISTINCT" in query]
    assert all('"games_game"."id" IN (SELECT' in query for query in listing)


def test_an_unknown_player_has_no_logs(client, ann_games):
    assert listed(client, "nobody")[:2] == ([], 0)
