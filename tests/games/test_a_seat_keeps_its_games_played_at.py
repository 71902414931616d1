"""A seat keeps its game's played_at (GameSeat.played_at), which a player's games list is
ordered by from the player's index (issue 25): verified, or saved alone."""

import pytest

from games.models import Game, GameSeat
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db


def test_a_verified_games_seats_keep_its_played_at():
    game = verified_game(["ann", "bob", "cyd"], seed=31, played_at=hours_ago(30))

    stored = GameSeat.objects.filter(game=game)

    assert stored.count() == 3
    assert {seat.played_at for seat in stored} == {Game.objects.get(pk=game.pk).played_at}


def test_a_seat_saved_alone_takes_its_games_played_at():
    game = verified_game(["ann", "bob"], seed=32, played_at=hours_ago(5))

    seat = GameSeat.objects.create(game=game, seat=9, name="extra", score=0.0, rank=3, winner=False)

    assert GameSeat.objects.get(pk=seat.pk).played_at == game.played_at
