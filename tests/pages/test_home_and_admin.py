"""The home page, the navigation every page shares, and the Django admin."""

import pytest
from demo_support import load_tournament_demo
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from players.models import Player

NAVIGATION = {
    "Leaderboards": "/leaderboards/",
    "Tournaments": "/tournaments/",
    "Games": "/games/",
    "Statistics": "/stats/",
    "Upload": "/upload/",
    "Record": "/record/",
    "API docs": "/api/docs/",  # in the footer
}


@pytest.mark.django_db
def test_home_page_names_the_games_and_counts_players(client):
    Player.objects.create(handle="marina", display_name="Marina Abyss")

    response = client.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    for game in ["Deep Vents", "Deep Sea Adventure", "Boost", "Deep Dive"]:
        assert game in page
    assert "1 player registered" in page


@pytest.mark.django_db
def test_every_page_has_the_site_navigation(client):
    page = client.get("/").content.decode()

    for label, path in NAVIGATION.items():
        assert f'<a href="{path}">{label}</a>' in page


@pytest.mark.django_db
def test_pages_load_nothing_from_other_sites(client):
    page = client.get("/").content.decode()

    assert "http://" not in page
    assert "https://" not in page


@pytest.mark.django_db
def test_admin_login_page_is_served(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert b'name="password"' in response.content


@pytest.mark.django_db
def test_anonymous_visitor_is_sent_to_the_admin_login(client):
    response = client.get("/admin/players/player/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


@pytest.mark.django_db
def test_staff_can_log_in_and_list_players(client):
    get_user_model().objects.create_superuser("ann", "ann@example.com", "a-long-passphrase")
    Player.objects.create(handle="coral", display_name="Coral Reefson")

    # django-axes checks every sign-in against its request (the test client sends none).
    assert client.login(request=HttpRequest(), username="ann", password="a-long-passphrase")
    response = client.get("/admin/players/player/")

    assert response.status_code == 200
    assert b"Coral Reefson" in response.content


@pytest.mark.django_db
def test_staff_can_add_a_player_in_the_admin(admin_client):
    response = admin_client.post(
        "/admin/players/player/add/", {"handle": "nautilus", "display_name": "Nemo Nautilus"}
    )

    assert response.status_code == 302, response.content.decode()
    assert Player.objects.get(handle="nautilus").display_name == "Nemo Nautilus"


@pytest.mark.django_db
def test_home_page_leads_to_tournaments_recent_games_top_players_upload_and_record(client):

    from games.models import Game
    from ratings.models import Rating

    load_tournament_demo()
    page = client.get("/").content.decode()

    assert 'href="/record/"' in page and 'href="/upload/"' in page
    for game in Game.objects.order_by("-played_at", "-pk")[:3]:
        assert f'href="{game.get_absolute_url()}"' in page
    best = Rating.objects.filter(game_type="deep-vents").order_by("-rating").first()
    assert f'href="{best.player.get_absolute_url()}">{best.player.display_name}</a>' in page
    assert 'href="/leaderboards/deep-vents/"' in page
