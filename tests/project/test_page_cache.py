"""The page cache (common/cache.py; stats/cache.py bumps it): fragments served while the data
is unchanged, and retired once a verified game has committed."""

import logging
import re
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.urls import reverse

from common import cache
from games.models import Game, GameLog
from ratings.models import RatingLedger
from stats import cache as cache_receivers
from stats.models import StrategyCubeRollup
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import verified_games

pytestmark = pytest.mark.django_db
DEEP_VENTS = "deep-vents"


@pytest.fixture(autouse=True)
def own_cache(settings) -> None:
    """A cache of this test's own, never one shared with other tests or processes."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


def without_nonce(page: bytes) -> str:
    """A page without its Content-Security-Policy nonce, which is new on every request."""
    return re.sub(r' nonce="[^"]*"', "", page.decode())


def strategies_page(client) -> str:
    return without_nonce(client.get(reverse("stats:strategies"), {"game": DEEP_VENTS}).content)


def test_a_newly_verified_game_changes_the_statistics_pages_once_committed(
    client, django_capture_on_commit_callbacks
):
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 2, seed="cache-a")
    before = strategies_page(client)
    hexes_before = client.get(reverse("stats:hexes")).content

    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 2, seed="cache-b")

    after = strategies_page(client)
    assert after != before
    assert client.get(reverse("stats:hexes")).content != hexes_before
    # The page now counts all four games' seats (2 x 3 before): no stale statistics.
    seats = sum(int(cell) for cell in page_games_column(after))
    assert seats == 4 * 3


def page_games_column(page: str) -> list[str]:
    """The strategy table's 'Games' cells."""
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    # The cell after the label (<td data-sort="..."> for sorting in the browser).
    return [re.split(r"<td[^>]*>", row)[2].split("</td>")[0] for row in rows]


def test_an_unchanged_version_serves_the_page_from_the_cache(
    client, django_capture_on_commit_callbacks, django_assert_num_queries
):
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 2, seed="cache-c")
    first = strategies_page(client)
    # Changed behind the cache's back (no signal, no bump): the cached page is still served,
    # without a query, until the version moves.
    StrategyCubeRollup.objects.filter(game_type=DEEP_VENTS).update(n=1000)
    with django_assert_num_queries(0):
        assert strategies_page(client) == first

    cache.bump(cache.STATS, DEEP_VENTS)

    assert strategies_page(client) != first


def test_the_version_moves_only_once_the_verifying_transaction_commits(
    django_capture_on_commit_callbacks,
):
    before = cache.version(cache.STATS, DEEP_VENTS)
    with django_capture_on_commit_callbacks() as callbacks:
        verified_game(["ann", "bob"], seed=1)
        assert cache.version(cache.STATS, DEEP_VENTS) == before

    for callback in callbacks:  # what the commit does
        callback()
    assert cache.version(cache.STATS, DEEP_VENTS) != before


def leaderboard_page(client) -> str:
    return client.get(reverse("ratings:leaderboard", args=[DEEP_VENTS])).content.decode()


def test_a_newly_verified_game_changes_the_leaderboard_once_committed(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        verified_game(["ann", "bob"], seed=2, played_at=hours_ago(2))
    before = leaderboard_page(client)
    assert "cyd" not in before

    with django_capture_on_commit_callbacks(execute=True):
        verified_game(["ann", "cyd"], seed=3, played_at=hours_ago(1))

    assert "cyd" in leaderboard_page(client)


def test_a_renamed_player_shows_on_the_cached_leaderboard(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = verified_game(["ann", "bob"], seed=4)
    assert "Annabel" not in leaderboard_page(client)

    with django_capture_on_commit_callbacks(execute=True):
        ann = game.seats.get(player__handle="ann").player
        ann.display_name = "Annabel"
        ann.save()

    assert "Annabel" in leaderboard_page(client)


def test_a_queued_or_finished_ratings_recompute_moves_the_ratings_version(
    client, django_capture_on_commit_callbacks
):
    before = cache.version(cache.RATINGS, DEEP_VENTS)
    with django_capture_on_commit_callbacks(execute=True):
        RatingLedger.objects.create(game_type=DEEP_VENTS, stale=True)

    assert cache.version(cache.RATINGS, DEEP_VENTS) != before


def test_simulated_games_move_the_statistics_but_not_the_ratings_version(
    django_capture_on_commit_callbacks,
):
    ratings = cache.version(cache.RATINGS, DEEP_VENTS)
    stats = cache.version(cache.STATS, DEEP_VENTS)
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 2, 1, seed="cache-e")

    assert cache.version(cache.RATINGS, DEEP_VENTS) == ratings
    assert cache.version(cache.STATS, DEEP_VENTS) != stats


def test_games_verified_together_bump_each_version_once(
    django_capture_on_commit_callbacks, monkeypatch
):
    bumps = []
    monkeypatch.setattr(
        cache_receivers, "bump_many", lambda scope, types: bumps.append((scope, types))
    )

    games = verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 2, 3, seed="cache-g")

    assert len(games) == 3
    assert bumps == [(cache.STATS, [DEEP_VENTS])]


