"""`manage.py load_demo` fills an empty site, and running it again changes nothing."""

import re

import pytest
from demo_support import load_whole_demo
from django.contrib.auth import authenticate, get_user_model
from django.http import HttpRequest
from django.urls import reverse

from analysis.models import Analysis
from analysis.services.summary import player_accuracy
from games.models import Game, GameLog, Upload
from players.models import Player
from ratings.models import PROVISIONAL_GAMES, Rating
from stats.models import SimulationBatch
from tournaments.demo import DEMO_ENTRANTS


def printed_login(output: str) -> tuple[str, str]:
    match = re.search(r"username: (\S+)\s+password: (\S+)", output)
    assert match, output
    return match.group(1), match.group(2)


@pytest.mark.django_db
def test_load_demo_prints_an_admin_login_that_works():
    username, password = printed_login(load_whole_demo())

    user = authenticate(HttpRequest(), username=username, password=password)
    assert user is not None
    assert user.is_staff and user.is_superuser


@pytest.mark.django_db
def test_load_demo_twice_creates_nothing_more():
    load_whole_demo()
    players = sorted(Player.objects.values_list("handle", flat=True))
    users = get_user_model().objects.count()
    logs, games = GameLog.objects.count(), Game.objects.count()
    uploads, batches = Upload.objects.count(), SimulationBatch.objects.count()
    analyses = Analysis.objects.count()

    load_whole_demo()

    assert sorted(Player.objects.values_list("handle", flat=True)) == players
    assert get_user_model().objects.count() == users == 4  # the admin, three demo players
    assert (GameLog.objects.count(), Game.objects.count()) == (logs, games)
    assert (Upload.objects.count(), SimulationBatch.objects.count()) == (uploads, batches)
    assert Analysis.objects.count() == analyses
    assert len(players) >= 3


@pytest.mark.django_db
def test_the_demo_final_tables_players_have_an_analysed_game_whose_replay_shows_it(client):
    load_whole_demo()
    analyses = list(Analysis.objects.filter(status=Analysis.Status.DONE))

    assert len(analyses) == 1 and analyses[0].decisions and not analyses[0].is_stale
    players = Player.objects.filter(seats__game__log=analyses[0].log_id)
    entrants = {handle for handle, _ in DEMO_ENTRANTS}
    assert players.count() == 4 and set(players.values_list("handle", flat=True)) <= entrants
    assert all(player_accuracy(player) for player in players)
    replay = client.get(reverse("games:log", args=[analyses[0].log_id]))
    assert replay.status_code == 200 and b"Accuracy" in replay.content
    assert "or less, 6 playouts a move" in replay.content.decode()  # not "6-6"


@pytest.mark.django_db
def test_demo_data_puts_players_on_the_main_leaderboard(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        load_whole_demo()

    established = Rating.objects.filter(game_type="deep-vents", games__gte=PROVISIONAL_GAMES)
    assert established.count() >= 5
    assert Game.objects.filter(source="human").count() >= 30
    assert Game.objects.filter(source="tournament").exists()
    assert Game.objects.filter(source="simulated").values("game_type").distinct().count() == 4


@pytest.mark.django_db
def test_demo_admin_password_comes_from_the_environment_when_set(monkeypatch):
    monkeypatch.setenv("DEMO_ADMIN_PASSWORD", "sea-cucumber-42")

    assert printed_login(load_whole_demo()) == ("admin", "sea-cucumber-42")


@pytest.mark.django_db
def test_production_demo_admin_gets_an_unguessable_password(monkeypatch, settings):
    monkeypatch.delenv("DEMO_ADMIN_PASSWORD", raising=False)
    settings.DEBUG = False

    first = printed_login(load_whole_demo())[1]
    second = printed_login(load_whole_demo())[1]

    assert first != second
    assert len(first) >= 16
    assert authenticate(HttpRequest(), username="admin", password=second) is not None
