"""The games list by player (/games/?player=, /api/games/?player=) reads a page of the
player's games from the seats' index (games_seats_of_player, the seat's copy of its game's
played_at) instead of sorting all of them: the same games in the same order, page by page,
as the list filtered by the game's own played_at gave them (every game of the player once,
newest first, ties by id), forward and back; the games they cannot see left out; a game where
a merge seated the player twice listed once; each game as the unfiltered list shows it."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, GameSeat, Source, Upload
from games.pagination import PAGE_SIZE
from players.models import Player
from tests.games_support import stored_game

pytestmark = pytest.mark.django_db
GAMES = 2 * PAGE_SIZE + 7  # three pages of the player's games


def seated_game(upload: Upload, number: int, moment: datetime.datetime, players: list) -> Game:
    game = stored_game(upload, number, moment, player_count=len(players), facts=[{"type": "end"}])
    for seat, player in enumerate(players):
        GameSeat.objects.create(
            game=game,
            seat=seat,
            played_at=moment,
            player=player,
            name=player.display_name if player else f"bot {seat}",
            score=seat,
            rank=len(players) - seat,
            winner=seat == len(players) - 1,
        )
    return game


@pytest.fixture
def marina() -> Player:
    """Marina's games (three to a moment, at either seat), others' games between them, one
    game of hers in an unpublished upload, and one where she sits twice (a merge's doing)."""
    marina = Player.objects.create(handle="marina", display_name="Marina")
    nemo = Player.objects.create(handle="nemo", display_name="Nemo")
    shown = Upload.objects.create(filename="shown", source=Source.HUMAN)
    hidden = Upload.objects.create(
        filename="hidden",
        source=Source.HUMAN,
        published=False,
        submitted_by=get_user_model().objects.create_user("owner"),
    )
    now = timezone.now().replace(microsecond=0)
    for number in range(GAMES):
        moment = now - datetime.timedelta(hours=number // 3)
        seated = [marina, nemo] if number % 2 else [nemo, None, marina]
        seated_game(shown, number, moment, seated)
        seated_game(shown, 1000 + number, moment, [nemo, None])  # not hers
    seated_game(hidden, 2000, now - datetime.timedelta(minutes=30), [marina, nemo])
    seated_game(shown, 2001, now - datetime.timedelta(hours=5), [marina, nemo, marina])
    return marina


def as_it_was(player: Player, user) -> list[int]:
    """The player's games as the list filtered by the game's played_at gave them."""
    games = Game.objects.visible_to(user).filter(seats__player=player).distinct()
    return list(games.order_by("-played_at", "-pk").values_list("pk", flat=True))


def api_pages(client, url: str) -> list[list[dict]]:
    pages = []
    while url:
        body = client.get(url).json()
        pages.append(body["results"])
        url = body["next"]
    return pages


def chunks(ids: list[int]) -> list[list[int]]:
    return [ids[at : at + PAGE_SIZE] for at in range(0, len(ids), PAGE_SIZE)]


def test_the_api_lists_the_players_games_page_by_page_as_it_did(client, marina):
    expected = as_it_was(marina, client.get("/").wsgi_request.user)
    assert len(expected) == GAMES + 1 and len(set(expected)) == len(expected)
    everything = {game["id"]: game for page in api_pages(client, "/api/games/") for game in page}

    pages = api_pages(client, "/api/games/?player=marina")

    assert [[game["id"] for game in page] for page in pages] == chunks(expected)
    assert all(game == everything[game["id"]] for page in pages for game in page)


def test_the_api_previous_links_lead_back_through_the_same_pages(client, marina):
    expected = chunks(as_it_was(marina, client.get("/").wsgi_request.user))
    url, last = "/api/games/?player=marina", None
    while url:
        last = client.get(url).json()
        url = last["next"]

    back = [[game["id"] for game in last["results"]]]
    while last["previous"]:
        last = client.get(last["previous"]).json()
        back.insert(0, [game["id"] for game in last["results"]])

    assert back == expected


def test_the_games_page_lists_the_players_games_older_and_newer_as_it_did(client, marina):
    expected = chunks(as_it_was(marina, client.get("/").wsgi_request.user))
    url, pages = "/games/?player=marina", []
    while url:
        page = client.get(url).context["page"]
        pages.append([game.pk for game in page["games"]])
        url, newer = page["older"], page["newer"]

    assert pages == expected
    assert [g.pk for g in client.get(newer).context["page"]["games"]] == expected[-2]


def test_the_owner_of_the_unpublished_game_sees_it_in_its_place(client, marina):
    owner = get_user_model().objects.get(username="owner")
    client.force_login(owner)
    expected = as_it_was(marina, owner)
    assert len(expected) == GAMES + 2

    pages = api_pages(client, "/api/games/?player=marina")

    assert [[game["id"] for game in page] for page in pages] == chunks(expected)


def test_a_handle_nobody_has_lists_no_games(client, marina):
    assert client.get("/api/games/?player=nobody").json()["results"] == []
    assert list(client.get("/games/?player=nobody").context["page"]["games"]) == []