def take_the_cache_down(settings) -> None:
    """A Redis cache at a port nobody listens on: the cache server is down."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }


def cache_warnings(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "common.cache"]


@pytest.mark.parametrize(
    "path", ["/stats/hexes/", "/stats/strategies/?game=deep-vents", "/leaderboards/deep-vents/"]
)
def test_pages_render_uncached_with_one_warning_when_the_cache_is_down(
    client, django_capture_on_commit_callbacks, settings, caplog, path
):
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 1, seed="cache-f")
    with django_capture_on_commit_callbacks(execute=True):
        verified_game(["ann", "bob"], seed=5)
    cached = without_nonce(client.get(path).content)
    take_the_cache_down(settings)

    with caplog.at_level(logging.WARNING, logger="common.cache"):
        response = client.get(path)

    assert response.status_code == 200
    assert without_nonce(response.content) == cached  # the same page, rendered afresh
    [warning] = cache_warnings(caplog)
    assert "rendered uncached" in warning.getMessage()
    assert warning.exc_info is None  # a line in the log, not a traceback


def test_a_game_verified_while_the_cache_is_down_is_stored(
    django_capture_on_commit_callbacks, settings, caplog
):
    take_the_cache_down(settings)

    with (
        caplog.at_level(logging.WARNING, logger="common.cache"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = verified_game(["ann", "bob"], seed=6)

    assert Game.objects.filter(pk=game.pk, log__status=GameLog.Status.VERIFIED).exists()
    warnings = [record.getMessage() for record in cache_warnings(caplog)]
    assert warnings and all("not bumped" in message for message in warnings)


def test_a_cache_error_other_than_an_outage_is_not_hidden(monkeypatch):
    def misused(*args, **kwargs):
        raise TypeError("a bug in the caller, not an outage")

    monkeypatch.setattr(caches["default"], "get", misused)

    with pytest.raises(TypeError, match="not an outage"):
        cache.fragment(cache.STATS, DEEP_VENTS, "page", {}, lambda: "<p>page</p>")


@pytest.fixture
def redis_cache(redis_broker_url, settings) -> Iterator[tuple[redis.Redis, str]]:
    """Django's Redis cache on the configured Redis, under a key prefix of this test's own
    (its keys are deleted afterwards); with a raw client to look at what it stored."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_broker_url,
            "KEY_PREFIX": prefix,
        }
    }
    server = redis.Redis.from_url(redis_broker_url)
    yield server, prefix
    keys = list(server.scan_iter(f"{prefix}:*"))
    if keys:
        server.delete(*keys)


@pytest.mark.services
def test_with_redis_a_page_is_stored_there_served_from_there_and_retired_by_a_new_game(
    client, django_capture_on_commit_callbacks, django_assert_num_queries, redis_cache
):
    server, prefix = redis_cache
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 2, seed="redis-a")

    first = strategies_page(client)

    fragments = list(server.scan_iter(f"{prefix}:*:fragment:stats:{DEEP_VENTS}:*:strategies:*"))
    assert len(fragments) == 1
    with django_assert_num_queries(0):  # no cube read: the page came from Redis
        assert strategies_page(client) == first
    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 3, 2, seed="redis-b")
    after = strategies_page(client)
    assert after != first
    assert sum(int(cell) for cell in page_games_column(after)) == 4 * 3


@pytest.mark.services
def test_with_redis_every_process_reads_the_version_a_verified_game_bumped(
    django_capture_on_commit_callbacks, redis_broker_url, redis_cache
):
    _, prefix = redis_cache
    # Another web process: a cache client of its own on the same Redis and prefix.
    other_process = RedisCache(redis_broker_url, {"KEY_PREFIX": prefix})
    before = cache.version(cache.STATS, DEEP_VENTS)
    assert other_process.get(cache.version_key(cache.STATS, DEEP_VENTS)) == before

    verified_games(django_capture_on_commit_callbacks, DEEP_VENTS, 2, 1, seed="redis-c")

    bumped = other_process.get(cache.version_key(cache.STATS, DEEP_VENTS))
    assert bumped != before
    assert bumped == cache.version(cache.STATS, DEEP_VENTS)
