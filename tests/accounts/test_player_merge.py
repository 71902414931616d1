"""Merging duplicate players in the admin moves their games and rebuilds ratings."""

import datetime

import pytest

from games.models import GameSeat
from players.models import Player
from ratings.models import Rating
from tests.ratings_support import hours_ago, verified_game
from tournaments.models import Registration, Tournament


@pytest.fixture
def duplicates(db):
    verified_game(["ann", "bob"], seed=31, played_at=hours_ago(3))
    verified_game(["Ann S", "bob"], seed=32, played_at=hours_ago(2))  # same person, other name
    return Player.objects.get(handle="ann"), Player.objects.get(handle="ann-s")


def test_merge_action_moves_games_to_the_oldest_player(admin_client, duplicates):
    ann, ann_s = duplicates

    response = admin_client.post(
        "/admin/players/player/",
        {"action": "merge_duplicates", "_selected_action": [ann.pk, ann_s.pk]},
        follow=True,
    )

    assert b"Merged 1 player(s)" in response.content
    assert not Player.objects.filter(pk=ann_s.pk).exists()
    assert GameSeat.objects.filter(player=ann).count() == 2
    assert Rating.objects.get(player=ann).games == 2


def test_merge_refuses_players_entered_in_the_same_tournament(admin_client, duplicates):
    ann, ann_s = duplicates
    cup = Tournament.objects.create(name="Cup", slug="cup", starts_on=datetime.date(2026, 1, 1))
    Registration.objects.create(tournament=cup, player=ann)
    Registration.objects.create(tournament=cup, player=ann_s)

    response = admin_client.post(
        "/admin/players/player/",
        {"action": "merge_duplicates", "_selected_action": [ann.pk, ann_s.pk]},
        follow=True,
    )

    assert b"both entered in Cup" in response.content
    assert Player.objects.filter(pk=ann_s.pk).exists()


def test_player_admin_searches_by_handle_and_name(admin_client, duplicates):
    page = admin_client.get("/admin/players/player/?q=ann-s").content.decode()

    assert "@ann-s" in page
    assert "(@bob)" not in page
