"""A player's rating chart is kept in the cache under a digest of its history's rows
(pages.services.profiles.rating_history_figure, common.cache.kept): served from there while
the history is the same, and drawn again once a game is rated, retracted or the player
merged with another, each time the chart drawn with no cache at all (issue 25)."""

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

from games.models import Game
from games.signals import game_retracted
from pages.services import profiles
from players.merge import merge_players
from players.models import Player
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db

LOCAL = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
NONE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def drawn_uncached(handle: str) -> str:
    with override_settings(CACHES=NONE):
        return str(profiles.rating_history_figure(Player.objects.get(handle=handle)))


def chart(handle: str) -> str:
    return str(profiles.rating_history_figure(Player.objects.get(handle=handle)))


@pytest.fixture
def cached():
    with override_settings(CACHES=LOCAL):
        cache.clear()
        yield
        cache.clear()


def games(seeds: range, names: list[str]) -> list[Game]:
    return [verified_game(names, seed=seed, played_at=hours_ago(50 - seed)) for seed in seeds]


def test_a_chart_is_served_from_the_cache_while_its_history_stays_the_same(cached, monkeypatch):
    games(range(3), ["ann", "bob", "cyd"])
    first = chart("ann")
    monkeypatch.setattr(profiles, "picture_lines", lambda *_: pytest.fail("drawn again"))

    assert chart("ann") == first
    assert 'id="rating-history"' in first


def test_a_game_rated_or_retracted_draws_the_chart_again(cached):
    played = games(range(4), ["ann", "bob", "cyd"])
    before = chart("ann")

    games(range(10, 11), ["ann", "bob"])
    after_a_game = chart("ann")
    assert after_a_game != before and after_a_game == drawn_uncached("ann")

    with transaction.atomic():  # an older game retracted: the later ones rated again
        game_retracted.send(sender=Game, game=played[1])
        played[1].log.delete()
    after_a_retraction = chart("ann")
    assert after_a_retraction not in (before, after_a_game)
    assert after_a_retraction == drawn_uncached("ann")


def test_a_merge_draws_the_kept_players_chart_again(cached):
    games(range(3), ["ann", "bob", "cyd"])
    games(range(20, 22), ["anne", "bob", "dee"])
    before = chart("ann")

    merge_players(Player.objects.get(handle="ann"), [Player.objects.get(handle="anne")])

    merged = chart("ann")
    assert merged != before and merged == drawn_uncached("ann")


def test_two_players_of_one_history_shape_keep_their_own_charts(cached):
    games(range(3), ["ann", "bob"])  # ann and bob: the same games, other points and URLs

    assert chart("ann") != chart("bob")
    assert chart("ann") == drawn_uncached("ann") and chart("bob") == drawn_uncached("bob")
