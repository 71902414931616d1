"""The games page reads a page of games by its query compiled once per shape (who asks, the
filters present, the page's order and where it starts; games.pagination.CompiledGames), each
request's values bound in their places: the same page, byte for byte, as the ORM's query of
the filtered games (page_of_games(request, filters.qs)) gave, every page older and back
newer, for anyone, the owner of an unpublished upload and staff, filtered by player, game,
source, confirmation, tournament and dates (issue 25). A second page of a shape builds and
compiles no query of games."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler

from games import views_upload
from games.models import Game, Source, Upload
from games.pagination import page_of_games
from tests.games.test_the_games_list_by_player_pages_as_it_did_when_it_sorted_them_all import (
    marina,  # noqa: F401 (a fixture: three pages of Marina's games among others')
    seated_game,
)

pytestmark = pytest.mark.django_db

URLS = [
    "/games/",
    "/games/?player=marina",
    "/games/?player=nobody",
    "/games/?game=deep-vents&source=human",
    "/games/?source=simulated",
    "/games/?confirmation=counts",
    "/games/?confirmation=pending&player=marina",
    "/games/?tournament=1",
    "/games/?date_after=2020-01-01",
    "/games/?player=marina&game=deep-vents&confirmation=counts",
]


@pytest.fixture
def games(marina):  # noqa: F811 (the fixture imported above)
    """Marina's games, and a few simulated ones that do not count yet."""
    simulated = Upload.objects.create(filename="simulated", source=Source.SIMULATED)
    for number in range(3):
        game = seated_game(simulated, 3000 + number, Game.objects.first().played_at, [marina, None])
        Game.objects.filter(pk=game.pk).update(counts=False)
    return marina


def without_tokens(page: bytes) -> str:
    """The page without its CSP nonce and CSRF token (new on every request)."""
    page = re.sub(rb'nonce="[^"]*"', b"", page)
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", page).decode()


def walked(client, url: str) -> list[str]:
    """Each page from `url` following its older links to the last, then its newer ones back
    to the first: their HTML."""
    pages, links = [], []
    while url:
        response = client.get(url)
        pages.append(without_tokens(response.content))
        links.append(response.context["page"]["newer"])
        url = response.context["page"]["older"]
    url = links[-1]
    while url:
        response = client.get(url)
        pages.append(without_tokens(response.content))
        url = response.context["page"]["newer"]
    return pages


def by_the_orm(monkeypatch) -> None:
    monkeypatch.setattr(
        views_upload, "page_of_filtered_games", lambda request, f: page_of_games(request, f.qs)
    )


@pytest.mark.parametrize("who", ["anyone", "owner", "staff"])
def test_every_page_of_every_shape_is_the_page_the_orms_query_gave(client, games, monkeypatch, who):
    if who != "anyone":
        user = get_user_model().objects.get_or_create(username="owner")[0]
        user.is_staff = who == "staff"
        user.save()
        client.force_login(user)
    compiled = {url: walked(client, url) for url in URLS}
    by_the_orm(monkeypatch)

    for url in URLS:
        assert compiled[url] == walked(client, url), url
    assert len(compiled["/games/?player=marina"]) >= 5  # three pages, and two back


def test_a_second_page_of_a_shape_compiles_no_query_of_games(
    client, games, monkeypatch, postgresql
):
    first = client.get("/games/?player=marina").context["page"]
    client.get(first["older"])  # the shape of a page older than the first, compiled
    compiled = []
    as_sql = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        compiled.append(self.query.model)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    second = client.get(first["older"]).context["page"]

    assert Game not in compiled
    assert len(second["games"]) == 50 and connection.vendor == "postgresql"
