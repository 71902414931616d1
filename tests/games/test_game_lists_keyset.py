"""The games lists (the API's and the page's) page by keyset: newest first, every game once,
a deep page found by an index scan from its cursor, never by OFFSET nor a count of the table."""

from __future__ import annotations

import base64
import datetime
import re
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, GameSeat, Source, Upload
from games.pagination import PAGE_SIZE, GameCursorPagination
from tests.games_support import stored_game

pytestmark = pytest.mark.django_db
GAMES = 2 * PAGE_SIZE + 7  # three pages


def stored_games(count: int, *, same_moment_every: int = 1) -> list[Game]:
    """Verified-looking games without replaying any (the lists only read the rows), one an
    hour back from now; `same_moment_every` games share each moment."""
    upload = Upload.objects.create(filename="keyset", source=Source.SIMULATED)
    now = timezone.now().replace(microsecond=0)
    games = []
    for number in range(count):
        moment = now - datetime.timedelta(hours=number // same_moment_every)
        game = stored_game(upload, number, moment, facts=[{"type": "end"}])
        for seat in range(2):
            GameSeat.objects.create(
                game=game, seat=seat, name=f"bot {seat}", score=seat, rank=2 - seat, winner=seat
            )
        games.append(game)
    return games


def newest_first(games: list[Game]) -> list[int]:
    return [g.pk for g in sorted(games, key=lambda g: (g.played_at, g.pk), reverse=True)]


def api_pages(client, url: str = "/api/games/") -> list[list[int]]:
    pages = []
    while url:
        body = client.get(url).json()
        pages.append([game["id"] for game in body["results"]])
        url = body["next"]
    return pages


def test_following_the_api_next_links_lists_every_game_once_newest_first(client):
    games = stored_games(GAMES)

    pages = api_pages(client)

    assert [len(page) for page in pages] == [PAGE_SIZE, PAGE_SIZE, GAMES - 2 * PAGE_SIZE]
    assert [pk for page in pages for pk in page] == newest_first(games)


def test_games_played_at_the_same_moment_are_each_listed_once(client):
    games = stored_games(GAMES, same_moment_every=3)

    listed = [pk for page in api_pages(client) for pk in page]

    assert sorted(listed) == sorted(g.pk for g in games)
    assert len(listed) == len(set(listed))


def test_the_previous_link_leads_back_to_the_page_before(client):
    stored_games(GAMES)
    first = client.get("/api/games/").json()
    second = client.get(first["next"]).json()

    back = client.get(second["previous"]).json()

    assert [g["id"] for g in back["results"]] == [g["id"] for g in first["results"]]
    assert first["previous"] is None


def test_a_deep_page_of_the_api_is_served_by_keyset_without_offset_or_count(client):
    games = stored_games(GAMES)
    order = newest_first(games)
    after = Game.objects.get(pk=order[PAGE_SIZE + 2])
    cursor = GameCursorPagination.cursor_of(after)

    with CaptureQueriesContext(connection) as queries:
        body = client.get("/api/games/", {"cursor": cursor}).json()

    assert [g["id"] for g in body["results"]] == order[PAGE_SIZE + 3 : 2 * PAGE_SIZE + 3]
    listing = [q["sql"] for q in queries if 'FROM "games_game"' in q["sql"]]
    assert listing and not any(re.search(r"\bOFFSET\b|COUNT\(", sql) for sql in listing)


def test_the_lists_leave_the_facts_and_raw_logs_in_the_database(client):
    stored_games(3)

    for url in ("/api/games/", "/games/"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        read = " ".join(q["sql"] for q in queries)
        assert '"games_game"."facts"' not in read and '"games_gamelog"."raw"' not in read


def test_the_games_page_links_older_then_newer_games_by_cursor(client):
    games = stored_games(GAMES)
    order = newest_first(games)

    first = client.get("/games/")
    older = first.context["page"]["older"]
    second = client.get(older)

    assert first.context["page"]["newer"] is None
    assert older.startswith("/games/?cursor=")
    assert f'href="{older.replace("&", "&amp;")}"' in first.content.decode()
    assert [g.pk for g in second.context["page"]["games"]] == order[PAGE_SIZE : 2 * PAGE_SIZE]
    newer = second.context["page"]["newer"]
    assert [g.pk for g in client.get(newer).context["page"]["games"]] == order[:PAGE_SIZE]


def test_the_games_page_keeps_its_filters_in_its_page_links(client):
    stored_games(GAMES)

    older = client.get("/games/", {"source": "simulated"}).context["page"]["older"]

    assert "source=simulated" in older


def test_a_cursor_that_is_not_one_of_ours_is_a_404_naming_the_problem(client):
    stored_games(3)

    api = client.get("/api/games/", {"cursor": "not-a-cursor"})
    page = client.get("/games/", {"cursor": "not-a-cursor"})

    assert api.status_code == 404 and "cursor" in api.json()["detail"].lower()
    assert page.status_code == 404


@pytest.mark.parametrize("position", ["not a moment", "2026-13-45 99:00:00", "\x00"])
def test_a_cursor_of_ours_edited_to_hold_no_moment_is_a_404_naming_the_problem(client, position):
    stored_games(3)
    cursor = base64.b64encode(urlencode({"p": position}).encode()).decode()

    api = client.get("/api/games/", {"cursor": cursor})
    page = client.get("/games/", {"cursor": cursor})

    assert api.status_code == 404 and "cursor" in api.json()["detail"].lower()
    assert page.status_code == 404
