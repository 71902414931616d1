"""The API writes each game at once, its seats read as rows for a whole page
(games.serializers: GameSerializer.written, seats_written; links by
common.quick_urls.quick_url; issue 25), and that is exactly what DRF reading
GameSerializer's declared fields one by one gives: the list and a game's own page, games in
every confirmation state, bot and guest seats, Deep Dive and Deep Vents, in UTC and another
time zone. Compared as JSON text, so that a score written as 2 where DRF writes 2.0 is a
difference."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db.models import Prefetch
from django.utils import timezone
from games_support import simulated_log, submit, text
from rest_framework import serializers

from confirmations import services
from confirmations.models import Review
from games.filters import with_confirmation
from games.models import Game, GameSeat
from games.serializers import GameDetailSerializer, GameSerializer
from tests.confirmation_support import player_with_login, submitted_game

pytestmark = pytest.mark.django_db
__all__ = ["submit"]  # fixture


@pytest.fixture
def games(submit) -> None:
    """Games in every confirmation state (seats of claimed players and of a guest) and a
    bot game of another type (strategies, no players)."""
    ann, _bea, cid = (player_with_login(name) for name in ("Ann", "Bea", "Cid"))
    pending = submitted_game(["Ann", "Bea"], ann.user, seed=1)
    disputed = submitted_game(["Ann", "Cid"], ann.user, seed=2)
    rejected = submitted_game(["Ann", "Bea", "Cid"], ann.user, seed=3)
    submitted_game(["Ann", "Cid", "Guest"], ann.user, seed=4)
    submit(text(simulated_log("deep-dive", seed=5, players=4)), source="simulated")
    services.dispute(disputed.log_id, cid.user, 1, "the second bid was 3")
    services.reject(Review.objects.get(log_id=rejected.log_id).pk, None, "no")
    assert Review.objects.filter(log_id=pending.log_id, status="pending").exists()


def field_by_field(serializer_class: type, game_id: int) -> dict[str, Any]:
    """The game as DRF's ModelSerializer writes it from the declared fields, the seats' too
    (SeatSerializer's player: its handle, from the seat's player instance)."""
    game = (
        with_confirmation(Game.objects.filter(pk=game_id))
        .select_related("log")
        .prefetch_related(Prefetch("seats", GameSeat.objects.select_related("player")))
        .get()
    )
    return serializers.ModelSerializer.to_representation(serializer_class(), game)


def as_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham"])
def test_the_api_writes_its_games_as_their_serializers_fields_give_them(
    games, client, settings, zone
):
    settings.TIME_ZONE = zone
    listed = client.get("/api/games/").json()["results"]
    details = [client.get(f"/api/games/{game['id']}/").json() for game in listed]

    expected_list = [field_by_field(GameSerializer, game["id"]) for game in listed]
    expected_details = [field_by_field(GameDetailSerializer, game["id"]) for game in listed]

    assert as_text(listed) == as_text(expected_list)
    assert as_text(details) == as_text(expected_details)
    assert {game["confirmation"] for game in listed} == {
        "counts", "pending", "disputed", "rejected",
    }  # fmt: skip
    seats = [seat for game in listed for seat in game["seats"]]
    assert {seat["player"] is None for seat in seats} == {True, False}
    assert {seat["bid"] is None for seat in seats} == {True, False}
    assert (zone == "UTC") == listed[0]["played_at"].endswith("Z")


def test_a_page_of_games_links_each_game_as_its_own_url_does(games, client):
    """quick_url reverses the games' URL once: each link is get_absolute_url's."""
    listed = client.get("/api/games/").json()["results"]

    pages = {game.pk: game.get_absolute_url() for game in Game.objects.all()}
    assert listed and [game["page"] for game in listed] == [pages[g["id"]] for g in listed]


def test_a_game_with_no_seats_lists_none(games, client):
    """A page's games each get their own seats, none when a game has none stored."""
    game = Game.objects.order_by("-played_at", "-pk").first()
    GameSeat.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).update(played_at=timezone.now())

    listed = client.get("/api/games/").json()["results"]

    assert listed[0]["id"] == game.pk and listed[0]["seats"] == []
    assert all(other["seats"] for other in listed[1:])
    assert as_text(listed[0]) == as_text(field_by_field(GameSerializer, game.pk))
